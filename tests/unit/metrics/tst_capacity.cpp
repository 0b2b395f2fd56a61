// SPDX-License-Identifier: MIT
// The capacity search against systems whose answer is known: a latency that rises past a knee.
#include "metrics/capacity.h"
#include "metrics/noisefloor.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace ServeScope;

namespace {

// `n` requests whose TTFT is spread evenly over [0.8, 1.1] x `ms` (p90 at 1.07 x ms), TPOT 10 ms.
std::vector<RequestSample> requests(double ms, int n)
{
    std::vector<RequestSample> out;
    for (int i = 0; i < n; ++i) {
        RequestSample s;
        s.ttft = ms * (0.8 + 0.3 * i / double(n - 1)) / 1000;
        s.tpot = 0.010;
        s.e2el = s.ttft + 0.5;
        out.push_back(s);
    }
    return out;
}

CapacitySearch spec(double boundMs, double max = 1024)
{
    CapacitySearch s;
    Slo slo;
    slo.metric = QStringLiteral("ttft");
    slo.percentile = 90;
    slo.maxMs = boundMs;
    s.slos = { slo };
    s.max = max;
    s.resolution = 0.05;
    s.maxPoints = 20;
    return s;
}

struct Search {
    CapacityResult result;
    QList<double> measured; ///< in order, repeats included
};

Search runSearch(CapacitySearcher &search, const std::function<double(double)> &ttftMs, int n = 400)
{
    Search out;
    for (int guard = 0; guard < 100; ++guard) {
        const CapacitySearcher::Next next = search.next();
        if (next.done) {
            out.result = search.result(QStringLiteral("v"), next.stop);
            return out;
        }
        out.measured << next.load;
        search.add(next.load, int(out.measured.size()) - 1, requests(ttftMs(next.load), n), n);
    }
    return out;
}

} // namespace

