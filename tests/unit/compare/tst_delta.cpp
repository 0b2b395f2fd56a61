// SPDX-License-Identifier: MIT
#include "compare/delta.h"
#include "metrics/intervals.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <random>
#include <vector>

using namespace ServeScope;

namespace {

MetricEstimate est(const QString &key, double median, double low, double high, int n = 3)
{
    MetricEstimate e;
    e.key = key;
    e.repeats.n = n;
    e.repeats.median = e.repeats.min = e.repeats.max = median;
    e.ci = Interval { low, high, low <= high };
    return e;
}

PointRepeats point(const QString &variant, const QString &label, int concurrency, QList<double> throughputs)
{
    PointRepeats p;
    p.variant = variant;
    p.label = label;
    p.mode = QStringLiteral("concurrency");
    p.concurrency = concurrency;
    p.inputLen = 128;
    p.outputLen = 64;
    for (double t : throughputs)
        p.repeats << QMap<QString, double> { { QStringLiteral("output_throughput"), t } };
    return p;
}

} // namespace

class TestDelta final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void percentileInterval_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<bool>("valid");
        // Values 1..n: the bounds are the ranks n*q -/+ 1.96*sqrt(n*q*(1-q)), the upper rank + 1.
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

    void bootstrapIsSeededAndCoversTheMean()
    {
        std::vector<double> v;
        for (int i = 0; i < 500; ++i)
            v.push_back(std::fmod(i * 0.618033988749895, 1.0));
        const std::vector<double> ones(v.size(), 1.0);
        const Interval a = bootstrapClusterMeanInterval(v, ones, 42);
        const Interval b = bootstrapClusterMeanInterval(v, ones, 42);
        const Interval c = bootstrapClusterMeanInterval(v, ones, 43);
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

    void clustersKeepARequestsGapsTogether()
    {
        // Two requests: one with 99 gaps of 1 ms, one with a single 100 ms gap. Resampling requests,
        // not gaps, the pooled mean is either 1, 100 or (99 + 100) / 100 = 1.99 ms.
        const std::vector<double> sums { 99, 100 }, counts { 99, 1 };
        const Interval iv = bootstrapClusterMeanInterval(sums, counts, 5, 200);
        QVERIFY(iv.valid);
        QCOMPARE(iv.low, 1.0);
        QCOMPARE(iv.high, 100.0);
    }

    // The linearised (delta-method) interval of a pooled mean against the bootstrap it replaces from
    // kLinearizedFromClusters requests on: equal within the bootstrap's Monte-Carlo error, measured as
    // the spread of its bounds over 12 seeds. The clusters are 20,000 requests whose gaps are drawn from
    // the 189 inter-token latencies of a real vLLM run (tests/data/real), 16 to 256 gaps each.
    void linearizedMeanAgreesWithTheBootstrap()
    {
        QFile f(QStringLiteral(
            SERVESCOPE_TEST_DATA "/real/vllm_LambdaLabsML_vllm-benchmark_llama3-8b-1xh100-len2048.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::vector<double> gaps;
        for (const QJsonValue &request : QJsonDocument::fromJson(f.readAll()).object().value(u"itls").toArray()) {
            for (const QJsonValue &g : request.toArray())
                gaps.push_back(g.toDouble() * 1000);
        }
        QCOMPARE(gaps.size(), std::size_t(189));
        std::mt19937_64 gen(11);
        std::uniform_int_distribution<std::size_t> pick(0, gaps.size() - 1);
        std::uniform_int_distribution<int> tokens(16, 256);
        const std::size_t n = 20000;
        std::vector<double> sums(n), counts(n), singles(n);
        for (std::size_t i = 0; i < n; ++i) {
            counts[i] = tokens(gen);
            for (int k = 0; k < int(counts[i]); ++k)
                sums[i] += gaps[pick(gen)];
            singles[i] = gaps[pick(gen)];
        }
        const std::vector<double> ones(n, 1.0);
        for (const auto &[s, c] :
            { std::pair<const std::vector<double> *, const std::vector<double> *> { &sums, &counts },
                { &singles, &ones } }) {
            const char *method = nullptr;
            const Interval linear = clusterMeanInterval(*s, *c, 1, &method);
            QCOMPARE(method, "normal");
            double lows = 0, highs = 0, lows2 = 0, highs2 = 0;
            const int seeds = 12;
            for (int seed = 0; seed < seeds; ++seed) {
                const Interval b = bootstrapClusterMeanInterval(*s, *c, quint64(seed));
                lows += b.low;
                highs += b.high;
                lows2 += b.low * b.low;
                highs2 += b.high * b.high;
            }
            const double lowMean = lows / seeds, highMean = highs / seeds;
            const double lowSd = std::sqrt(std::max(0.0, lows2 / seeds - lowMean * lowMean));
            const double highSd = std::sqrt(std::max(0.0, highs2 / seeds - highMean * highMean));
            const QString shown = QStringLiteral("linear [%1, %2], bootstrap [%3 ± %4, %5 ± %6]")
                                      .arg(linear.low, 0, 'g', 8)
                                      .arg(linear.high, 0, 'g', 8)
                                      .arg(lowMean, 0, 'g', 8)
                                      .arg(lowSd, 0, 'g', 3)
                                      .arg(highMean, 0, 'g', 8)
                                      .arg(highSd, 0, 'g', 3);
            qInfo().noquote() << shown;
            QVERIFY2(linear.valid && lowSd > 0 && highSd > 0, qPrintable(shown));
            QVERIFY2(std::abs(linear.low - lowMean) <= 3 * lowSd, qPrintable(shown));
            QVERIFY2(std::abs(linear.high - highMean) <= 3 * highSd, qPrintable(shown));
        }
        // Below the threshold the bootstrap itself is used.
        const char *method = nullptr;
        const std::vector<double> few(sums.begin(), sums.begin() + 500),
            fewCounts(counts.begin(), counts.begin() + 500);
        const Interval small = clusterMeanInterval(few, fewCounts, 42, &method);
        QCOMPARE(method, "bootstrap");
        const Interval boot = bootstrapClusterMeanInterval(few, fewCounts, 42);
        QCOMPARE(small.low, boot.low);
        QCOMPARE(small.high, boot.high);
    }

    void percentileIntervalSelectsFromUnsortedValues()
    {
        std::vector<double> sorted(1000), shuffled;
        for (int i = 0; i < 1000; ++i)
            sorted[std::size_t(i)] = i + 1;
        shuffled = sorted;
        std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
        for (double p : { 50.0, 90.0, 99.0 }) {
            std::vector<double> a = sorted, b = shuffled;
            const Interval x = ServeScope::percentileInterval(a, p), y = ServeScope::percentileInterval(b, p);
            QCOMPARE(y.low, x.low);
            QCOMPARE(y.high, x.high);
            QCOMPARE(y.valid, x.valid);
        }
    }

    // Token gaps are selected as nanoseconds and only the bounds converted: the same bounds, bit for
    // bit, as selecting among the converted values, narrow (every gap under 4.29 s) or wide.
    void percentileIntervalOverNanosecondsEqualsConverted()
    {
        const auto ms = [](qint64 ns) { return double(ns) / 1e9 * 1000; };
        std::mt19937_64 rng(11);
        std::lognormal_distribution<double> gap(17.0, 1.2); // about 24 ms, a long tail
        for (const bool wide : { false, true }) {
            NsList ns;
            std::vector<double> converted;
            for (int i = 0; i < 20000; ++i) {
                const qint64 g = wide && i % 997 == 0 ? qint64(5e9) + i : qint64(gap(rng)) % qint64(4e9);
                ns.append(g);
                converted.push_back(ms(g));
            }
            QCOMPARE(ns.isWide(), wide);
            for (double p : { 50.0, 90.0, 99.0, 99.9 }) {
                NsList a = ns;
                std::vector<double> b = converted;
                const Interval x = ServeScope::percentileInterval(a, p, +ms), y = ServeScope::percentileInterval(b, p);
                QCOMPARE(x.low, y.low);
                QCOMPARE(x.high, y.high);
                QCOMPARE(x.valid, y.valid);
                QVERIFY(x.valid && x.low < x.high);
            }
        }
    }

    void acrossRepeatsSpread()
    {
        const std::vector<double> quiet { 100, 101, 99 }, stalled { 100, 101, 80 };
        const RepeatStat q = acrossRepeats(quiet), s = acrossRepeats(stalled);
        QCOMPARE(q.median, 100.0);
        QCOMPARE(q.spread(), 0.02);
        QVERIFY(reproducible(q));
        QCOMPARE(s.min, 80.0);
        QCOMPARE(s.spread(), 0.21);
        QVERIFY(!reproducible(s));
        QVERIFY(reproducible(acrossRepeats(std::vector<double> { 42 })));
    }

    void tQuantile()
    {
        // Student's t table values (two-sided 95% and 99%).
        QVERIFY(std::abs(studentTQuantile(0.975, 1) - 12.7062) < 1e-3);
        QVERIFY(std::abs(studentTQuantile(0.975, 4) - 2.7764) < 1e-3);
        QVERIFY(std::abs(studentTQuantile(0.995, 10) - 3.1693) < 1e-3);
        QVERIFY(std::abs(studentTQuantile(0.995, 2.5) - studentTQuantile(0.995, 2)) > 0.5); // df need not be whole
        QVERIFY(std::abs(studentTQuantile(0.975, 1e6) - 1.95996) < 1e-3);
        QCOMPARE(studentTQuantile(0.025, 4), -studentTQuantile(0.975, 4));
    }

    // One repeat a side: a change is called only beyond its family's run-to-run noise floor, and
    // not when the requests' intervals still overlap.
    void oneRunEachIsJudgedAgainstTheNoiseFloor_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("b"); // A is 100 with the interval [99, 101]
        QTest::addColumn<double>("bLow");
        QTest::addColumn<double>("bHigh");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("reason");
        const NoiseFloors &f = defaultNoiseFloors();
        const double ttft = 100 * (1 + f.ttft), decode = 100 * (1 + f.decode), tail = 100 * (1 + f.tail);
        QTest::newRow("ttft under its floor") << "median_ttft_ms" << ttft - 2 << ttft - 3 << ttft - 1 << "noise"
                                              << "below-noise-floor";
        QTest::newRow("ttft beyond it") << "median_ttft_ms" << ttft + 2 << ttft + 1 << ttft + 3 << "worse"
                                        << "beyond-noise-floor";
        QTest::newRow("beyond, intervals overlap") << "median_ttft_ms" << ttft + 2 << 100.5 << ttft + 3 << "noise"
                                                   << "intervals-overlap";
        QTest::newRow("decode beyond its floor")
            << "median_tpot_ms" << decode + 2 << decode + 1 << decode + 3 << "worse"
            << "beyond-noise-floor";
        QTest::newRow("decode better") << "median_itl_ms" << 100 - 100 * f.decode - 2 << 80.0 << 85.0 << "better"
                                       << "beyond-noise-floor";
        QTest::newRow("p99 under the tail floor") << "p99_itl_ms" << tail - 5 << tail - 6 << tail - 4 << "noise"
                                                  << "below-noise-floor";
        QTest::newRow("p99 beyond") << "p99_itl_ms" << tail + 5 << tail + 4 << tail + 6 << "worse"
                                    << "beyond-noise-floor";
        QTest::newRow("throughput down, no intervals")
            << "output_throughput" << 100 - 100 * f.throughput - 1 << 1.0 << 0.0 << "worse"
            << "beyond-noise-floor";
        QTest::newRow("throughput within")
            << "output_throughput" << 100 - 100 * f.throughput + 1 << 1.0 << 0.0 << "noise"
            << "below-noise-floor";
    }
    void oneRunEachIsJudgedAgainstTheNoiseFloor()
    {
        QFETCH(QString, key);
        QFETCH(double, b);
        QFETCH(double, bLow);
        QFETCH(double, bHigh);
        QFETCH(QString, verdict);
        QFETCH(QString, reason);
        const bool intervals = bLow <= bHigh;
        QString why;
        double floor = 0;
        const Verdict v = verdictFor(est(key, 100, intervals ? 99 : 1, intervals ? 101 : 0, 1),
            est(key, b, bLow, bHigh, 1), 0.05, &why, defaultNoiseFloors(), &floor);
        QCOMPARE(verdictCode(v), verdict);
        QCOMPARE(why, reason);
        QCOMPARE(floor, defaultNoiseFloors().of(noiseFamily(key)));
    }

    // A few-ms latency that moved less than kJitterMs is timing jitter, whatever its relative size.
    void jitterIsNotAChange()
    {
        QString why;
        const QString key = QStringLiteral("p90_ttft_ms");
        QCOMPARE(verdictFor(est(key, 3, 2.9, 3.1, 1), est(key, 4.5, 4.4, 4.6, 1), 0.05, &why), Verdict::Noise);
        QCOMPARE(why, QStringLiteral("below-jitter"));
        QCOMPARE(verdictFor(est(key, 3, 2.9, 3.1, 1), est(key, 5.5, 5.4, 5.6, 1), 0.05, &why), Verdict::Worse);
        // Not for throughputs.
        const QString tput = QStringLiteral("output_throughput");
        QCOMPARE(verdictFor(est(tput, 3, 1, 0, 1), est(tput, 1.5, 1, 0, 1), 0.05, &why), Verdict::Worse);
    }

    // Two repeats or more a side: Welch's t on the repeats' values decides, and the change must also
    // clear the floor scaled for the repeats (sqrt((1/na + 1/nb) / 2)).
    void repeatsAreJudgedByTheirSpread_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("cv");
        QTest::addColumn<double>("b");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("reason");
        const double required = 100 * defaultNoiseFloors().decode * std::sqrt(1.0 / 3); // 3 repeats a side
        QTest::newRow("tight, beyond") << 3 << 0.01 << 100 + required + 1 << "worse"
                                       << "repeats-differ";
        QTest::newRow("tight, under the scaled floor") << 3 << 0.001 << 100 + required - 0.5 << "noise"
                                                       << "below-noise-floor";
        QTest::newRow("spread wide") << 3 << 0.10 << 100 + required + 1 << "noise"
                                     << "within-repeat-spread";
        QTest::newRow("two repeats, wide t") << 2 << 0.02 << 100 + required + 3 << "noise"
                                             << "within-repeat-spread";
        QTest::newRow("five repeats") << 5 << 0.02 << 90.0 << "better"
                                      << "repeats-differ";
    }
    void repeatsAreJudgedByTheirSpread()
    {
        QFETCH(int, n);
        QFETCH(double, cv);
        QFETCH(double, b);
        QFETCH(QString, verdict);
        QFETCH(QString, reason);
        MetricEstimate ea = est(QStringLiteral("median_tpot_ms"), 100, 1, 0, n);
        MetricEstimate eb = est(QStringLiteral("median_tpot_ms"), b, 1, 0, n);
        ea.repeats.cv = eb.repeats.cv = cv;
        QString why;
        QCOMPARE(verdictCode(verdictFor(ea, eb, 0.05, &why)), verdict);
        QCOMPARE(why, reason);
    }

    // Failures first: the success rate from the requests' counts, the latencies of a side without a
    // successful request blank (censored) instead of −100%, a side with only statistics no verdict.
    void failuresAndMissingRequests()
    {
        const auto withCounts = [](double completed, double failed, double ttft) {
            PointRepeats p = point(QStringLiteral("x"), QStringLiteral("c4"), 4, { completed > 0 ? 1000.0 : 0.0 });
            p.repeats[0].insert(QStringLiteral("completed"), completed);
            p.repeats[0].insert(QStringLiteral("failed"), failed);
            p.repeats[0].insert(QStringLiteral("success_rate"), completed / (completed + failed));
            p.repeats[0].insert(QStringLiteral("median_ttft_ms"), ttft);
            return p;
        };
        const QStringList keys { QStringLiteral("success_rate"), QStringLiteral("median_ttft_ms"),
            QStringLiteral("output_throughput") };
        const PointRepeats healthy = withCounts(200, 0, 50);
        const PointMatching one { { { 0, 0 } }, {}, {} };
        // Endpoint down: every request failed, most of them refused.
        PointRepeats down = withCounts(0, 200, 0);
        down.failures = { { QStringLiteral("connect"), 190 }, { QStringLiteral("timeout_connect"), 10 } };
        QList<DeltaRow> rows = deltaTable({ healthy }, { down }, one, keys);
        QCOMPARE(rows[0].verdict, Verdict::Worse);
        QCOMPARE(rows[0].reason, QStringLiteral("failures-rose"));
        QCOMPARE(rows[0].failureClass, QStringLiteral("connect"));
        QCOMPARE(rows[1].verdict, Verdict::Undecided);
        QCOMPARE(rows[1].reason, QStringLiteral("censored"));
        QVERIFY(rows[1].blank() && std::isnan(rows[1].relative));
        QCOMPARE(rows[2].verdict, Verdict::Worse); // throughput 0 against 1000
        // 5% failed of 200: beyond one point and 3 standard errors.
        rows = deltaTable({ healthy }, { withCounts(190, 10, 50) }, one, keys);
        QCOMPARE(rows[0].verdict, Verdict::Worse);
        QCOMPARE(rows[1].verdict, Verdict::Noise);
        // 1 of 40 failed: could be chance.
        rows = deltaTable({ withCounts(40, 0, 50) }, { withCounts(39, 1, 50) }, one, keys);
        QCOMPARE(rows[0].verdict, Verdict::Noise);
        QCOMPARE(rows[0].reason, QStringLiteral("failures-within-chance"));
        // Fewer failures: better.
        rows = deltaTable({ withCounts(100, 100, 50) }, { healthy }, one, keys);
        QCOMPARE(rows[0].verdict, Verdict::Better);
        // The baseline had none succeed: its latencies are not there either.
        rows = deltaTable({ withCounts(0, 200, 0) }, { healthy }, one, keys);
        QCOMPARE(rows[1].reason, QStringLiteral("censored-baseline"));
        // Only a file's statistics on a side: every row shows its values without a verdict.
        PointRepeats statistics = withCounts(200, 0, 5000);
        statistics.statisticsOnly = true;
        rows = deltaTable({ healthy }, { statistics }, one, keys);
        for (const DeltaRow &r : std::as_const(rows)) {
            QCOMPARE(r.verdict, Verdict::Undecided);
            QCOMPARE(r.reason, QStringLiteral("statistics-only"));
            QVERIFY(r.blank());
        }
    }

    void latencyIntervalsComeFromPooledRequests()
    {
        PointRepeats p = point(QStringLiteral("x"), QStringLiteral("c1"), 1, { 1 });
        p.repeats[0].insert(QStringLiteral("median_ttft_ms"), 500.5);
        std::vector<double> sorted;
        for (int i = 1; i <= 1000; ++i) {
            RequestSample s;
            s.ttft = i / 1000.0; // 1..1000 ms
            p.samples.push_back(s);
            sorted.push_back(i);
        }
        const MetricEstimate e = estimateMetric(p, QStringLiteral("median_ttft_ms"));
        QCOMPARE(e.method, QStringLiteral("order-statistic"));
        const Interval want = ServeScope::percentileInterval(sorted, 50);
        QCOMPARE(e.ci.low, want.low);
        QCOMPARE(e.ci.high, want.high);
        QVERIFY(e.ci.valid);
        // A second repeat far off: the interval also spans the repeats, whatever the requests say.
        p.repeats << QMap<QString, double> { { QStringLiteral("median_ttft_ms"), 900.0 } };
        const MetricEstimate two = estimateMetric(p, QStringLiteral("median_ttft_ms"));
        QCOMPARE(two.method, QStringLiteral("order-statistic+repeat-range"));
        QCOMPARE(two.ci.low, want.low);
        QCOMPARE(two.ci.high, 900.0);
    }

    void matching()
    {
        const QList<PointRepeats> a { point(QStringLiteral("base"), QStringLiteral("l1"), 1, { 1 }),
            point(QStringLiteral("base"), QStringLiteral("c8"), 8, { 1 }),
            point(QStringLiteral("fast"), QStringLiteral("c8"), 8, { 1 }) };
        // Same variants: by label, then by load; c16 has no partner.
        const QList<PointRepeats> b { point(QStringLiteral("fast"), QStringLiteral("c8"), 8, { 1 }),
            point(QStringLiteral("base"), QStringLiteral("c1"), 1, { 1 }),
            point(QStringLiteral("base"), QStringLiteral("c16"), 16, { 1 }),
            point(QStringLiteral("base"), QStringLiteral("c8"), 8, { 1 }) };
        const PointMatching m = matchPoints(a, b);
        QCOMPARE(m.pairs, (QList<QPair<int, int>> { { 0, 1 }, { 1, 3 }, { 2, 0 } }));
        QVERIFY(m.unmatchedA.isEmpty());
        QCOMPARE(m.unmatchedB, QList<int> { 2 });
        // One variant on each side: names do not matter.
        const PointMatching one
            = matchPoints({ a[1] }, { point(QStringLiteral("other"), QStringLiteral("c8"), 8, { 1 }) });
        QCOMPARE(one.pairs.size(), 1);
    }

    void gateConditions_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("metric");
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("relative");
        QTest::newRow("relative up") << "p99_ttft_ms > +10%" << true << "p99_ttft_ms" << 10.0 << true;
        QTest::newRow("relative down") << "output_throughput < -5%" << true << "output_throughput" << -5.0 << true;
        QTest::newRow("absolute") << "median_tpot_ms>50" << true << "median_tpot_ms" << 50.0 << false;
        QTest::newRow("extra percentile") << "p99.9_itl_ms > 5%" << true << "p99.9_itl_ms" << 5.0 << true;
        QTest::newRow("unknown metric") << "p99_foo_ms > 1" << false << "" << 0.0 << false;
        QTest::newRow("no operator") << "p99_ttft_ms 10%" << false << "" << 0.0 << false;
        QTest::newRow("two numbers") << "p99_ttft_ms > 1 2" << false << "" << 0.0 << false;
    }
    void gateConditions()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, metric);
        QFETCH(double, value);
        QFETCH(bool, relative);
        QString error;
        const std::optional<GateCondition> c = parseGateCondition(text, &error);
        QCOMPARE(c.has_value(), ok);
        QCOMPARE(error.isEmpty(), ok);
        if (!ok)
            return;
        QCOMPARE(c->metric, metric);
        QCOMPARE(c->value, value);
        QCOMPARE(c->relative, relative);
    }

    // The gate follows the row's verdict, as every other output: a relative bound fails only on a
    // decided change; a candidate without a successful request fails every condition.
    void gateFailsOnlyOnADecidedChange()
    {
        QString error;
        const GateCondition up = *parseGateCondition(QStringLiteral("p99_ttft_ms > +10%"), &error);
        DeltaRow row = deltaRow(QStringLiteral("x"), QStringLiteral("c1"), up.metric, est(up.metric, 50, 48, 52, 1),
            est(up.metric, 60, 57, 63, 1)); // +20%: beyond the bound, under the tail floor
        QCOMPARE(row.verdict, Verdict::Noise);
        GateOutcome o = evaluateGate(up, row);
        QVERIFY(!o.failed);
        QVERIFY2(o.message.contains(QStringLiteral("within noise")), qPrintable(o.message));
        QVERIFY2(
            o.message.contains(QStringLiteral("a change under 60% is within run-to-run noise")), qPrintable(o.message));
        row = deltaRow(QStringLiteral("x"), QStringLiteral("c1"), up.metric, est(up.metric, 50, 48, 52, 1),
            est(up.metric, 100, 95, 105, 1));
        QCOMPARE(row.verdict, Verdict::Worse);
        o = evaluateGate(up, row);
        QVERIFY(o.failed);
        QVERIFY2(o.message.contains(QStringLiteral("baseline 50, candidate 100, change +50 (+100%)")),
            qPrintable(o.message));
        const GateCondition bound = *parseGateCondition(QStringLiteral("p99_ttft_ms > 120"), &error);
        QVERIFY(!evaluateGate(bound, row).failed);
        row.b = est(up.metric, 121, 57, 63);
        QVERIFY(evaluateGate(bound, row).failed);
        row.reason = QStringLiteral("censored");
        QVERIFY(evaluateGate(up, row).failed);
        row.reason = QStringLiteral("censored-baseline");
        QVERIFY(!evaluateGate(up, row).failed);
    }

    void agreement()
    {
        DeltaRow r;
        r.a = est(QStringLiteral("output_throughput"), 100, 1, 0, 1);
        r.b = est(QStringLiteral("output_throughput"), 104, 1, 0, 1);
        r.change = 4;
        r.relative = 0.04;
        r.verdict = Verdict::Undecided;
        QVERIFY(agrees(r));
        r.relative = 0.06;
        QVERIFY(!agrees(r));
        r.verdict = Verdict::Noise;
        QVERIFY(agrees(r));
    }

    // A point's repeats: stored estimates win, other keys come from the repeats' values, and the
    // widest spread is looked for among the headline metrics only.
    void repeatStatsAndWidestSpread()
    {
        const QList<QMap<QString, double>> repeats {
            { { QStringLiteral("median_ttft_ms"), 10 }, { QStringLiteral("output_throughput"), 1000 },
                { QStringLiteral("server_waiting_max"), 1 } },
            { { QStringLiteral("median_ttft_ms"), 12 }, { QStringLiteral("output_throughput"), 1010 },
                { QStringLiteral("server_waiting_max"), 9 } },
            { { QStringLiteral("median_ttft_ms"), 11 }, { QStringLiteral("output_throughput"), 990 } },
        };
        PointEstimate stored;
        stored.metric = QStringLiteral("output_throughput");
        stored.repeats = 3;
        stored.median = 1005;
        stored.min = 990;
        stored.max = 1010;
        QMap<QString, RepeatStat> stats = repeatStats({ stored }, repeats);
        QCOMPARE(stats.value(QStringLiteral("output_throughput")).median, 1005.0); // the stored one
        QCOMPARE(stats.value(QStringLiteral("median_ttft_ms")).median, 11.0);
        QCOMPARE(stats.value(QStringLiteral("median_ttft_ms")).n, 3);
        QCOMPARE(stats.value(QStringLiteral("server_waiting_max")).n, 2); // the third repeat has no value
        // server_waiting_max spreads 160% but is no headline metric: TTFT's 18% is the widest.
        QCOMPARE(widestSpread(stats), QStringLiteral("median_ttft_ms"));
        QCOMPARE(widestSpread({}), QString());
    }
};

QTEST_GUILESS_MAIN(TestDelta)
#include "tst_delta.moc"
