// SPDX-License-Identifier: MIT
// The team database's refusals and failures against a real PostgreSQL (pgcluster.h): bad URLs and password
// references, a wrong password, an unreachable server, a connection lost in the middle of a publish
// (retried; nothing stored when every try fails), TLS with verify-full, and no secret anywhere, in any
// encoding, even from a run against a server that echoes its key.
#include "faultservers.h"
#include "freeport.h"
#include "requireservice.h"
#include "teamdbfixture.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>

class TestTeamDbErrors final : public QObject {
    Q_OBJECT

    TeamDbFixture m_fx;
    QStringList m_secrets; ///< every password and key these tests used
    QByteArray m_echoKey; ///< the key a server echoed back in transformed forms

    QStringList publish(const QString &run, const QStringList &db) const
    {
        return QStringList { QStringLiteral("publish"), QStringLiteral("--project"), m_fx.project,
            QStringLiteral("--run"), run }
        + db;
    }

    static QByteArray fileHash(const QString &path)
    {
        return QCryptographicHash::hash(CliRun::readAll(path), QCryptographicHash::Sha256);
    }

    bool openssl(const QStringList &args)
    {
        QProcess p;
        p.setWorkingDirectory(m_fx.dir.path());
        p.start(QStringLiteral("openssl"), args);
        return p.waitForFinished(30000) && p.exitCode() == 0;
    }

    bool makeCa(const QString &name)
    {
        return openssl({ QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
            QStringLiteral("ec"), QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
            QStringLiteral("-nodes"), QStringLiteral("-keyout"), name + QStringLiteral(".key"), QStringLiteral("-out"),
            name + QStringLiteral(".pem"), QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
            QStringLiteral("/CN=") + name });
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        const QString problem = m_fx.setUp();
        SERVESCOPE_REQUIRE_SERVICE(!problem.startsWith(QLatin1String("skip: ")), problem.mid(6));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_secrets << m_fx.alicePassword << QString::fromLatin1(m_fx.apiKey) << m_fx.pg.superPassword();
        const CliRun::Outcome o = m_fx.cli(publish(QStringLiteral("1"), m_fx.db()));
        QVERIFY2(o.exitCode == 0, o.err.constData());
    }