class TestCapacity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void findsTheKneeWithinTheResolution_data()
    {
        QTest::addColumn<double>("knee");
        QTest::addColumn<double>("slope");
        QTest::newRow("knee 20, steep") << 20.0 << 40.0;
        QTest::newRow("knee 100, gentle") << 100.0 << 2.0;
        QTest::newRow("knee 3") << 3.0 << 30.0;
        QTest::newRow("knee 700") << 700.0 << 1.0;
    }
    void findsTheKneeWithinTheResolution()
    {
        QFETCH(double, knee);
        QFETCH(double, slope);
        const auto ttft = [&](double c) { return c <= knee ? 50 + c * 0.1 : 50 + knee * 0.1 + slope * (c - knee); };
        const double bound = 200;
        // The truth, by scanning every concurrency: p90 of requests() is 1.07 x the level's value.
        double truth = 0;
        for (int c = 1; c <= 1024 && 1.07 * ttft(c) <= bound; ++c)
            truth = c;
        CapacitySearcher search(spec(bound), LoadMode::Concurrency);
        const Search s = runSearch(search, ttft);
        QCOMPARE(s.result.stop, QStringLiteral("converged"));
        QVERIFY2(s.result.capacity <= truth && s.result.capacity >= truth - std::max(1.0, std::floor(0.05 * truth)),
            qPrintable(QStringLiteral("found %1, truth %2").arg(s.result.capacity).arg(truth)));
        QVERIFY(s.result.upper > truth);
        // Fewer levels than a gradient at the same resolution needs from 1 to the capacity.
        int gradient = 0;
        for (double c = 1; c <= truth; c = std::max(c + 1, std::ceil(c * 1.05)))
            ++gradient;
        QVERIFY2(s.result.levels < std::max(gradient, 12),
            qPrintable(QStringLiteral("%1 levels against %2").arg(s.result.levels).arg(gradient)));
        // A level is measured again only as a repeat of the level just measured (its interval straddled
        // the bound): every other visit reuses what was measured.
        QList<double> distinct;
        for (qsizetype i = 0; i < s.measured.size(); ++i) {
            if (i > 0 && s.measured[i] == s.measured[i - 1])
                continue;
            QVERIFY(!distinct.contains(s.measured[i]));
            distinct << s.measured[i];
        }
        QCOMPARE(s.result.levels, int(distinct.size()));
    }

    // Levels an earlier run measured are known, not measured: the search starts from their bracket,
    // measures none of them again, and they count neither as measurements nor against max_points.
    void reusedLevelsAreKnownNotMeasured()
    {
        const auto ttft = [](double c) { return c <= 20 ? 50 + c * 0.1 : 52 + 40 * (c - 20); };
        CapacitySearch small = spec(200);
        small.maxPoints = 3;
        CapacitySearcher search(small, LoadMode::Concurrency);
        for (double c : { 1.0, 2.0, 4.0, 8.0, 16.0, 32.0 })
            search.reuse(c, requests(ttft(c), 400), 400);
        QCOMPARE(search.levels().size(), 6);
        QVERIFY(std::all_of(search.levels().cbegin(), search.levels().cend(),
            [](const CapacityLevel &l) { return l.point == -1 && l.verdict != SloVerdict::Undecided; }));
        const Search s = runSearch(search, ttft);
        QVERIFY(!s.measured.isEmpty());
        for (double c : s.measured)
            QVERIFY2(c > 16 && c < 32, qPrintable(QString::number(c))); // only inside the reused bracket
        QCOMPARE(s.result.measurements, int(s.measured.size()));
        // A level near the bound is measured again (its reading spans the run-to-run noise): levels count
        // once however often they were measured.
        QList<double> distinct = s.measured;
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        QCOMPARE(s.result.levels, 6 + int(distinct.size()));
        QCOMPARE(s.result.reused, 6);
        QCOMPARE(s.result.stop, QStringLiteral("points")); // three measured levels, whatever was reused
        QCOMPARE(int(distinct.size()), 3);
    }

    // One run's requests say little of the next run's: a level whose p90 lies within the run-to-run
    // noise of the bound is not met on one measurement, however many requests it had; one well within
    // is.
    void aLevelNearTheBoundIsNotDecidedByOneRun()
    {
        const CapacitySearch s = spec(200);
        CapacityLevel level;
        level.repeats = 1;
        level.attempted = 400;
        // requests() spreads TTFT over 0.8..1.1 of its argument: p90 ≈ 1.07 x.
        judgeLevel(s, level, requests(180 / 1.07, 400), false);
        QCOMPARE(level.readings.size(), 1);
        const double half = level.readings[0].value * runToRunHalfWidth(QStringLiteral("p90_ttft_ms"), 1);
        QVERIFY(level.readings[0].ci.high >= level.readings[0].value + half - 1e-9);
        QCOMPARE(level.verdict, SloVerdict::Undecided);
        judgeLevel(s, level, requests(120 / 1.07, 400), false);
        QCOMPARE(level.verdict, SloVerdict::Meets);
        judgeLevel(s, level, requests(300 / 1.07, 400), false);
        QCOMPARE(level.verdict, SloVerdict::Fails);
    }

    void openLoopSearchesRates()
    {
        CapacitySearch c = spec(200);
        c.start = 0.5;
        c.max = 64;
        CapacitySearcher search(c, LoadMode::Rate);
        const Search s = runSearch(search, [](double rate) { return rate <= 5.3 ? 60.0 : 60 + 300 * (rate - 5.3); });
        QCOMPARE(s.result.stop, QStringLiteral("converged"));
        const double truth = 5.3 + (200 / 1.07 - 60) / 300; // where p90 = 1.07 x TTFT reaches 200 ms
        QVERIFY2(s.result.capacity <= truth && s.result.capacity >= truth * 0.95,
            qPrintable(QString::number(s.result.capacity)));
        QVERIFY(s.result.upper - s.result.capacity <= 0.05 * s.result.capacity + 1e-9);
    }

    void endsAtTheLimits()
    {
        CapacitySearcher never(spec(200, 64), LoadMode::Concurrency);
        const Search up = runSearch(never, [](double) { return 10.0; });
        QCOMPARE(up.result.stop, QStringLiteral("max"));
        QCOMPARE(up.result.capacity, 64.0);
        QVERIFY(std::isinf(up.result.upper));
        QCOMPARE(up.measured, (QList<double> { 1, 2, 4, 8, 16, 32, 64 }));

        CapacitySearch fromEight = spec(200);
        fromEight.start = 8;
        CapacitySearcher always(fromEight, LoadMode::Concurrency);
        const Search down = runSearch(always, [](double) { return 1000.0; });
        QCOMPARE(down.result.stop, QStringLiteral("none"));
        QCOMPARE(down.result.capacity, 0.0);
        QCOMPARE(down.result.upper, 1.0);
        QCOMPARE(down.measured, (QList<double> { 8, 4, 2, 1 }));
        QVERIFY(!down.result.found());

        CapacitySearch few = spec(200);
        few.maxPoints = 3;
        CapacitySearcher capped(few, LoadMode::Concurrency);
        const Search s = runSearch(capped, [](double c) { return 10 * c; });
        QCOMPARE(s.result.stop, QStringLiteral("points"));
        QCOMPARE(s.result.levels, 3);
    }

    // A level whose interval straddles the bound is measured again (its requests pooled), up to
    // max_repeats, then the estimate decides.
    void repeatsAnUndecidedLevel()
    {
        CapacitySearch c = spec(100);
        c.maxRepeats = 2;
        CapacitySearcher search(c, LoadMode::Concurrency);
        QCOMPARE(search.next().load, 1.0);
        search.add(1, 0, requests(100 / 1.07, 200), 200); // p90 right at the bound
        QCOMPARE(search.levels().first().verdict, SloVerdict::Undecided);
        const CapacitySearcher::Next again = search.next();
        QVERIFY(again.repeat);
        QCOMPARE(again.load, 1.0);
        search.add(1, 0, requests(100 / 1.07 * 0.99, 200), 200);
        const CapacityLevel &level = search.levels().first();
        QCOMPARE(level.repeats, 2);
        QCOMPARE(level.attempted, qint64(400));
        QVERIFY(level.byEstimate);
        QCOMPARE(level.verdict, SloVerdict::Meets);
        QVERIFY(!search.next().repeat);
    }

    // Failed requests count against the attainment; more than 1% failed fails a level outright.
    void attainmentAndErrors()
    {
        CapacitySearch c = spec(200);
        c.attainment = 0.95;
        CapacitySearcher search(c, LoadMode::Concurrency);
        search.next();
        search.add(1, 0, requests(100, 1000), 1100); // 100 of 1,100 failed: attainment 0.91
        const CapacityLevel &level = search.levels().first();
        QCOMPARE(level.failed, qint64(100));
        QCOMPARE(level.readings.size(), 2);
        QCOMPARE(level.readings[0].verdict, SloVerdict::Meets);
        QCOMPARE(level.readings[1].key, QStringLiteral("attainment"));
        QCOMPARE(level.readings[1].value, 1000.0 / 1100);
        QCOMPARE(level.readings[1].verdict, SloVerdict::Fails);
        QCOMPARE(level.verdict, SloVerdict::Fails);

        CapacitySearcher plain(spec(200), LoadMode::Concurrency);
        plain.next();
        plain.add(1, 0, requests(100, 1000), 1020); // 2% failed
        QCOMPARE(plain.levels().first().readings.first().verdict, SloVerdict::Meets);
        QCOMPARE(plain.levels().first().verdict, SloVerdict::Fails);
    }

    void storedFormReadsBack()
    {
        CapacityResult r;
        r.variant = QStringLiteral("tp2");
        r.capacity = 12;
        r.upper = 13;
        r.stop = QStringLiteral("converged");
        r.levels = 6;
        r.reused = 4;
        const PointEstimate e = storedCapacity(7, r);
        QCOMPARE(e.point, -1);
        QCOMPARE(e.metric, QString::fromLatin1(kCapacityKey));
        const std::optional<CapacityResult> back = capacityOf(e);
        QVERIFY(back);
        QCOMPARE(back->variant, r.variant);
        QCOMPARE(back->capacity, 12.0);
        QCOMPARE(back->upper, 13.0);
        QCOMPARE(back->stop, r.stop);
        QCOMPARE(back->levels, 6);
        QCOMPARE(back->reused, 4);
        r.upper = std::numeric_limits<double>::infinity();
        r.stop = QStringLiteral("max");
        QVERIFY(std::isinf(capacityOf(storedCapacity(7, r))->upper));
        const MetricEstimate open = capacityEstimate(r);
        QCOMPARE(open.repeats.median, 12.0);
        QVERIFY(!open.ci.valid);
        PointEstimate other = e;
        other.metric = QStringLiteral("p90_ttft_ms");
        QVERIFY(!capacityOf(other));
    }
};

QTEST_GUILESS_MAIN(TestCapacity)
#include "tst_capacity.moc"
