// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

namespace ServeScope::Report {

/// Axis scales a chart may use. Log axes never receive a non-positive value (sanitizeForScale).
enum class AxisScale { Linear, Log2, Log10 };

struct AxisSpec {
    QString title;
    AxisScale scale = AxisScale::Linear;
    double min = 0, max = 1; ///< range; builders pad data ranges, log ranges are powers of the base
    QString labelFormat = QStringLiteral("%g");
    bool includeZero = true; ///< linear: the range starts at 0 unless data is negative
    bool fixedRange = false; ///< keep min/max as set by the builder (finalize leaves them alone)
};

/// Kind of series; add order is z-order, so builders emit bands before lines.
enum class SeriesKind { Band, Line, Scatter };

/// One series of a chart: plain values, no Qt Charts objects, so builders are testable without rendering.
struct SeriesSpec {
    SeriesKind kind = SeriesKind::Line;
    QString name; ///< legend text (empty: not in the legend)
    QString group; ///< run/series group; legend toggles hide every series of a group
    QColor colour;
    QList<QPointF> points; ///< for a band: the upper edge
    QList<QPointF> lower; ///< for a band: the lower edge, same x values as points
    QStringList tooltips; ///< one per point (may be empty)
    bool hollow = false; ///< scatter: hollow markers (points with failed or cancelled requests)
    bool knee = false; ///< scatter: an open diamond around a point (the capacity knee), unlike any hollow marker
    bool dashed = false;
    double width = 2.0; ///< line width or marker size
    double opacity = 1.0; ///< fill opacity for bands
    bool secondaryY = false; ///< plotted against ChartSpec::y2
};

/// What the footer of every exported chart states (part of the scene, so every format carries it).
struct ChartFooter {
    QString label; ///< the run's tag when a chart compares runs ("A #3", "B #7"); empty for one run
    QString runName; ///< set when a chart compares runs, so each letter names its run
    QString baseUrl, model, runTime, definitions;
    QString note; ///< a caveat the numbers carry, e.g. estimated output token counts
    QString text() const;
    bool isEmpty() const { return baseUrl.isEmpty() && model.isEmpty() && runTime.isEmpty() && definitions.isEmpty(); }
    bool operator==(const ChartFooter &) const = default;
};

struct ChartSpec {
    QString title;
    QString subtitle;
    AxisSpec x, y;
    AxisSpec y2; ///< used only when hasY2
    bool hasY2 = false;
    QList<SeriesSpec> series;
    QStringList notes; ///< dropped/clamped values, skipped points, ... shown below the chart
    QList<ChartFooter> footers; ///< one per run shown, in letter order
    /// The footer lines, one per run ("A: <run> · <base URL> · model … " when runs are compared).
    QString footerText() const;
};

/// One run (or one variant of a run) drawn in one colour.
struct RunSeriesInput {
    QString name;
    QColor colour;
    QList<PointSummary> points; ///< all repeats; builders take the median across repeats
    ChartFooter footer; ///< the footer line of this input's run
    /// Label of the point where throughput stops growing with load (the run's capacity-knee
    /// finding); empty when the curve has none.
    QString kneeLabel;
    int gpus = 1; ///< GPUs that served it (servingGpus()), for the per-GPU chart
    bool gpusAssumed = true; ///< no source said how many (one is assumed)
    double gpuHourPrice = 0; ///< 0: none given
};

/// Per-request values at one load point, for the distribution chart.
struct DistributionInput {
    QString name;
    QColor colour;
    QList<double> valuesMs;
};

/// Colour-blind-safe palette (Okabe-Ito order); run i gets defaultRunColour(i).
QColor defaultRunColour(int index);

/// Maximum points per series (docs/style.md, charts).
constexpr int kPointBudget = 2000;

} // namespace ServeScope::Report
