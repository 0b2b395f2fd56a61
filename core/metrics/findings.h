// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// Every threshold a run-level finding uses, in one place (printed in the report).
struct FindingThresholds {
    double queueTtftRatio = 4.0; ///< TTFT p50 grows at least this much along the curve ...
    double queueTpotRatio = 2.0; ///< ... while TPOT p50 grows less than this: queueing
    double bandwidthTpotRatio = 2.0; ///< TPOT p50 grows at least this much while throughput falls
    double kvUsageHigh = 90.0; ///< percent: preemptions with KV usage this high are cache pressure
    double kneeGain = 0.10; ///< throughput gain per doubling of load below which the curve has its knee
    double cacheHitRate = 5.0; ///< percent prefix-cache hits on a workload meant to be cache-free
    double censoredShare = 0.005; ///< failed share of finished requests that censors a point
    double reliableP99Requests = 1000; ///< p99 needs this many requests
    double clientLagP99Ms = 5.0; ///< requests sent this late (p99) mean the client limited the point ...
    double clientCpuShare = 0.9; ///< ... as does a process using this share of all the host's cores
};

/// A hypothesis or caveat about a whole run, with the numbers it used (docs/metrics.md, Findings).
/// Codes are words only when shown: queueing, bandwidth-bound-decode, kv-cache-pressure,
/// capacity-knee, healthy, censored, noisy-repeats, cache-contaminated, unreliable-percentiles,
/// output-estimated, client-limited.
struct RunFinding {
    enum class Kind { Problem, Caveat, Info };
    enum class Confirmation { NotApplicable, Confirmed, NotConfirmed, NoEvidence };
    QString code;
    Kind kind = Kind::Info;
    QString variant;
    QStringList points; ///< the labels it is about, in load order
    QList<QPair<QString, double>> evidence; ///< e.g. ("ttft_ratio", 12.1), ("waiting_max", 37)
    Confirmation confirmation = Confirmation::NotApplicable;

    double value(const QString &key, double fallback = 0) const;
};

/// Findings of one run from its stored summaries (all repeats) and statistics across repeats.
/// Curve findings look only along a variant's points that differ in load alone (same mode and
/// lengths), in load order, and need two of them; a confirmation needs the server's series.
/// `cacheFree`: the workload's prompts share nothing (random), so prefix-cache hits contaminate it.
QList<RunFinding> runFindings(const QList<PointSummary> &points, const QList<PointEstimate> &estimates, bool cacheFree,
    const FindingThresholds &thresholds = {});

/// A finding as one machine line: `CODE  VARIANT  POINTS  key=value ...  [confirmed|not-confirmed|no-evidence]`.
QString findingLine(const RunFinding &f);
QString confirmationCode(RunFinding::Confirmation c);

} // namespace ServeScope
