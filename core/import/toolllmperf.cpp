// SPDX-License-Identifier: MIT
// Ray llmperf: *_summary.json (flat results_<metric>_<stat> keys, seconds) and the
// *_individual_responses.json beside it.
#include "import/toolformat.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace ServeScope::ToolRead {

namespace {

const QString kTool = QStringLiteral("llmperf");
const QString kName = QStringLiteral("llmperf");
const QString kVersion = QStringLiteral("2023-08-31");

// results_<metric>_<stat> -> `metric` statistics in ms. llmperf's stddev is pandas' sample standard
// deviation (n - 1); ServeScope's is numpy's population one: x sqrt((n - 1) / n), n the completed requests.
void putFlat(ResultRun &run, const QJsonObject &o, const QString &llmperfMetric, const QString &metric, double n)
{
    const QString prefix = QStringLiteral("results_") + llmperfMetric + u'_';
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        double v = 0;
        if (!it.key().startsWith(prefix) || !numberOf(it.value(), &v))
            continue;
        const QString stat = it.key().mid(prefix.size());
        if (stat == QLatin1String("stddev")) {
            if (n > 1)
                putStatistic(run, metric, stat, v * std::sqrt((n - 1) / n) * 1000);
            continue;
        }
        putStatistic(run, metric, stat, v * 1000);
    }
}

void putRecords(ResultRun &run, const QJsonArray &records)
{
    for (const QJsonValue &rv : records) {
        const QJsonObject r = rv.toObject();
        const QJsonValue code = r.value(QLatin1String("error_code"));
        QString error;
        if (!code.isNull() && !code.isUndefined()) {
            error = r.value(QLatin1String("error_msg")).toString();
            if (error.isEmpty())
                error = QStringLiteral("error %1").arg(code.toVariant().toString());
        }
        run.errors << error;
        run.ttfts << numberOr(r.value(QLatin1String("ttft_s")), 0);
        run.latencies << numberOr(r.value(QLatin1String("end_to_end_latency_s")), 0);
        run.inputLens << qint64(numberOr(r.value(QLatin1String("number_input_tokens")), 0));
        run.outputLens << qint64(numberOr(r.value(QLatin1String("number_output_tokens")), 0));
    }
    run.hasArrays = !records.isEmpty();
}

QJsonArray readArray(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() > (qint64(128) << 20))
        return {};
    return QJsonDocument::fromJson(f.readAll()).array();
}

const QString kNote = QStringLiteral(
    "llmperf: TTFT is the first chunk with non-empty content (reasoning ignored); inter_token_latency_s is the "
    "sum of all chunk gaps including TTFT over output tokens, not vLLM's TPOT or ITL, and is not stored; TPOT "
    "is recomputed from the individual responses as (e2e - ttft) / (output - 1); output tokens are counted by "
    "re-tokenizing the text with a fixed llama tokenizer; stddev is the sample standard deviation, stored as "
    "the population one (x sqrt((n - 1) / n)); request_output_throughput_token_per_s counts chunks, not tokens, "
    "and is not stored");

} // namespace

