// SPDX-License-Identifier: MIT
// The team database's URL (a password is refused and never echoed), its connect options, the stable run
// id and the listing facets.
#include "teamdb/runbundle.h"
#include "teamdb/teamdburl.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestTeamDbUrl final : public QObject {
    Q_OBJECT

    static RunRow run()
    {
        RunRow r;
        r.name = QStringLiteral("nightly");
        r.status = RunStatus::Finished;
        r.started = QDateTime(QDate(2026, 12, 1), QTime(10, 0, 0, 123), Qt::UTC);
        r.finished = r.started.addSecs(60);
        r.resolvedConfig = R"({"name": "exp", "endpoint": {"model": "llama"}, "server": {"engine": "vllm"}})";
        r.clientHost = R"({"hostname": "a"})";
        r.envSnapshot = R"([["gpu", "H100", "manual"]])";
        r.variants = { QStringLiteral("baseline"), QStringLiteral("b") };
        r.points = 3;
        return r;
    }

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void parses_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("database");
        QTest::addColumn<QString>("sslMode");
        QTest::newRow("default port") << QStringLiteral("postgresql://alice@db.example/bench")
                                      << QStringLiteral("alice") << QStringLiteral("db.example") << 5432
                                      << QStringLiteral("bench") << QString();
        QTest::newRow("port and sslmode")
            << QStringLiteral("postgresql://bob@10.0.0.2:6543/team?sslmode=require") << QStringLiteral("bob")
            << QStringLiteral("10.0.0.2") << 6543 << QStringLiteral("team") << QStringLiteral("require");
        QTest::newRow("postgres scheme, IPv6, encoded user")
            << QStringLiteral("postgres://ci%40team@[::1]:5433/runs") << QStringLiteral("ci@team")
            << QStringLiteral("::1") << 5433 << QStringLiteral("runs") << QString();
    }

    void parses()
    {
        QFETCH(QString, url);
        QString error;
        const std::optional<TeamDbUrl> u = TeamDbUrl::parse(url, &error);
        QVERIFY2(u.has_value(), qPrintable(error));
        QTEST(u->user, "user");
        QTEST(u->host, "host");
        QTEST(u->port, "port");
        QTEST(u->database, "database");
        QTEST(u->sslMode, "sslMode");
        QCOMPARE(TeamDbUrl::parse(u->toString(), &error)->toString(), u->toString());
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("message");
        const QString password = QStringLiteral("carries a password");
        QTest::newRow("user:password") << QStringLiteral("postgresql://alice:s3cr3t-x@db/bench") << password;
        QTest::newRow("empty user, password") << QStringLiteral("postgresql://:s3cr3t-x@db/bench") << password;
        QTest::newRow("password parameter")
            << QStringLiteral("postgresql://alice@db/bench?password=s3cr3t-x") << password;
        QTest::newRow("PASSWORD parameter")
            << QStringLiteral("postgresql://alice@db/bench?sslmode=require&PASSWORD=s3cr3t-x") << password;
        QTest::newRow("broken URL with a password")
            << QStringLiteral("postgresql://alice:s3cr3t-x @@db/ben ch") << password;
        QTest::newRow("no scheme") << QStringLiteral("alice@db/bench") << QStringLiteral("must have the form");
        QTest::newRow("http") << QStringLiteral("http://alice@db/bench") << QStringLiteral("must have the form");
        QTest::newRow("no user") << QStringLiteral("postgresql://db/bench") << QStringLiteral("names no user");
        QTest::newRow("no database") << QStringLiteral("postgresql://alice@db") << QStringLiteral("names no database");
        QTest::newRow("two segments") << QStringLiteral("postgresql://alice@db/a/b")
                                      << QStringLiteral("names no database");
        QTest::newRow("unknown parameter")
            << QStringLiteral("postgresql://alice@db/bench?sslcert=x") << QStringLiteral("unknown parameter 'sslcert'");
        QTest::newRow("bad sslmode") << QStringLiteral("postgresql://alice@db/bench?sslmode=on")
                                     << QStringLiteral("sslmode must be one of");
        QTest::newRow("missing CA") << QStringLiteral("postgresql://alice@db/bench?sslrootcert=/no/such.pem")
                                    << QStringLiteral("/no/such.pem is not a readable file");
        QTest::newRow("fragment") << QStringLiteral("postgresql://alice@db/bench#x") << QStringLiteral("fragment");
    }

    void refuses()
    {
        QFETCH(QString, url);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!TeamDbUrl::parse(url, &error).has_value());
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1String("s3cr3t")), qPrintable(error));
    }

    void connectOptionsCarryTls()
    {
        const QString ca = QStringLiteral(SERVESCOPE_TEST_DATA "/experiments/full.json"); // any readable file
        QString error;
        const std::optional<TeamDbUrl> u = TeamDbUrl::parse(
            QStringLiteral("postgresql://alice@db/bench?sslmode=verify-full&sslrootcert=") + ca, &error);
        QVERIFY2(u.has_value(), qPrintable(error));
        QCOMPARE(u->connectOptions(5),
            QStringLiteral("connect_timeout=5;application_name=servescope;sslmode=verify-full;sslrootcert='") + ca
                + QLatin1Char('\''));
        TeamDbUrl quoted = *u;
        quoted.sslRootCert = QStringLiteral("/a b/it's\\ca.pem");
        QVERIFY(quoted.connectOptions().endsWith(QStringLiteral("sslrootcert='/a b/it\\'s\\\\ca.pem'")));
        QCOMPARE(TeamDbUrl::parse(QStringLiteral("postgresql://alice@db/bench"), &error)->connectOptions(),
            QStringLiteral("connect_timeout=10;application_name=servescope"));
    }

    void stableIdFollowsIdentifyingFields_data()
    {
        QTest::addColumn<int>("change");
        QTest::addColumn<bool>("same");
        QTest::newRow("nothing") << 0 << true;
        QTest::newRow("name") << 1 << true;
        QTest::newRow("environment") << 2 << true;
        QTest::newRow("started 1 ms later") << 3 << false;
        QTest::newRow("configuration") << 4 << false;
        QTest::newRow("client host") << 5 << false;
        QTest::newRow("variants") << 6 << false;
        QTest::newRow("requests") << 7 << false;
        QTest::newRow("finished") << 8 << false;
    }

    void stableIdFollowsIdentifyingFields()
    {
        QFETCH(int, change);
        QFETCH(bool, same);
        RunRow r = run();
        qint64 requests = 100;
        switch (change) {
        case 1:
            r.name = QStringLiteral("renamed");
            break;
        case 2:
            r.envSnapshot = "[]";
            break;
        case 3:
            r.started = r.started.addMSecs(1);
            break;
        case 4:
            r.resolvedConfig += ' ';
            break;
        case 5:
            r.clientHost = R"({"hostname": "b"})";
            break;
        case 6:
            r.variants.swapItemsAt(0, 1);
            break;
        case 7:
            requests = 101;
            break;
        case 8:
            r.finished = QDateTime();
            break;
        default:
            break;
        }
        const QString base = stableRunId(run(), 100);
        QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(base).hasMatch());
        QCOMPARE(stableRunId(r, requests) == base, same);
    }

    void facetsFromConfigurationAndEnvironment()
    {
        RunRow r = run();
        RunFacets f = runFacets(r);
        QCOMPARE(f.experiment, QStringLiteral("exp"));
        QCOMPARE(f.model, QStringLiteral("llama"));
        QCOMPARE(f.engine, QStringLiteral("vllm"));
        r.resolvedConfig = R"({"name": "imported"})";
        r.envSnapshot = R"([["served_model", "qwen", "captured"], ["engine", "sglang", "manual"]])";
        f = runFacets(r);
        QCOMPARE(f.model, QStringLiteral("qwen"));
        QCOMPARE(f.engine, QStringLiteral("sglang"));
    }
};

QTEST_GUILESS_MAIN(TestTeamDbUrl)
#include "tst_teamdburl.moc"
