// SPDX-License-Identifier: MIT
// GuideLLM benchmarks.json (report v1 and v2): each benchmark of the file is a point.
#include "import/toolformat.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QVariant>

#include <cmath>
#include <limits>
#include <optional>

namespace ServeScope::ToolRead {

namespace {

const QString kTool = QStringLiteral("guidellm");
const QString kName = QStringLiteral("GuideLLM");

QJsonObject successful(const QJsonObject &metrics, const char *key)
{
    return metrics.value(QLatin1String(key)).toObject().value(QLatin1String("successful")).toObject();
}

// The strategy of a benchmark: v2 keeps it in config.strategy, v1 in args.strategy or beside it.
QJsonObject strategyOf(const QJsonObject &b)
{
    for (const char *where : { "config", "args" }) {
        const QJsonObject s = b.value(QLatin1String(where)).toObject().value(QLatin1String("strategy")).toObject();
        if (!s.isEmpty())
            return s;
    }
    return b.value(QLatin1String("strategy")).toObject();
}

void setLoad(ResultRun &run, const QJsonObject &strategy)
{
    const QString type = strategy.value(QLatin1String("type_")).toString();
    double v = 0;
    run.strings.insert(QStringLiteral("guidellm_strategy"), type);
    if (type == QLatin1String("synchronous")) {
        run.requestRate = std::numeric_limits<double>::infinity();
        run.numbers.insert(QStringLiteral("max_concurrency"), 1);
    } else if (type == QLatin1String("concurrent")) {
        run.requestRate = std::numeric_limits<double>::infinity();
        putNumber(run, QStringLiteral("max_concurrency"), strategy.value(QLatin1String("streams")));
    } else if (type == QLatin1String("throughput")) {
        run.requestRate = std::numeric_limits<double>::infinity();
    } else if (numberOf(strategy.value(QLatin1String("rate")), &v)) {
        run.requestRate = v; // constant, poisson, async
        if (type == QLatin1String("poisson"))
            run.numbers.insert(QStringLiteral("burstiness"), 1);
    }
}

// The latency distributions of the successful requests, GuideLLM's percentiles among them.
void putDistributions(ResultRun &run, const QJsonObject &m)
{
    putDistribution(
        run, QStringLiteral("ttft"), successful(m, "time_to_first_token_ms"), 1, false, QStringLiteral("percentiles"));
    putDistribution(
        run, QStringLiteral("ttfc"), successful(m, "time_to_first_token_ms"), 1, true, QStringLiteral("percentiles"));
    if (m.contains(QLatin1String("time_to_first_output_token_ms")))
        putDistribution(run, QStringLiteral("ttfo"), successful(m, "time_to_first_output_token_ms"), 1, true,
            QStringLiteral("percentiles"));
    putDistribution(
        run, QStringLiteral("tpot"), successful(m, "inter_token_latency_ms"), 1, false, QStringLiteral("percentiles"));
    putDistribution(
        run, QStringLiteral("e2el"), successful(m, "request_latency"), 1000, false, QStringLiteral("percentiles"));
}

// Throughput as vLLM defines it: the benchmark's totals over its duration. GuideLLM's own
// *_per_second means average a rate over time and differ slightly.
void putThroughput(
    ResultRun &run, const QJsonObject &b, const QJsonObject &m, const QJsonObject &totals, double completed)
{
    const double duration = numberOr(b.value(QLatin1String("duration")),
        numberOr(b.value(QLatin1String("end_time")), 0) - numberOr(b.value(QLatin1String("start_time")), 0));
    const double in = numberOr(successful(m, "prompt_token_count").value(QLatin1String("total_sum")), kNaN);
    const double out = numberOr(successful(m, "output_token_count").value(QLatin1String("total_sum")), kNaN);
    if (duration > 0) {
        run.numbers.insert(QStringLiteral("duration"), duration);
        run.numbers.insert(QStringLiteral("request_throughput"), completed / duration);
        if (std::isfinite(out))
            run.numbers.insert(QStringLiteral("output_throughput"), out / duration);
        if (std::isfinite(in) && std::isfinite(out))
            run.numbers.insert(QStringLiteral("total_token_throughput"), (in + out) / duration);
    }
    if (std::isfinite(in))
        run.numbers.insert(QStringLiteral("total_input_tokens"), in);
    if (std::isfinite(out))
        run.numbers.insert(QStringLiteral("total_output_tokens"), out);
    run.numbers.insert(QStringLiteral("num_prompts"), numberOr(totals.value(QLatin1String("total")), completed));
}

// What the run's spec (or the benchmark's own config) names: the backend's model and request format,
// the tokenizer, the data's lengths; and the benchmark's start as the date.
void putSpec(ResultRun &run, const QJsonObject &b, const QJsonObject &spec)
{
    const QJsonObject backend = spec.value(QLatin1String("backend")).toObject().isEmpty()
        ? b.value(QLatin1String("config")).toObject().value(QLatin1String("backend")).toObject()
        : spec.value(QLatin1String("backend")).toObject();
    const QString model = backend.value(QLatin1String("model")).toString();
    if (!model.isEmpty())
        run.strings.insert(QStringLiteral("model_id"), model);
    const QString format = backend.value(QLatin1String("request_format")).toString();
    if (!format.isEmpty())
        run.strings.insert(QStringLiteral("backend"),
            format.contains(QLatin1String("chat")) ? QStringLiteral("openai-chat") : QStringLiteral("openai"));
    const QString tokenizer
        = spec.value(QLatin1String("tokenizer")).toObject().value(QLatin1String("model")).toString();
    if (!tokenizer.isEmpty())
        run.strings.insert(QStringLiteral("tokenizer_id"), tokenizer);
    const QJsonArray data = spec.value(QLatin1String("data")).toArray();
    const QJsonObject d0 = data.isEmpty() ? QJsonObject() : data.first().toObject();
    putNumber(run, QStringLiteral("random_input_len"), d0.value(QLatin1String("prompt_tokens")));
    putNumber(run, QStringLiteral("random_output_len"), d0.value(QLatin1String("output_tokens")));
    const double start = numberOr(b.value(QLatin1String("start_time")), 0);
    if (start > 0)
        run.strings.insert(QStringLiteral("date"),
            QDateTime::fromMSecsSinceEpoch(qint64(start * 1000)).toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss")));
}

// Benchmark `i` as a point of `t`; a refusal when a figure it needs is missing. `recordsLeftOut` is
// set when it holds per-request records, which are not imported.
std::optional<ToolFile> readBenchmark(ToolFile &t, const QJsonObject &b, qsizetype i, const QString &version,
    const QJsonObject &spec, bool *recordsLeftOut)
{
    const QJsonObject m = b.value(QLatin1String("metrics")).toObject();
    for (const char *needed : { "time_to_first_token_ms", "inter_token_latency_ms", "request_latency",
             "output_token_count", "prompt_token_count" }) {
        if (!m.contains(QLatin1String(needed)))
            return refuse(kName, version, QStringLiteral("benchmarks[%1].metrics.%2").arg(i).arg(QLatin1String(needed)),
                QStringLiteral("is missing"));
    }
    ResultRun run;
    // Earlier reports keep request_totals beside the metrics, later ones inside them.
    const QJsonObject totals = m.contains(QLatin1String("request_totals"))
        ? m.value(QLatin1String("request_totals")).toObject()
        : b.value(QLatin1String("request_totals")).toObject();
    if (!totals.contains(QLatin1String("successful")))
        return refuse(
            kName, version, QStringLiteral("benchmarks[%1].request_totals").arg(i), QStringLiteral("is missing"));
    const double completed = numberOr(totals.value(QLatin1String("successful")), 0);
    run.numbers.insert(QStringLiteral("completed"), completed);
    run.numbers.insert(QStringLiteral("failed"), numberOr(totals.value(QLatin1String("errored")), 0));
    run.numbers.insert(
        QStringLiteral("servescope_cancelled_requests"), numberOr(totals.value(QLatin1String("incomplete")), 0));
    putDistributions(run, m);
    putThroughput(run, b, m, totals, completed);
    setLoad(run, strategyOf(b));
    putSpec(run, b, spec);
    const QJsonObject requests = b.value(QLatin1String("requests")).toObject();
    *recordsLeftOut = *recordsLeftOut || !requests.value(QLatin1String("successful")).toArray().isEmpty();
    addPoint(t, std::move(run),
        QStringLiteral("GuideLLM: inter_token_latency_ms is stored as TPOT (its distribution is weighted by "
                       "output tokens, vLLM's by request); time_per_output_token_ms includes TTFT and is not "
                       "stored; no per-chunk ITL; throughput is the totals over the benchmark's duration"));
    return std::nullopt;
}

} // namespace

ToolFile readGuidellm(const QString &path, const QJsonObject &o)
{
    Q_UNUSED(path)
    const QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
    const int report = meta.contains(QLatin1String("version")) ? meta.value(QLatin1String("version")).toInt(-1) : 1;
    const QString guidellm = meta.value(QLatin1String("guidellm_version")).toString();
    const QString version
        = (guidellm.isEmpty() ? QString() : guidellm + QStringLiteral(", ")) + QStringLiteral("report v%1").arg(report);
    if (report != 1 && report != 2)
        return refuse(kName, version, QStringLiteral("metadata.version"),
            QStringLiteral("is %1; report versions 1 and 2 are read")
                .arg(meta.value(QLatin1String("version")).toVariant().toString()));
    const QJsonArray benchmarks = o.value(QLatin1String("benchmarks")).toArray();
    if (benchmarks.isEmpty())
        return refuse(kName, version, QStringLiteral("benchmarks"), QStringLiteral("is empty"));

    const QJsonObject spec = o.value(QLatin1String("config")).toObject().value(QLatin1String("spec")).toObject();
    ToolFile t = readOf(kTool, version);
    bool recordsLeftOut = false;
    for (qsizetype i = 0; i < benchmarks.size(); ++i) {
        if (std::optional<ToolFile> refused
            = readBenchmark(t, benchmarks.at(i).toObject(), i, version, spec, &recordsLeftOut))
            return *std::move(refused);
    }
    t.warnings << Reason::in(kCtx,
        QT_TRANSLATE_NOOP("ServeScope::Import",
            "GuideLLM's inter_token_latency_ms is stored as TPOT: per request the same formula, but GuideLLM "
            "weights its distribution by output tokens where vLLM weights each request once"),
        {});
    if (recordsLeftOut)
        t.warnings << Reason::in(kCtx,
            QT_TRANSLATE_NOOP("ServeScope::Import",
                "GuideLLM's per-request records are not imported (only its statistics are stored)"),
            {});
    return t;
}

} // namespace ServeScope::ToolRead
