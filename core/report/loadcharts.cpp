// SPDX-License-Identifier: MIT
#include "report/loadcurves.h"

#include "metrics/aggregate.h"

#include <QCoreApplication>

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

namespace ServeScope::Report {

using namespace Detail;

namespace {

struct MetricInfo {
    const char *code;
    const char *title;
    Distribution PointSummary::*member;
};

const std::array<MetricInfo, 8> kMetrics = { {
    { "ttft", QT_TRANSLATE_NOOP("ServeScope::Report", "TTFT"), &PointSummary::ttft },
    { "ttfc", QT_TRANSLATE_NOOP("ServeScope::Report", "Time to first content"), &PointSummary::ttfc },
    { "ttfo", QT_TRANSLATE_NOOP("ServeScope::Report", "TTFO"), &PointSummary::ttfo },
    { "tpot", QT_TRANSLATE_NOOP("ServeScope::Report", "TPOT"), &PointSummary::tpot },
    { "atpot", QT_TRANSLATE_NOOP("ServeScope::Report", "Answer TPOT"), &PointSummary::atpot },
    { "itl", QT_TRANSLATE_NOOP("ServeScope::Report", "ITL"), &PointSummary::itl },
    { "citl", QT_TRANSLATE_NOOP("ServeScope::Report", "Content ITL"), &PointSummary::citl },
    { "e2el", QT_TRANSLATE_NOOP("ServeScope::Report", "E2EL"), &PointSummary::e2el },
} };

double throughputOf(const PointSummary &p, ThroughputKind k)
{
    switch (k) {
    case ThroughputKind::Requests:
        return p.requestThroughput;
    case ThroughputKind::TotalTokens:
        return p.totalTokenThroughput;
    case ThroughputKind::OutputTokens:
        break;
    }
    return p.outputThroughput;
}

// `axis`: the y axis's shorter name; in the window a plot can be too short for "Output tokens/s",
// which Qt then elides to "Output toke...".
QString throughputTitle(ThroughputKind k, bool axis = false)
{
    switch (k) {
    case ThroughputKind::Requests:
        return tr("Requests/s");
    case ThroughputKind::TotalTokens:
        return axis ? tr("Total tok/s") : tr("Total tokens/s");
    case ThroughputKind::OutputTokens:
        break;
    }
    return axis ? tr("Output tok/s") : tr("Output tokens/s");
}

// The range a point's value spanned over its repeats (min, max); nullopt for one repeat.
std::optional<std::pair<double, double>> repeatRange(const QList<PointSummary> &all, const PointSummary &median,
    const std::function<double(const PointSummary &)> &value)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    int n = 0;
    for (const PointSummary &p : all) {
        if (p.runId != median.runId || p.variant != median.variant || p.point != median.point)
            continue;
        lo = std::min(lo, value(p));
        hi = std::max(hi, value(p));
        ++n;
    }
    return n > 1 ? std::optional(std::pair { lo, hi }) : std::nullopt;
}

// The inputs as the chosen result set states them; for the steady set, points without a valid
// window are left out and counted in *dropped.
QList<RunSeriesInput> forSet(const QList<RunSeriesInput> &runs, const LoadChartOptions &o, int *dropped)
{
    *dropped = 0;
    if (!o.steady)
        return runs;
    QList<RunSeriesInput> out = runs;
    for (RunSeriesInput &r : out) {
        QList<PointSummary> kept;
        for (const PointSummary &p : std::as_const(r.points)) {
            if (const std::optional<PointSummary> s = steadySummary(p))
                kept << *s;
            else
                ++*dropped;
        }
        r.points = kept;
    }
    return out;
}

// Title, subtitle prefix and the note of the points a steady chart leaves out.
void labelSet(ChartSpec &spec, const LoadChartOptions &o, int dropped)
{
    if (!o.steady)
        return;
    spec.title = tr("%1 (steady window)").arg(spec.title);
    if (dropped > 0)
        spec.notes << QCoreApplication::translate("ServeScope::Report",
            "%n point repeat(s) without a steady window (never all slots busy) left out", nullptr, dropped);
}

// A vertical bar from the lowest to the highest p50 of a point's repeats: a two-point line without
// a legend entry, so every renderer and export format draws it.
SeriesSpec whisker(const QString &group, const QColor &c, double x, std::pair<double, double> range, const QString &tip)
{
    SeriesSpec s;
    s.group = group;
    s.colour = c.darker(130);
    s.width = 1.5;
    s.points = { QPointF(x, range.first), QPointF(x, range.second) };
    s.tooltips = { tip, tip };
    return s;
}

// A ring around the curve's knee point (the run's capacity-knee finding), when it is on this curve.
bool addKnee(ChartSpec &spec, const RunSeriesInput &run, const Curve &c, const SeriesSpec &line)
{
    if (run.kneeLabel.isEmpty())
        return false;
    for (qsizetype i = 0; i < c.points.size(); ++i) {
        if (c.points[i].label != run.kneeLabel)
            continue;
        SeriesSpec ring;
        ring.kind = SeriesKind::Scatter;
        ring.group = line.group;
        ring.colour = line.colour;
        ring.knee = true;
        ring.width = 18;
        ring.points = { line.points.value(int(i)) };
        ring.tooltips = { tr("%1: capacity knee at %2").arg(run.name, c.points[i].label) };
        spec.series << ring;
        return true;
    }
    return false;
}

SeriesSpec band(const QString &group, const QColor &c, double opacity)
{
    SeriesSpec s;
    s.kind = SeriesKind::Band;
    s.group = group;
    s.colour = c;
    s.opacity = opacity;
    return s;
}

} // namespace

