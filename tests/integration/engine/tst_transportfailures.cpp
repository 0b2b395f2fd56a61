// SPDX-License-Identifier: MIT
// Failure classes (docs/metrics.md), produced by a real `servescope-cli sim` with seeded faults.
#include "engine/fdlimit.h"
#include "engine/receivering.h"
#include "enginepoint.h"
#include "freeport.h"
#include "requireservice.h"
#include "simprocess.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace ServeScope;
using namespace ServeScope::Testing;

class TestTransportFailures final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        SERVESCOPE_REQUIRE_SERVICE(
            !qEnvironmentVariableIsEmpty("SERVESCOPE_CLI"), QStringLiteral("SERVESCOPE_CLI not set"));
    }

    void classes_data()
    {
        QTest::addColumn<QString>("transport");
        QTest::addColumn<QStringList>("simArgs");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<double>("idleS");
        QTest::addColumn<double>("firstTokenS");
        QTest::addColumn<double>("totalS");
        QTest::addColumn<int>("outputLen");
        QTest::addColumn<int>("expected");
        QTest::addColumn<QString>("textPart");
        const QString chat = QStringLiteral("/v1/completions");
        const QString model = QStringLiteral("servescope-sim-7b");
        const QStringList fast { QStringLiteral("--time-scale"), QStringLiteral("20") };
        for (const QString &t : { QStringLiteral("lean"), QStringLiteral("pool") }) {
            auto row = [&](const char *name) {
                return &QTest::newRow(qPrintable(t + QLatin1Char(' ') + QLatin1String(name)));
            };
            *row("healthy") << t << fast << chat << model << QByteArray() << 0.0 << 0.0 << 0.0 << 8
                            << int(ErrorClass::None) << QString();
            *row("500") << t << fast + QStringList { QStringLiteral("--fail-rate"), QStringLiteral("1") } << chat
                        << model << QByteArray() << 0.0 << 0.0 << 0.0 << 8 << int(ErrorClass::ServerError)
                        << QStringLiteral("HTTP 500");
            *row("truncated") << t << fast + QStringList { QStringLiteral("--disconnect-rate"), QStringLiteral("1") }
                              << chat << model << QByteArray() << 0.0 << 0.0 << 0.0 << 64 << int(ErrorClass::Protocol)
                              << QStringLiteral("truncated");
            *row("malformed") << t << fast + QStringList { QStringLiteral("--malformed-rate"), QStringLiteral("1") }
                              << chat << model << QByteArray() << 0.0 << 0.0 << 0.0 << 32 << int(ErrorClass::Protocol)
                              << QStringLiteral("malformed JSON");
            *row("wrong key") << t
                              << fast + QStringList { QStringLiteral("--api-key-env"), QStringLiteral("SIM_TEST_KEY") }
                              << chat << model << QByteArray("sk-wrong-key-123") << 0.0 << 0.0 << 0.0 << 8
                              << int(ErrorClass::Auth) << QStringLiteral("HTTP 401");
            *row("right key") << t
                              << fast + QStringList { QStringLiteral("--api-key-env"), QStringLiteral("SIM_TEST_KEY") }
                              << chat << model << QByteArray("sk-right-key-456") << 0.0 << 0.0 << 0.0 << 8
                              << int(ErrorClass::None) << QString();
            *row("wrong model") << t << fast << chat << QStringLiteral("nope") << QByteArray() << 0.0 << 0.0 << 0.0 << 8
                                << int(ErrorClass::NotFound) << QStringLiteral("does not exist");
            *row("wrong path") << t << fast << QStringLiteral("/v1/nothing") << model << QByteArray() << 0.0 << 0.0
                               << 0.0 << 8 << int(ErrorClass::NotFound) << QStringLiteral("HTTP 404");
            *row("idle timeout") << t << fast + QStringList { QStringLiteral("--stall-ms"), QStringLiteral("3000") }
                                 << chat << model << QByteArray() << 0.4 << 0.0 << 0.0 << 64
                                 << int(ErrorClass::TimeoutIdle) << QStringLiteral("no event");
            *row("first token timeout") << t
                                        << QStringList { QStringLiteral("--step-overhead-ms"), QStringLiteral("2000") }
                                        << chat << model << QByteArray() << 0.0 << 0.4 << 0.0 << 8
                                        << int(ErrorClass::TimeoutFirstToken) << QStringLiteral("no token");
            *row("total timeout") << t << QStringList() << chat << model << QByteArray() << 0.0 << 0.0 << 0.3 << 400
                                  << int(ErrorClass::TimeoutTotal) << QStringLiteral("total");
        }
    }

    void classes()
    {
        QFETCH(QString, transport);
        QFETCH(QStringList, simArgs);
        QFETCH(QString, path);
        QFETCH(QString, model);
        QFETCH(QByteArray, key);
        QFETCH(double, idleS);
        QFETCH(double, firstTokenS);
        QFETCH(double, totalS);
        QFETCH(int, outputLen);
        QFETCH(int, expected);
        QFETCH(QString, textPart);

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SIM_TEST_KEY"), QStringLiteral("sk-right-key-456"));
        SimProcess sim;
        QVERIFY2(sim.start(simArgs, -1, env), qPrintable(sim.error()));

        EndpointConfig ep;
        ep.url = sim.url(path);
        ep.apiKey = key;
        ep.transport = transport == QLatin1String("lean") ? TransportKind::Lean : TransportKind::Pool;
        ep.timeouts = Timeouts { 5, firstTokenS, idleS, totalS };
        LoadSpec spec;
        spec.load.concurrency = 4;
        spec.load.numPrompts = 8;
        LoadGenerator gen(2);
        const PointResult res = runPoint(gen, ep, completionBodies(8, 6, outputLen, model), spec, -1, 60000);
        QVERIFY(!res.timedOut);
        QVERIFY2(res.outcome.ok, qPrintable(res.outcome.message));
        QCOMPARE(res.outcome.transport, transport);
        if (transport == QLatin1String("lean")) {
            // Through a receive ring wherever this process can make one (tst_receivering says
            // when it cannot), else through epoll with the reason.
            QString why;
            const bool ring = ReceiveRing::make(&why) != nullptr;
            QCOMPARE(res.outcome.receive, ring ? QStringLiteral("io_uring") : QStringLiteral("epoll (%1)").arg(why));
        }
        QCOMPARE(res.records.size(), 8);
        QCOMPARE(res.outcome.completed + res.outcome.failed, res.outcome.sent);
        for (const RequestRecord &r : res.records) {
            QCOMPARE(int(r.errorClass), expected);
            // Qt's reader may drop a response whose head and close arrive together (it then has no status):
            // the pool can only say "no response" for such a cut; the lean transport always names it.
            const bool poolCut = transport == QLatin1String("pool") && textPart == QLatin1String("truncated")
                && r.errorText.startsWith(QLatin1String("no response: "));
            QVERIFY2(r.errorText.contains(textPart) || poolCut, qPrintable(r.errorText));
            QVERIFY(r.endNs >= r.startNs && r.startNs >= r.slotNs && r.slotNs >= r.scheduledNs);
            if (!key.isEmpty())
                QVERIFY(!r.errorText.contains(QString::fromLatin1(key)));
            if (expected == int(ErrorClass::None)) {
                QCOMPARE(r.completionTokens, outputLen);
                QVERIFY(!r.outputEstimated);
                QVERIFY(!r.generatedText.isEmpty());
                QCOMPARE(r.protocol, QStringLiteral("http/1.1"));
                QCOMPARE(r.httpStatus, 200);
            }
        }
    }

    void connectionRefused_data()
    {
        QTest::addColumn<int>("transport");
        QTest::newRow("lean") << int(TransportKind::Lean);
        QTest::newRow("pool") << int(TransportKind::Pool);
    }

    void connectionRefused()
    {
        QFETCH(int, transport);
        const quint16 port = unusedPort(); // no listener there
        EndpointConfig ep;
        ep.url = QUrl(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(port));
        ep.transport = TransportKind(transport);
        LoadSpec spec;
        spec.load.concurrency = 2;
        spec.load.numPrompts = 4;
        LoadGenerator gen(1);
        const PointResult res = runPoint(gen, ep, completionBodies(4, 4, 4), spec, -1, 30000);
        QVERIFY(!res.timedOut);
        QCOMPARE(res.records.size(), 4);
        QCOMPARE(res.outcome.failed, 4);
        for (const RequestRecord &r : res.records) {
            QCOMPARE(r.errorClass, ErrorClass::Connect);
            QCOMPARE(r.httpStatus, 0);
            if (TransportKind(transport) == TransportKind::Lean)
                QVERIFY2(r.errorText.startsWith(QStringLiteral("connect failed: ")), qPrintable(r.errorText));
        }
    }

    void hostNamesAreResolved_data()
    {
        QTest::addColumn<QString>("host");
        QTest::newRow("localhost") << QStringLiteral("localhost");
        QTest::newRow("unknown name") << QStringLiteral("no-such-host.invalid");
    }

    // The lean transport resolves the endpoint's host itself and tries its addresses in order.
    void hostNamesAreResolved()
    {
        QFETCH(QString, host);
        SimProcess sim;
        QVERIFY2(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20") }), qPrintable(sim.error()));
        EndpointConfig ep;
        ep.url = sim.url(QStringLiteral("/v1/completions"));
        ep.url.setHost(host);
        ep.transport = TransportKind::Lean;
        LoadSpec spec;
        spec.load.concurrency = 2;
        spec.load.numPrompts = 4;
        LoadGenerator gen(1);
        const PointResult res = runPoint(gen, ep, completionBodies(4, 4, 4), spec, -1, 30000);
        QVERIFY(!res.timedOut);
        QCOMPARE(res.records.size(), 4);
        const bool known = host == QLatin1String("localhost");
        QCOMPARE(res.outcome.completed, known ? 4 : 0);
        for (const RequestRecord &r : res.records) {
            QCOMPARE(r.errorClass, known ? ErrorClass::None : ErrorClass::Connect);
            if (!known)
                QCOMPARE(r.errorText, QStringLiteral("connect failed: host not found"));
        }
    }

    void tooFewDescriptorsFailsBeforeSending()
    {
        EndpointConfig ep;
        ep.url = QUrl(QStringLiteral("http://127.0.0.1:9/v1/completions"));
        LoadSpec spec;
        spec.load.concurrency = 10'000'000;
        spec.load.numPrompts = 10'000'000;
        LoadGenerator gen(1);
        const PointResult res = runPoint(gen, ep, completionBodies(1, 1, 1), spec, -1, 10000);
        QVERIFY(!res.outcome.ok);
        QVERIFY2(res.outcome.message.contains(QStringLiteral("file descriptors")), qPrintable(res.outcome.message));
        QVERIFY(res.records.isEmpty());
    }

    // A server whose TLS handshakes never finish: warm-up opens a bounded wave of connections
    // (256: the first alone, waiting for a session to resume, then after 1 s the rest of the wave),
    // not the 400 asked at once, and a cancel ends it at once, not after the connect timeout.
    void warmUpOpensInWavesAndCancelEndsIt()
    {
        raiseOpenFileLimit();
        QTcpServer server; // accepts, reads nothing, answers nothing
        server.setListenBacklogSize(1024);
        server.setMaxPendingConnections(1024);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        QList<QTcpSocket *> accepted;
        connect(&server, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket *s = server.nextPendingConnection())
                accepted << s;
        });
        EndpointConfig ep;
        ep.url = QUrl(QStringLiteral("https://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
        ep.transport = TransportKind::Lean;
        ep.tlsSkipVerify = true;
        ep.timeouts.connectS = 60;
        LoadSpec spec;
        spec.load.concurrency = 400;
        spec.load.numPrompts = 400;
        LoadGenerator gen(1);
        QElapsedTimer clock;
        clock.start();
        const PointResult res = runPoint(gen, ep, completionBodies(400, 4, 4), spec, 1500, 20000);
        QVERIFY(!res.timedOut);
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(res.outcome.cancelled);
        QVERIFY(res.records.isEmpty()); // no request had left
        QCOMPARE(accepted.size(), 256);
    }
};

QTEST_GUILESS_MAIN(TestTransportFailures)
#include "tst_transportfailures.moc"
