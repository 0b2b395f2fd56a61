// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/requestmetrics.h"
#include "model/records.h"

#include <optional>
#include <span>

namespace ServeScope {

/// How one point's records are summarised (docs/metrics.md, "Aggregates").
struct AggregateOptions {
    DefinitionsProfile profile = DefinitionsProfile::Vllm;
    /// Measured clock start: just before the first measured request was scheduled (after warmup).
    /// 0 means "the earliest scheduled time among the measured records".
    qint64 measuredStartNs = 0;
    /// Experiment-requested percentiles; those outside p1/p10/p25/p50/p75/p90/p99 go to Distribution::extra.
    QVector<double> percentiles;
    /// Goodput SLOs in ms; a negative value means "not given". No SLO at all gives requestGoodput -1.
    double sloTtftMs = -1, sloTpotMs = -1, sloE2elMs = -1;
    bool ignoreEos = false;
    int targetInputLen = 0; ///< 0: taken from the records
    int targetOutputLen = 0; ///< 0: taken from the records
    /// When windowToNs > 0, only the measured requests (not warm-up, not cancelled) that started
    /// within [windowFromNs, windowToNs] count, as if the others were not there: the steady window.
    qint64 windowFromNs = 0, windowToNs = 0;
    /// multi_turn: the turns of a session (a record's turn is its index modulo them); above 1 the summary's
    /// `turns` compares first turns with later ones.
    int sessionTurns = 1;
};

/// Finding codes: turned into words only for display.
namespace FindingCode {
inline const char RoleChunkBeforeToken[] = "role-chunk-before-token";
inline const char IgnoreEosNotHonoured[] = "ignore-eos-not-honoured";
inline const char InputLengthDeviation[] = "input-length-deviation";
inline const char OutputEstimated[] = "output-estimated";
inline const char InputEstimated[] = "input-estimated";
inline const char UnreliablePercentile[] = "unreliable-percentile";
inline const char Censored[] = "censored";
} // namespace FindingCode

/// One flag raised on a point, with the evidence that raised it.
struct Finding {
    QString code; ///< a FindingCode
    QString metric; ///< e.g. "ttft" for unreliable-percentile, empty otherwise
    double value = 0; ///< the measured evidence (ms, fraction or sample count)
    double threshold = 0; ///< the limit it crossed
    double percentile = 0; ///< for unreliable-percentile
};

/// A point's summary plus what does not fit PointSummary.
struct PointResult {
    PointSummary summary;
    bool censored = false; ///< more than 0.5% of finished requests failed
    double achievedInputLen = 0; ///< mean input tokens of successful requests
    double achievedOutputLen = 0;
    double medianRoleGapMs = 0; ///< median of (TTFC - TTFT) over successful requests with content
    QVector<Finding> findings;
    bool hasFinding(const char *code) const;
};

/// Summarises the measured records of one (variant, point, repeat). Warmup records are counted and
/// skipped; cancelled ones are counted apart. Fills runId/variant/point/repeat from the first record
/// and inputLen/outputLen from the targets; label, mode, concurrency and requestRate are the caller's.
/// Runs in O(N log N) with no per-element allocation (one pass, vectors reserved up front).
PointResult aggregatePoint(std::span<const RequestRecord> records, const AggregateOptions &opts);

/// How the steady window is chosen (docs/metrics.md, "Two result sets").
struct SteadyOptions {
    int targetInFlight = 0; ///< the point's concurrency (or cap); window opens when in-flight first reaches it
    double discardRatio = 0; ///< when > 0: drop this share of requests at each end by start time instead
};

/// The steady result set: throughput from token events inside the window, latencies of the
/// requests that started inside it.
struct SteadyResult {
    bool valid = false; ///< false when the target was never reached or the window is empty
    qint64 firstStartNs = 0; ///< the first measured request's start
    qint64 windowStartNs = 0, windowEndNs = 0;
    double windowSeconds = 0;
    double outputTokens = 0; ///< tokens whose events fall inside the window
    double outputThroughput = 0;
    double requestThroughput = 0; ///< successful requests ending inside the window / length
    PointResult point; ///< aggregatePoint over the requests started inside the window
};

SteadyResult steadyWindow(
    std::span<const RequestRecord> records, const AggregateOptions &opts, const SteadyOptions &steady);

/// The steady result set as PointSummary::steady holds it ("valid", "window_s", "window_open_s",
/// "window_close_s", "output_throughput", "p90_ttft_ms", ...); only "valid" (0) when the window is
/// not valid.
QMap<QString, double> steadyValues(const SteadyResult &steady);

/// The point as its steady set states it: throughputs, completed count and the latency
/// distributions read from `summary.steady` (a percentile the set does not hold reads NaN, as in
/// runs stored before it held the whole ladder); nullopt when the point had no valid window.
std::optional<PointSummary> steadySummary(const PointSummary &summary);

/// Whether a request that started `startSeconds` after the point's first measured start lies in the
/// steady window `steady` describes (false without a window or its edges).
bool inSteadyWindow(const QMap<QString, double> &steady, double startSeconds);

} // namespace ServeScope
