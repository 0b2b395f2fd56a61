// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <cmath>

#include <QList>

#include <span>

namespace ServeScope {

/// One summary per (run, variant, point), in first-seen order: the median (numpy's) across repeats of
/// every rate and latency, the totals across repeats of completed/failed/cancelled/outputEstimated/inputEstimated;
/// `repeat` holds the number of repeats the median was taken over.
QList<PointSummary> medianAcrossRepeats(const QList<PointSummary> &points);

/// A statistic across the repeats of one point: the median is what is reported.
struct RepeatStat {
    int n = 0;
    double median = 0, min = 0, max = 0;
    double cv = 0; ///< population std / |mean| (numpy arithmetic); 0 when the mean is 0

    /// (max - min) / |median|; 0 for one repeat or a zero median.
    double spread() const { return n > 1 && median != 0 ? (max - min) / std::abs(median) : 0.0; }
};

/// numpy-style median, min, max and coefficient of variation of one value per repeat (NaN values,
/// a key a repeat lacks, are left out).
RepeatStat acrossRepeats(std::span<const double> perRepeat);

/// A percentile is unreliable when n < 10 / (1 - p/100): p90 needs 100 samples, p99 1,000.
bool percentileUnreliable(qsizetype n, double p) noexcept;

} // namespace ServeScope
