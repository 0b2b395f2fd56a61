// SPDX-License-Identifier: MIT
#include "resultfiles/sglangresult.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace ServeScope {

namespace {

using Json = nlohmann::ordered_json;

void putDistribution(Json &j, const char *name, const Distribution &d, std::initializer_list<double> percentiles)
{
    const std::string m(name);
    j["mean_" + m + "_ms"] = d.mean;
    j["median_" + m + "_ms"] = d.median;
    j["std_" + m + "_ms"] = d.std;
    for (double p : percentiles)
        j["p" + percentileKey(p).toStdString() + "_" + m + "_ms"] = d.percentile(p);
}

} // namespace

void sglangRandomLengths(int centreIn, int centreOut, double spread, SglangLineSetup *setup)
{
    // ServeScope draws in [C (1 - s), C (1 + s)]; SGLang in [L r, L]: L = C (1 + s), r = (1 - s) / (1 + s).
    const double s = std::clamp(spread, 0.0, 1.0);
    setup->randomRangeRatio = (1 - s) / (1 + s);
    setup->randomInputLen = int(std::lround(centreIn * (1 + s)));
    setup->randomOutputLen = int(std::lround(centreOut * (1 + s)));
}

QByteArray writeSglangResultLine(const SglangLineSetup &setup, const PointSummary &s)
{
    Json j = Json::object();
    j["tag"] = setup.tag.toStdString();
    j["backend"] = setup.backend.toStdString();
    j["dataset_name"] = setup.datasetName.toStdString();
    j["request_rate"] = std::isinf(setup.requestRate) ? Json("__infinity__") : Json(setup.requestRate);
    j["max_concurrency"] = setup.maxConcurrency > 0 ? Json(setup.maxConcurrency) : Json(nullptr);
    j["sharegpt_output_len"] = nullptr;
    j["random_input_len"] = setup.randomInputLen;
    j["random_output_len"] = setup.randomOutputLen;
    j["random_range_ratio"] = setup.randomRangeRatio;
    j["duration"] = s.duration;
    j["completed"] = s.completed;
    j["total_input_tokens"] = s.totalInputTokens;
    j["total_output_tokens"] = s.totalOutputTokens;
    const double d = s.duration > 0 ? s.duration : std::numeric_limits<double>::quiet_NaN();
    j["request_throughput"] = s.requestThroughput;
    j["input_throughput"] = s.duration > 0 ? double(s.totalInputTokens) / d : 0.0;
    j["output_throughput"] = s.outputThroughput;
    j["total_throughput"] = s.totalTokenThroughput;
    putDistribution(j, "e2e_latency", s.e2el, { 99 });
    putDistribution(j, "ttft", s.ttft, { 99 });
    putDistribution(j, "tpot", s.tpot, { 99 });
    putDistribution(j, "itl", s.itl, { 95, 99 });
    j["concurrency"] = s.averageConcurrency;
    j["servescope_definitions"] = s.definitions.toStdString();
    j["servescope_label"] = s.label.toStdString();
    j["servescope_failed"] = s.failed;
    std::string text = j.dump(-1, ' ', false, Json::error_handler_t::replace);
    // Python's json.dumps writes an infinite rate as bare Infinity, as SGLang's files have it.
    const std::string marker = "\"__infinity__\"";
    if (const auto at = text.find(marker); at != std::string::npos)
        text.replace(at, marker.size(), "Infinity");
    text += '\n';
    return QByteArray(text.data(), qsizetype(text.size()));
}

} // namespace ServeScope