QString metricCode(Metric m)
{
    return QString::fromLatin1(kMetrics[size_t(m)].code);
}

bool metricFromCode(QStringView code, Metric *out)
{
    for (size_t i = 0; i < kMetrics.size(); ++i) {
        if (code == QLatin1String(kMetrics[i].code)) {
            *out = Metric(i);
            return true;
        }
    }
    return false;
}

QString metricTitle(Metric m)
{
    return tr(kMetrics[size_t(m)].title);
}

const Distribution &metricDistribution(const PointSummary &p, Metric m)
{
    return p.*(kMetrics[size_t(m)].member);
}

ChartSpec throughputVsLoad(const QList<RunSeriesInput> &inputs, ThroughputKind kind, const LoadChartOptions &o)
{
    int dropped = 0;
    const QList<RunSeriesInput> runs = forSet(inputs, o, &dropped);
    const CurvePlan plan = planCurves(runs, o.mode);
    ChartSpec spec = baseSpec(runs);
    spec.title = tr("%1 vs load").arg(throughputTitle(kind).section(QLatin1String(" ("), 0, 0));
    spec.subtitle = tr("median across repeats (shaded: their min–max); hollow markers: points with failed or "
                       "cancelled requests");
    spec.x = loadAxis(plan.mode);
    spec.y.title = throughputTitle(kind, true);
    spec.y.scale = o.yScale;
    spec.notes = plan.notes;
    bool knee = false;
    for (qsizetype r = 0; r < runs.size(); ++r) {
        for (const Curve &c : plan.perRun[r]) {
            SeriesSpec line;
            line.name = runs[r].name + c.suffix;
            line.group = runs[r].name;
            line.colour = runs[r].colour;
            SeriesSpec spread = band(runs[r].name, runs[r].colour, 0.18);
            for (const PointSummary &p : c.points) {
                const double x = loadValue(p, plan.mode);
                line.points << QPointF(x, throughputOf(p, kind));
                QStringList lines { tr("output %1 tok/s").arg(fmt(p.outputThroughput)),
                    tr("requests %1 req/s").arg(fmt(p.requestThroughput)) };
                const auto range
                    = repeatRange(runs[r].points, p, [kind](const PointSummary &s) { return throughputOf(s, kind); });
                if (range) {
                    spread.points << QPointF(x, range->second);
                    spread.lower << QPointF(x, range->first);
                    lines << tr("repeats %1–%2").arg(fmt(range->first), fmt(range->second));
                }
                line.tooltips << pointTooltip(runs[r].name, p, lines);
            }
            // A band only where every point of the curve has repeats: a band with gaps would mislead.
            if (!spread.points.isEmpty() && spread.points.size() == line.points.size())
                spec.series << spread;
            spec.series << line;
            addMarkers(spec, line.group, line.colour, c.points, line.points, line.tooltips);
            knee = addKnee(spec, runs[r], c, line) || knee;
        }
    }
    if (knee)
        spec.notes << tr("Diamond: the capacity knee, where throughput grows less than 10% per doubling of load "
                         "while TTFT p99 still rises.");
    labelSet(spec, o, dropped);
    finalizeSpec(spec);
    return spec;
}

