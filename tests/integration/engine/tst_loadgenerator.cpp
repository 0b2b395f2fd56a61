// SPDX-License-Identifier: MIT
// Closed and open loop against a real `servescope-cli sim`: accounting, achieved concurrency,
// the four client times, stop rules, cancellation.
#include "engine/arrivals.h"
#include "enginepoint.h"
#include "requireservice.h"
#include "simprocess.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>
#include <QThread>

#include <limits>

using namespace ServeScope;
using namespace ServeScope::Testing;

class TestLoadGenerator final : public QObject {
    Q_OBJECT

private:
    SimProcess m_sim;

    EndpointConfig endpoint(TransportKind kind) const
    {
        EndpointConfig ep;
        ep.url = m_sim.url(QStringLiteral("/v1/completions"));
        ep.transport = kind;
        return ep;
    }

    static void checkAccounting(const PointResult &res, int expectedSent)
    {
        QVERIFY(!res.timedOut);
        QVERIFY2(res.outcome.ok, qPrintable(res.outcome.message));
        QCOMPARE(res.records.size(), expectedSent);
        QCOMPARE(res.outcome.sent, expectedSent);
        QCOMPARE(res.outcome.completed + res.outcome.failed + res.outcome.cancelledRequests, res.outcome.sent);
        QSet<int> indexes;
        for (const RequestRecord &r : res.records) {
            indexes.insert(r.index);
            QVERIFY(r.scheduledNs >= res.outcome.clockStartNs);
            QVERIFY(r.slotNs >= r.scheduledNs);
            QVERIFY(r.startNs >= r.slotNs);
            QVERIFY(r.endNs >= r.startNs);
        }
        QCOMPARE(indexes.size(), expectedSent);
        QVERIFY(!res.progress.isEmpty());
        QCOMPARE(res.progress.last().inFlight, 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        SERVESCOPE_REQUIRE_SERVICE(
            !qEnvironmentVariableIsEmpty("SERVESCOPE_CLI"), QStringLiteral("SERVESCOPE_CLI not set"));
        QVERIFY2(m_sim.start({ QStringLiteral("--time-scale"), QStringLiteral("4"), QStringLiteral("--max-num-seqs"),
                     QStringLiteral("1024"), QStringLiteral("--kv-cache-tokens"), QStringLiteral("400000") }),
            qPrintable(m_sim.error()));
    }

    void closedLoopConcurrency_data()
    {
        QTest::addColumn<int>("transport");
        QTest::addColumn<int>("concurrency");
        for (int c : { 1, 64, 256, 1024 }) {
            QTest::addRow("lean c%d", c) << int(TransportKind::Lean) << c;
            QTest::addRow("pool c%d", c) << int(TransportKind::Pool) << c;
        }
    }

    void closedLoopConcurrency()
    {
        QFETCH(int, transport);
        QFETCH(int, concurrency);
        LoadSpec spec;
        spec.load.concurrency = concurrency;
        spec.load.numPrompts = std::max(8, 2 * concurrency);
        LoadGenerator gen;
        const PointResult res
            = runPoint(gen, endpoint(TransportKind(transport)), completionBodies(64, 8, 24), spec, -1, 240000);
        checkAccounting(res, spec.load.numPrompts);
        QCOMPARE(res.outcome.failed, 0);
        QCOMPARE(maxInFlight(res.records), concurrency);
        QVERIFY(res.outcome.connectionsOpened >= (transport == int(TransportKind::Lean) ? concurrency : 1));
        QSet<int> usedSlots;
        for (const RequestRecord &r : res.records) {
            QVERIFY(r.slot >= 0 && r.slot < concurrency);
            usedSlots.insert(r.slot);
            QCOMPARE(r.completionTokens, 24);
            QVERIFY(r.promptTokens > 0);
            QCOMPARE(r.httpStatus, 200);
            QVERIFY(isTokenEvent(r.eventKinds.first()));
            QCOMPARE(r.eventKinds.last(), EventKind::Done);
            if (transport == int(TransportKind::Lean))
                QCOMPARE(r.connectNs, 0); // opened before the clock started, reused after
        }
        QCOMPARE(usedSlots.size(), concurrency);
        qint64 events = 0;
        for (const RequestRecord &r : res.records)
            events += r.eventKinds.size();
        QCOMPARE(res.progress.last().eventsReceived, events);
    }

    void openLoopFollowsTheSchedule()
    {
        LoadSpec spec;
        spec.mode = LoadMode::Rate;
        spec.load.requestRate = 100;
        spec.load.burstiness = 1;
        spec.load.numPrompts = 100;
        spec.seed = 5;
        LoadGenerator gen;
        const PointResult res = runPoint(gen, endpoint(TransportKind::Auto), completionBodies(10, 4, 8), spec);
        checkAccounting(res, 100);
        QCOMPARE(res.outcome.transport, QStringLiteral("lean"));
        const QVector<qint64> offsets = arrivalOffsetsNs(100, 100, 1, 5);
        for (const RequestRecord &r : res.records) {
            QCOMPARE(r.scheduledNs, res.outcome.clockStartNs + offsets[r.index]);
            QCOMPARE(r.slot, -1);
            QVERIFY(r.ok());
        }
    }

    void openLoopWithCap()
    {
        LoadSpec spec;
        spec.mode = LoadMode::Rate;
        spec.load.requestRate = std::numeric_limits<double>::infinity();
        spec.load.numPrompts = 60;
        spec.load.maxConcurrency = 6;
        LoadGenerator gen;
        const PointResult res = runPoint(gen, endpoint(TransportKind::Lean), completionBodies(10, 4, 16), spec);
        checkAccounting(res, 60);
        QCOMPARE(maxInFlight(res.records), 6);
        int waited = 0;
        for (const RequestRecord &r : res.records) {
            QCOMPARE(r.scheduledNs, res.outcome.clockStartNs);
            QVERIFY(r.slot >= 0 && r.slot < 6);
            waited += r.slotNs - r.scheduledNs > 1'000'000;
        }
        QVERIFY(waited >= 50); // all arrive at once, so most wait for a slot
    }

    void maxSecondsStopsStarting()
    {
        LoadSpec spec;
        spec.load.concurrency = 4;
        spec.load.numPrompts = 0;
        spec.load.maxSeconds = 1.0;
        LoadGenerator gen;
        const PointResult res = runPoint(gen, endpoint(TransportKind::Lean), completionBodies(10, 4, 8), spec);
        QVERIFY(!res.timedOut);
        QVERIFY(res.outcome.completed > 4);
        // No request is handed out after the deadline (slotNs: the moment its slot took it). Sending it
        // follows on the worker thread, a little later on a loaded machine.
        const qint64 deadline = res.outcome.clockStartNs + 1'000'000'000;
        for (const RequestRecord &r : res.records) {
            QVERIFY(r.slotNs < deadline);
            QVERIFY(r.startNs < deadline + 250'000'000);
        }
        QCOMPARE(res.outcome.completed + res.outcome.failed, res.outcome.sent);
    }

    void cancelKeepsWhatWasMeasured_data()
    {
        QTest::addColumn<int>("transport");
        QTest::newRow("lean") << int(TransportKind::Lean);
        QTest::newRow("pool") << int(TransportKind::Pool);
    }

    void cancelKeepsWhatWasMeasured()
    {
        QFETCH(int, transport);
        LoadSpec spec;
        spec.load.concurrency = 16;
        spec.load.numPrompts = 2000;
        LoadGenerator gen;
        const PointResult res
            = runPoint(gen, endpoint(TransportKind(transport)), completionBodies(10, 4, 48), spec, 1500);
        QVERIFY(!res.timedOut);
        QVERIFY(res.outcome.cancelled);
        QVERIFY(res.outcome.completed > 0);
        QVERIFY(res.outcome.cancelledRequests > 0 && res.outcome.cancelledRequests <= 16);
        QCOMPARE(res.outcome.completed + res.outcome.failed + res.outcome.cancelledRequests, res.outcome.sent);
        QCOMPARE(res.records.size(), res.outcome.sent);
        QVERIFY(res.outcome.sent < 2000);
        for (const RequestRecord &r : res.records) {
            if (r.status != RequestStatus::Cancelled)
                continue;
            QCOMPARE(r.errorClass, ErrorClass::Cancelled);
            QVERIFY(r.startNs > 0 && r.endNs >= r.startNs);
        }
        // The generator is reusable after a cancel.
        spec.load.numPrompts = 8;
        const PointResult again = runPoint(gen, endpoint(TransportKind(transport)), completionBodies(8, 4, 8), spec);
        checkAccounting(again, 8);
        QCOMPARE(again.outcome.completed, 8);
    }

    void reusedConnectionsClosedByTheServer()
    {
        SimProcess sim;
        QVERIFY2(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"),
                     QStringLiteral("--keep-alive-timeout"), QStringLiteral("0.3") }),
            qPrintable(sim.error()));
        EndpointConfig ep;
        ep.url = sim.url(QStringLiteral("/v1/completions"));
        LoadSpec spec;
        spec.load.concurrency = 8;
        spec.load.numPrompts = 16;
        LoadGenerator gen;
        checkAccounting(runPoint(gen, ep, completionBodies(8, 4, 8), spec), 16);
        QThread::msleep(600); // longer than the server's keep-alive timeout
        const PointResult res = runPoint(gen, ep, completionBodies(8, 4, 8), spec);
        checkAccounting(res, 16);
        QCOMPARE(res.outcome.completed, 16);
    }
};

QTEST_GUILESS_MAIN(TestLoadGenerator)
#include "tst_loadgenerator.moc"
