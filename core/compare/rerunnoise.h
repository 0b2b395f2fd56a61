// SPDX-License-Identifier: MIT
// A project's own reruns of one experiment as evidence of its run-to-run noise: the noise floors a
// comparison judges by, refined from what runs of the same configuration actually differed by.
#pragma once

#include "compare/runsource.h"

#include <QList>
#include <QString>

namespace ServeScope {

/// Below this many pairs of reruns, the reruns may only raise a floor, never lower it.
inline constexpr int kRerunPairsToLower = 3;
/// The margin over the largest change seen between reruns that a refined floor keeps.
inline constexpr double kRerunMargin = 1.25;

struct RerunNoise {
    NoiseFloors floors = defaultNoiseFloors(); ///< the floors to judge by
    int runs = 0; ///< reruns of the configuration found
    int pairs = 0; ///< pairs compared (consecutive reruns)
};

/// From `reruns` (runs of one resolved configuration, oldest first; each variant compared with itself
/// in the next run, point by point): per family, the largest |relative change| among rows both sides
/// measured (one repeat a side: a pair of medians of n repeats counts sqrt(n) times its change; a
/// latency that moved less than kJitterMs, or a percentile of too few requests for an interval, is
/// left out as the verdicts leave it to the jitter and the tail's floor), times
/// kRerunMargin. With kRerunPairsToLower pairs or more that is the floor (never under the practical
/// threshold `floorAtLeast`); with fewer it may only raise `defaults`. A family no pair measured
/// keeps its default.
RerunNoise rerunNoise(
    const QList<RunSource> &reruns, const NoiseFloors &defaults = defaultNoiseFloors(), double floorAtLeast = 0.05);

/// The reruns in `projectPath` of `baselineRun`'s resolved configuration (its id or unique name;
/// finished or interrupted runs, itself among them), leaving out `exclude` (the runs being compared
/// with it; ids or names), and rerunNoise() of them. The defaults when the project has no other rerun or cannot be
/// read.
RerunNoise projectRerunNoise(const QString &projectPath, const QString &baselineRun, const QStringList &exclude = {});

} // namespace ServeScope
