// SPDX-License-Identifier: MIT
// kubernetes-sigs inference-perf: summary_lifecycle_metrics.json and stage_N_lifecycle_metrics.json
// (seconds, no unit markers).
#include "import/toolformat.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <cmath>
#include <limits>
#include <optional>

namespace ServeScope::ToolRead {

namespace {

const QString kTool = QStringLiteral("inference-perf");
const QString kName = QStringLiteral("inference-perf");

// A refusal of a file without the figures a point needs (none when it counts no successes).
std::optional<ToolFile> refusedLayout(const QJsonObject &successes, const QString &version)
{
    const QJsonObject latency = successes.value(QLatin1String("latency")).toObject();
    const QJsonObject throughput = successes.value(QLatin1String("throughput")).toObject();
    if (!successes.contains(QLatin1String("count")))
        return refuse(kName, version, QStringLiteral("successes.count"), QStringLiteral("is missing"));
    const double completed = numberOr(successes.value(QLatin1String("count")), 0);
    if (completed > 0) {
        for (const char *needed : { "request_latency", "time_to_first_token" }) {
            if (!latency.value(QLatin1String(needed)).isObject())
                return refuse(kName, version, QStringLiteral("successes.latency.%1").arg(QLatin1String(needed)),
                    QStringLiteral("is missing"));
        }
        if (!throughput.contains(QLatin1String("requests_per_sec")))
            return refuse(
                kName, version, QStringLiteral("successes.throughput.requests_per_sec"), QStringLiteral("is missing"));
    }
    return std::nullopt;
}

// E2EL, TTFT and, unless the version that wrote it stamped blank lines as tokens, TPOT.
void putLatencies(ToolFile &t, ResultRun &run, const QJsonObject &successes)
{
    const QJsonObject latency = successes.value(QLatin1String("latency")).toObject();
    const QJsonObject e2el = latency.value(QLatin1String("request_latency")).toObject();
    const QJsonObject ttft = latency.value(QLatin1String("time_to_first_token")).toObject();
    const QJsonObject tpot = latency.value(QLatin1String("time_per_output_token")).toObject();
    putDistribution(run, QStringLiteral("e2el"), e2el, 1000);
    putDistribution(run, QStringLiteral("ttft"), ttft, 1000);
    putDistribution(run, QStringLiteral("ttfc"), ttft, 1000, true);

    // TPOT is (last token - first token) / (output tokens - 1), vLLM's, except where a version
    // stamped the blank lines between SSE events as tokens: then it comes out about half of
    // (latency - TTFT) / (output - 1) and is not vLLM's TPOT.
    const double meanE2el = numberOr(e2el.value(QLatin1String("mean")), kNaN);
    const double meanTtft = numberOr(ttft.value(QLatin1String("mean")), kNaN);
    const double meanOut
        = numberOr(successes.value(QLatin1String("output_len")).toObject().value(QLatin1String("mean")), kNaN);
    const double meanTpot = numberOr(tpot.value(QLatin1String("mean")), kNaN);
    const double expected = meanOut > 1 ? (meanE2el - meanTtft) / (meanOut - 1) : kNaN;
    if (std::isfinite(meanTpot) && std::isfinite(expected) && expected > 0 && meanTpot < 0.75 * expected) {
        t.warnings << Reason::in(kCtx,
            QT_TRANSLATE_NOOP("ServeScope::Import",
                "inference-perf's time_per_output_token (mean %1 ms) is about %2 of (latency - TTFT) / (output - 1) "
                "= %3 ms: the version that wrote it counted the blank lines between SSE events as tokens; TPOT is "
                "not stored"),
            { QString::number(meanTpot * 1000, 'g', 4), QString::number(meanTpot / expected, 'g', 2),
                QString::number(expected * 1000, 'g', 4) });
        run.strings.insert(QStringLiteral("servescope_tpot_left_out"), QStringLiteral("blank-line stamps"));
    } else if (!tpot.isEmpty()) {
        putDistribution(run, QStringLiteral("tpot"), tpot, 1000);
    }
}

// The counts, the throughputs, the duration (successes / requests_per_sec) and the token totals
// (mean x count).
void putTotals(ResultRun &run, const QJsonObject &o, const QJsonObject &successes, double completed)
{
    const QJsonObject throughput = successes.value(QLatin1String("throughput")).toObject();
    run.numbers.insert(QStringLiteral("completed"), completed);
    run.numbers.insert(QStringLiteral("failed"),
        numberOr(o.value(QLatin1String("failures")).toObject().value(QLatin1String("count")), 0));
    const auto copy = [&](const char *from, const char *to) {
        putNumber(run, QLatin1String(to), throughput.value(QLatin1String(from)));
    };
    copy("requests_per_sec", "request_throughput");
    copy("output_tokens_per_sec", "output_throughput");
    copy("total_tokens_per_sec", "total_token_throughput");
    const double rps = numberOr(throughput.value(QLatin1String("requests_per_sec")), 0);
    if (rps > 0 && completed > 0)
        run.numbers.insert(QStringLiteral("duration"), completed / rps);
    const double meanIn
        = numberOr(successes.value(QLatin1String("prompt_len")).toObject().value(QLatin1String("mean")), kNaN);
    const double meanOut
        = numberOr(successes.value(QLatin1String("output_len")).toObject().value(QLatin1String("mean")), kNaN);
    if (std::isfinite(meanIn))
        run.numbers.insert(QStringLiteral("total_input_tokens"), std::round(meanIn * completed));
    if (std::isfinite(meanOut))
        run.numbers.insert(QStringLiteral("total_output_tokens"), std::round(meanOut * completed));
}

} // namespace

ToolFile readInferencePerf(const QString &path, const QJsonObject &o)
{
    const QString version = QStringLiteral("lifecycle metrics, version not recorded");
    const QJsonObject successes = o.value(QLatin1String("successes")).toObject();
    if (std::optional<ToolFile> refused = refusedLayout(successes, version))
        return *std::move(refused);
    const double completed = numberOr(successes.value(QLatin1String("count")), 0);
    ToolFile t = readOf(kTool, version);
    ResultRun run;
    putLatencies(t, run, successes);
    putTotals(run, o, successes, completed);
    const QJsonObject load = o.value(QLatin1String("load_summary")).toObject();
    double rate = 0;
    if (numberOf(load.value(QLatin1String("requested_rate")), &rate))
        run.requestRate = rate;
    double sent = 0;
    if (numberOf(load.value(QLatin1String("count")), &sent))
        run.numbers.insert(QStringLiteral("num_prompts"), sent);
    static const QRegularExpression stage(QStringLiteral("stage_(\\d+)_lifecycle_metrics\\.json$"));
    const QRegularExpressionMatch m = stage.match(QFileInfo(path).fileName());
    if (!m.hasMatch() && !load.contains(QLatin1String("requested_rate")))
        t.warnings << Reason::in(kCtx,
            QT_TRANSLATE_NOOP("ServeScope::Import",
                "inference-perf's summary pools every stage of the run into one point (no rate); import the "
                "stage_N files for one point per stage"),
            {});
    addPoint(t, std::move(run),
        QStringLiteral("inference-perf: seconds; inter_token_latency pools one gap per token (a chunk's tokens share "
                       "its time) and normalized_time_per_output_token includes TTFT: neither is stored; duration is "
                       "successes / requests_per_sec; token totals are mean x count"));
    return t;
}

} // namespace ServeScope::ToolRead
