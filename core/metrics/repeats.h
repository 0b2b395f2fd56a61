// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <span>

namespace ServeScope {

/// A statistic across the repeats of one point: the median is what is reported.
struct RepeatStat {
    int n = 0;
    double median = 0, min = 0, max = 0;
    double cv = 0; ///< population std / mean (numpy arithmetic); 0 when the mean is 0
};

/// numpy-style median, min, max and coefficient of variation of one value per repeat.
RepeatStat acrossRepeats(std::span<const double> perRepeat);
/// The same for a result-file key (see summaryValue) over the repeats' summaries.
RepeatStat acrossRepeats(std::span<const PointSummary> repeats, QStringView key);

/// A two-sided confidence interval.
struct Interval {
    double low = 0, high = 0;
    bool valid = false; ///< false when there are too few samples for the requested coverage
};

/// Distribution-free interval for the p-th percentile from order statistics (normal approximation
/// of the binomial ranks: n*q -/+ z*sqrt(n*q*(1-q))). Values must be sorted.
Interval percentileInterval(std::span<const double> sorted, double p, double level = 0.95);

/// Percentile bootstrap of the mean: `resamples` resamples with replacement drawn from a
/// std::mt19937_64 seeded with `seed`, so the same inputs and seed give the same interval.
Interval bootstrapMeanInterval(std::span<const double> values, quint64 seed, int resamples = 1000, double level = 0.95);

/// METRICS.md: a percentile is unreliable when n < 10 / (1 - p/100) (p99 needs ~1,000 samples).
bool percentileUnreliable(qsizetype n, double p) noexcept;

} // namespace ServeScope
