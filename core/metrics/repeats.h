// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QList>

namespace ServeScope {

/// One summary per (run, variant, point), in first-seen order: the median (numpy's) across repeats of
/// every rate and latency, the totals across repeats of completed/failed/cancelled; `repeat` holds
/// the number of repeats the median was taken over.
QList<PointSummary> medianAcrossRepeats(const QList<PointSummary> &points);

/// A percentile is unreliable when n < 10 / (1 - p/100): p90 needs 100 samples, p99 1,000.
bool percentileUnreliable(qsizetype n, double p) noexcept;

} // namespace ServeScope