ChartSpec latencyVsLoad(const QList<RunSeriesInput> &inputs, Metric metric, const LoadChartOptions &o)
{
    int dropped = 0;
    const QList<RunSeriesInput> runs = forSet(inputs, o, &dropped);
    const CurvePlan plan = planCurves(runs, o.mode);
    ChartSpec spec = baseSpec(runs);
    const QString name = metricTitle(metric);
    spec.title = tr("%1 vs load").arg(name);
    spec.subtitle = o.wideBand
        ? tr("p50 line; shaded p25–p75, p10–p90 and p1–p99; median across repeats (bar: their p50 min–max)")
        : tr("p50 line; shaded p25–p75 and p10–p90; median across repeats (bar: their p50 min–max)");
    spec.x = loadAxis(plan.mode);
    spec.y.title = tr("%1 (ms)").arg(name);
    spec.y.scale = o.yScale;
    spec.notes = plan.notes;
    for (qsizetype r = 0; r < runs.size(); ++r) {
        const QColor colour = runs[r].colour;
        for (const Curve &c : plan.perRun[r]) {
            const QString group = runs[r].name;
            SeriesSpec wide = band(group, colour, 0.08), outer = band(group, colour, 0.16),
                       inner = band(group, colour, 0.30);
            SeriesSpec line;
            line.name = runs[r].name + c.suffix;
            line.group = group;
            line.colour = colour;
            QList<SeriesSpec> whiskers;
            for (const PointSummary &p : c.points) {
                const Distribution &d = metricDistribution(p, metric);
                const double x = loadValue(p, plan.mode);
                wide.points << QPointF(x, d.p99);
                wide.lower << QPointF(x, d.p1);
                outer.points << QPointF(x, d.p90);
                outer.lower << QPointF(x, d.p10);
                inner.points << QPointF(x, d.p75);
                inner.lower << QPointF(x, d.p25);
                line.points << QPointF(x, d.p50);
                QStringList lines { tr("%1 p50 %2 ms").arg(name, fmt(d.p50)),
                    tr("p25–p75 %1–%2 ms").arg(fmt(d.p25), fmt(d.p75)),
                    tr("p10–p90 %1–%2 ms").arg(fmt(d.p10), fmt(d.p90)),
                    tr("p1–p99 %1–%2 ms").arg(fmt(d.p1), fmt(d.p99)) };
                const auto range = repeatRange(
                    runs[r].points, p, [metric](const PointSummary &s) { return metricDistribution(s, metric).p50; });
                if (range)
                    lines << tr("p50 across repeats %1–%2 ms").arg(fmt(range->first), fmt(range->second));
                line.tooltips << pointTooltip(runs[r].name, p, lines);
                if (range)
                    whiskers << whisker(group, colour, x, *range, line.tooltips.last());
            }
            if (o.wideBand)
                spec.series << wide;
            spec.series << outer << inner << line << whiskers;
            addMarkers(spec, group, colour, c.points, line.points, line.tooltips);
        }
    }
    labelSet(spec, o, dropped);
    finalizeSpec(spec);
    return spec;
}

