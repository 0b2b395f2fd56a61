// SPDX-License-Identifier: MIT
// Run-to-run noise: how far two runs of one configuration differ by chance, per metric family. Every
// judgement built on intervals reads it: a comparison's verdicts (core/compare) and a capacity
// search's met and missed levels (capacity.h). docs/metrics.md, "The run is the unit of replication".
#pragma once

#include <QString>

namespace ServeScope {

/// The families whose run-to-run noise is measured apart (docs/metrics.md, "The run is the unit of
/// replication"):
/// TTFT and TTFO below their p99; TPOT, ITL and E2EL below their p99; every p99; the throughputs.
/// The success rate is judged on its requests' counts instead (successRow()).
enum class NoiseFamily { Ttft, Decode, Tail, Throughput, Success };
NoiseFamily noiseFamily(const QString &key);
QString noiseFamilyCode(NoiseFamily family); ///< "ttft", "decode", "tail", "throughput", "success"

/// How far two runs of one configuration, one repeat each, differ by chance at most: a relative
/// change per family that A/A pairs (`bench_verdicts`) did not reach.
struct NoiseFloors {
    double ttft = 0, decode = 0, tail = 0, throughput = 0;
    double of(NoiseFamily family) const;
};
/// The floors bench_verdicts measured against the simulator, rounded up (docs/metrics.md).
const NoiseFloors &defaultNoiseFloors();

/// The smallest relative change a metric can be called at with `na` and `nb` repeats: its family's
/// floor scaled by sqrt((1/na + 1/nb) / 2) (the floor is a one-run-each figure; medians of more runs
/// vary less), never below the practical threshold.
double requiredChange(const QString &key, int na, int nb, double practicalThreshold, const NoiseFloors &floors);

/// A latency change smaller than this many ms is never called: at that scale the client's, the kernel's
/// and the network's scheduling decide, not the server (a time-scaled simulator's few-ms TTFT and ITL).
inline constexpr double kJitterMs = 2.0;

/// Below this many repeats a side, changes are judged against the noise floor alone.
inline constexpr int kRepeatsForSpread = 2;
/// The least change of the failed share that a success rate's verdict names (one percentage point).
inline constexpr double kFailureFloor = 0.01;

/// How far one run's value of `key` may lie from what the next run of the same configuration gives,
/// with `repeats` runs pooled: floor / sqrt(2 · repeats) (the floor bounds a difference of two runs).
double runToRunHalfWidth(const QString &key, int repeats, const NoiseFloors &floors = defaultNoiseFloors());

} // namespace ServeScope
