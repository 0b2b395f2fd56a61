// SPDX-License-Identifier: MIT
#pragma once

#include "model/nslist.h"
#include "model/pointkey.h"
#include "model/prompthash.h"

#include <QByteArray>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QVector>

#include <limits>
#include <span>

namespace ServeScope {

/// What one SSE event carried, found by a byte scan on the hot path (docs/metrics.md, "Events").
enum class EventKind : quint8 {
    RoleOnly = 0, ///< non-empty choices, delta with a role and no text
    Content = 1, ///< non-empty choices with content text
    Reasoning = 2, ///< non-empty choices with reasoning text
    ToolCall = 3, ///< non-empty choices with tool-call text
    FinishOnly = 4, ///< non-empty choices, finish_reason and no text
    Usage = 5, ///< empty choices with usage
    Error = 6, ///< {"error": ...} instead of choices
    Done = 7, ///< data: [DONE]
    Comment = 8, ///< a ":" line
    Other = 9, ///< anything else (empty choices without usage, unparseable data)
};

/// True for the events vLLM counts as tokens: a data event whose JSON has a non-empty choices array.
inline bool isTokenEvent(EventKind k) noexcept
{
    return quint8(k) <= quint8(EventKind::FinishOnly);
}
/// True for events that carry generated text.
inline bool isContentEvent(EventKind k) noexcept
{
    return k == EventKind::Content || k == EventKind::Reasoning || k == EventKind::ToolCall;
}

enum class RequestStatus : quint8 { Ok = 0, Failed = 1, Cancelled = 2 };

/// Failure classes (docs/metrics.md); stored as their code string.
enum class ErrorClass : quint8 {
    None = 0,
    Auth,
    NotFound,
    RateLimited,
    ServerError,
    Connect,
    Tls,
    TimeoutConnect,
    TimeoutFirstToken,
    TimeoutIdle,
    TimeoutTotal,
    Protocol,
    Cancelled,
};

QString errorClassCode(ErrorClass c);
ErrorClass errorClassFromCode(QStringView code);

/// One measured request. Times are absolute monotonicNs(); event times are offsets from startNs.
struct RequestRecord {
    // Ordered for packing (a point keeps one per request): 8-byte fields, then 4-byte, then 1-byte.
    qint64 runId = 0;
    QString variant;
    int point = 0; ///< index into the load matrix
    int repeat = 1; ///< counts from 1
    int index = 0; ///< submission order within (variant, point, repeat)
    int slot = -1; ///< concurrency slot, -1 in open loop without a cap

    qint64 scheduledNs = 0;
    qint64 slotNs = 0;
    qint64 startNs = 0;
    qint64 endNs = 0;
    qint64 connectNs = 0; ///< time spent connecting (0 on a reused connection)
    qint64 tlsNs = 0;

    int httpStatus = 0;
    int promptTokens = 0; ///< usage.prompt_tokens, else the prompt's `/tokenize` count, else an estimate
    int completionTokens = 0; ///< usage.completion_tokens, else an estimate
    /// Of completionTokens, the reasoning ones: usage.completion_tokens_details.reasoning_tokens, else
    /// the reasoning text's `/tokenize` count or its events, both marked estimated. 0 without reasoning.
    int reasoningTokens = 0;
    /// usage.prompt_tokens_details.cached_tokens: the prompt tokens the server's prefix cache held; -1 when
    /// the server did not say.
    int cachedTokens = -1;
    int targetInputLen = 0;
    int targetOutputLen = 0;
    /// What the server's usage said when it contradicted the stream and was set aside (docs/metrics.md,
    /// "Usage against the stream"): its prompt and output tokens, -1 when usage was taken or absent. The
    /// counts above are then the fallback's, marked estimated. Not stored: the point's summary keeps the sums.
    int usagePromptSetAside = -1;
    int usageOutputSetAside = -1;

    RequestStatus status = RequestStatus::Ok;
    ErrorClass errorClass = ErrorClass::None;
    bool warmup = false;
    bool outputEstimated = false;
    bool reasoningEstimated = false;
    /// No usage and the prompt's length was never counted by the server (no `/tokenize`, text
    /// prompts): promptTokens is the calibrated estimate or the target length.
    bool inputEstimated = false;
    PromptHash promptHash;