ChartSpec turnsVsLoad(const QList<RunSeriesInput> &inputs, const LoadChartOptions &o)
{
    LoadChartOptions vllm = o;
    vllm.steady = false; // the turns' figures are vLLM's set's
    int dropped = 0;
    const QList<RunSeriesInput> runs = forSet(inputs, vllm, &dropped);
    const CurvePlan plan = planCurves(runs, o.mode);
    ChartSpec spec = baseSpec(runs);
    spec.title = tr("TTFT of sessions' first and later turns vs load");
    spec.subtitle = tr("p50; solid: first turns, dashed: later turns (their prompts carry the conversation so far); "
                       "median across repeats");
    spec.x = loadAxis(plan.mode);
    spec.y.title = tr("TTFT p50 (ms)");
    spec.y.scale = o.yScale;
    spec.notes = plan.notes;
    if (o.steady)
        spec.notes << tr("Sessions' turns are drawn from vLLM's result set.");
    const auto value = [](const PointSummary &p, const char *key) {
        return p.turns.value(QLatin1String(key), std::numeric_limits<double>::quiet_NaN());
    };
    bool any = false;
    for (qsizetype r = 0; r < runs.size(); ++r) {
        for (const Curve &c : plan.perRun[r]) {
            for (const bool first : { true, false }) {
                SeriesSpec line;
                line.name = runs[r].name + c.suffix + (first ? tr(" · first turns") : tr(" · later turns"));
                line.group = runs[r].name;
                line.colour = runs[r].colour;
                line.dashed = !first;
                for (const PointSummary &p : c.points) {
                    const double y = value(p, first ? "first_turn_median_ttft_ms" : "later_turn_median_ttft_ms");
                    if (!std::isfinite(y))
                        continue;
                    line.points << QPointF(loadValue(p, plan.mode), y);
                    QStringList lines { tr("first turns: TTFT p50 %1 ms, p99 %2 ms")
                                            .arg(fmt(value(p, "first_turn_median_ttft_ms")),
                                                fmt(value(p, "first_turn_p99_ttft_ms"))),
                        tr("later turns: TTFT p50 %1 ms, p99 %2 ms")
                            .arg(fmt(value(p, "later_turn_median_ttft_ms")), fmt(value(p, "later_turn_p99_ttft_ms"))) };
                    const double hits = value(p, "later_turn_cache_hit_rate");
                    if (std::isfinite(hits))
                        lines << tr("later turns' prompt cached %1%").arg(fmt(hits));
                    line.tooltips << pointTooltip(runs[r].name, p, lines);
                }
                if (line.points.isEmpty())
                    continue;
                any = true;
                spec.series << line;
                SeriesSpec markers;
                markers.kind = SeriesKind::Scatter;
                markers.group = line.group;
                markers.colour = line.colour;
                markers.points = line.points;
                markers.tooltips = line.tooltips;
                markers.width = 7;
                spec.series << markers;
            }
        }
    }
    if (!any)
        spec.notes << tr("No point of these runs measured multi-turn sessions.");
    labelSet(spec, vllm, dropped);
    finalizeSpec(spec);
    return spec;
}

ChartSpec latencyVsThroughput(const QList<RunSeriesInput> &inputs, Metric metric, const LoadChartOptions &o)
{
    int dropped = 0;
    const QList<RunSeriesInput> runs = forSet(inputs, o, &dropped);
    const CurvePlan plan = planCurves(runs, o.mode);
    ChartSpec spec = baseSpec(runs);
    const QString name = metricTitle(metric);
    spec.title = tr("%1 vs output throughput").arg(name);
    spec.subtitle = tr("p50 solid, p90 dashed, in load order; median across repeats");
    spec.x.title = throughputTitle(ThroughputKind::OutputTokens);
    spec.y.title = tr("%1 (ms)").arg(name);
    spec.y.scale = o.yScale;
    spec.notes = plan.notes;
    for (qsizetype r = 0; r < runs.size(); ++r) {
        for (const Curve &c : plan.perRun[r]) {
            SeriesSpec p50;
            p50.name = runs[r].name + c.suffix;
            p50.group = runs[r].name;
            p50.colour = runs[r].colour;
            SeriesSpec p90 = p50;
            p90.name.clear(); // the subtitle explains the dashed p90; one legend entry per run
            p90.dashed = true;
            p90.width = 1.5;
            for (const PointSummary &p : c.points) {
                const Distribution &d = metricDistribution(p, metric);
                const QString tip = pointTooltip(runs[r].name, p,
                    { tr("output %1 tok/s").arg(fmt(p.outputThroughput)),
                        tr("%1 p50 %2 ms, p90 %3 ms").arg(name, fmt(d.p50), fmt(d.p90)) });
                p50.points << QPointF(p.outputThroughput, d.p50);
                p90.points << QPointF(p.outputThroughput, d.p90);
                p50.tooltips << tip;
                p90.tooltips << tip;
            }
            spec.series << p90 << p50;
            addMarkers(spec, p50.group, p50.colour, c.points, p50.points, p50.tooltips);
        }
    }
    labelSet(spec, o, dropped);
    finalizeSpec(spec);
    return spec;
}

} // namespace ServeScope::Report
