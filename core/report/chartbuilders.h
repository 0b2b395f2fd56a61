// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/servermetrics.h"
#include "report/chartspec.h"

namespace ServeScope::Report {

/// Latency metrics a chart can show (docs/metrics.md).
enum class Metric { Ttft, Ttfc, Ttfo, Tpot, Atpot, Itl, Citl, E2el };

QString metricCode(Metric m); ///< "ttft", "ttfc", "ttfo", "tpot", "atpot", "itl", "citl", "e2el"
bool metricFromCode(QStringView code, Metric *out);
QString metricTitle(Metric m); ///< "TTFT", "Time to first content", ...
const Distribution &metricDistribution(const PointSummary &p, Metric m);

enum class ThroughputKind { OutputTokens, Requests, TotalTokens };

/// Which load variable is the x axis. Auto picks concurrency unless every point is open loop.
enum class LoadMode { Auto, Concurrency, Rate };

struct LoadChartOptions {
    LoadMode mode = LoadMode::Auto;
    AxisScale yScale = AxisScale::Linear;
    bool wideBand = false; ///< add the p1-p99 band behind p10-p90 and p25-p75
    /// Draw the steady window's result set (docs/metrics.md) instead of vLLM's; points without a
    /// valid window are left out and counted in a note.
    bool steady = false;
};

/// Throughput vs load: one line per run and curve (points differing only in the load variable).
ChartSpec throughputVsLoad(const QList<RunSeriesInput> &runs, ThroughputKind kind, const LoadChartOptions &o = {});
/// Latency vs load: p50 line over p25-p75 and p10-p90 bands, a bar over each point for the p50's
/// min-max across repeats; points with failures drawn hollow.
ChartSpec latencyVsLoad(const QList<RunSeriesInput> &runs, Metric metric, const LoadChartOptions &o = {});
/// multi_turn sessions: TTFT p50 of their first turns (solid) and of their later turns (dashed) against load,
/// from vLLM's result set; points without sessions are left out.
ChartSpec turnsVsLoad(const QList<RunSeriesInput> &runs, const LoadChartOptions &o = {});
/// Latency (p50 solid, p90 dashed) against output throughput, in load order: the trade-off curve.
ChartSpec latencyVsThroughput(const QList<RunSeriesInput> &runs, Metric metric, const LoadChartOptions &o = {});

/// Output tokens/s per GPU against output tokens/s per user (1000 / TPOT p50), one curve per run and
/// curve in load order, the Pareto frontier across all of them dashed; with a finite
/// `targetPerUser`, each curve's per-GPU throughput there (interpolated between its measured
/// points, never extrapolated) marked and stated in the notes.
ChartSpec throughputPerGpu(const QList<RunSeriesInput> &runs, double targetPerUser, const LoadChartOptions &o = {});

/// Empirical CDF of per-request values at one point, log x, one curve per input (A over B).
ChartSpec distributionCdf(const QList<DistributionInput> &inputs, Metric metric, const QString &pointLabel);
/// Histogram on log-spaced bins (density per bin, drawn as a step outline), one per input.
ChartSpec distributionHistogram(
    const QList<DistributionInput> &inputs, Metric metric, const QString &pointLabel, int bins = 40);

struct TimeSeriesInput {
    QString name;
    QColor colour;
    QList<RequestRecord> requests; ///< measured requests of one (variant, point, repeat) or a whole run
    double bucketSeconds = 1.0;
    /// The server's `/metrics` scrapes over the same time (the same monotonic clock as the records);
    /// its running and waiting gauges are drawn beside the client's in-flight count.
    QList<ServerSample> server;
};
/// In-flight requests and completions/s (left axis) and output tokens/s (right axis) over time;
/// with server samples, the requests the server reports running and waiting (vLLM's or SGLang's
/// gauges, summed over label sets per scrape).
ChartSpec runTimeSeries(const QList<TimeSeriesInput> &inputs);

/// Splits a run's points into one input per variant with palette colours starting at firstColour.
QList<RunSeriesInput> inputsPerVariant(const QString &runName, const QList<PointSummary> &points, int firstColour = 0);

/// Invariants every builder output satisfies: point budget (decimation), no non-positive values on a
/// log axis (dropped or clamped, with a note), bands before lines, axis ranges from the data.
void finalizeSpec(ChartSpec &spec);
/// Switches an axis scale ('x', 'y' or '2' for y2) of a built chart and re-applies the invariants.
ChartSpec withAxisScale(ChartSpec spec, char axis, AxisScale scale);
/// Tick interval for a linear axis spanning span: 1, 2, 2.5 or 5 times a power of ten, 5-8 intervals.
double niceTickStep(double span);
/// Min/max decimation of a polyline to at most budget points, keeping the first and last point.
QList<QPointF> decimate(const QList<QPointF> &points, int budget, QList<int> *keptIndices = nullptr);

} // namespace ServeScope::Report
