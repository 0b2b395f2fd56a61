// SPDX-License-Identifier: MIT
#include "engine/arrivals.h"
#include "engine/engineconfig.h"
#include "engine/pointschedule.h"
#include "model/clock.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <limits>

using namespace ServeScope;

class TestArrivals final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    // Sessions in closed loop: a slot's new session starts at the next session's first turn, its later turns come
    // one by one; num_prompts counts requests and never cuts a started session short; a turn in its think time
    // keeps the point from finishing unless the point is stopped.
    void sessionsHoldTheirSlots()
    {
        LoadSpec spec;
        spec.mode = LoadMode::Concurrency;
        spec.load.concurrency = 2;
        spec.load.numPrompts = 7; // 3 sessions of 3 turns
        spec.sessionTurns = 3;
        QCOMPARE(spec.peakStreams(), 2);
        PointSchedule s(spec, 0, {});
        QCOMPARE(s.nextForSlot(0, 0, 1)->index, 0);
        QCOMPARE(s.nextForSlot(1, 0, 1)->index, 3);
        QCOMPARE(s.nextTurn(1, 0, 10, 11, false)->index, 1);
        QCOMPARE(s.nextForSlot(1, 20, 21)->index, 6); // session 2 on slot 1
        QVERIFY(!s.nextForSlot(0, 30, 31)); // 9 requests' sessions started: no fourth
        s.holdTurn(); // slot 0's third turn thinks
        QVERIFY(!s.finished(s.started(), 40));
        const auto held = s.nextTurn(2, 0, 50, 51, true);
        QVERIFY(held);
        QCOMPARE(held->scheduledNs, qint64(50));
        QCOMPARE(held->slotNs, qint64(51));
        QCOMPARE(s.started(), 5);
        QVERIFY(s.finished(5, 60)); // nothing thinks, nothing more starts, everything received
        s.holdTurn();
        QVERIFY(!s.finished(5, 70));
        s.stop(); // a stopped point does not wait for a thinking session, nor sends its turn
        QVERIFY(s.finished(5, 80));
        QVERIFY(!s.nextTurn(7, 1, 90, 91, true));
        QCOMPARE(s.started(), 5);
    }

    void lastArrivalIsExact_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("rate");
        QTest::addColumn<double>("burstiness");
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("poisson") << 1000 << 10.0 << 1.0;
        QTest::newRow("bursty") << 500 << 4.0 << 0.25;
        QTest::newRow("smooth") << 200 << 50.0 << 8.0;
        QTest::newRow("constant") << 100 << 5.0 << inf;
    }

    void lastArrivalIsExact()
    {
        QFETCH(int, n);
        QFETCH(double, rate);
        QFETCH(double, burstiness);
        const QVector<qint64> t = arrivalOffsetsNs(n, rate, burstiness, 42);
        QCOMPARE(t.size(), n);
        QCOMPARE(t.last(), qint64(std::llround(n / rate * 1e9)));
        for (int i = 1; i < n; ++i)
            QVERIFY(t[i] >= t[i - 1]);
        QVERIFY(t.first() > 0);
        QCOMPARE(arrivalOffsetsNs(n, rate, burstiness, 42), t); // seeded
    }

    void constantGapsAreEqual()
    {
        const QVector<qint64> t = arrivalOffsetsNs(4, 2.0, std::numeric_limits<double>::infinity(), 1);
        QCOMPARE(t, (QVector<qint64> { 500'000'000, 1'000'000'000, 1'500'000'000, 2'000'000'000 }));
    }

    void infiniteRateSendsAllAtOnce()
    {
        const QVector<qint64> t = arrivalOffsetsNs(5, std::numeric_limits<double>::infinity(), 1.0, 1);
        QCOMPARE(t, QVector<qint64>(5, 0));
    }

    void poissonGapsHaveTheRightMeanAndSpread()
    {
        const QVector<qint64> t = arrivalOffsetsNs(20000, 100.0, 1.0, 7);
        double sum = 0, sq = 0;
        for (int i = 1; i < t.size(); ++i) {
            const double g = (t[i] - t[i - 1]) / 1e9;
            sum += g;
            sq += g * g;
        }
        const double mean = sum / (t.size() - 1);
        const double cv = std::sqrt(sq / (t.size() - 1) - mean * mean) / mean;
        QVERIFY2(std::abs(mean - 0.01) < 0.0005, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(cv - 1.0) < 0.05, qPrintable(QString::number(cv))); // exponential: cv = 1
    }

    // A tiny rate's gaps once overflowed int64 ns and wrapped to negative offsets, so every request left at
    // once (1e-10 req/s); now each offset is far in the future, in order, and at most kScheduleLimitNs.
    void tinyRatesNeverOverflow_data()
    {
        QTest::addColumn<double>("rate");
        QTest::addColumn<double>("burstiness");
        QTest::addColumn<qint64>("last");
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("1e-8, poisson") << 1e-8 << 1.0 << qint64(500'000'000'000'000'000);
        QTest::newRow("1e-8, constant") << 1e-8 << inf << qint64(500'000'000'000'000'000);
        QTest::newRow("1e-10, poisson") << 1e-10 << 1.0 << kScheduleLimitNs;
        QTest::newRow("1e-10, constant") << 1e-10 << inf << kScheduleLimitNs;
        QTest::newRow("1e-10, bursty") << 1e-10 << 0.25 << kScheduleLimitNs;
        QTest::newRow("1e-300") << 1e-300 << 1.0 << kScheduleLimitNs;
        QTest::newRow("smallest double, constant")
            << std::numeric_limits<double>::denorm_min() << inf << kScheduleLimitNs;
    }

    void tinyRatesNeverOverflow()
    {
        QFETCH(double, rate);
        QFETCH(double, burstiness);
        QFETCH(qint64, last);
        const QVector<qint64> t = arrivalOffsetsNs(5, rate, burstiness, 42);
        QCOMPARE(t.size(), 5);
        QVERIFY2(std::abs(t.last() - last) <= 1000, qPrintable(QString::number(t.last()))); // within a µs
        QVERIFY2(t.first() > qint64(86400) * 1'000'000'000, qPrintable(QString::number(t.first())));
        for (int i = 1; i < t.size(); ++i)
            QVERIFY(t[i] >= t[i - 1]);
        // A clock reading of a year's uptime plus the latest offset still fits.
        QVERIFY(t.last() <= std::numeric_limits<qint64>::max() - qint64(365) * 86400 * 1'000'000'000);
        // Bounded by time alone, the first gap is past the bound: nothing is sent.
        QVERIFY(arrivalOffsetsNs(0, rate, burstiness, 42, 60.0).isEmpty());
    }

    void scheduleNsSaturates()
    {
        QCOMPARE(scheduleNs(1.5), qint64(2));
        QCOMPARE(scheduleNs(-3.0), qint64(0));
        QCOMPARE(scheduleNs(1e30), kScheduleLimitNs);
        QCOMPARE(scheduleNs(std::numeric_limits<double>::infinity()), kScheduleLimitNs);
        QCOMPARE(scheduleNs(-std::numeric_limits<double>::infinity()), qint64(0));
        QCOMPARE(scheduleNs(std::numeric_limits<double>::quiet_NaN()), kScheduleLimitNs);
    }

    void timeBoundWithoutCount()
    {
        const QVector<qint64> t = arrivalOffsetsNs(0, 4.0, std::numeric_limits<double>::infinity(), 1, 2.0);
        QCOMPARE(t.size(), 8);
        QCOMPARE(t.last(), qint64(2'000'000'000));
    }

    void peakStreams()
    {
        LoadSpec s;
        s.load.concurrency = 64;
        s.load.numPrompts = 10;
        QCOMPARE(s.peakStreams(), 10);
        s.mode = LoadMode::Rate;
        s.load.numPrompts = 500;
        s.load.maxConcurrency = 32;
        QCOMPARE(s.peakStreams(), 32);
    }
};

QTEST_GUILESS_MAIN(TestArrivals)
#include "tst_arrivals.moc"
