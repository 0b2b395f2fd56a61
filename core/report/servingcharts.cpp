// SPDX-License-Identifier: MIT
// Throughput per GPU against interactivity: the curves, their Pareto frontier and the values at a
// target per-user speed.
#include "metrics/servingcost.h"
#include "report/loadcurves.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace ServeScope::Report {

using namespace Detail;

namespace {

// Tokens per second as people read them: whole numbers from 100 up (never "1.2e+04").
QString rate(double v)
{
    return std::abs(v) >= 100 ? QLocale().toString(v, 'f', 0) : fmt(v, 3);
}

// A curve as drawn, for its value at the target speed.
struct Drawn {
    QString name;
    QColor colour;
    QList<QPointF> xy;
};

// One run's curves: each point placed at its per-user speed and per-GPU throughput, with its markers;
// a point without TPOT has no per-user speed and is left out.
void addRunCurves(
    ChartSpec &spec, const RunSeriesInput &run, const QList<Curve> &curves, QList<QPointF> &all, QList<Drawn> &drawn)
{
    for (const Curve &c : curves) {
        SeriesSpec line;
        line.name = run.name + c.suffix;
        line.group = run.name;
        line.colour = run.colour;
        QList<PointSummary> shown;
        for (const PointSummary &p : c.points) {
            const ServingPoint s = servingPoint(p, run.gpus, run.gpuHourPrice);
            if (!std::isfinite(s.perUser))
                continue; // no TPOT: no per-user speed to place it at
            QStringList lines { tr("%1 tok/s per GPU (%2 GPUs)").arg(rate(s.perGpu)).arg(run.gpus),
                tr("%1 tok/s per user").arg(rate(s.perUser)) };
            if (std::isfinite(s.costPerMillion))
                lines << tr("%1 per million output tokens").arg(fmt(s.costPerMillion));
            line.points << QPointF(s.perUser, s.perGpu);
            line.tooltips << pointTooltip(run.name, p, lines);
            shown << p;
        }
        if (line.points.isEmpty())
            continue;
        spec.series << line;
        addMarkers(spec, line.group, line.colour, shown, line.points, line.tooltips);
        all += line.points;
        drawn << Drawn { line.name, line.colour, line.points };
    }
}

// The Pareto frontier across every curve's points, dashed.
void addFrontier(ChartSpec &spec, const QList<QPointF> &all)
{
    const QList<QPointF> frontier = paretoFrontier(all);
    if (frontier.size() <= 1)
        return;
    SeriesSpec f;
    f.name = tr("Pareto frontier");
    f.group = f.name;
    f.colour = QColor(0x55, 0x55, 0x55);
    f.dashed = true;
    f.width = 1.5;
    f.points = frontier;
    spec.series << f;
}

// Each curve ringed at the target per-user speed; returns the notes that say each value, or that it
// lies outside the curve's measured range.
QStringList addTargetMarks(ChartSpec &spec, const QList<Drawn> &drawn, double targetPerUser)
{
    QStringList atTarget;
    for (const Drawn &d : drawn) {
        const std::optional<double> v = perGpuAt(d.xy, targetPerUser);
        if (!v) {
            atTarget << tr("%1: %2 tok/s per user is outside its measured range").arg(d.name, rate(targetPerUser));
            continue;
        }
        SeriesSpec mark;
        mark.kind = SeriesKind::Scatter;
        mark.group = d.name;
        mark.colour = d.colour;
        mark.width = 13;
        mark.hollow = true;
        mark.points << QPointF(targetPerUser, *v);
        mark.tooltips << tr("%1: %2 tok/s per GPU at %3 tok/s per user").arg(d.name, rate(*v), rate(targetPerUser));
        spec.series << mark;
        atTarget << mark.tooltips.first();
    }
    spec.subtitle += tr("; ringed: each curve at %1 tok/s per user").arg(rate(targetPerUser));
    return atTarget;
}

} // namespace

ChartSpec throughputPerGpu(const QList<RunSeriesInput> &runs, double targetPerUser, const LoadChartOptions &o)
{
    const CurvePlan plan = planCurves(runs, o.mode);
    ChartSpec spec = baseSpec(runs);
    spec.title = tr("Output throughput per GPU vs per user");
    spec.subtitle = tr("each curve in load order; dashed: the Pareto frontier across them; median across repeats");
    spec.x.title = tr("Output tok/s per user (1000 / TPOT p50)");
    spec.y.title = tr("Output tok/s per GPU");
    spec.x.includeZero = false; // the speeds a deployment reaches, not the empty range below them
    spec.notes = plan.notes;
    QList<QPointF> all;
    QStringList assumed;
    QList<Drawn> drawn;
    for (qsizetype r = 0; r < runs.size(); ++r) {
        const RunSeriesInput &run = runs[r];
        if (run.gpusAssumed && !assumed.contains(run.name))
            assumed << run.name;
        addRunCurves(spec, run, plan.perRun[r], all, drawn);
    }
    addFrontier(spec, all);
    if (std::isfinite(targetPerUser) && targetPerUser > 0)
        spec.notes += addTargetMarks(spec, drawn, targetPerUser);
    if (!assumed.isEmpty())
        spec.notes
            << tr("GPU count not known, one assumed: %1 (set server.gpus)").arg(assumed.join(QStringLiteral(", ")));
    finalizeSpec(spec);
    return spec;
}

} // namespace ServeScope::Report
