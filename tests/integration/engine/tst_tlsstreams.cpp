// SPDX-License-Identifier: MIT
// HTTPS on the lean transport: a real `servescope-cli sim --tls-cert` with throwaway certificates,
// every stream and event received when the certificate is trusted, and a clear TLS error for
// each way it is not.
#include "engine/fdlimit.h"
#include "enginepoint.h"
#include "requireservice.h"
#include "simprocess.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;
using namespace ServeScope::Testing;

class TestTlsStreams final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // A self-signed certificate for `name` (and 127.0.0.1), made with the openssl tool.
    bool makeCertificate(const QString &stem, const QString &name)
    {
        QProcess p;
        p.start(QStringLiteral("openssl"),
            { QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                QStringLiteral("/CN=") + name, QStringLiteral("-addext"),
                QStringLiteral("subjectAltName=DNS:%1%2")
                    .arg(name, name == QLatin1String("localhost") ? QStringLiteral(",IP:127.0.0.1") : QString()),
                QStringLiteral("-keyout"), m_dir.filePath(stem + QStringLiteral("-key.pem")), QStringLiteral("-out"),
                m_dir.filePath(stem + QStringLiteral(".pem")) });
        return p.waitForFinished(60000) && p.exitCode() == 0;
    }

    // The simulator serving the certificate `served` (local, other) to `streams` streams at once.
    bool startSim(SimProcess &sim, const QString &served, int streams)
    {
        return sim.start({ QStringLiteral("--tls-cert"), m_dir.filePath(served + QStringLiteral(".pem")),
            QStringLiteral("--tls-key"), m_dir.filePath(served + QStringLiteral("-key.pem")),
            QStringLiteral("--max-num-seqs"), QString::number(streams), QStringLiteral("--weight-bytes"),
            QStringLiteral("0"), QStringLiteral("--kv-bytes-per-token"), QStringLiteral("0"),
            QStringLiteral("--peak-flops"), QStringLiteral("1e30"), QStringLiteral("--step-overhead-ms"),
            QStringLiteral("10") });
    }

    // A counter of the simulator's /metrics, fetched over HTTPS (a full handshake of its own).
    static double simCounter(const QUrl &metricsUrl, const QString &name)
    {
        QNetworkAccessManager nam;
        QNetworkRequest request(metricsUrl);
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
        request.setSslConfiguration(tls);
        QNetworkReply *reply = nam.get(request);
        if (!QTest::qWaitFor([reply] { return reply->isFinished(); }, 10000))
            return -1;
        const QString text = QString::fromUtf8(reply->readAll());
        delete reply;
        const QRegularExpression line(QStringLiteral("^%1\\{[^}]*\\} (\\S+)$").arg(QRegularExpression::escape(name)),
            QRegularExpression::MultilineOption);
        const QRegularExpressionMatch m = line.match(text);
        return m.hasMatch() ? m.captured(1).toDouble() : -1;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        SERVESCOPE_REQUIRE_SERVICE(
            !qEnvironmentVariableIsEmpty("SERVESCOPE_CLI"), QStringLiteral("SERVESCOPE_CLI not set"));
        raiseOpenFileLimit();
        QVERIFY(m_dir.isValid());
        QVERIFY2(makeCertificate(QStringLiteral("local"), QStringLiteral("localhost")), "openssl req failed");
        QVERIFY2(makeCertificate(QStringLiteral("other"), QStringLiteral("other.example")), "openssl req failed");
        QFile junk(m_dir.filePath(QStringLiteral("junk.pem")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("not a certificate\n");
    }

    void streamsOverTls_data()
    {
        QTest::addColumn<QString>("served"); // the simulator's certificate
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("caFile");
        QTest::addColumn<bool>("skipVerify");
        QTest::addColumn<QString>("failure"); // empty: every request succeeds
        QTest::newRow("trusted CA file") << "local"
                                         << "127.0.0.1"
                                         << "local.pem" << false << "";
        QTest::newRow("trusted, by name") << "local"
                                          << "localhost"
                                          << "local.pem" << false << "";
        QTest::newRow("system CAs only") << "local"
                                         << "127.0.0.1"
                                         << "" << false << "TLS: certificate verify failed: self-signed certificate";
        QTest::newRow("skip verification") << "local"
                                           << "127.0.0.1"
                                           << "" << true << "";
        QTest::newRow("another name") << "other"
                                      << "127.0.0.1"
                                      << "other.pem" << false << "TLS: certificate verify failed: IP address mismatch";
        QTest::newRow("CA file without a certificate") << "local"
                                                       << "127.0.0.1"
                                                       << "junk.pem" << false << "holds no PEM certificate";
    }

    void streamsOverTls()
    {
        QFETCH(QString, served);
        QFETCH(QString, host);
        QFETCH(QString, caFile);
        QFETCH(bool, skipVerify);
        QFETCH(QString, failure);
        constexpr int kStreams = 64, kTokens = 24;
        SimProcess sim;
        QVERIFY2(startSim(sim, served, kStreams), qPrintable(sim.error()));
        EndpointConfig ep;
        ep.url = sim.url(QStringLiteral("/v1/completions"));
        QCOMPARE(ep.url.scheme(), QStringLiteral("https"));
        ep.url.setHost(host);
        ep.caFile = caFile.isEmpty() ? QString() : m_dir.filePath(caFile);
        ep.tlsSkipVerify = skipVerify;
        LoadSpec spec;
        spec.load.concurrency = kStreams;
        spec.load.numPrompts = kStreams;
        LoadGenerator gen(1);
        const PointResult res = runPoint(gen, ep, completionBodies(kStreams, 4, kTokens), spec, -1, 60000);
        QVERIFY(!res.timedOut);
        QVERIFY2(res.outcome.ok, qPrintable(res.outcome.message));
        QCOMPARE(res.outcome.transport, QStringLiteral("lean")); // https no longer goes to the pool
        QCOMPARE(res.records.size(), kStreams);
        for (const RequestRecord &r : res.records) {
            if (!failure.isEmpty()) {
                QCOMPARE(r.errorClass, ErrorClass::Tls);
                QVERIFY2(r.errorText.contains(failure), qPrintable(r.errorText));
                continue;
            }
            QVERIFY2(r.ok(), qPrintable(r.errorText));
            QCOMPARE(r.completionTokens, kTokens);
            int tokens = 0;
            for (EventKind k : r.eventKinds)
                tokens += isTokenEvent(k);
            QCOMPARE(tokens, kTokens);
            QCOMPARE(r.eventKinds.last(), EventKind::Done);
            QVERIFY(std::is_sorted(r.eventNs.begin(), r.eventNs.end()));
        }
        if (failure.isEmpty())
            QCOMPARE(maxInFlight(res.records), kStreams);
    }

    // The first connection opens alone; the server's session ticket then lets every other one
    // resume instead of a full handshake (no certificate sent and checked again).
    void laterConnectionsResumeTheFirstSession()
    {
        constexpr int kStreams = 64;
        SimProcess sim;
        QVERIFY2(startSim(sim, QStringLiteral("local"), kStreams), qPrintable(sim.error()));
        EndpointConfig ep;
        ep.url = sim.url(QStringLiteral("/v1/completions"));
        ep.caFile = m_dir.filePath(QStringLiteral("local.pem"));
        LoadSpec spec;
        spec.load.concurrency = kStreams;
        spec.load.numPrompts = kStreams;
        LoadGenerator gen(1);
        const PointResult res = runPoint(gen, ep, completionBodies(kStreams, 4, 8), spec, -1, 60000);
        QVERIFY(!res.timedOut);
        QVERIFY2(res.outcome.ok, qPrintable(res.outcome.message));
        for (const RequestRecord &r : res.records)
            QVERIFY2(r.ok(), qPrintable(r.errorText));
        const QUrl metrics = sim.url(QStringLiteral("/metrics"));
        // kStreams of the engine, then this fetch's own (a fresh client: full).
        QCOMPARE(simCounter(metrics, QStringLiteral("servescope_sim:tls_handshakes_total")), double(kStreams + 1));
        QCOMPARE(
            simCounter(metrics, QStringLiteral("servescope_sim:tls_resumed_handshakes_total")), double(kStreams - 1));
    }

    void simulatorSaysWhatIsWrongWithItsFiles_data()
    {
        QTest::addColumn<QString>("cert");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("said");
        QTest::newRow("not a certificate") << "junk.pem"
                                           << "local-key.pem"
                                           << "--tls-cert holds no PEM certificate";
        QTest::newRow("no such file") << "missing.pem"
                                      << "local-key.pem"
                                      << "--tls-cert holds no PEM certificate";
        QTest::newRow("not a key") << "local.pem"
                                   << "junk.pem"
                                   << "--tls-key holds no unencrypted PEM private key";
        QTest::newRow("another certificate's key") << "local.pem"
                                                   << "other-key.pem"
                                                   << "--tls-key is not the key of --tls-cert";
    }

    void simulatorSaysWhatIsWrongWithItsFiles()
    {
        QFETCH(QString, cert);
        QFETCH(QString, key);
        QFETCH(QString, said);
        SimProcess sim;
        QVERIFY(!sim.start(
            { QStringLiteral("--tls-cert"), m_dir.filePath(cert), QStringLiteral("--tls-key"), m_dir.filePath(key) }));
        QVERIFY2(sim.error().contains(said), qPrintable(sim.error()));
    }
};

QTEST_GUILESS_MAIN(TestTlsStreams)
#include "tst_tlsstreams.moc"
