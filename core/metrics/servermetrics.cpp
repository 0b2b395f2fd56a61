// SPDX-License-Identifier: MIT
#include "metrics/servermetrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace ServeScope {

namespace {

enum class Combine { Sum, Mean, Max };

struct Series {
    const char *name;
    const char *key; ///< summary key stem
    Combine combine; ///< across label sets at one scrape
    double scale; ///< to the summary's unit (fractions to percent)
    bool counter;
};

constexpr Series kSeries[] = {
    { "vllm:num_requests_running", "running", Combine::Sum, 1, false },
    { "vllm:num_requests_waiting", "waiting", Combine::Sum, 1, false },
    { "vllm:kv_cache_usage_perc", "kv_usage", Combine::Max, 100, false },
    { "vllm:gpu_cache_usage_perc", "kv_usage", Combine::Max, 100, false },
    { "vllm:num_preemptions_total", "preemptions", Combine::Sum, 1, true },
    { "vllm:prefix_cache_queries_total", "prefix_queries", Combine::Sum, 1, true },
    { "vllm:prefix_cache_hits_total", "prefix_hits", Combine::Sum, 1, true },
    { "vllm:prompt_tokens_total", "prompt_tokens", Combine::Sum, 1, true },
    { "vllm:generation_tokens_total", "generation_tokens", Combine::Sum, 1, true },
    // vLLM's engine log line states its prefix-cache hit rate (the fallback series, schedulerlog.h).
    { "vllm:gpu_prefix_cache_hit_rate", "cache_hit_rate", Combine::Mean, 100, false },
    { "sglang:num_running_reqs", "running", Combine::Sum, 1, false },
    { "sglang:num_queue_reqs", "waiting", Combine::Sum, 1, false },
    { "sglang:token_usage", "kv_usage", Combine::Max, 100, false },
    { "sglang:cache_hit_rate", "cache_hit_rate", Combine::Mean, 100, false },
    { "sglang:prompt_tokens_total", "prompt_tokens", Combine::Sum, 1, true },
    { "sglang:generation_tokens_total", "generation_tokens", Combine::Sum, 1, true },
    { "DCGM_FI_DEV_GPU_UTIL", "gpu_util", Combine::Mean, 1, false },
    { "DCGM_FI_PROF_DRAM_ACTIVE", "dram_active", Combine::Mean, 100, false },
    { "DCGM_FI_PROF_SM_ACTIVE", "sm_active", Combine::Mean, 100, false },
    { "DCGM_FI_DEV_POWER_USAGE", "power", Combine::Mean, 1, false },
};

const Series *seriesOf(QStringView name)
{
    for (const Series &s : kSeries) {
        if (name == QLatin1String(s.name))
            return &s;
    }
    return nullptr;
}

// Parses `name{labels} value [timestamp]`; false for anything else.
bool parseLine(QByteArrayView line, QByteArrayView *name, QByteArrayView *labels, double *value)
{
    qsizetype i = 0;
    while (i < line.size() && (std::isalnum(uchar(line[i])) || line[i] == '_' || line[i] == ':'))
        ++i;
    if (i == 0)
        return false;
    *name = line.first(i);
    *labels = {};
    if (i < line.size() && line[i] == '{') {
        const qsizetype open = i + 1;
        bool quoted = false;
        for (++i; i < line.size(); ++i) {
            if (quoted && line[i] == '\\') {
                ++i;
            } else if (line[i] == '"') {
                quoted = !quoted;
            } else if (!quoted && line[i] == '}') {
                break;
            }
        }
        if (i >= line.size())
            return false;
        *labels = line.sliced(open, i - open);
        ++i;
    }
    QByteArrayView rest = line.sliced(i).trimmed();
    if (const qsizetype space = rest.indexOf(' '); space >= 0)
        rest = rest.first(space);
    if (rest.isEmpty())
        return false;
    bool ok = false;
    *value = rest.toDouble(&ok);
    if (!ok) {
        if (rest == "NaN")
            *value = std::nan("");
        else if (rest == "+Inf")
            *value = INFINITY;
        else if (rest == "-Inf")
            *value = -INFINITY;
        else
            return false;
    }
    return true;
}

} // namespace

bool isServerSeries(QStringView name)
{
    return seriesOf(name) != nullptr;
}