ToolFile readLlmperf(const QString &path, const QJsonObject &o)
{
    const QString version = o.value(QLatin1String("version")).toString();
    if (version != kVersion)
        return refuse(kName, version, QStringLiteral("version"),
            QStringLiteral("is \"%1\"; the summary layout read is \"%2\"").arg(version, kVersion));
    for (const char *needed : { "results_ttft_s_mean", "results_end_to_end_latency_s_mean",
             "results_num_completed_requests", "results_num_completed_requests_per_min" }) {
        if (!o.contains(QLatin1String(needed)))
            return refuse(kName, version, QString::fromLatin1(needed), QStringLiteral("is missing"));
    }
    ToolFile t = readOf(kTool, version);
    ResultRun run;
    const double completed = numberOr(o.value(QLatin1String("results_num_completed_requests")), 0);
    putFlat(run, o, QStringLiteral("ttft_s"), QStringLiteral("ttft"), completed);
    putFlat(run, o, QStringLiteral("end_to_end_latency_s"), QStringLiteral("e2el"), completed);
    const double perMin = numberOr(o.value(QLatin1String("results_num_completed_requests_per_min")), 0);
    run.numbers.insert(QStringLiteral("completed"), completed);
    run.numbers.insert(QStringLiteral("failed"), numberOr(o.value(QLatin1String("results_number_errors")), 0));
    if (perMin > 0) {
        run.numbers.insert(QStringLiteral("request_throughput"), perMin / 60.0);
        if (completed > 0)
            run.numbers.insert(QStringLiteral("duration"), completed * 60.0 / perMin);
    }
    double v = 0;
    putNumber(
        run, QStringLiteral("output_throughput"), o.value(QLatin1String("results_mean_output_throughput_token_per_s")));
    const double meanIn = numberOr(o.value(QLatin1String("results_number_input_tokens_mean")), kNaN);
    const double meanOut = numberOr(o.value(QLatin1String("results_number_output_tokens_mean")), kNaN);
    if (std::isfinite(meanIn))
        run.numbers.insert(QStringLiteral("total_input_tokens"), std::round(meanIn * completed));
    if (std::isfinite(meanOut))
        run.numbers.insert(QStringLiteral("total_output_tokens"), std::round(meanOut * completed));
    if (std::isfinite(meanIn) && std::isfinite(meanOut) && perMin > 0)
        run.numbers.insert(QStringLiteral("total_token_throughput"), (meanIn + meanOut) * perMin / 60.0);
    run.requestRate = std::numeric_limits<double>::infinity();
    putNumber(run, QStringLiteral("max_concurrency"), o.value(QLatin1String("num_concurrent_requests")));
    putNumber(run, QStringLiteral("random_input_len"), o.value(QLatin1String("mean_input_tokens")));
    putNumber(run, QStringLiteral("random_output_len"), o.value(QLatin1String("mean_output_tokens")));
    const QString model = o.value(QLatin1String("model")).toString();
    if (!model.isEmpty())
        run.strings.insert(QStringLiteral("model_id"), model);
    QString name = o.value(QLatin1String("name")).toString();
    if (name.endsWith(QLatin1String("_summary")))
        name.chop(8);
    if (!name.isEmpty())
        run.strings.insert(QStringLiteral("label"), name);
    if (numberOf(o.value(QLatin1String("timestamp")), &v) && v > 0)
        run.strings.insert(QStringLiteral("date"),
            QDateTime::fromSecsSinceEpoch(qint64(v)).toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss")));

    const QString responses
        = siblingOf(path, QStringLiteral("_summary.json"), QStringLiteral("_individual_responses.json"));
    if (!responses.isEmpty()) {
        const QJsonArray records = readArray(responses);
        if (records.isEmpty()) {
            t.warnings << Reason::in(kCtx,
                QT_TRANSLATE_NOOP("ServeScope::Import", "%1: %2; the per-request records were not imported"),
                { QFileInfo(responses).fileName(), QStringLiteral("not a JSON array of responses") });
        } else {
            putRecords(run, records);
            run.strings.insert(QStringLiteral("servescope_records_file"), responses);
            t.warnings << Reason::in(kCtx,
                QT_TRANSLATE_NOOP("ServeScope::Import",
                    "llmperf publishes no TPOT: it is recomputed from %1 as (e2e - ttft) / (output - 1), with "
                    "llmperf's output counts (the text re-tokenized by a fixed llama tokenizer)"),
                { QFileInfo(responses).fileName() });
        }
    }
    t.warnings << Reason::in(kCtx,
        QT_TRANSLATE_NOOP("ServeScope::Import",
            "llmperf's inter_token_latency_s includes TTFT (all chunk gaps and TTFT over output tokens): it is "
            "neither TPOT nor ITL and is not stored"),
        {});
    addPoint(t, std::move(run), kNote);
    return t;
}

ToolFile readLlmperfRecords(const QString &path, const QJsonArray &records)
{
    ToolFile t = readOf(kTool, QStringLiteral("individual responses"));
    const QString summary
        = siblingOf(path, QStringLiteral("_individual_responses.json"), QStringLiteral("_summary.json"));
    ResultRun run;
    putRecords(run, records);
    const int failed = int(run.errors.nonEmptyCount());
    run.numbers.insert(QStringLiteral("completed"), run.ttfts.size() - failed);
    run.numbers.insert(QStringLiteral("failed"), failed);
    run.requestRate = std::numeric_limits<double>::quiet_NaN();
    addPoint(t, std::move(run), kNote);
    t.warnings << Reason::in(kCtx,
        QT_TRANSLATE_NOOP("ServeScope::Import",
            "llmperf's individual responses alone: statistics are recomputed from them, and without start times "
            "there is no duration, so no throughput (import %1 for llmperf's published figures)"),
        { summary.isEmpty() ? QStringLiteral("the *_summary.json") : QFileInfo(summary).fileName() });
    return t;
}

} // namespace ServeScope::ToolRead
