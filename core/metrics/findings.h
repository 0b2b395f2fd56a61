// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/serverexit.h"
#include "model/experiment.h"
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
    double prefillItlTail = 3.0; ///< ITL p99 / p50 at least this at a heavier point ...
    double prefillItlGrowth = 1.5; ///< ... and grown this much since the lightest ...
    /// ... with joining prefill chunks (the mean prompt, capped by the chunked-prefill budget) at
    /// least this long: prefill interference. A shorter chunk leaves a decode step memory-bound and
    /// hardly longer, so a wider tail there is something else (at a time-scaled simulator, host jitter).
    double prefillMinChunkTokens = 256;
    double rateLimitedShare = 0.0; ///< share of finished requests answered 429 above which a point is rate-limited
    double roleGapMs = 5.0; ///< median (TTFC - TTFT) above this: the role chunk runs ahead of the first token
    double shortOutputShare = 0.01; ///< with ignore_eos, a share of shorter outputs above this: not honoured
    /// A stream whose token events arrive this many per socket read on average ...
    double bufferedEventsPerRead = 4.0;
    /// ... with at least this share of zero gaps between them was buffered on its way: its TPOT and
    /// ITL are the buffer's release pattern, not the server's (docs/metrics.md#buffered-streams).
    double bufferedSameReadShare = 0.5;
};

/// True when the point's streams arrived buffered (its client map's stream_* evidence): its TPOT
/// and ITL are not the server's and are marked invalid wherever they are shown.
bool bufferedStream(const PointSummary &point, const FindingThresholds &thresholds = {});
/// Marks a buffered point's decode timings invalid where they are computed, so that no output shows
/// the buffer's release pattern as measured: TPOT, answer TPOT, ITL and CITL (and their steady-window values)
/// become NaN, which every table, chart, CSV and result file shows as a gap, "nan" or null and no
/// comparison decides on. Returns whether the point was buffered.
bool withholdBufferedDecode(PointSummary *point);

/// Per variant: the chunked-prefill budget its server was given, as (server.args name, tokens), for
/// the prefill-interference finding's "how to confirm".
using PrefillBudgets = QMap<QString, QPair<QString, double>>;
/// Each variant's `server.args.max_num_batched_tokens` (vLLM) or `chunked_prefill_size` (SGLang),
/// where it sets one.
PrefillBudgets prefillBudgets(const Experiment &experiment);

/// A hypothesis or caveat about a whole run, with the numbers it used (docs/metrics.md, Findings).
/// Codes are words only when shown: queueing, bandwidth-bound-decode, kv-cache-pressure,
/// capacity-knee, prefill-interference, healthy, censored, noisy-repeats, cache-contaminated,
/// unreliable-percentiles, output-estimated, input-estimated, client-limited, rate-limited,
/// role-chunk-before-token, ignore-eos-not-honoured, buffered-stream, usage-mismatch, server-exited.
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
/// `budgets`: each variant's chunked-prefill budget, named by prefill-interference when known.
/// `exits`: launched servers that exited or were killed while the run used them; each is a finding on its
/// variant (server-exited), whose curves are then never healthy.
QList<RunFinding> runFindings(const QList<PointSummary> &points, const QList<PointEstimate> &estimates, bool cacheFree,
    const FindingThresholds &thresholds = {}, const PrefillBudgets &budgets = {}, const QList<ServerExit> &exits = {});

/// A finding as one machine line: `CODE  VARIANT  POINTS  key=value ...  [confirmed|not-confirmed|no-evidence]`.
QString findingLine(const RunFinding &f);
QString confirmationCode(RunFinding::Confirmation c);

} // namespace ServeScope