    QString errorText;
    QString protocol; ///< "http/1.1" or "h2"
    /// What the server generated, UTF-8 (half the memory of a QString for the text of most models, and
    /// the encoding of every place it goes: the project, result files, the team database). A point's
    /// kept records drop it once the project's writer has it.
    QByteArray generatedText;
    /// The reasoning part of generatedText, UTF-8, kept only until its tokens are counted (not stored).
    QByteArray reasoningText;
    /// What the stream's events said the server ran (`model`, `system_fingerprint`); not stored per
    /// request — the run records them once (docs/metrics.md, "What the server answered with").
    QString servedModel, systemFingerprint;

    NsList eventNs; ///< offset from startNs of each stored event
    QVector<EventKind> eventKinds;

    bool ok() const noexcept { return status == RequestStatus::Ok; }
    /// Counts in a point's measurement: not a warm-up request, not cancelled by a stop.
    bool measured() const noexcept { return !warmup && status != RequestStatus::Cancelled; }
};

/// Mean, median, std and the percentile ladder of one metric, in milliseconds.
struct Distribution {
    int count = 0;
    double mean = 0, median = 0, std = 0;
    double p1 = 0, p10 = 0, p25 = 0, p50 = 0, p75 = 0, p90 = 0, p99 = 0;
    QVector<QPair<double, double>> extra; ///< experiment-requested percentiles (p, value)

    /// Percentile p (one of the ladder or an extra), or NaN when the distribution does not hold it.
    double percentile(double p) const noexcept;
};

/// The key fragment of a percentile in result-file keys: 99 -> "99", 99.9 -> "99.9".
QString percentileKey(double p);

/// Aggregates of one (variant, point, repeat): what listings and charts read, never raw requests.
struct PointSummary : PointKey {
    qint64 runId = 0;
    int repeat = 1;

    int completed = 0, failed = 0, cancelled = 0, warmup = 0, discarded = 0;
    double duration = 0;
    qint64 totalInputTokens = 0, totalOutputTokens = 0;
    double requestThroughput = 0, outputThroughput = 0, totalTokenThroughput = 0;
    double requestGoodput = -1; ///< -1 when no SLO is given
    int maxConcurrentRequests = 0;
    double averageConcurrency = 0;
    double maxOutputTokensPerS = 0;
    double successRate = 0;

    /// TTFO: time to the first output token, the first content or tool-call event (a reasoning
    /// model's answer), never a reasoning one. ATPOT: the answer's TPOT, (E2EL - TTFO) / (answer
    /// tokens - 1), the answer tokens being the output's without its reasoning tokens.
    Distribution ttft, ttfc, ttfo, tpot, atpot, itl, citl, e2el;
    /// Of totalOutputTokens, the reasoning tokens (RequestRecord::reasoningTokens), and the successful
    /// requests whose reasoning count is an estimate.
    qint64 reasoningTokens = 0;
    int reasoningEstimated = 0;
    /// Of the successful requests whose usage said how many prompt tokens the server's prefix cache held
    /// (RequestRecord::cachedTokens): those cached tokens and their prompt tokens; -1 and 0 when none said.
    /// Their ratio is the hit rate the server reported to the client.
    qint64 cachedTokens = -1, cachedPromptTokens = 0;
    /// Successful requests whose output token count is an estimate (no usage and no `/tokenize`:
    /// content events counted); their TPOT and throughput are estimates too.
    int outputEstimated = 0;
    /// Successful requests whose input token count is an estimate (RequestRecord::inputEstimated);
    /// total-token throughput and the input length are estimates too.
    int inputEstimated = 0;
    /// The server's own output tokens over the successful requests (usage, or `/tokenize` of the
    /// text), -1 when any of them has only an estimate. Under the sglang definitions, which count the
    /// requested max_tokens as SGLang's client does, it says how far that count is from the truth.
    qint64 usageOutputTokens = -1;
    /// Failed requests the server answered with HTTP 429 (rate limited); like every failure they are
    /// left out of the latencies.
    int rateLimited = 0;
    /// With `ignore_eos`: successful requests whose trusted output count (usage or `/tokenize`) is
    /// shorter than requested; -1 when `ignore_eos` was not asked for.
    int shortOutputs = -1;
    /// Median of (time to first content - TTFT) over the successful requests with content, in ms: how
    /// long a role-only first chunk runs ahead of the first token. 0 when unknown.
    double roleGapMs = 0;
    int derivationVersion = 1;
    QString definitions = QStringLiteral("vllm");

