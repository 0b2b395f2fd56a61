// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/aggregate.h"
#include "metrics/repeats.h"

namespace ServeScope {

/// Percentile bootstrap of a pooled mean over clusters: each resample draws clusters (requests)
/// with replacement and takes sum(sums) / sum(counts). With counts all 1 this is the plain
/// bootstrap of the mean; for ITL a request's gaps stay together, as METRICS.md asks (bootstrap
/// over requests), and a resample costs O(requests), not O(gaps).
Interval bootstrapClusterMeanInterval(std::span<const double> sums, std::span<const double> counts, quint64 seed,
    int resamples = 1000, double level = 0.95);

/// 95% intervals for one point's statistics, keyed like the result file ("mean_ttft_ms",
/// "p99_itl_ms", ...; values in ms), from records pooled across the point's repeats: order-statistic
/// intervals for median and percentiles (opts.percentiles, or p50/p90/p99 when empty), a seeded
/// bootstrap over requests for means. Metrics: ttft, tpot, itl, e2el.
QVector<QPair<QString, Interval>> pointIntervals(
    std::span<const RequestRecord> pooled, const AggregateOptions &opts, quint64 seed, int resamples = 1000);

} // namespace ServeScope
