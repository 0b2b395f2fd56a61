// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"

namespace ServeScope {

/// A rough idea of how long a run takes, shown before Run. The latency model is deliberately crude
/// (a 7B-class model: prefill ~0.1 ms/token, decode 18 ms rising with batch size); it is a hint.
struct DurationEstimate {
    double seconds = 0;
    qint64 requests = 0; ///< measured requests over all variants, points and repeats
    qint64 warmupRequests = 0;
    int runsOfPoints = 0; ///< variants x points x repeats
    QList<int> underSampledPoints; ///< points with fewer than 5 x concurrency prompts
};

/// A plan estimated to run longer than this (a working day) is said so before Run: most such plans are a
/// typo of the concurrency, the prompts or the repeats.
inline constexpr double kWorkingDaySeconds = 8 * 3600;

DurationEstimate estimateDuration(const Experiment &experiment, double timeScale = 1.0);
/// An estimate's duration in words: "45 s", "5 min", "2 h 10 min".
QString formatDuration(double seconds);

} // namespace ServeScope
