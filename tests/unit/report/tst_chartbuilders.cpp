// SPDX-License-Identifier: MIT
#include "metrics/repeats.h"
#include "report/chartbuilders.h"
#include "testpoints.h"

#include <QLocale>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ServeScope;
using namespace ServeScope::Report;
using namespace ServeScope::TestPoints;

namespace {

QList<const SeriesSpec *> ofKind(const ChartSpec &spec, SeriesKind kind)
{
    QList<const SeriesSpec *> out;
    for (const SeriesSpec &s : spec.series)
        if (s.kind == kind)
            out << &s;
    return out;
}

RunSeriesInput run(const QString &name, int colour, const QList<PointSummary> &points)
{
    RunSeriesInput in;
    in.name = name;
    in.colour = defaultRunColour(colour);
    in.points = points;
    return in;
}

QList<PointSummary> gradient(const QString &variant, double scale)
{
    QList<PointSummary> pts;
    const int conc[] = { 1, 4, 16, 64 };
    for (int i = 0; i < 4; ++i)
        pts << concurrencyPoint(variant, i, conc[i], scale * conc[i]);
    return pts;
}

void checkLogAxes(const ChartSpec &spec)
{
    for (const SeriesSpec &s : spec.series) {
        const AxisSpec &y = s.secondaryY ? spec.y2 : spec.y;
        for (const QList<QPointF> *list : { &s.points, &s.lower }) {
            for (const QPointF &p : *list) {
                if (spec.x.scale != AxisScale::Linear)
                    QVERIFY2(p.x() > 0, qPrintable(QStringLiteral("x=%1 on a log axis").arg(p.x())));
                if (y.scale != AxisScale::Linear)
                    QVERIFY2(p.y() > 0, qPrintable(QStringLiteral("y=%1 on a log axis").arg(p.y())));
            }
        }
    }
    if (spec.x.scale != AxisScale::Linear)
        QVERIFY(spec.x.min > 0);
    if (spec.y.scale != AxisScale::Linear)
        QVERIFY(spec.y.min > 0);
}

} // namespace

