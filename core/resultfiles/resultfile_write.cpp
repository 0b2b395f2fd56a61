// SPDX-License-Identifier: MIT
#include "resultfiles/resultfile.h"

#include "model/clock.h"

#include <QBuffer>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace ServeScope {

namespace {

using Json = nlohmann::ordered_json;

std::string utf8(const QString &s)
{
    return s.toStdString();
}

// What vLLM's per-request arrays say of one measured request: its token events (non-empty choices)
// give the TTFT, the latency and the ITLs, with the same ns -> s conversions as the metrics library,
// so the summary written next to the arrays recomputes from them bit for bit. A failed request, or
// one without a token event, has an error and zeros.
struct TokenSpan {
    qint64 first = -1, last = -1;
    bool ok() const { return first >= 0; }
};

TokenSpan tokenSpan(const RequestRecord &r)
{
    TokenSpan span;
    if (r.status != RequestStatus::Ok)
        return span;
    const qsizetype n = qMin(r.eventNs.size(), r.eventKinds.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (!isTokenEvent(r.eventKinds.at(i)))
            continue;
        if (span.first < 0)
            span.first = r.eventNs.at(i);
        span.last = r.eventNs.at(i);
    }
    return span;
}

std::vector<double> itls(const RequestRecord &r)
{
    std::vector<double> out;
    qint64 prev = -1;
    const qsizetype n = qMin(r.eventNs.size(), r.eventKinds.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (!isTokenEvent(r.eventKinds.at(i)))
            continue;
        const qint64 t = r.eventNs.at(i);
        if (prev >= 0)
            out.push_back(nsToSeconds(t - prev));
        prev = t;
    }
    return out;
}

QString errorOf(const RequestRecord &r)
{
    if (!r.errorText.isEmpty())
        return r.errorText;
    return r.status == RequestStatus::Ok ? QStringLiteral("stream without a token event")
                                         : errorClassCode(r.errorClass);
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

// vLLM's per-request arrays, in the file's order. The tree holds a null in their place; they
// are streamed from the records themselves (as JSON values each ITL took 16 bytes, its text a copy; a
// row per request held ~400 bytes more at every point end).
constexpr const char *kArrays[] = { "input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times",
    "queue_times", "generated_texts", "errors" };

// Element of array kArrays[which] for one measured request, typed as the file has always written it.
Json arrayElement(const RequestRecord &r, const ResultFileSetup &setup, int which)
{
    switch (which) {
    case 0:
        return r.promptTokens;
    case 5:
        return nsToSeconds(r.startNs - setup.measuredStartNs);
    case 6:
        return nsToSeconds(r.slotNs - r.scheduledNs);
    default:
        break;
    }
    const TokenSpan span = tokenSpan(r);
    switch (which) {
    case 1:
        return span.ok() ? qint64(r.completionTokens) : 0;
    case 2:
        return span.ok() ? nsToSeconds(span.first) : 0.0;
    case 3:
        return span.ok() ? itls(r) : std::vector<double>();
    case 4:
        return span.ok() ? nsToSeconds(span.last) : 0.0;
    case 7:
        if (!span.ok())
            return std::string();
        return (setup.generatedTexts ? setup.generatedTexts(r.index) : r.generatedText).toStdString();
    default:
        return span.ok() ? std::string() : utf8(errorOf(r));
    }
}

void putArrayPlaces(Json &j)
{
    for (const char *key : kArrays)
        j[key] = nullptr;
}

void putStatistics(Json &j, const PointSummary &s, const QVector<double> &percentiles, const char *prefix)
{
    for (const DistributionField &f : distributionFields()) {
        if (!f.vllmKey)
            continue;
        const Distribution &d = s.*f.member;
        const std::string m = prefix + std::string(f.code);
        j["mean_" + m + "_ms"] = d.mean;
        j["median_" + m + "_ms"] = d.median;
        j["std_" + m + "_ms"] = d.std;
        for (double p : percentiles)
            j["p" + utf8(percentileKey(p)) + "_" + m + "_ms"] = d.percentile(p);
    }
}

// The file's tree without the per-request arrays (nulls in their place); a null tree (and
// *error) when `summary` cannot be written.
Json vllmResult(const ResultFileSetup &setup, const PointSummary &summary, QString *error)
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
    putArrayPlaces(j);
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
    for (const DistributionField &f : distributionFields()) {
        if (f.vllmKey)
            continue;
        const Distribution &d = summary.*f.member;
        const std::string name = f.code;
        j["servescope_mean_" + name + "_ms"] = d.mean;
        j["servescope_median_" + name + "_ms"] = d.median;
        for (double p : setup.percentiles)
            j["servescope_p" + utf8(percentileKey(p)) + "_" + name + "_ms"] = d.percentile(p);
    }
    for (const auto &[key, value] : setup.extraNumbers) {
        const QString k = key.startsWith(QLatin1String("servescope_")) ? key : QLatin1String("servescope_") + key;
        j[utf8(k)] = value;
    }
    return j;
}

// Collects the serialisation in a small buffer and hands it to a device: a point's file is tens
// of MB, and holding its text (and its arrays as JSON values) raised the client's peak at every
// point end (docs/engine.md, "Soak").
class DeviceOutput final : public nlohmann::detail::output_adapter_protocol<char> {
public:
    explicit DeviceOutput(QIODevice &device)
        : m_device(device)
    {
        m_buffer.reserve(kBuffer);
    }
    void write_character(char c) override
    {
        m_buffer.push_back(c);
        if (m_buffer.size() >= kBuffer)
            flush();
    }
    void write_characters(const char *s, std::size_t length) override
    {
        m_buffer.append(s, length);
        if (m_buffer.size() >= kBuffer)
            flush();
    }
    bool flush()
    {
        m_ok = m_ok && m_device.write(m_buffer.data(), qint64(m_buffer.size())) == qint64(m_buffer.size());
        m_buffer.clear();
        return m_ok;
    }

private:
    static constexpr std::size_t kBuffer = 64 * 1024;
    QIODevice &m_device;
    std::string m_buffer;
    bool m_ok = true;
};

// What Json::dump(-1) of the whole tree wrote: compact, invalid UTF-8 replaced; each array in
// kArrays streamed element by element, from the measured records, where the tree holds its null.
bool writeTo(QIODevice &device, const Json &j, std::span<const RequestRecord> records, const ResultFileSetup &setup)
{
    const auto out = std::make_shared<DeviceOutput>(device);
    nlohmann::detail::serializer<Json> s(out, ' ', Json::error_handler_t::replace);
    const auto dump = [&s](const Json &v) { s.dump(v, false, false, 0); };
    out->write_character('{');
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it != j.begin())
            out->write_character(',');
        dump(Json(it.key()));
        out->write_character(':');
        const auto *place = std::find_if(std::begin(kArrays), std::end(kArrays),
            [&](const char *key) { return it.value().is_null() && it.key() == key; });
        if (place == std::end(kArrays)) {
            dump(it.value());
            continue;
        }
        out->write_character('[');
        bool first = true;
        for (const RequestRecord &r : records) {
            if (!r.measured())
                continue;
            if (!first)
                out->write_character(',');
            first = false;
            dump(arrayElement(r, setup, int(place - std::begin(kArrays))));
        }
        out->write_character(']');
    }
    out->write_character('}');
    return out->flush();
}

} // namespace

QByteArray writeVllmResult(
    const ResultFileSetup &setup, std::span<const RequestRecord> records, const PointSummary &summary, QString *error)
{
    const Json j = vllmResult(setup, summary, error);
    if (j.is_null())
        return {};
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    writeTo(buffer, j, records, setup);
    return bytes;
}

bool saveVllmResult(const QString &path, const ResultFileSetup &setup, std::span<const RequestRecord> records,
    const PointSummary &summary, QString *error)
{
    const Json j = vllmResult(setup, summary, error);
    if (j.is_null())
        return false;
    QSaveFile f(path);
    const bool ok = f.open(QIODevice::WriteOnly) && writeTo(f, j, records, setup) && f.commit();
    if (!ok && error)
        *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
    return ok;
}

} // namespace ServeScope
