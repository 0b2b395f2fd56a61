// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"
#include "resultfiles/resultcolumns.h"

#include <QMap>
#include <QStringList>

#include <functional>
#include <limits>
#include <span>

namespace ServeScope {

/// Setup keys of a vLLM result file and what ServeScope adds (docs/metrics.md, "vLLM result file").
struct ResultFileSetup {
    QString date; ///< vLLM's "%Y%m%d-%H%M%S"
    QString backend = QStringLiteral("openai-chat");
    QString label;
    QString modelId;
    QString tokenizerId;
    int numPrompts = 0;
    double requestRate = std::numeric_limits<double>::infinity(); ///< written as "inf" when infinite
    double burstiness = 1.0;
    int maxConcurrency = 0; ///< 0 is written as null
    QVector<double> percentiles { 99 }; ///< p{P}_{m}_ms keys written for ttft, tpot, itl, e2el
    qint64 measuredStartNs = 0; ///< start_times are seconds from here
    int discarded = 0; ///< servescope_discarded_requests (warmup and cancelled counts come from the summary)
    /// The run's definitions profile when it is not vllm ("sglang"): written as servescope_profile,
    /// its figures go in extraNumbers as servescope_<profile>_<key>.
    QString profile;
    /// Further figures written last, e.g. steady-window throughput or CI bounds
    /// ("servescope_steady_output_throughput", "servescope_p99_ttft_ms_ci_low"); a key without the
    /// servescope_ prefix gets it, so vLLM's own keys are never overwritten.
    QVector<QPair<QString, double>> extraNumbers;
    /// generated_texts by request index, asked for in rising order, when the records do not keep their
    /// text (the run's results folder reads it back from the project); unset: each record's own.
    std::function<QByteArray(int index)> generatedTexts;
};

/// Writes one point/repeat as vLLM's --save-result JSON. `records` are the point's records in
/// submission order (warmup and cancelled ones are skipped); `summary` must come from aggregatePoint
/// with the vllm profile over the same records, so that its statistics recompute from the arrays
/// written here. Returns an empty array and sets *error otherwise.
QByteArray writeVllmResult(const ResultFileSetup &setup, std::span<const RequestRecord> records,
    const PointSummary &summary, QString *error = nullptr);
/// The same, saved atomically to path.
bool saveVllmResult(const QString &path, const ResultFileSetup &setup, std::span<const RequestRecord> records,
    const PointSummary &summary, QString *error = nullptr);

/// One run read from a vLLM or SGLang result file, keys normalised to the current vLLM names:
/// "request_goodput:" -> request_goodput, *_latency_ms and *_e2e_latency_ms -> *_e2el_ms.
struct ResultRun {
    QString source; ///< "vllm" or "sglang" (from backend, or SGLang-only keys)
    int line = 0; ///< 1-based line in a JSON-lines file, 0 for a single object
    QMap<QString, double> numbers; ///< numeric keys (null values are left out)
    QMap<QString, QString> strings; ///< string keys (date, backend, model_id, label, ...)
    QStringList nullKeys; ///< keys present with null (request_goodput without SLOs, max_concurrency)
    double requestRate = std::numeric_limits<double>::quiet_NaN(); ///< +inf for "inf" / Infinity
    bool hasFailedKey = false;
    bool hasArrays = false; ///< the per-request arrays below are present
    QVector<qint64> inputLens, outputLens;
    QVector<double> ttfts, latencies, startTimes, queueTimes;
    GapColumn itls;
    TextColumn errors, generatedTexts;

    /// Frees the per-request arrays (hasArrays is kept): what is left is the line's setup and figures.
    void dropArrays()
    {
        inputLens = outputLens = {};
        ttfts = latencies = startTimes = queueTimes = {};
        itls = {};
        errors = generatedTexts = {};
    }

    double number(const QString &key, double fallback = std::numeric_limits<double>::quiet_NaN()) const
    {
        return numbers.value(key, fallback);
    }
};

/// Reads a vLLM result file (one object or JSON-lines from --append-result) or SGLang's JSON-lines
/// (bare Infinity/NaN accepted). Returns no runs and sets *error on malformed input.
QVector<ResultRun> readResultFile(const QByteArray &data, QString *error = nullptr);
QVector<ResultRun> readResultFilePath(const QString &path, QString *error = nullptr);
/// One result object (a whole file, or one line of a JSON-lines file numbered `line`, 0 for a
/// single object); false and *error when it is not a JSON object or a per-request array has the
/// wrong type (*shown, when given, the same in the application's language).
bool readResultObject(
    const QByteArray &json, int line, ResultRun *out, QString *error = nullptr, QString *shown = nullptr);

/// True when `json` is one JSON object (bare Infinity/NaN accepted), whatever its keys: a line that
/// is not tells a result file's damaged line from a file of another kind.
bool isJsonObject(const QByteArray &json);

/// Where a results folder keeps one (variant, point, repeat): `<variant>/<point>-r<k>.json`, names
/// sanitised to [A-Za-z0-9._-]. The writer of `run --out-dir` and the readers of `compare` agree here.
QString resultFileRelativePath(const QString &variant, const QString &label, int repeat);

/// summary.csv (docs/design.md, Results folder); C locale, shortest round-trip numbers, latencies
/// in ms, an empty field where a set has no such value. Columns: variant, label, mode,
/// concurrency, request_rate, repeat, set (`vllm`, the run's own profile when it is another, e.g.
/// `sglang`, or `steady`), stat (`value` for one repeat; `median`, `min`, `max`, `cv`, `ci_low`,
/// `ci_high` across repeats, with an empty repeat), the values, output_estimated and
/// input_estimated (requests whose output or input count is an estimate; value rows only), then
/// cost_per_million_output_tokens: with `hourPrice` (the price of an hour of all the variant's GPUs)
/// above 0, hourPrice / 3600 / the row's output_throughput × 10^6 (a statistic row reads the
/// throughput's mirrored statistic: min from max, ci_low from ci_high; none for cv), else empty.
/// `extra` (",a,b") adds a caller's columns after them, in the header and on every row alike.
QByteArray summaryCsvHeader(const QByteArray &extra = {});
/// One repeat: vLLM's set, then the steady set when its window was valid.
QByteArray summaryCsvRows(const PointSummary &s, const QByteArray &extra = {}, double hourPrice = 0);
/// A point's statistics across its repeats (vLLM's set), one row per statistic; `identity` gives
/// the variant, label and load.
QByteArray summaryCsvStatRows(const PointSummary &identity, const QList<PointEstimate> &estimates,
    const QByteArray &extra = {}, double hourPrice = 0);

} // namespace ServeScope
