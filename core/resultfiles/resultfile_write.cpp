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

// vLLM's per-request arrays for one measured request. The derivation is vLLM's (token events:
// non-empty choices) and uses the same ns -> s conversions as the metrics library, so the
// summary written next to the arrays recomputes from them bit for bit.
struct Row {
    qint64 in = 0, out = 0;
    double ttft = 0, latency = 0, start = 0, queue = 0;
    std::vector<double> itls;
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
        row.itls.clear();
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

// vLLM's per-request arrays, in the file's order. The tree holds a null in their place; they
// are streamed from compact rows (as JSON values each ITL took 16 bytes, its text a copy).
constexpr const char *kArrays[] = { "input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times",
    "queue_times", "generated_texts", "errors" };

std::vector<Row> measuredRows(std::span<const RequestRecord> records, qint64 origin)
{
    std::vector<Row> rows;
    for (const auto &r : records) {
        if (r.measured())
            rows.push_back(makeRow(r, origin));
    }
    return rows;
}

// Element `row` of array kArrays[which], typed as the file has always written it.
Json arrayElement(const Row &row, int which)
{
    switch (which) {
    case 0:
        return row.in;
    case 1:
        return row.out;
    case 2:
        return row.ttft;
    case 3:
        return row.itls;
    case 4:
        return row.latency;
    case 5:
        return row.start;
    case 6:
        return row.queue;
    case 7:
        return utf8(row.text);
    default:
        return utf8(row.error);
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
// kArrays streamed element by element where the tree holds its null.
bool writeTo(QIODevice &device, const Json &j, const std::vector<Row> &rows)
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
        for (size_t i = 0; i < rows.size(); ++i) {
            if (i > 0)
                out->write_character(',');
            dump(arrayElement(rows[i], int(place - std::begin(kArrays))));
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
    writeTo(buffer, j, measuredRows(records, setup.measuredStartNs));
    return bytes;
}

bool saveVllmResult(const QString &path, const ResultFileSetup &setup, std::span<const RequestRecord> records,
    const PointSummary &summary, QString *error)
{
    const Json j = vllmResult(setup, summary, error);
    if (j.is_null())
        return false;
    QSaveFile f(path);
    const bool ok
        = f.open(QIODevice::WriteOnly) && writeTo(f, j, measuredRows(records, setup.measuredStartNs)) && f.commit();
    if (!ok && error)
        *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
    return ok;
}

} // namespace ServeScope