class TestChartBuilders final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void throughputAxesAndValues_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("expectedAt16");
        QTest::newRow("output tok/s") << int(ThroughputKind::OutputTokens) << 1600.0;
        QTest::newRow("requests/s") << int(ThroughputKind::Requests) << 1600.0 / 256;
        QTest::newRow("total tok/s") << int(ThroughputKind::TotalTokens) << 4800.0;
    }
    void throughputAxesAndValues()
    {
        QFETCH(int, kind);
        QFETCH(double, expectedAt16);
        const ChartSpec spec = throughputVsLoad({ run(QStringLiteral("A"), 0, gradient(QStringLiteral("a"), 100)),
                                                    run(QStringLiteral("B"), 1, gradient(QStringLiteral("b"), 80)) },
            ThroughputKind(kind));
        QCOMPARE(spec.x.scale, AxisScale::Log2);
        // Powers of two around 1..64, padded a little so edge markers are not cut.
        QVERIFY(spec.x.min < 1.0 && spec.x.min > 0.8);
        QVERIFY(spec.x.max > 64.0 && spec.x.max < 80.0);
        QCOMPARE(spec.y.scale, AxisScale::Linear);
        QCOMPARE(spec.y.min, 0.0);
        const auto lines = ofKind(spec, SeriesKind::Line);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0]->name, QStringLiteral("A"));
        QCOMPARE(lines[0]->colour, defaultRunColour(0));
        QCOMPARE(lines[1]->colour, defaultRunColour(1));
        QCOMPARE(lines[0]->points.size(), 4);
        QCOMPARE(lines[0]->points[2], QPointF(16, expectedAt16));
        QCOMPARE(lines[0]->tooltips.size(), 4);
        QVERIFY(lines[0]->tooltips[2].contains(QStringLiteral("concurrency 16")));
        QVERIFY(spec.y.max >= lines[0]->points[3].y());
    }

    void rateAndConcurrencyNeverJoined_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("expectedScale");
        QTest::addColumn<QList<double>>("expectedX");
        QTest::newRow("auto picks concurrency")
            << int(LoadMode::Auto) << int(AxisScale::Log2) << QList<double> { 1, 4, 16, 64 };
        QTest::newRow("rate axis") << int(LoadMode::Rate) << int(AxisScale::Linear) << QList<double> { 2, 8 };
    }
    void rateAndConcurrencyNeverJoined()
    {
        QFETCH(int, mode);
        QFETCH(int, expectedScale);
        QFETCH(QList<double>, expectedX);
        QList<PointSummary> pts = gradient(QStringLiteral("a"), 100);
        pts << ratePoint(QStringLiteral("a"), 4, 8, 500) << ratePoint(QStringLiteral("a"), 5, 2, 300)
            << ratePoint(QStringLiteral("a"), 6, std::numeric_limits<double>::infinity(), 900);
        LoadChartOptions o;
        o.mode = LoadMode(mode);
        const ChartSpec spec = throughputVsLoad({ run(QStringLiteral("A"), 0, pts) }, ThroughputKind::OutputTokens, o);
        QCOMPARE(int(spec.x.scale), expectedScale);
        const auto lines = ofKind(spec, SeriesKind::Line);
        QCOMPARE(lines.size(), 1);
        QList<double> xs;
        for (const QPointF &p : lines[0]->points)
            xs << p.x();
        QCOMPARE(xs, expectedX);
        QVERIFY(!spec.notes.isEmpty()); // the other mode's points are reported as not shown
    }

    void differentLengthsAreSeparateCurves()
    {
        QList<PointSummary> pts = gradient(QStringLiteral("a"), 100);
        for (PointSummary p : gradient(QStringLiteral("a"), 50)) {
            p.point += 10;
            p.inputLen = 2048;
            pts << p;
        }
        const ChartSpec spec = throughputVsLoad({ run(QStringLiteral("A"), 0, pts) }, ThroughputKind::OutputTokens);
        const auto lines = ofKind(spec, SeriesKind::Line);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0]->points.size(), 4);
        QCOMPARE(lines[1]->points.size(), 4);
        QVERIFY(lines[1]->name.contains(QStringLiteral("2048")));
        QCOMPARE(lines[0]->group, lines[1]->group);
    }

    void latencyBandsBeforeLines_data()
    {
        QTest::addColumn<bool>("wide");
        QTest::addColumn<int>("bands");
        QTest::newRow("p10-p90 and p25-p75") << false << 2;
        QTest::newRow("with p1-p99") << true << 3;
    }
    void latencyBandsBeforeLines()
    {
        QFETCH(bool, wide);
        QFETCH(int, bands);
        LoadChartOptions o;
        o.wideBand = wide;
        const ChartSpec spec = latencyVsLoad({ run(QStringLiteral("A"), 0, gradient(QStringLiteral("a"), 100)),
                                                 run(QStringLiteral("B"), 1, gradient(QStringLiteral("b"), 90)) },
            Metric::Ttft, o);
        QCOMPARE(ofKind(spec, SeriesKind::Band).size(), qsizetype(2 * bands));
        bool seenNonBand = false;
        for (const SeriesSpec &s : spec.series) {
            if (s.kind != SeriesKind::Band)
                seenNonBand = true;
            else
                QVERIFY2(!seenNonBand, "a band was added after a line or scatter");
            if (s.kind == SeriesKind::Band)
                QCOMPARE(s.lower.size(), s.points.size()); // explicit lower series
        }
        const auto b = ofKind(spec, SeriesKind::Band);
        const int outer = wide ? 1 : 0;
        // Run A at concurrency 4: TTFT base 24 ms.
        QCOMPARE(b[outer]->points[1], QPointF(4, 24 * 1.5));
        QCOMPARE(b[outer]->lower[1], QPointF(4, 24 * 0.7));
        QCOMPARE(b[outer + 1]->points[1], QPointF(4, 24 * 1.2));
        QCOMPARE(b[outer + 1]->lower[1], QPointF(4, 24 * 0.85));
        if (wide)
            QCOMPARE(b[0]->lower[1], QPointF(4, 24 * 0.5));
        const auto lines = ofKind(spec, SeriesKind::Line);
        QCOMPARE(lines[0]->points[1], QPointF(4, 24));
        QVERIFY(spec.y.title.startsWith(QStringLiteral("TTFT")));
    }

    // The answer's TPOT is its own distribution, not TPOT's: a reasoning model's answer decodes at another pace.
    void answerTpotReadsItsOwnDistribution()
    {
        QList<PointSummary> pts = gradient(QStringLiteral("a"), 100);
        for (qsizetype i = 0; i < pts.size(); ++i)
            pts[i].atpot = ladder(7 + double(i));
        const ChartSpec spec = latencyVsLoad({ run(QStringLiteral("A"), 0, pts) }, Metric::Atpot);
        const auto lines = ofKind(spec, SeriesKind::Line);
        QVERIFY(!lines.isEmpty());
        QCOMPARE(lines[0]->points.size(), pts.size());
        for (qsizetype i = 0; i < pts.size(); ++i)
            QCOMPARE(lines[0]->points[i].y(), 7 + double(i));
        QVERIFY2(spec.y.title.startsWith(QStringLiteral("Answer TPOT")), qPrintable(spec.y.title));
    }

    // A buffered run withholds TPOT at every point: the chart draws nothing and says why, not only
    // that values were dropped.
    void withheldEverywhereSaysWhy()
    {
        QList<PointSummary> pts = gradient(QStringLiteral("a"), 100);
        for (PointSummary &p : pts)
            p.tpot = ladder(std::numeric_limits<double>::quiet_NaN());
        const ChartSpec spec = latencyVsLoad({ run(QStringLiteral("A"), 0, pts) }, Metric::Tpot);
        for (const SeriesSpec *line : ofKind(spec, SeriesKind::Line))
            QVERIFY(line->points.isEmpty());
        QVERIFY2(spec.notes.join(u'|').contains(QStringLiteral("Nothing to draw: no point has this metric.")),
            qPrintable(spec.notes.join(u'|')));
        // One point with a value: drawn, and the note says only what was left out.
        pts[0].tpot = ladder(9);
        const ChartSpec some = latencyVsLoad({ run(QStringLiteral("A"), 0, pts) }, Metric::Tpot);
        QVERIFY(!some.notes.join(u'|').contains(QStringLiteral("Nothing to draw")));
    }

    // Sessions: first turns' TTFT p50 solid, later turns' dashed, each at its point's load; a point without sessions
    // is left out of both; runs without any say so.
    void sessionTurnsAgainstLoad()
    {
        QList<PointSummary> pts = gradient(QStringLiteral("a"), 100);
        for (qsizetype i = 0; i < 3; ++i)
            pts[i].turns = { { QStringLiteral("first_turn_median_ttft_ms"), 50 + 10.0 * i },
                { QStringLiteral("later_turn_median_ttft_ms"), 40 + 5.0 * i },
                { QStringLiteral("later_turn_cache_hit_rate"), 66.5 } };
        const ChartSpec spec = turnsVsLoad({ run(QStringLiteral("A"), 0, pts) });
        const auto lines = ofKind(spec, SeriesKind::Line);
        QCOMPARE(lines.size(), 2);
        QVERIFY(!lines[0]->dashed);
        QVERIFY(lines[1]->dashed);
        QCOMPARE(lines[0]->points, (QList<QPointF> { { 1, 50 }, { 4, 60 }, { 16, 70 } }));
        QCOMPARE(lines[1]->points, (QList<QPointF> { { 1, 40 }, { 4, 45 }, { 16, 50 } }));
        QVERIFY2(lines[1]->tooltips[0].contains(QStringLiteral("66.5")), qPrintable(lines[1]->tooltips[0]));
        const ChartSpec none = turnsVsLoad({ run(QStringLiteral("A"), 0, gradient(QStringLiteral("a"), 100)) });
        QVERIFY(ofKind(none, SeriesKind::Line).isEmpty());
        QVERIFY(none.notes.contains(QStringLiteral("No point of these runs measured multi-turn sessions.")));
    }

    void failedPointsAreHollow()
    {
        QList<PointSummary> pts = gradient(QStringLiteral("a"), 100);
        pts[3].failed = 3;
        pts[3].successRate = 0.97;
        const ChartSpec spec = latencyVsLoad({ run(QStringLiteral("A"), 0, pts) }, Metric::E2el);
        const auto scatters = ofKind(spec, SeriesKind::Scatter);
        QCOMPARE(scatters.size(), 2);
        const SeriesSpec *hollow = scatters[0]->hollow ? scatters[0] : scatters[1];
        const SeriesSpec *filled = scatters[0]->hollow ? scatters[1] : scatters[0];
        QVERIFY(hollow->hollow);
        QCOMPARE(hollow->points.size(), 1);
        QCOMPARE(hollow->points[0].x(), 64.0);
        QCOMPARE(filled->points.size(), 3);
        QVERIFY2(hollow->tooltips[0].contains(QStringLiteral("97")), qPrintable(hollow->tooltips[0]));
        QVERIFY(hollow->tooltips[0].contains(QStringLiteral("3 failed")));
    }

    void medianAcrossRepeats_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<double>("expected");
        QTest::newRow("odd") << QList<double> { 100, 500, 300 } << 300.0;
        QTest::newRow("even") << QList<double> { 100, 400, 200, 300 } << 250.0;
        QTest::newRow("single") << QList<double> { 42 } << 42.0;
    }
    void medianAcrossRepeats()
    {
        QFETCH(QList<double>, values);
        QFETCH(double, expected);
        QList<PointSummary> pts;
        for (int r = 0; r < values.size(); ++r)
            pts << concurrencyPoint(QStringLiteral("a"), 0, 8, values[r], r + 1);
        const QList<PointSummary> m = ServeScope::medianAcrossRepeats(pts);
        QCOMPARE(m.size(), 1);
        QCOMPARE(m[0].outputThroughput, expected);
        QCOMPARE(m[0].repeat, int(values.size()));
        const ChartSpec spec = throughputVsLoad({ run(QStringLiteral("A"), 0, pts) }, ThroughputKind::OutputTokens);
        QCOMPARE(ofKind(spec, SeriesKind::Line)[0]->points, QList<QPointF> { QPointF(8, expected) });
        // The spread across repeats as a band behind the line: min to max.
        const auto bands = ofKind(spec, SeriesKind::Band);
        if (values.size() == 1) {
            QVERIFY(bands.isEmpty());
        } else {
            QCOMPARE(bands.size(), 1);
            QCOMPARE(bands[0]->points, QList<QPointF> { QPointF(8, *std::max_element(values.begin(), values.end())) });
            QCOMPARE(bands[0]->lower, QList<QPointF> { QPointF(8, *std::min_element(values.begin(), values.end())) });
        }
        // Latency charts name the p50's range across repeats in the point's tooltip.
        for (int r = 0; r < pts.size(); ++r)
            pts[r].ttft.p50 = 10 + r;
        const ChartSpec ttft = latencyVsLoad({ run(QStringLiteral("A"), 0, pts) }, Metric::Ttft);
        const QString tip = ofKind(ttft, SeriesKind::Line)[0]->tooltips.value(0);
        QCOMPARE(tip.contains(QStringLiteral("p50 across repeats 10–%1 ms").arg(9 + values.size())), values.size() > 1);
        // ... and draw it as a bar over the point: a two-point line without a legend entry.
        const auto lines = ofKind(ttft, SeriesKind::Line);
        QCOMPARE(lines.size(), values.size() > 1 ? 2 : 1);
        if (values.size() > 1) {
            QCOMPARE(lines[1]->points, (QList<QPointF> { QPointF(8, 10), QPointF(8, 9 + double(values.size())) }));
            QVERIFY(lines[1]->name.isEmpty());
            QCOMPARE(lines[1]->group, QStringLiteral("A"));
            QCOMPARE(lines[1]->tooltips.value(1), tip);
        }
    }

    // The knee is marked by an open diamond, never by the hollow circle of a point with failures.
    void kneeIsMarked()
    {
        QList<PointSummary> pts;
        for (int i = 0; i < 4; ++i)
            pts << concurrencyPoint(QStringLiteral("a"), i, 1 << (i + 1), 500.0 * (i + 1));
        RunSeriesInput in = run(QStringLiteral("A"), 0, pts);
        const auto rings = [](const ChartSpec &spec) {
            QList<const SeriesSpec *> out;
            for (const SeriesSpec *s : ofKind(spec, SeriesKind::Scatter))
                if (s->knee && s->points.size() == 1 && s->tooltips.value(0).contains(QStringLiteral("knee")))
                    out << s;
            return out;
        };
        QVERIFY(rings(throughputVsLoad({ in }, ThroughputKind::OutputTokens)).isEmpty());
        in.kneeLabel = QStringLiteral("c8");
        const ChartSpec spec = throughputVsLoad({ in }, ThroughputKind::OutputTokens);
        const auto ring = rings(spec);
        QCOMPARE(ring.size(), 1);
        QCOMPARE(ring[0]->points.first(), QPointF(8, 1500));
        QCOMPARE(ring[0]->group, QStringLiteral("A"));
        QVERIFY(!ring[0]->hollow);
        QVERIFY(spec.notes.join(u' ').contains(QStringLiteral("Diamond: the capacity knee")));
    }

    // Per GPU against per user: each curve in load order at (1000 / TPOT p50, output / GPUs), the
    // frontier across curves, each curve read at the target speed only inside its measured range.
    void throughputPerGpuAgainstInteractivity()
    {
        RunSeriesInput a = run(QStringLiteral("A"), 0, gradient(QStringLiteral("a"), 100));
        a.gpus = 4;
        a.gpusAssumed = false;
        RunSeriesInput b = run(QStringLiteral("B"), 1, gradient(QStringLiteral("b"), 60));
        const ChartSpec spec = throughputPerGpu({ a, b }, 35);
        const auto line = [&](const QString &name) -> const SeriesSpec * {
            for (const SeriesSpec &s : spec.series)
                if (s.kind == SeriesKind::Line && s.name == name)
                    return &s;
            return nullptr;
        };
        const SeriesSpec *la = line(QStringLiteral("A"));
        QVERIFY(la);
        QCOMPARE(la->points.size(), 4);
        // c1: TPOT p50 18.5 ms, 100 tok/s over 4 GPUs; c64: 50 ms, 6400 / 4.
        QCOMPARE(la->points.first(), QPointF(1000 / 18.5, 25));
        QCOMPARE(la->points.last(), QPointF(1000 / 50.0, 1600));
        const SeriesSpec *frontier = line(QStringLiteral("Pareto frontier"));
        QVERIFY(frontier && frontier->dashed);
        // B on one GPU beats A's per-GPU throughput at every speed: the frontier is B's curve.
        const SeriesSpec *lb = line(QStringLiteral("B"));
        QVERIFY(lb);
        QList<QPointF> bSorted = lb->points;
        std::sort(bSorted.begin(), bSorted.end(), [](const QPointF &x, const QPointF &y) { return x.x() < y.x(); });
        QCOMPARE(frontier->points, bSorted);
        // 35 tok/s per user lies between c16 (26 ms, 38.5) and c64 (50 ms, 20) on both curves.
        const double t = 35;
        const QPointF c16(1000 / 26.0, 1600 / 4.0), c64(1000 / 50.0, 6400 / 4.0);
        const double expectA = c64.y() + (c16.y() - c64.y()) * (t - c64.x()) / (c16.x() - c64.x());
        const QString notes = spec.notes.join(u'\n');
        QVERIFY2(
            notes.contains(
                QStringLiteral("A: %1 tok/s per GPU at 35 tok/s per user").arg(QLocale().toString(expectA, 'f', 0))),
            qPrintable(notes));
        QVERIFY(notes.contains(QStringLiteral("GPU count not known, one assumed: B")));
        QVERIFY(!notes.contains(QStringLiteral("assumed: A")));
        // Beyond every curve's range: said, not drawn.
        const ChartSpec far = throughputPerGpu({ a, b }, 500);
        QVERIFY(far.notes.join(u' ').contains(QStringLiteral("A: 500 tok/s per user is outside its measured range")));
        for (const SeriesSpec &s : far.series)
            QVERIFY(!(s.kind == SeriesKind::Scatter && s.points.value(0).x() == 500));
    }

    void steadySetCharts()
    {
        QList<PointSummary> pts { concurrencyPoint(QStringLiteral("a"), 0, 4, 900),
            concurrencyPoint(QStringLiteral("a"), 1, 8, 1500), concurrencyPoint(QStringLiteral("a"), 2, 16, 2000) };
        // Points 0 and 1 had a steady window; point 2 never had all its slots busy.
        for (int i = 0; i < 2; ++i) {
            pts[i].steady = { { QStringLiteral("valid"), 1 }, { QStringLiteral("output_throughput"), 1000.0 + i },
                { QStringLiteral("median_tpot_ms"), 30.0 + i }, { QStringLiteral("p25_tpot_ms"), 25.0 + i },
                { QStringLiteral("p75_tpot_ms"), 35.0 + i }, { QStringLiteral("completed"), 90 } };
        }
        pts[2].steady = { { QStringLiteral("valid"), 0 } };
        LoadChartOptions o;
        o.steady = true;
        const ChartSpec tp = throughputVsLoad({ run(QStringLiteral("A"), 0, pts) }, ThroughputKind::OutputTokens, o);
        QVERIFY2(tp.title.endsWith(QStringLiteral("(steady window)")), qPrintable(tp.title));
        QCOMPARE(ofKind(tp, SeriesKind::Line)[0]->points, (QList<QPointF> { QPointF(4, 1000), QPointF(8, 1001) }));
        QVERIFY2(tp.notes.join(u' ').contains(QStringLiteral("1 point repeat(s) without a steady window")),
            qPrintable(tp.notes.join(u' ')));
        const ChartSpec tpot = latencyVsLoad({ run(QStringLiteral("A"), 0, pts) }, Metric::Tpot, o);
        QCOMPARE(ofKind(tpot, SeriesKind::Line)[0]->points, (QList<QPointF> { QPointF(4, 30), QPointF(8, 31) }));
        // The p25-p75 band from the steady set; vLLM's set is untouched without the option.
        bool inner = false;
        for (const SeriesSpec *b : ofKind(tpot, SeriesKind::Band))
            inner = inner || (b->points == QList<QPointF> { QPointF(4, 35), QPointF(8, 36) });
        QVERIFY(inner);
        const ChartSpec plain = throughputVsLoad({ run(QStringLiteral("A"), 0, pts) }, ThroughputKind::OutputTokens);
        QCOMPARE(ofKind(plain, SeriesKind::Line)[0]->points.size(), 3);
        QVERIFY(!plain.title.contains(QStringLiteral("steady")));
    }

    void logAxisNeverNonPositive_data()
    {
        QTest::addColumn<int>("chart");
        QTest::newRow("latency vs load, log y") << 0;
        QTest::newRow("latency vs throughput, log y") << 1;
        QTest::newRow("CDF with zeros and negatives") << 2;
        QTest::newRow("histogram with zeros") << 3;
        QTest::newRow("switched to log y after build") << 4;
    }
    void logAxisNeverNonPositive()
    {
        QFETCH(int, chart);
        QList<PointSummary> pts = gradient(QStringLiteral("a"), 100);
        pts[0].ttft.p1 = 0; // a band edge at zero
        pts[0].ttft.p10 = -1;
        pts[1].ttft.p50 = 0; // a line point at zero
        pts[1].outputThroughput = 0;
        LoadChartOptions o;
        o.yScale = AxisScale::Log10;
        o.wideBand = true;
        const QList<DistributionInput> dist { { QStringLiteral("A"), Qt::blue, { 0, -3, 1, 2, 5, 10, 100 } } };
        ChartSpec spec;
        switch (chart) {
        case 0:
            spec = latencyVsLoad({ run(QStringLiteral("A"), 0, pts) }, Metric::Ttft, o);
            break;
        case 1:
            spec = latencyVsThroughput({ run(QStringLiteral("A"), 0, pts) }, Metric::Ttft, o);
            break;
        case 2:
            spec = distributionCdf(dist, Metric::Ttft, QStringLiteral("c1"));
            break;
        case 3:
            spec = distributionHistogram(dist, Metric::Ttft, QStringLiteral("c1"));
            break;
        default:
            spec = withAxisScale(
                latencyVsLoad({ run(QStringLiteral("A"), 0, pts) }, Metric::Ttft), 'y', AxisScale::Log10);
        }
        checkLogAxes(spec);
        QVERIFY2(!spec.notes.isEmpty(), "dropping or clamping must be stated");
        QVERIFY(!spec.series.isEmpty());
    }

    void pointBudget_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("under budget") << 1500;
        QTest::newRow("over budget") << 50000;
    }
    void pointBudget()
    {
        QFETCH(int, n);
        QList<double> values;
        for (int i = 0; i < n; ++i)
            values << 10.0 + (i * 7919 % n) * 0.01;
        const ChartSpec cdf = distributionCdf({ { QStringLiteral("A"), Qt::blue, values } }, Metric::Itl, QString());
        QCOMPARE(cdf.series.size(), 1);
        QVERIFY(cdf.series[0].points.size() <= kPointBudget);
        if (n <= kPointBudget)
            QCOMPARE(cdf.series[0].points.size(), qsizetype(n));
        else
            QVERIFY(cdf.series[0].points.size() > kPointBudget / 2);
        QCOMPARE(cdf.series[0].points.last().y(), 1.0); // the last point survives decimation
        QCOMPARE(cdf.series[0].tooltips.size(), cdf.series[0].points.size());

        TimeSeriesInput ts { QStringLiteral("A"), Qt::blue, {}, 1.0, {} };
        for (int i = 0; i < n; ++i) {
            RequestRecord r;
            r.startNs = qint64(i) * 1'000'000;
            r.endNs = r.startNs + 50'000'000 + (i % 7) * 1'000'000;
            r.completionTokens = 2;
            r.eventNs = { 10'000'000, 40'000'000 };
            r.eventKinds = { EventKind::Content, EventKind::Content };
            ts.requests << r;
        }
        const ChartSpec timeline = runTimeSeries({ ts });
        for (const SeriesSpec &s : timeline.series)
            QVERIFY2(s.points.size() <= kPointBudget, qPrintable(s.name));
    }

    void decimateKeepsExtremes()
    {
        QList<QPointF> pts;
        for (int i = 0; i < 100000; ++i)
            pts << QPointF(i, i == 54321 ? 1000.0 : (i == 7777 ? -1000.0 : std::sin(i * 0.001)));
        const QList<QPointF> d = decimate(pts, kPointBudget);
        QVERIFY(d.size() <= kPointBudget);
        QCOMPARE(d.first(), pts.first());
        QCOMPARE(d.last(), pts.last());
        QVERIFY(d.contains(QPointF(54321, 1000.0)));
        QVERIFY(d.contains(QPointF(7777, -1000.0)));
        for (int i = 1; i < d.size(); ++i)
            QVERIFY(d[i].x() > d[i - 1].x());
    }

    void histogramShares()
    {
        QList<double> a, b;
        for (int i = 1; i <= 1000; ++i) {
            a << i * 0.1;
            b << i * 0.2;
        }
        const ChartSpec spec
            = distributionHistogram({ { QStringLiteral("A"), Qt::blue, a }, { QStringLiteral("B"), Qt::red, b } },
                Metric::Tpot, QStringLiteral("c8"), 20);
        QCOMPARE(spec.series.size(), 2);
        QCOMPARE(spec.x.scale, AxisScale::Log10);
        for (const SeriesSpec &s : spec.series) {
            double sum = 0;
            for (int i = 0; i < s.points.size(); i += 2)
                sum += s.points[i].y();
            QCOMPARE(qRound(sum * 1e9), qRound(1e9));
        }
        // Shared bins: both inputs have the same edges.
        QCOMPARE(spec.series[0].points.first().x(), spec.series[1].points.first().x());
    }

    void timeSeriesValues()
    {
        TimeSeriesInput in { QStringLiteral("A"), Qt::blue, {}, 1.0, {} };
        const qint64 s = 1'000'000'000;
        auto req = [&](qint64 start, qint64 end, int tokens) {
            RequestRecord r;
            r.startNs = start;
            r.endNs = end;
            r.completionTokens = tokens;
            for (int i = 0; i < tokens; ++i) {
                r.eventNs << (end - start) * (i + 1) / tokens;
                r.eventKinds << EventKind::Content;
            }
            return r;
        };
        in.requests << req(10 * s, 10 * s + s / 2, 10) << req(10 * s + s / 4, 11 * s + s / 2, 30);
        RequestRecord warm = req(0, s, 100);
        warm.warmup = true;
        in.requests << warm;
        const ChartSpec spec = runTimeSeries({ in });
        QVERIFY(spec.hasY2);
        const SeriesSpec *flight = nullptr, *tokens = nullptr, *done = nullptr;
        for (const SeriesSpec &x : spec.series) {
            if (x.secondaryY)
                tokens = &x;
            else if (x.dashed)
                done = &x;
            else
                flight = &x;
        }
        QVERIFY(flight && tokens && done);
        double peak = 0;
        for (const QPointF &p : flight->points)
            peak = std::max(peak, p.y());
        QCOMPARE(peak, 2.0);
        QCOMPARE(flight->points.last().y(), 0.0);
        double total = 0;
        for (const QPointF &p : tokens->points)
            total += p.y();
        QCOMPARE(total, 40.0); // 1 s buckets: tokens/s sum equals tokens
        QCOMPARE(done->points.size(), 2);
        QCOMPARE(spec.series.size(), 3); // no server samples: no server series

        // The server's gauges, summed over label sets per scrape, from the first measured request on.
        in.server = { { 9 * s, QStringLiteral("vllm:num_requests_running"), QStringLiteral("gpu=\"0\""), 7 },
            { 10 * s + s / 2, QStringLiteral("vllm:num_requests_running"), QStringLiteral("gpu=\"0\""), 1 },
            { 10 * s + s / 2, QStringLiteral("vllm:num_requests_running"), QStringLiteral("gpu=\"1\""), 1 },
            { 10 * s + s / 2, QStringLiteral("vllm:num_requests_waiting"), QString(), 3 },
            { 11 * s, QStringLiteral("vllm:num_requests_waiting"), QString(), 0 },
            { 11 * s, QStringLiteral("vllm:kv_cache_usage_perc"), QString(), 0.5 } };
        const ChartSpec withServer = runTimeSeries({ in });
        QCOMPARE(withServer.series.size(), 5);
        const SeriesSpec &running = withServer.series[3], &waiting = withServer.series[4];
        QCOMPARE(running.name, QStringLiteral("server running"));
        QCOMPARE(running.points, QList<QPointF> { QPointF(0.5, 2) });
        QCOMPARE(waiting.name, QStringLiteral("server waiting"));
        QCOMPARE(waiting.points, (QList<QPointF> { QPointF(0.5, 3), QPointF(1, 0) }));
        QVERIFY(running.dashed && !running.secondaryY);
    }

    void metricCodes()
    {
        for (Metric m : { Metric::Ttft, Metric::Ttfc, Metric::Ttfo, Metric::Tpot, Metric::Atpot, Metric::Itl,
                 Metric::Citl, Metric::E2el }) {
            Metric back;
            QVERIFY(metricFromCode(metricCode(m), &back));
            QCOMPARE(back, m);
        }
        Metric unused;
        QVERIFY(!metricFromCode(u"p99", &unused));
    }

    void inputsPerVariantSplits()
    {
        QList<PointSummary> pts = gradient(QStringLiteral("baseline"), 100);
        pts << gradient(QStringLiteral("seqs-64"), 90);
        const QList<RunSeriesInput> in = inputsPerVariant(QStringLiteral("sweep"), pts);
        QCOMPARE(in.size(), 2);
        QCOMPARE(in[1].name, QStringLiteral("sweep / seqs-64"));
        QCOMPARE(in[1].points.size(), 4);
        QVERIFY(in[0].colour != in[1].colour);
    }
};

QTEST_GUILESS_MAIN(TestChartBuilders)
#include "tst_chartbuilders.moc"
