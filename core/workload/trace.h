// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"

#include <QString>
#include <QVector>

#include <optional>
#include <vector>

namespace ServeScope {

/// The production trace formats ServeScope replays (docs/experiment-files.md, Datasets):
/// Mooncake JSONL (`timestamp` in ms, `input_length`, `output_length`, `hash_ids`), the Azure LLM inference
/// trace CSV (`TIMESTAMP`, `ContextTokens`, `GeneratedTokens`) and the BurstGPT CSV (`Timestamp` in s,
/// `Request tokens`, `Response tokens`).
enum class TraceFormat { Mooncake, Azure, BurstGpt };

QString traceFormatName(TraceFormat format);
/// "mooncake", "azure" or "burstgpt"; nothing for another name.
std::optional<TraceFormat> traceFormatFromName(const QString &name);

/// One request of a trace, kept compactly: its time, lengths, and where its prefix blocks are in Trace::blocks.
struct TraceRow {
    qint64 atUs = 0; ///< since the trace's first request
    int inputLen = 0;
    int outputLen = 0;
    int line = 0; ///< in the file
    quint32 firstBlock = 0;
    quint32 blockCount = 0;
};

/// The requests of a trace file, in its order.
struct Trace {
    TraceFormat format = TraceFormat::Mooncake;
    std::vector<TraceRow> rows;
    /// Mooncake's hash_ids, every row's in turn: rows whose ids agree share those prompt blocks exactly.
    std::vector<quint64> blocks;
    int skipped = 0; ///< rows with no prompt or no output tokens (BurstGPT's failed requests), not replayed
    bool truncated = false; ///< reading stopped at the rows asked for; the file has more

    /// Seconds from the first request to the last.
    double durationSeconds() const;
    /// Requests per second over the rows (0 with fewer than two rows or no time between them).
    double rate() const;
};

/// The most rows ServeScope holds from one trace (about 300 MB for Mooncake rows of ~15 blocks); a replay of a longer
/// trace names how many of its requests to take (num_prompts).
inline constexpr qsizetype kMaxTraceRows = 2000000;
/// The longest line read (a Mooncake line of 10,000,000 tokens in 512-token blocks is about 160 KB).
inline constexpr qsizetype kMaxTraceLineBytes = 1024 * 1024;

/// Reads `path` as the trace format `format` names (empty: told from the file's first line), keeping at most
/// `maxRows` requests. Refuses, with the line, what it cannot replay: a missing column or key, a value that is not
/// a number, a negative or decreasing timestamp, a length beyond 10,000,000 tokens, a line over 1 MiB, a trace
/// with no requests, or one of more than kMaxTraceRows when as many are asked for. False with *why (context
/// "ServeScope::Dataset").
bool readTrace(const QString &path, const QString &format, qsizetype maxRows, Trace *out, Reason *why);

/// The send offsets (ns from the point's start) of the first `count` rows replayed at a mean of `rate` requests
/// per second: the trace's own gaps, scaled so the last of them is sent at (count - 1) / rate. All zeros when
/// rate is infinite or the rows share one timestamp.
QVector<qint64> traceOffsetsNs(const Trace &trace, int count, double rate);

/// The share of the first `count` rows' prompt tokens that sit in blocks an earlier row of them had already
/// sent (with `blockSize`-token blocks): the prefix-cache hit rate an unbounded cache would give the replay.
double traceRepeatedShare(const Trace &trace, int count, int blockSize);

/// What a trace holds, for a preview before it is replayed: its size and rate, its lengths, how much of it
/// repeats, and three histograms (requests over time, input and output lengths) of `bins` bins each.
struct TraceProfile {
    TraceFormat format = TraceFormat::Mooncake;
    int requests = 0;
    int skipped = 0;
    double durationSeconds = 0;
    double rate = 0;
    double inputMedian = 0, inputP90 = 0, outputMedian = 0, outputP90 = 0;
    int inputMax = 0, outputMax = 0;
    double repeatedShare = 0; ///< traceRepeatedShare() over every row
    QVector<int> overTime; ///< requests per equal slice of the duration
    QVector<int> inputLengths, outputLengths; ///< requests per equal slice of [0, max]
};
TraceProfile traceProfile(const Trace &trace, int blockSize, int bins = 40);

} // namespace ServeScope