QList<ServerSample> parsePrometheusText(QByteArrayView text, qint64 timeNs, int maxSamples)
{
    QList<ServerSample> out;
    qsizetype pos = 0;
    while (pos < text.size() && out.size() < maxSamples) {
        qsizetype end = text.indexOf('\n', pos);
        if (end < 0)
            end = text.size();
        const QByteArrayView line = text.sliced(pos, end - pos).trimmed();
        pos = end + 1;
        if (line.isEmpty() || line.front() == '#')
            continue;
        QByteArrayView name, labels;
        double value = 0;
        if (!parseLine(line, &name, &labels, &value))
            continue;
        const QString n = QString::fromLatin1(name);
        if (isServerSeries(n) && std::isfinite(value))
            out.append({ timeNs, n, QString::fromUtf8(labels), value });
    }
    return out;
}

QMap<QString, double> summarizeServerSeries(std::span<const ServerSample> samples, const ServerWindow &w)
{
    // Per summary stem and scrape time: the combined value over label sets.
    struct Acc {
        double sum = 0, max = -INFINITY;
        int n = 0;
    };
    std::map<QString, std::map<qint64, Acc>> byStem;
    std::map<QString, const Series *> seriesOfStem;
    std::map<qint64, bool> scrapes;
    for (const ServerSample &s : samples) {
        const Series *series = seriesOf(s.name);
        if (!series)
            continue;
        const bool inside = s.timeNs >= w.startNs && s.timeNs <= w.endNs;
        if (series->counter ? s.timeNs < w.counterStartNs || s.timeNs > w.counterEndNs : !inside)
            continue;
        const QString stem = QLatin1String(series->key);
        seriesOfStem[stem] = series;
        Acc &a = byStem[stem][s.timeNs];
        a.sum += s.value * series->scale;
        a.max = std::max(a.max, s.value * series->scale);
        ++a.n;
        if (inside)
            scrapes[s.timeNs] = true;
    }
    QMap<QString, double> out;
    if (byStem.empty())
        return out;
    out.insert(QStringLiteral("samples"), double(scrapes.size()));
    std::map<QString, double> deltas;
    for (const auto &[stem, perScrape] : byStem) {
        const Series &series = *seriesOfStem.at(stem);
        std::vector<double> values;
        for (const auto &[t, a] : perScrape)
            values.push_back(series.combine == Combine::Sum ? a.sum
                    : series.combine == Combine::Max        ? a.max
                                                            : a.sum / a.n);
        if (series.counter) {
            // A counter that went down was reset (a restarted server): the delta is then unknown.
            if (values.size() >= 2 && values.back() >= values.front())
                deltas[stem] = values.back() - values.front();
            continue;
        }
        double sum = 0, max = -INFINITY;
        for (double v : values) {
            sum += v;
            max = std::max(max, v);
        }
        const QString key
            = stem == QLatin1String("power") ? QStringLiteral("power_mean_w") : stem + QStringLiteral("_mean");
        out.insert(key, sum / double(values.size()));
        if (stem == QLatin1String("running") || stem == QLatin1String("waiting") || stem == QLatin1String("kv_usage"))
            out.insert(stem + QStringLiteral("_max"), max);
    }
    for (const char *counter : { "preemptions", "prompt_tokens", "generation_tokens" }) {
        if (const auto it = deltas.find(QLatin1String(counter)); it != deltas.end())
            out.insert(QLatin1String(counter), it->second);
    }
    const auto hits = deltas.find(QStringLiteral("prefix_hits")),
               queries = deltas.find(QStringLiteral("prefix_queries"));
    if (hits != deltas.end() && queries != deltas.end() && queries->second > 0)
        out.insert(QStringLiteral("prefix_cache_hit_rate"), 100 * hits->second / queries->second);
    // SGLang reports its hit rate as a gauge.
    if (const auto it = out.constFind(QStringLiteral("cache_hit_rate_mean")); it != out.cend()) {
        if (!out.contains(QStringLiteral("prefix_cache_hit_rate")))
            out.insert(QStringLiteral("prefix_cache_hit_rate"), *it);
        out.remove(QStringLiteral("cache_hit_rate_mean"));
    }
    return out;
}

} // namespace ServeScope
