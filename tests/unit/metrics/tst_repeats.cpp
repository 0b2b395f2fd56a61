// SPDX-License-Identifier: MIT
#include "metrics/aggregate.h"
#include "metrics/intervals.h"
#include "metrics/repeats.h"
#include "recordbuilder.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <vector>

using namespace ServeScope;

class TestRepeats final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void acrossRepeats_data()
    {
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<double>("cv");
        QTest::newRow("three") << QVector<double> { 3, 1, 2 } << 2.0 << 1.0 << 3.0 << std::sqrt(2.0 / 3.0) / 2.0;
        QTest::newRow("even") << QVector<double> { 4, 1, 2, 3 } << 2.5 << 1.0 << 4.0 << std::sqrt(1.25) / 2.5;
        QTest::newRow("one") << QVector<double> { 7 } << 7.0 << 7.0 << 7.0 << 0.0;
        QTest::newRow("zero-mean") << QVector<double> { 0, 0 } << 0.0 << 0.0 << 0.0 << 0.0;
    }

    void acrossRepeats()
    {
        QFETCH(QVector<double>, values);
        QFETCH(double, median);
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(double, cv);
        const RepeatStat r = ServeScope::acrossRepeats(std::span<const double>(values.constData(), values.size()));
        QCOMPARE(r.n, int(values.size()));
        QCOMPARE(r.median, median);
        QCOMPARE(r.min, min);
        QCOMPARE(r.max, max);
        QCOMPARE(r.cv, cv);
    }

    void acrossRepeatsByKey()
    {
        std::vector<PointSummary> reps(3);
        reps[0].ttft.p99 = 120;
        reps[1].ttft.p99 = 100;
        reps[2].ttft.p99 = 110;
        reps[1].outputThroughput = 5;
        QCOMPARE(ServeScope::acrossRepeats(reps, u"p99_ttft_ms").median, 110.0);
        QCOMPARE(ServeScope::acrossRepeats(reps, u"output_throughput").max, 5.0);
        QVERIFY(std::isnan(summaryValue(reps[0], u"p42_ttft_ms")));
        QVERIFY(std::isnan(summaryValue(reps[0], u"nonsense")));
        QCOMPARE(summaryValue(reps[0], u"p99_ttft_ms"), 120.0);
    }

    void percentileInterval_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<bool>("valid");
        // Values 1..n: the interval bounds are the ranks. n*q -/+ 1.96*sqrt(n*q*(1-q)), upper rank + 1.
        QTest::newRow("median-of-1000") << 1000 << 50.0 << 469.0 << 532.0 << true;
        QTest::newRow("p99-of-1000") << 1000 << 99.0 << 983.0 << 998.0 << true;
        QTest::newRow("p99-of-100") << 100 << 99.0 << 97.0 << 100.0 << false;
        QTest::newRow("p90-of-100") << 100 << 90.0 << 84.0 << 97.0 << true;
    }

    void percentileInterval()
    {
        QFETCH(int, n);
        QFETCH(double, p);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(bool, valid);
        std::vector<double> v(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            v[std::size_t(i)] = i + 1;
        const Interval iv = ServeScope::percentileInterval(v, p);
        QCOMPARE(iv.low, low);
        QCOMPARE(iv.high, high);
        QCOMPARE(iv.valid, valid);
    }

    void bootstrapIsSeeded()
    {
        std::vector<double> v;
        for (int i = 0; i < 500; ++i)
            v.push_back(std::fmod(i * 0.618033988749895, 1.0));
        const Interval a = bootstrapMeanInterval(v, 42);
        const Interval b = bootstrapMeanInterval(v, 42);
        const Interval c = bootstrapMeanInterval(v, 43);
        QVERIFY(a.valid);
        QCOMPARE(a.low, b.low);
        QCOMPARE(a.high, b.high);
        QVERIFY(a.low != c.low || a.high != c.high);
        double mean = 0;
        for (double x : v)
            mean += x;
        mean /= double(v.size());
        QVERIFY(a.low < mean && mean < a.high);
        // Uniform(0,1): standard error 0.289/sqrt(500) = 0.0129, so the 95% width is about 0.05.
        QVERIFY2(a.high - a.low > 0.035 && a.high - a.low < 0.065, qPrintable(QString::number(a.high - a.low)));
    }

    void clusterBootstrapWithUnitCountsIsPlainBootstrap()
    {
        std::vector<double> v { 1, 2, 3, 4, 10, 0.5, 7 };
        const std::vector<double> ones(v.size(), 1.0);
        const Interval a = bootstrapMeanInterval(v, 9, 500);
        const Interval b = bootstrapClusterMeanInterval(v, ones, 9, 500);
        QCOMPARE(a.low, b.low);
        QCOMPARE(a.high, b.high);
    }

    void pointIntervalsCoverTheEstimates()
    {
        std::vector<RequestRecord> recs;
        for (int i = 0; i < 300; ++i)
            recs.push_back(Test::makeStream(i, i * 7.0, 40 + (i * 37) % 60, 8 + (i * 13) % 9, 5 + i % 7));
        AggregateOptions o;
        o.percentiles = { 50, 90, 99 };
        const PointSummary s = aggregatePoint(recs, o).summary;
        const auto ivs = pointIntervals(recs, o, 2024);
        QCOMPARE(ivs.size(), 4 * 5); // mean, median, p50, p90, p99 for four metrics
        const auto again = pointIntervals(recs, o, 2024);
        int checked = 0;
        for (int i = 0; i < ivs.size(); ++i) {
            const auto &[key, iv] = ivs.at(i);
            QCOMPARE(again.at(i).second.low, iv.low); // seeded
            const double estimate = summaryValue(s, key);
            QVERIFY2(iv.low <= estimate && estimate <= iv.high,
                qPrintable(QStringLiteral("%1: %2 not in [%3, %4]").arg(key).arg(estimate).arg(iv.low).arg(iv.high)));
            ++checked;
        }
        QCOMPARE(checked, 20);
    }

    void unreliable_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("p");
        QTest::addColumn<bool>("unreliable");
        QTest::newRow("p99-999") << 999 << 99.0 << true;
        QTest::newRow("p99-1000") << 1000 << 99.0 << false;
        QTest::newRow("p90-99") << 99 << 90.0 << true;
        QTest::newRow("p90-100") << 100 << 90.0 << false;
        QTest::newRow("p50-20") << 20 << 50.0 << false;
        QTest::newRow("p100") << 100000 << 100.0 << true;
    }

    void unreliable()
    {
        QFETCH(int, n);
        QFETCH(double, p);
        QFETCH(bool, unreliable);
        QCOMPARE(percentileUnreliable(n, p), unreliable);
    }
};

QTEST_GUILESS_MAIN(TestRepeats)
#include "tst_repeats.moc"
