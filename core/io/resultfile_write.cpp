// SPDX-License-Identifier: MIT
#include "io/resultfile.h"

#include "model/clock.h"

#include <QSaveFile>

#include <cmath>
#include <nlohmann/json.hpp>

namespace ServeScope {

namespace {

using Json = nlohmann::ordered_json;

std::string utf8(const QString &s)
{
    return s.toStdString();
}

// vLLM's per-request arrays for one measured request. The derivation is vLLM's (token events:
// non-empty choices) and uses the same ns -> s conversions as the metrics library, so the
// summary written next to the arrays recomputes from them bit for bit.
struct Row {
    qint64 in = 0, out = 0;
    double ttft = 0, latency = 0, start = 0, queue = 0;
    Json itls = Json::array();
    QString text, error;
};

Row makeRow(const RequestRecord &r, qint64 origin)
{
    Row row;
    row.in = r.promptTokens;
    row.start = nsToSeconds(r.startNs - origin);
    row.queue = nsToSeconds(r.slotNs - r.scheduledNs);
    const qsizetype n = qMin(r.eventNs.size(), r.eventKinds.size());
    qint64 first = -1, prev = -1;
    for (qsizetype i = 0; i < n; ++i) {
        if (!isTokenEvent(r.eventKinds.at(i)))
            continue;
        const qint64 t = r.eventNs.at(i);
        if (first < 0)
            first = t;
        else
            row.itls.push_back(nsToSeconds(t - prev));
        prev = t;
    }
    if (r.status != RequestStatus::Ok || first < 0) {
        row.itls = Json::array();
        row.error = r.errorText;
        if (row.error.isEmpty())
            row.error = first < 0 && r.status == RequestStatus::Ok ? QStringLiteral("stream without a token event")
                                                                   : errorClassCode(r.errorClass);
        return row;
    }
    row.out = r.completionTokens;
    row.ttft = nsToSeconds(first);
    row.latency = nsToSeconds(prev);
    row.text = r.generatedText;
    return row;
}

void putSetup(Json &j, const ResultFileSetup &s)
{
    j["date"] = utf8(s.date);
    j["backend"] = utf8(s.backend);
    j["label"] = s.label.isEmpty() ? Json(nullptr) : Json(utf8(s.label));
    j["model_id"] = utf8(s.modelId);
    j["tokenizer_id"] = utf8(s.tokenizerId.isEmpty() ? s.modelId : s.tokenizerId);
    j["num_prompts"] = s.numPrompts;
    j["request_rate"] = std::isinf(s.requestRate) ? Json("inf") : Json(s.requestRate);
    j["burstiness"] = s.burstiness;
    j["max_concurrency"] = s.maxConcurrency > 0 ? Json(s.maxConcurrency) : Json(nullptr);
}

void putTotals(Json &j, const PointSummary &s)
{
    j["duration"] = s.duration;
    j["completed"] = s.completed;
    j["failed"] = s.failed;
    j["total_input_tokens"] = s.totalInputTokens;
    j["total_output_tokens"] = s.totalOutputTokens;
    j["request_throughput"] = s.requestThroughput;
    j["request_goodput"] = s.requestGoodput < 0 ? Json(nullptr) : Json(s.requestGoodput);
    j["output_throughput"] = s.outputThroughput;
    j["total_token_throughput"] = s.totalTokenThroughput;
}

void putArrays(Json &j, std::span<const RequestRecord> records, qint64 origin)
{
    Json in = Json::array(), out = Json::array(), ttfts = Json::array(), itls = Json::array(), lat = Json::array(),
         starts = Json::array(), queues = Json::array(), texts = Json::array(), errors = Json::array();
    for (const auto &r : records) {
        if (r.warmup || r.status == RequestStatus::Cancelled)
            continue;
        Row row = makeRow(r, origin);
        in.push_back(row.in);
        out.push_back(row.out);
        ttfts.push_back(row.ttft);
        itls.push_back(std::move(row.itls));
        lat.push_back(row.latency);
        starts.push_back(row.start);
        queues.push_back(row.queue);
        texts.push_back(utf8(row.text));
        errors.push_back(utf8(row.error));
    }
    j["input_lens"] = std::move(in);
    j["output_lens"] = std::move(out);
    j["ttfts"] = std::move(ttfts);
    j["itls"] = std::move(itls);
    j["latencies"] = std::move(lat);
    j["start_times"] = std::move(starts);
    j["queue_times"] = std::move(queues);
    j["generated_texts"] = std::move(texts);
    j["errors"] = std::move(errors);
}

void putStatistics(Json &j, const PointSummary &s, const QVector<double> &percentiles, const char *prefix)
{
    const std::pair<const char *, const Distribution *> metrics[]
        = { { "ttft", &s.ttft }, { "tpot", &s.tpot }, { "itl", &s.itl }, { "e2el", &s.e2el } };
    for (const auto &[name, d] : metrics) {
        const std::string m = prefix + std::string(name);
        j["mean_" + m + "_ms"] = d->mean;
        j["median_" + m + "_ms"] = d->median;
        j["std_" + m + "_ms"] = d->std;
        for (double p : percentiles)
            j["p" + utf8(percentileKey(p)) + "_" + m + "_ms"] = d->percentile(p);
    }
}

} // namespace

QByteArray writeVllmResult(
    const ResultFileSetup &setup, std::span<const RequestRecord> records, const PointSummary &summary, QString *error)
{
    if (summary.definitions != QLatin1String("vllm")) {
        if (error)
            *error = QStringLiteral("a vLLM result file needs a summary computed with the vllm definitions");
        return {};
    }
    for (double p : setup.percentiles) {
        if (std::isnan(summary.ttft.percentile(p))) {
            if (error)
                *error = QStringLiteral("percentile %1 was not computed for this summary").arg(p);
            return {};
        }
    }
    Json j = Json::object();
    putSetup(j, setup);
    putTotals(j, summary);
    putArrays(j, records, setup.measuredStartNs);
    putStatistics(j, summary, setup.percentiles, "");
    j["max_output_tokens_per_s"] = summary.maxOutputTokensPerS;
    j["max_concurrent_requests"] = summary.maxConcurrentRequests;
    j["servescope_definitions"] = "vllm";
    if (!setup.profile.isEmpty())
        j["servescope_profile"] = utf8(setup.profile);
    j["servescope_warmup_requests"] = summary.warmup;
    j["servescope_discarded_requests"] = setup.discarded;
    j["servescope_cancelled_requests"] = summary.cancelled;
    j["servescope_success_rate"] = summary.successRate;
    j["servescope_concurrency"] = summary.averageConcurrency;
    const std::pair<const char *, const Distribution *> extra[]
        = { { "ttfc", &summary.ttfc }, { "citl", &summary.citl } };
    for (const auto &[name, d] : extra) {
        j["servescope_mean_" + std::string(name) + "_ms"] = d->mean;
        j["servescope_median_" + std::string(name) + "_ms"] = d->median;
        for (double p : setup.percentiles)
            j["servescope_p" + utf8(percentileKey(p)) + "_" + name + "_ms"] = d->percentile(p);
    }
    for (const auto &[key, value] : setup.extraNumbers) {
        const QString k = key.startsWith(QLatin1String("servescope_")) ? key : QLatin1String("servescope_") + key;
        j[utf8(k)] = value;
    }
    const std::string text = j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    return QByteArray(text.data(), qsizetype(text.size()));
}

bool saveVllmResult(const QString &path, const ResultFileSetup &setup, std::span<const RequestRecord> records,
    const PointSummary &summary, QString *error)
{
    const QByteArray bytes = writeVllmResult(setup, records, summary, error);
    if (bytes.isEmpty())
        return false;
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace ServeScope