    /// The steady-window result set (docs/metrics.md) by key: "valid" (1 or 0), "window_s",
    /// "output_throughput", "request_throughput", "completed" and mean/median/p90/p99 of TTFT, TPOT,
    /// ITL and E2EL ("p90_ttft_ms"); result files carry them as `servescope_steady_<key>`. Empty when
    /// the point was not measured with one.
    QMap<QString, double> steady;
    /// What the server's `/metrics` said while the point ran (docs/metrics.md, Server series):
    /// "running_mean", "waiting_max", "kv_usage_max", "preemptions", ...; empty when it was not
    /// scraped. Result files carry them as `servescope_server_<key>`.
    QMap<QString, double> server;
    /// How hard the client worked (docs/metrics.md, Client health): "dispatch_lag_p99_ms",
    /// "cpu_percent", ...; result files carry them as `servescope_client_<key>`.
    QMap<QString, double> client;
    /// multi_turn: the sessions' first turns against their later ones (docs/metrics.md, Sessions):
    /// "first_turn_requests", "first_turn_median_ttft_ms", "first_turn_p99_ttft_ms", "first_turn_median_ttfo_ms",
    /// "first_turn_cache_hit_rate" (percent) and the same for "later_turn"; empty for single requests. Result
    /// files carry them as `servescope_<key>`.
    QMap<QString, double> turns;
};

/// One latency distribution of a summary: its code in keys ("ttft" in "p99_ttft_ms"), its member, and
/// whether vLLM's result files define it (the others are written there under `servescope_`).
struct DistributionField {
    const char *code;
    Distribution PointSummary::*member;
    bool vllmKey;
};
/// Every distribution a summary holds, in the order they are listed and shown.
std::span<const DistributionField> distributionFields();

/// One headline metric of one (variant, point) across its repeats, as stored beside the point's
/// summaries: the median is what is reported, with the spread and a 95% interval (docs/metrics.md).
struct PointEstimate {
    qint64 runId = 0;
    QString variant;
    int point = 0;
    QString metric; ///< result-file key, e.g. "p99_ttft_ms"
    int repeats = 0;
    double median = 0, min = 0, max = 0;
    double cv = 0; ///< population std / |mean|
    double ciLow = 0, ciHigh = 0;
    QString ciMethod; ///< "order-statistic", "bootstrap", "repeat-range"; empty: no interval

    bool hasInterval() const noexcept { return !ciMethod.isEmpty(); }
    /// (max - min) / |median|; 0 for one repeat or a zero median.
    double spread() const noexcept;
};

/// What a variant's search found (docs/capacity.md).
struct CapacityResult {
    QString variant;
    /// The largest level measured that met every SLO; 0 when none did.
    double capacity = 0;
    /// The smallest level above it measured that did not; +inf when none did (capacity is then "at least").
    double upper = std::numeric_limits<double>::infinity();
    /// Why the search ended: "converged" (the bracket is within the resolution), "max" (the largest level
    /// allowed meets them), "none" (the smallest level tried does not), "points" or "time" (a cap),
    /// "cancelled".
    QString stop;
    int levels = 0; ///< distinct levels known: measured, or reused from an earlier run
    int reused = 0; ///< of `levels`, taken from an earlier run and not measured again
    int measurements = 0; ///< with repeats, in this run

    bool found() const { return capacity > 0; }
};

/// One request body ready to send, with what it was generated for (prompts are built by the
/// workload, sent by the engine).
struct PreparedRequest {
    QByteArray body; ///< JSON
    int targetInputLen = 0;
    int targetOutputLen = 0;
    PromptHash promptHash;
    /// A turn of a multi_turn session (the request list holds sessions whole, turn after turn): which turn
    /// (0 the first), the byte in `body` where the conversation so far goes, and the end of this turn's own
    /// user message, which starts there (the engine carries it, with the answer, into the next turn).
    int turn = -1;
    int historyAt = -1;
    int messageEnd = -1;
};

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::RequestRecord)
Q_DECLARE_METATYPE(ServeScope::PointSummary)
Q_DECLARE_METATYPE(ServeScope::PointEstimate)
