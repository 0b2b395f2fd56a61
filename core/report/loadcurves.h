// SPDX-License-Identifier: MIT
#pragma once

#include "report/chartbuilders.h"

namespace ServeScope::Report::Detail {

/// Points of one run that differ only in the load variable, sorted by it: they may be joined by a line.
struct Curve {
    QString suffix; ///< " (in 512 / out 256)" when a run has several curves, else empty
    QList<PointSummary> points;
};

struct CurvePlan {
    LoadMode mode = LoadMode::Concurrency;
    QList<QList<Curve>> perRun; ///< parallel to the inputs
    QStringList notes;
};

CurvePlan planCurves(const QList<RunSeriesInput> &runs, LoadMode requested);
double loadValue(const PointSummary &p, LoadMode mode);
AxisSpec loadAxis(LoadMode mode);
QString loadText(const PointSummary &p);
/// Tooltip shared by all load charts: run, load, success rate, repeats, then the given lines.
QString pointTooltip(const QString &run, const PointSummary &p, const QStringList &lines);
/// Filled markers for clean points and hollow ones for points with failed or cancelled requests (two series).
void addMarkers(ChartSpec &spec, const QString &group, const QColor &colour, const QList<PointSummary> &points,
    const QList<QPointF> &xy, const QStringList &tooltips);
QString tr(const char *text);
QString fmt(double v, int precision = 4);
/// An empty chart with one footer per distinct run footer of the inputs, in order.
ChartSpec baseSpec(const QList<RunSeriesInput> &runs);

} // namespace ServeScope::Report::Detail
