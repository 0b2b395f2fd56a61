// SPDX-License-Identifier: MIT
#pragma once

#include "model/nslist.h"

#include <QtGlobal>

#include <span>
#include <vector>

namespace ServeScope {

/// A two-sided confidence interval.
struct Interval {
    double low = 0, high = 0;
    bool valid = false; ///< false when there are too few samples for the requested coverage

    bool overlaps(const Interval &other) const { return low <= other.high && other.low <= high; }
};

/// Distribution-free interval for the p-th percentile from order statistics (normal approximation
/// of the binomial ranks: n*q -/+ z*sqrt(n*q*(1-q))). The two order statistics are selected in linear
/// time, so `values` may come in any order; they are reordered.
Interval percentileInterval(std::vector<double> &values, double p, double level = 0.95);

/// The same interval over nanosecond values (4 bytes each while they fit), reordered in place; the
/// two order statistics selected are converted by `value`, which must not change their order.
Interval percentileInterval(NsList &values, double p, double (*value)(qint64), double level = 0.95);

/// Percentile bootstrap of a pooled mean over clusters: each resample draws clusters (requests)
/// with replacement and takes sum(sums) / sum(counts). The draws come from xoshiro256++ seeded with
/// `seed` (through splitmix64), an index in [0, n) by a 128-bit multiply instead of a division, so the
/// same inputs and seed give the same interval; the choice and its cost are in docs/metrics.md. With
/// counts all 1 this is the plain bootstrap of the mean; for ITL a request's gaps stay together.
Interval bootstrapClusterMeanInterval(std::span<const double> sums, std::span<const double> counts, quint64 seed,
    int resamples = 1000, double level = 0.95);

/// The normal interval of the same pooled mean sum(sums) / sum(counts), its variance by
/// linearisation (the delta method): R ± z · sqrt(Σ(s_i − R·c_i)² / (n(n−1))) / mean(c). Linear in n,
/// no resampling.
Interval linearizedClusterMeanInterval(
    std::span<const double> sums, std::span<const double> counts, double level = 0.95);

/// From this many clusters on, clusterMeanInterval() uses the linearised interval (docs/metrics.md).
inline constexpr std::size_t kLinearizedFromClusters = 10000;

/// The interval of a pooled mean as comparisons state it: the bootstrap below
/// kLinearizedFromClusters clusters, the linearised normal interval from there on. `*method` is
/// "bootstrap" or "normal".
Interval clusterMeanInterval(
    std::span<const double> sums, std::span<const double> counts, quint64 seed, const char **method = nullptr);

/// Student's t quantile: the t with P(T <= t) = p for `df` degrees of freedom (df > 0, not
/// necessarily whole, as Welch's approximation gives); by bisection on the distribution function
/// (the regularised incomplete beta function), accurate to 1e-9.
double studentTQuantile(double p, double df);

} // namespace ServeScope