    void badInputExitsTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString base = QStringLiteral("127.0.0.1:%1/team").arg(m_fx.pg.port());
        const QStringList env { QStringLiteral("--db-password-env"), QStringLiteral("TEAM_PW") };
        const auto db = [&](const QString &url) { return QStringList { QStringLiteral("--db"), url } + env; };
        QTest::newRow("password in the URL")
            << publish(QStringLiteral("1"), db(QStringLiteral("postgresql://alice:url-secret-1@") + base))
            << QStringLiteral("carries a password");
        QTest::newRow("password parameter") << publish(QStringLiteral("1"),
            db(QStringLiteral("postgresql://alice@") + base + QStringLiteral("?password=url-secret-2")))
                                            << QStringLiteral("carries a password");
        QTest::newRow("password in a URL QUrl refuses")
            << publish(QStringLiteral("1"), db(QStringLiteral("postgresql://alice:url secret 3@@") + base))
            << QStringLiteral("carries a password");
        QTest::newRow("unknown parameter")
            << publish(QStringLiteral("1"), db(QStringLiteral("postgresql://alice@") + base + QStringLiteral("?x=1")))
            << QStringLiteral("unknown parameter 'x'");
        QTest::newRow("bad sslmode") << publish(
            QStringLiteral("1"), db(QStringLiteral("postgresql://alice@") + base + QStringLiteral("?sslmode=maybe")))
                                     << QStringLiteral("sslmode must be one of");
        QTest::newRow("missing CA file") << publish(QStringLiteral("1"),
            db(QStringLiteral("postgresql://alice@") + base + QStringLiteral("?sslmode=verify-full&sslrootcert=/nope")))
                                         << QStringLiteral("/nope is not a readable file");
        QTest::newRow("no user") << publish(QStringLiteral("1"), db(QStringLiteral("postgresql://") + base))
                                 << QStringLiteral("names no user");
        QTest::newRow("not postgresql") << publish(QStringLiteral("1"), db(QStringLiteral("http://alice@") + base))
                                        << QStringLiteral("must have the form");
        QTest::newRow("variable unset") << publish(QStringLiteral("1"),
            { QStringLiteral("--db"), m_fx.url(), QStringLiteral("--db-password-env"), QStringLiteral("TEAM_UNSET") })
                                        << QStringLiteral("TEAM_UNSET is not set");
        QTest::newRow("password as variable name") << publish(QStringLiteral("1"),
            { QStringLiteral("--db"), m_fx.url(), QStringLiteral("--db-password-env"),
                QStringLiteral("url-secret-4!") }) << QStringLiteral("named environment variable");
        QTest::newRow("password as reference") << publish(QStringLiteral("1"),
            { QStringLiteral("--db"), m_fx.url(), QStringLiteral("--db-password"), QStringLiteral("url-secret-5") })
                                               << QStringLiteral("env:VAR or keychain:ID");
        QTest::newRow("both password options") << publish(
            QStringLiteral("1"), m_fx.db() + QStringList { QStringLiteral("--db-password"), QStringLiteral("env:X") })
                                               << QStringLiteral("not both");
        QTest::newRow("unknown local run") << publish(QStringLiteral("99"), m_fx.db()) << QStringLiteral("no run '99'");
        QTest::newRow("tag with a space")
            << publish(QStringLiteral("1"), m_fx.db() + QStringList { QStringLiteral("--tag"), QStringLiteral("a b") })
            << QStringLiteral("a tag is");
        QTest::newRow("unknown published run") << QStringList { QStringLiteral("pull"), QStringLiteral("--run"),
            QStringLiteral("0123456789abcdef"), QStringLiteral("--project"),
            m_fx.dir.filePath(QStringLiteral("p.servescope")) }
                + m_fx.db() << QStringLiteral("no published run 0123456789abcdef");
        QTest::newRow("malformed published id") << QStringList { QStringLiteral("pull"), QStringLiteral("--run"),
            QStringLiteral("xyz"), QStringLiteral("--project"), m_fx.dir.filePath(QStringLiteral("p.servescope")) }
                + m_fx.db() << QStringLiteral("8 to 64 hex digits");
        QTest::newRow("filter without --db") << QStringList { QStringLiteral("runs"), QStringLiteral("--project"),
            m_fx.project, QStringLiteral("--tag"), QStringLiteral("x") }
                                             << QStringLiteral("--tag needs --db");
        QTest::newRow("bad date") << QStringList {
            QStringLiteral("runs"), QStringLiteral("--since"), QStringLiteral("yesterday")
        } + m_fx.db() << QStringLiteral("--since takes");
        QTest::newRow("zoneless time") << QStringList {
            QStringLiteral("runs"), QStringLiteral("--until"), QStringLiteral("2026-12-01T10:00:00")
        } + m_fx.db() << QStringLiteral("--until takes");
    }

    void badInputExitsTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QByteArray before = fileHash(m_fx.project);
        const CliRun::Outcome o = m_fx.cli(args);
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(message.toUtf8()), o.err.constData());
        QCOMPARE(o.err.count('\n'), 1);
        QVERIFY(o.out.isEmpty());
        QVERIFY2(!o.err.contains("url-secret") && !o.err.contains("url secret"), o.err.constData());
        QCOMPARE(fileHash(m_fx.project), before);
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM runs")), QStringLiteral("1"));
    }

    void wrongPasswordIsRefused_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("publish") << QStringLiteral("publish");
        QTest::newRow("runs") << QStringLiteral("runs");
        QTest::newRow("pull") << QStringLiteral("pull");
    }

    void wrongPasswordIsRefused()
    {
        QFETCH(QString, command);
        const QString wrong = QStringLiteral("wrong-%1").arg(QRandomGenerator::global()->generate(), 0, 16);
        m_secrets << wrong;
        m_fx.env.insert(QStringLiteral("TEAM_WRONG_PW"), wrong);
        const QStringList db { QStringLiteral("--db"), m_fx.url(), QStringLiteral("--db-password-env"),
            QStringLiteral("TEAM_WRONG_PW") };
        QStringList args = command == u"publish" ? publish(QStringLiteral("2"), db) : QStringList { command } + db;
        if (command == u"pull")
            args << QStringLiteral("--run") << QStringLiteral("0123456789abcdef") << QStringLiteral("--project")
                 << m_fx.dir.filePath(QStringLiteral("p.servescope"));
        const CliRun::Outcome o = m_fx.cli(args);
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains("cannot connect to postgresql://alice@127.0.0.1:"), o.err.constData());
        QVERIFY2(o.err.contains("password authentication failed for user \"alice\""), o.err.constData());
        QVERIFY(!o.err.contains(wrong.toUtf8()) && o.out.isEmpty());
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM runs")), QStringLiteral("1"));
    }

    void unreachableServerIsRefused()
    {
        const int closed = ServeScope::Testing::unusedPort();
        QElapsedTimer clock;
        clock.start();
        const CliRun::Outcome o = m_fx.cli(publish(QStringLiteral("2"),
            { QStringLiteral("--db"), QStringLiteral("postgresql://alice@127.0.0.1:%1/team").arg(closed),
                QStringLiteral("--db-password-env"), QStringLiteral("TEAM_PW") }));
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(
                     QStringLiteral("cannot connect to postgresql://alice@127.0.0.1:%1/team").arg(closed).toUtf8()),
            o.err.constData());
        QVERIFY2(o.err.contains("Connection refused"), o.err.constData());
        QVERIFY(clock.elapsed() < 10000);
    }

    void lostConnectionIsRetried()
    {
        // The server ends the publishing session itself the first time events are inserted.
        QString error;
        QVERIFY2(m_fx.pg.psql(QStringLiteral("team"),
                     QStringLiteral("CREATE SEQUENCE kill_seq; GRANT USAGE ON SEQUENCE kill_seq TO alice;"
                                    " CREATE FUNCTION kill_session() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                                    " IF nextval('kill_seq') = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid());"
                                    " END IF; RETURN NULL; END $$;"
                                    " CREATE TRIGGER kill_session AFTER INSERT ON request_events"
                                    " FOR EACH STATEMENT EXECUTE FUNCTION kill_session()"),
                     nullptr, &error),
            qPrintable(error));
        const QByteArray before = fileHash(m_fx.project);
        const CliRun::Outcome o = m_fx.cli(publish(QStringLiteral("2"), m_fx.db()));
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY2(o.err.contains("publish: try 1 of 3 failed ("), o.err.constData());
        QVERIFY2(o.err.contains("trying again in 1 s"), o.err.constData());
        // Nothing else on stderr: no driver warning about the dropped connection.
        for (const QByteArray &line : o.err.trimmed().split('\n'))
            QVERIFY2(line.startsWith("servescope-cli publish: ") || line.startsWith("info: "), line.constData());
        const QString uid = QString::fromLatin1(o.out.trimmed());
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM runs WHERE uid = '%1'").arg(uid)), QStringLiteral("1"));
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM requests r JOIN runs u ON u.id = r.run_id"
                                         " WHERE u.uid = '%1'")
                              .arg(uid)),
            QStringLiteral("8"));
        QCOMPARE(fileHash(m_fx.project), before);

        // Every try cut off: the run is not there at all, and the message says so.
        QVERIFY(m_fx.pg.psql(QStringLiteral("team"), QStringLiteral("DELETE FROM runs WHERE uid = '%1'").arg(uid)));
        QVERIFY(m_fx.pg.psql(QStringLiteral("team"),
            QStringLiteral("CREATE OR REPLACE FUNCTION kill_session() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                           " PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$")));
        const CliRun::Outcome lost = m_fx.cli(publish(QStringLiteral("2"), m_fx.db()));
        QCOMPARE(lost.exitCode, 1);
        QVERIFY2(lost.err.contains("try 2 of 3 failed"), lost.err.constData());
        QVERIFY2(lost.err.contains("publishing failed, nothing was stored: "), lost.err.constData());
        QVERIFY(lost.out.isEmpty());
        QCOMPARE(lost.err.trimmed().split('\n').size(), 3);
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM runs WHERE uid = '%1'").arg(uid)), QStringLiteral("0"));
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM runs")), QStringLiteral("1"));
        QCOMPARE(fileHash(m_fx.project), before);
        QVERIFY(m_fx.pg.psql(QStringLiteral("team"), QStringLiteral("DROP TRIGGER kill_session ON request_events")));
    }

    void tlsWithVerifyFull()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty())
            SERVESCOPE_REQUIRE_SERVICE(false, QStringLiteral("openssl is not installed"));
        const QDir d(m_fx.dir.path());
        QFile ext(d.filePath(QStringLiteral("san.ext")));
        QVERIFY(ext.open(QIODevice::WriteOnly) && ext.write("subjectAltName=IP:127.0.0.1\n") > 0);
        ext.close();
        QVERIFY(makeCa(QStringLiteral("team-ca")) && makeCa(QStringLiteral("other-ca")));
        QVERIFY(openssl({ QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("ec"),
            QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
            QStringLiteral("-keyout"), QStringLiteral("server.key"), QStringLiteral("-out"),
            QStringLiteral("server.csr"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1") }));
        QVERIFY(openssl({ QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
            QStringLiteral("server.csr"), QStringLiteral("-CA"), QStringLiteral("team-ca.pem"),
            QStringLiteral("-CAkey"), QStringLiteral("team-ca.key"), QStringLiteral("-CAcreateserial"),
            QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-extfile"), QStringLiteral("san.ext"),
            QStringLiteral("-out"), QStringLiteral("server.crt") }));
        // The server reads them from its data directory as its own user; alice may connect over TLS only.
        QVERIFY(m_fx.pg.installTls(d.filePath(QStringLiteral("server.crt")), d.filePath(QStringLiteral("server.key"))));

        const QString ca = d.filePath(QStringLiteral("team-ca.pem"));
        const auto runs = [this](const QString &query) {
            return m_fx.cli({ QStringLiteral("runs"), QStringLiteral("--db"), m_fx.url(query),
                QStringLiteral("--db-password-env"), QStringLiteral("TEAM_PW") });
        };
        const CliRun::Outcome ok = runs(QStringLiteral("?sslmode=verify-full&sslrootcert=") + ca);
        QVERIFY2(ok.exitCode == 0, ok.err.constData());
        QCOMPARE(ok.out.count('\n'), 1);
        const CliRun::Outcome plain = runs(QStringLiteral("?sslmode=disable"));
        QCOMPARE(plain.exitCode, 1);
        QVERIFY2(plain.err.contains("no encryption"), plain.err.constData());
        const CliRun::Outcome otherCa
            = runs(QStringLiteral("?sslmode=verify-full&sslrootcert=") + d.filePath(QStringLiteral("other-ca.pem")));
        QCOMPARE(otherCa.exitCode, 1);
        QVERIFY2(otherCa.err.contains("certificate verify failed"), otherCa.err.constData());
    }

    // A run against a server that echoes the key in every form it has (raw, JSON-escaped,
    // percent-encoded, base64, cut short, its tail), published: the database holds the run's
    // redacted failures, and none of the forms.
    void echoedKeyRunIsPublishedRedacted()
    {
        KeyEchoServer server;
        m_echoKey = "sk-team/Echo+Key=0123456789abcdefXYZ";
        QProcessEnvironment env = m_fx.env;
        env.insert(QStringLiteral("ECHO_KEY"), QString::fromLatin1(m_echoKey));
        const QString exp = CliRun::writeExperiment(QDir(m_fx.dir.path()), QStringLiteral("echo"),
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("http://127.0.0.1:%1").arg(server.port()) },
                { QStringLiteral("path"), QStringLiteral("/v1/completions") },
                { QStringLiteral("model"), QStringLiteral("m") },
                { QStringLiteral("api_key_env"), QStringLiteral("ECHO_KEY") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 1, \"input_len\": 16, "
                           "\"output_len\": 8, \"num_prompts\": 9}]}"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(SimChild::cli(), { QStringLiteral("run"), exp, QStringLiteral("--project"), m_fx.project });
        QEventLoop loop; // the echo server answers from this thread
        QObject::connect(&p, &QProcess::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        loop.exec();
        QCOMPARE(p.state(), QProcess::NotRunning);
        const QByteArray out = p.readAllStandardOutput();
        m_fx.everything += out + p.readAllStandardError();
        const QRegularExpressionMatch run
            = QRegularExpression(QStringLiteral("^run\\t(\\d+)\\t"), QRegularExpression::MultilineOption)
                  .match(QString::fromUtf8(out));
        QVERIFY2(run.hasMatch(), out.constData());
        const CliRun::Outcome o = m_fx.cli(publish(run.captured(1), m_fx.db()));
        QVERIFY2(o.exitCode == 0, o.err.constData());
        // The server's echoes were kept, redacted: its 401 bodies as request errors.
        QVERIFY(m_fx.sql(QStringLiteral("SELECT count(*) FROM requests WHERE error_text LIKE '%***%'")).toInt() > 0);
    }

    void noSecretReachesTheDatabaseOrOutput()
    {
        QString dump;
        QVERIFY(m_fx.pg.dump(QStringLiteral("team"), &dump));
        QVERIFY(dump.contains(QLatin1String("COPY public.requests")) && dump.size() > 10000);
        const QByteArray serverLog = CliRun::readAll(m_fx.pg.logFile());
        QList<QByteArray> forms = KeyEchoServer::forms(m_echoKey);
        forms << m_echoKey.mid(4, 12) << m_echoKey.right(8);
        for (const QString &secret : std::as_const(m_secrets))
            forms << KeyEchoServer::forms(secret.toUtf8());
        for (const QByteArray &form : std::as_const(forms)) {
            QVERIFY2(!dump.toUtf8().contains(form), form.constData());
            QVERIFY2(!serverLog.contains(form), form.constData());
            QVERIFY2(!m_fx.everything.contains(form), form.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestTeamDbErrors)
#include "tst_teamdberrors.moc"
