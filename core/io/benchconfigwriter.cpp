// SPDX-License-Identifier: MIT
// exportBenchConfig(): one variant as a flat bench_config.json (vllm bench serve flag names).
#include "importers.h"
#include "model/pointkey.h"
#include "model/variables.h"

#include <cmath>

namespace ServeScope {

namespace {

JsonNode numberNode(double d)
{
    return std::isinf(d) ? JsonNode::makeString(QStringLiteral("inf")) : JsonNode::makeNumber(d);
}

// One value when all points agree, else the list.
void addPerPoint(JsonNode &root, const QString &key, const QList<JsonNode> &values)
{
    bool same = true;
    for (const JsonNode &v : values)
        same = same && v.toJsonValue() == values.first().toJsonValue();
    if (same && !values.isEmpty()) {
        root.add(key, values.first());
        return;
    }
    JsonNode list = JsonNode::makeArray();
    for (const JsonNode &v : values)
        list.children.push_back(v);
    root.add(key, list);
}

template<typename F> QList<JsonNode> collect(const QList<LoadPoint> &points, F f)
{
    QList<JsonNode> out;
    for (const LoadPoint &p : points)
        out << f(p);
    return out;
}

// The endpoint, the dataset and how its prompts are drawn.
void addEndpointAndDataset(JsonNode &root, const Experiment &x)
{
    root.add(QStringLiteral("name"), JsonNode::makeString(x.name));
    root.add(QStringLiteral("base_url"), JsonNode::makeString(x.endpoint.baseUrl));
    root.add(QStringLiteral("endpoint"), JsonNode::makeString(x.endpoint.path));
    root.add(QStringLiteral("model"), JsonNode::makeString(x.endpoint.model));
    root.add(QStringLiteral("dialect"), JsonNode::makeString(dialectName(x.endpoint.dialect)));
    if (!x.endpoint.apiKeyEnv.isEmpty())
        root.add(QStringLiteral("api_key_env"), JsonNode::makeString(x.endpoint.apiKeyEnv));
    if (!x.endpoint.keychainEntry.isEmpty())
        root.add(QStringLiteral("keychain_entry"), JsonNode::makeString(x.endpoint.keychainEntry));
    root.add(QStringLiteral("dataset_name"), JsonNode::makeString(x.dataset.name));
    if (!x.dataset.path.isEmpty())
        root.add(QStringLiteral("dataset_path"), JsonNode::makeString(x.dataset.path));
    if (!x.dataset.tokenizer.isEmpty())
        root.add(QStringLiteral("tokenizer"), JsonNode::makeString(x.dataset.tokenizer));
    root.add(QStringLiteral("seed"), JsonNode::makeNumber(double(x.dataset.seed)));
    root.add(QStringLiteral("ignore_eos"), JsonNode::makeBool(x.dataset.ignoreEos));
    const QString &dataset = x.dataset.name;
    if (dataset == QLatin1String("random"))
        root.add(QStringLiteral("random_range_ratio"), JsonNode::makeNumber(x.dataset.rangeRatio));
    if (dataset == QLatin1String("sonnet"))
        root.add(QStringLiteral("sonnet_prefix_len"), JsonNode::makeNumber(x.dataset.prefixLen));
}

// The load points (one value when all agree, else a list per key), warmup, repeats and timeout.
void addLoad(JsonNode &root, const Experiment &x)
{
    const QList<LoadPoint> &pts = x.load.points;
    const QString &dataset = x.dataset.name;
    bool labelled = false;
    for (const LoadPoint &p : pts)
        labelled = labelled || !p.label.isEmpty();
    if (labelled) {
        JsonNode labels = JsonNode::makeArray();
        for (const LoadPoint &p : pts)
            labels.children.push_back(JsonNode::makeString(p.label));
        root.add(QStringLiteral("labels"), labels);
    }
    const bool rate = x.load.mode == LoadMode::Rate;
    bool capped = false;
    for (const LoadPoint &p : pts)
        capped = capped || p.maxConcurrency > 0;
    if (!rate || capped) {
        QList<JsonNode> levels;
        for (int i = 0; i < pts.size(); ++i)
            levels << JsonNode::makeNumber(pointKey(x, i).concurrency);
        addPerPoint(root, QStringLiteral("max_concurrency"), levels);
    }
    if (rate) {
        addPerPoint(root, QStringLiteral("request_rate"),
            collect(pts, [](const LoadPoint &p) { return numberNode(p.requestRate); }));
        addPerPoint(root, QStringLiteral("burstiness"),
            collect(pts, [](const LoadPoint &p) { return numberNode(p.burstiness); }));
    }
    // vLLM's sharegpt and custom datasets take the prompts as the file has them: no input length flag.
    if (dataset != QLatin1String("sharegpt") && dataset != QLatin1String("custom"))
        addPerPoint(root, lengthKey(dataset, true),
            collect(pts, [](const LoadPoint &p) { return JsonNode::makeNumber(p.inputLen); }));
    addPerPoint(root, lengthKey(dataset, false),
        collect(pts, [](const LoadPoint &p) { return JsonNode::makeNumber(p.outputLen); }));
    addPerPoint(root, QStringLiteral("num_prompts"),
        collect(pts, [](const LoadPoint &p) { return JsonNode::makeNumber(p.numPrompts); }));
    bool timed = false;
    for (const LoadPoint &p : pts)
        timed = timed || p.maxSeconds > 0;
    if (timed)
        addPerPoint(root, QStringLiteral("max_seconds"),
            collect(pts, [](const LoadPoint &p) { return JsonNode::makeNumber(p.maxSeconds); }));
    root.add(QStringLiteral("warmup_requests"), JsonNode::makeNumber(x.load.warmupRequests));
    root.add(QStringLiteral("discard_ratio"), JsonNode::makeNumber(x.load.discardRatio));
    root.add(QStringLiteral("repeat"), JsonNode::makeNumber(x.load.repeat));
    root.add(QStringLiteral("timeout_s"), JsonNode::makeNumber(x.load.timeouts.totalS));
}

// The percentiles, goodput SLOs and definitions the metrics are computed with.
void addMetrics(JsonNode &root, const Experiment &x)
{
    QStringList percentiles;
    for (double p : x.metrics.percentiles)
        percentiles << formatNumber(p);
    root.add(QStringLiteral("metric_percentiles"), JsonNode::makeString(percentiles.join(QLatin1Char(','))));
    if (!x.metrics.percentileMetrics.isEmpty()) {
        JsonNode names = JsonNode::makeArray();
        for (const QString &name : x.metrics.percentileMetrics)
            names.children.push_back(JsonNode::makeString(name));
        root.add(QStringLiteral("percentile_metrics"), names);
    }
    JsonNode goodput = JsonNode::makeArray();
    const std::pair<const char *, std::optional<double>> slos[] = { { "ttft", x.metrics.goodput.ttftMs },
        { "tpot", x.metrics.goodput.tpotMs }, { "e2el", x.metrics.goodput.e2elMs } };
    for (const auto &slo : slos) {
        if (slo.second)
            goodput.children.push_back(
                JsonNode::makeString(QLatin1String(slo.first) + QLatin1Char(':') + formatNumber(*slo.second)));
    }
    if (!goodput.children.empty())
        root.add(QStringLiteral("goodput"), goodput);
    root.add(QStringLiteral("definitions"), JsonNode::makeString(definitionsName(x.metrics.definitions)));
}

// The environment snapshot as [key, value, source] triples.
void addEnvSnapshot(JsonNode &root, const Experiment &x)
{
    if (x.envSnapshot.isEmpty())
        return;
    JsonNode env = JsonNode::makeArray();
    for (const EnvEntry &e : x.envSnapshot) {
        JsonNode pair = JsonNode::makeArray();
        pair.children.push_back(JsonNode::makeString(e.key));
        pair.children.push_back(JsonNode::makeString(e.value));
        pair.children.push_back(JsonNode::makeString(envSourceName(e.source)));
        env.children.push_back(pair);
    }
    root.add(QStringLiteral("env_snapshot"), env);
}

} // namespace

QByteArray exportBenchConfig(const Experiment &experiment, int variantIndex, QString *error)
{
    if (variantIndex < 0 || variantIndex >= experiment.variants.size()) {
        *error = QStringLiteral("no variant %1").arg(variantIndex);
        return QByteArray();
    }
    const Experiment x = resolveVariant(experiment, variantIndex);
    if (x.load.points.isEmpty()) {
        *error = QStringLiteral("load.points: the experiment has no points");
        return QByteArray();
    }
    JsonNode root = JsonNode::makeObject();
    addEndpointAndDataset(root, x);
    addLoad(root, x);
    addMetrics(root, x);
    addEnvSnapshot(root, x);
    for (const auto &item : x.sampling.items()) {
        if (!benchConfigSamplingKeys().contains(item.first)) {
            *error = QLatin1String("sampling.") + item.first + QLatin1String(": bench_config.json has no field for it");
            return QByteArray();
        }
        root.add(item.first, JsonNode::fromJsonValue(item.second));
    }
    return writeJsonTree(root);
}

} // namespace ServeScope
