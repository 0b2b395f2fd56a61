// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/estimates.h"
#include "model/experiment.h"
#include "model/records.h"

#include <QList>
#include <QPointF>
#include <QString>

#include <optional>

namespace ServeScope {

/// How many GPUs served a variant, and where that number came from (docs/metrics.md, "Per GPU
/// and cost").
struct ServingGpus {
    int count = 1;
    /// "server.gpus" (typed), "server.args" (tensor × pipeline × data parallel sizes),
    /// "environment" (the snapshot's gpu_count) or "assumed" (none of them: 1).
    QString source = QStringLiteral("assumed");
};
/// server.gpus when set; else the product of the server arguments' parallel sizes (vLLM's
/// tensor_parallel_size, pipeline_parallel_size, data_parallel_size; SGLang's tp_size, pp_size,
/// dp_size; their short forms tp, pp, dp) when any is given; else the environment snapshot's
/// gpu_count; else 1.
ServingGpus servingGpus(const Experiment &resolved);
/// What a million output tokens cost at `tokensPerS` when an hour of the GPUs costs `hourPrice`:
/// hourPrice / 3600 / tokensPerS × 10^6.
inline double costPerMillion(double hourPrice, double tokensPerS)
{
    return hourPrice / 3600.0 / tokensPerS * 1e6;
}
/// The price of an hour of all a resolved variant's GPUs: server.gpu_hour_price × servingGpus(); 0
/// without a price.
double hourPrice(const Experiment &resolved);

/// One point's serving figures from its summary (the median across repeats).
struct ServingPoint {
    double perGpu = 0; ///< output tokens/s per GPU
    /// Output tokens/s one user sees: 1000 / TPOT p50 (ms); NaN without a TPOT.
    double perUser = 0;
    /// Price of a million output tokens at this point's throughput: price × GPUs / 3600 / output
    /// tokens/s × 10^6; NaN without a price or a throughput.
    double costPerMillion = 0;
};
ServingPoint servingPoint(const PointSummary &p, int gpus, double gpuHourPrice);

/// A comparison's cost row: what a million output tokens cost, lower is better.
inline constexpr char kCostKey[] = "cost_per_million_output_tokens";
/// The cost estimate that an output throughput estimate (tokens/s) gives at `hourPrice` (the price of
/// an hour of all the variant's GPUs): every figure mapped through hourPrice / 3600 / throughput × 10^6,
/// so the lowest throughput gives the highest cost (the interval's ends swap). No repeats when the
/// throughput has none or is not above 0.
MetricEstimate costEstimate(const MetricEstimate &outputThroughput, double hourPrice);

/// Of (per user, per GPU) points of every curve, those no other point beats on both axes, in
/// increasing per-user order: the Pareto frontier of throughput against interactivity.
QList<QPointF> paretoFrontier(const QList<QPointF> &points);

/// The per-GPU throughput of a curve at `perUser` tokens/s per user: linear between the two
/// measured points around it after ordering them by per-user speed, nullopt outside the measured
/// range (no extrapolation) or when the curve is not monotone there (two points at one speed).
std::optional<double> perGpuAt(QList<QPointF> curve, double perUser);

} // namespace ServeScope
