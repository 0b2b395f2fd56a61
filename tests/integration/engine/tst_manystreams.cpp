// SPDX-License-Identifier: MIT
// The lean transport at scale: 4,096 concurrent streams (or as many as the descriptor limit
// allows) against a real `servescope-cli sim`, every request completed and every event received.
#include "engine/fdlimit.h"
#include "enginepoint.h"
#include "requireservice.h"
#include "simprocess.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace ServeScope;
using namespace ServeScope::Testing;

class TestManyStreams final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        SERVESCOPE_REQUIRE_SERVICE(
            !qEnvironmentVariableIsEmpty("SERVESCOPE_CLI"), QStringLiteral("SERVESCOPE_CLI not set"));
        raiseOpenFileLimit();
    }

    void everyStreamAndEvent_data()
    {
        QTest::addColumn<int>("streams");
        QTest::addColumn<int>("workers");
        QTest::newRow("4096 streams, 1 worker") << 4096 << 1;
        QTest::newRow("4096 streams, 2 workers") << 4096 << 2;
    }

    void everyStreamAndEvent()
    {
        QFETCH(int, streams);
        QFETCH(int, workers);
        // The simulator is another process with the same limit: both must fit.
        while (descriptorsNeeded(streams) > openFileLimit())
            streams /= 2;
        QVERIFY2(streams >= 256, "the descriptor limit allows fewer than 256 streams");
        constexpr int kTokens = 24;
        SimProcess sim;
        QVERIFY2(
            sim.start({ QStringLiteral("--max-num-seqs"), QString::number(streams), QStringLiteral("--kv-cache-tokens"),
                QStringLiteral("4000000"), QStringLiteral("--weight-bytes"), QStringLiteral("0"),
                QStringLiteral("--kv-bytes-per-token"), QStringLiteral("0"), QStringLiteral("--peak-flops"),
                QStringLiteral("1e30"), QStringLiteral("--step-overhead-ms"), QStringLiteral("20") }),
            qPrintable(sim.error()));
        EndpointConfig ep;
        ep.url = sim.url(QStringLiteral("/v1/completions"));
        ep.transport = TransportKind::Lean;
        LoadSpec spec;
        spec.load.concurrency = streams;
        spec.load.numPrompts = streams;
        LoadGenerator gen(workers);
        const PointResult res = runPoint(gen, ep, completionBodies(streams, 4, kTokens), spec, -1, 120000);
        QVERIFY(!res.timedOut);
        QVERIFY2(res.outcome.ok, qPrintable(res.outcome.message));
        QCOMPARE(res.outcome.transport, QStringLiteral("lean"));
        QCOMPARE(res.outcome.sent, streams);
        QCOMPARE(res.outcome.completed, streams);
        QCOMPARE(res.records.size(), streams);
        // Every stream was live at once, and each got all its token events, its usage and [DONE].
        QCOMPARE(maxInFlight(res.records), streams);
        QSet<int> indexes;
        qint64 events = 0;
        for (const RequestRecord &r : res.records) {
            indexes.insert(r.index);
            QVERIFY2(r.ok(), qPrintable(r.errorText));
            QCOMPARE(r.completionTokens, kTokens);
            int tokens = 0;
            for (EventKind k : r.eventKinds)
                tokens += isTokenEvent(k);
            QCOMPARE(tokens, kTokens);
            QCOMPARE(r.eventKinds.last(), EventKind::Done);
            QCOMPARE(r.eventNs.size(), r.eventKinds.size());
            QVERIFY(std::is_sorted(r.eventNs.begin(), r.eventNs.end()));
            events += r.eventKinds.size();
        }
        QCOMPARE(indexes.size(), streams);
        QVERIFY(!res.progress.isEmpty());
        QCOMPARE(res.progress.last().eventsReceived, events);
    }
};

QTEST_GUILESS_MAIN(TestManyStreams)
#include "tst_manystreams.moc"
