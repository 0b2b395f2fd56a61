// SPDX-License-Identifier: MIT
#include "simchild.h"

#include <QObject>
#include <QRegularExpression>
#include <QTcpServer>

class TestCliCheck final : public QObject {
    Q_OBJECT

    static constexpr char kKey[] = "check-secret-4f1d2a9b8c7e";
    SimChild m_sim;

    struct Outcome {
        int exitCode = -1;
        QByteArray out;
    };

    Outcome check(const QStringList &args, const QByteArray &key)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TEST_CHECK_KEY"), QString::fromLatin1(key));
        p.setProcessEnvironment(env);
        p.start(SimChild::cli(), QStringList { QStringLiteral("check") } + args);
        p.waitForFinished(60000);
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            p.readAllStandardOutput() + p.readAllStandardError() };
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SIM_KEY"), QString::fromLatin1(kKey));
        QVERIFY(m_sim.start({ QStringLiteral("--api-key-env"), QStringLiteral("SIM_KEY"), QStringLiteral("--model"),
                                QStringLiteral("m1"), QStringLiteral("--time-scale"), QStringLiteral("20") },
            env));
    }

    void diagnosis_data()
    {
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("code");

        const QString base = m_sim.url().toString();
        QTest::newRow("healthy chat") << base << "m1"
                                      << "/v1/chat/completions" << QByteArray(kKey) << 0 << "ok";
        QTest::newRow("healthy completions") << base << "m1"
                                             << "/v1/completions" << QByteArray(kKey) << 0 << "ok";
        QTest::newRow("wrong key") << base << "m1"
                                   << "/v1/chat/completions" << QByteArray("wrong-key-123456") << 1 << "auth";
        QTest::newRow("key with whitespace is trimmed") << base << "m1"
                                                        << "/v1/chat/completions" << QByteArray(" ") + kKey + "\n"
                                                        << 0 << "ok";
        QTest::newRow("wrong model") << base << "nope"
                                     << "/v1/chat/completions" << QByteArray(kKey) << 1 << "model_not_found";
        QTest::newRow("wrong path") << base << "m1"
                                    << "/v1/chat/complete" << QByteArray(kKey) << 1 << "route_not_found";
        QTest::newRow("doubled v1") << base + QStringLiteral("/v1") << "m1"
                                    << "/v1/chat/completions" << QByteArray(kKey) << 1 << "doubled_v1";
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        QTest::newRow("closed port") << QStringLiteral("http://127.0.0.1:%1").arg(port) << "m1"
                                     << "/v1/chat/completions" << QByteArray(kKey) << 1 << "connection_refused";
    }

    void diagnosis()
    {
        QFETCH(QString, baseUrl);
        QFETCH(QString, model);
        QFETCH(QString, path);
        QFETCH(QByteArray, key);
        QFETCH(int, exitCode);
        QFETCH(QString, code);
        const Outcome o
            = check({ QStringLiteral("--base-url"), baseUrl, QStringLiteral("--model"), model, QStringLiteral("--path"),
                        path, QStringLiteral("--api-key-env"), QStringLiteral("TEST_CHECK_KEY"),
                        QStringLiteral("--timeout"), QStringLiteral("10") },
                key);
        QVERIFY2(o.out.contains(QByteArray("diagnosis\t" + code.toLatin1() + "\n")), o.out.constData());
        QCOMPARE(o.exitCode, exitCode);
        QVERIFY2(!o.out.contains(key.trimmed()), "the key was echoed");
    }

    void smokeReportsCapabilities()
    {
        const Outcome o = check(
            { QStringLiteral("--base-url"), m_sim.url().toString(), QStringLiteral("--model"), QStringLiteral("m1"),
                QStringLiteral("--api-key-env"), QStringLiteral("TEST_CHECK_KEY"), QStringLiteral("--smoke") },
            kKey);
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(o.out.contains("usage_sent\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("role_chunk_first\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("tokenize\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("metrics\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("ignore_eos\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("models\tm1\n"), o.out.constData());
    }

    void badUsageExits2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no arguments") << QStringList {};
        QTest::newRow("unknown option") << QStringList { QStringLiteral("--bogus") };
        QTest::newRow("missing model") << QStringList { QStringLiteral("--base-url"), QStringLiteral("http://x") };
        QTest::newRow("bad timeout") << QStringList { QStringLiteral("--base-url"), QStringLiteral("http://x"),
            QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--timeout"), QStringLiteral("-1") };
        QTest::newRow("unset key variable")
            << QStringList { QStringLiteral("--base-url"), QStringLiteral("http://x"), QStringLiteral("--model"),
                   QStringLiteral("m"), QStringLiteral("--api-key-env"), QStringLiteral("SERVESCOPE_UNSET_VARIABLE") };
    }

    void badUsageExits2()
    {
        QFETCH(QStringList, args);
        QCOMPARE(check(args, QByteArray()).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliCheck)
#include "tst_clicheck.moc"
