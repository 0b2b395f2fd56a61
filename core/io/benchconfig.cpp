// SPDX-License-Identifier: MIT
// The flat bench_config.json: `vllm bench serve` flag names, one value or one list per field.
#include "importers.h"
#include "model/variables.h"
#include "treereader.h"

#include <cmath>
#include <functional>

namespace ServeScope {

namespace {

const char *const kSamplingKeys[]
    = { "temperature", "top_p", "top_k", "min_p", "repetition_penalty", "presence_penalty", "frequency_penalty" };

using PointSetter = std::function<bool(TreeReader &, const JsonNode *, const QString &, LoadPoint &)>;

struct PerPointField {
    const char *key;
    PointSetter set;
};

QList<PerPointField> perPointFields()
{
    return {
        { "labels",
            [](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
                return r.string(n, p, &pt.label);
            } },
        { "max_concurrency",
            [](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
                return r.integer(n, p, &pt.concurrency);
            } },
        { "request_rate",
            [](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
                return r.number(n, p, &pt.requestRate, true);
            } },
        { "burstiness",
            [](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
                return r.number(n, p, &pt.burstiness, true);
            } },
        { "random_input_len",
            [](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
                return r.integer(n, p, &pt.inputLen);
            } },
        { "random_output_len",
            [](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
                return r.integer(n, p, &pt.outputLen);
            } },
        { "num_prompts",
            [](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
                return r.integer(n, p, &pt.numPrompts);
            } },
        { "max_seconds",
            [](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
                return r.number(n, p, &pt.maxSeconds);
            } },
    };
}

void readPoints(TreeReader &r, const JsonNode &root, Experiment &x)
{
    const QList<PerPointField> fields = perPointFields();
    size_t count = 1;
    for (const PerPointField &f : fields) {
        const JsonNode *n = root.member(QLatin1String(f.key));
        if (n && n->isArray() && n->children.size() > 1)
            count = std::max(count, n->children.size());
    }
    for (const PerPointField &f : fields) {
        const JsonNode *n = root.member(QLatin1String(f.key));
        if (n && n->isArray() && n->children.size() != 1 && n->children.size() != count)
            r.error(n, QLatin1String(f.key),
                QStringLiteral("has %1 values but another list has %2").arg(n->children.size()).arg(count));
    }
    if (!r.errors.isEmpty())
        return;
    bool finiteRate = false;
    for (size_t i = 0; i < count; ++i) {
        LoadPoint pt;
        pt.requestRate = std::numeric_limits<double>::infinity();
        for (const PerPointField &f : fields) {
            const JsonNode *n = root.member(QLatin1String(f.key));
            if (!n)
                continue;
            const bool list = n->isArray();
            const JsonNode *item = list ? &n->children[n->children.size() == 1 ? 0 : i] : n;
            f.set(r, item,
                list ? QString(QLatin1String(f.key) + QStringLiteral("[%1]").arg(i)) : QString::fromLatin1(f.key), pt);
        }
        finiteRate = finiteRate || std::isfinite(pt.requestRate);
        x.load.points << pt;
    }
    // vLLM's default rate is inf: then max_concurrency is a closed-loop concurrency.
    x.load.mode = finiteRate ? LoadMode::Rate : LoadMode::Concurrency;
    for (LoadPoint &pt : x.load.points) {
        if (finiteRate) {
            pt.moveConcurrencyToCap();
        } else {
            pt.requestRate = 0;
            pt.burstiness = 1.0;
        }
    }
}

void readMetricsFlat(TreeReader &r, const JsonNode &root, Experiment &x)
{
    QString percentiles;
    if (r.stringAt(root, "metric_percentiles", QString(), &percentiles) && !percentiles.isEmpty()) {
        x.metrics.percentiles.clear();
        for (const QString &part : percentiles.split(QLatin1Char(','))) {
            bool ok = false;
            const double v = part.trimmed().toDouble(&ok);
            if (!ok)
                r.error(root.member(QLatin1String("metric_percentiles")), QStringLiteral("metric_percentiles"),
                    QStringLiteral("must be numbers separated by commas"));
            x.metrics.percentiles << v;
        }
    }
    QStringList goodput;
    if (r.stringListAt(root, "goodput", QString(), &goodput)) {
        for (const QString &slo : std::as_const(goodput)) {
            const QString key = slo.section(QLatin1Char(':'), 0, 0).trimmed();
            bool ok = false;
            const double v = slo.section(QLatin1Char(':'), 1).trimmed().toDouble(&ok);
            std::optional<double> *target = key == QLatin1String("ttft") ? &x.metrics.goodput.ttftMs
                : key == QLatin1String("tpot")                           ? &x.metrics.goodput.tpotMs
                : key == QLatin1String("e2el")                           ? &x.metrics.goodput.e2elMs
                                                                         : nullptr;
            if (!target || !ok)
                r.error(root.member(QLatin1String("goodput")), QStringLiteral("goodput"),
                    QStringLiteral("entries must look like ttft:500, tpot:50 or e2el:2000"));
            else
                *target = v;
        }
    }
    QString definitions;
    if (r.stringAt(root, "definitions", QString(), &definitions) && !definitions.isEmpty()
        && !parseDefinitions(definitions, &x.metrics.definitions))
        r.error(root.member(QLatin1String("definitions")), QStringLiteral("definitions"),
            QStringLiteral("must be one of vllm, sglang"));
}

} // namespace

ExperimentReadResult importBenchConfigTree(const JsonNode &root, const QString &name)
{
    ExperimentReadResult result;
    result.format = ExperimentFormat::BenchConfig;
    TreeReader r;
    Experiment &x = result.experiment;
    x.name = name;
    x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
    if (!scanForSecrets(root, &result.errors))
        return result;
    if (r.object(&root, QString(),
            { "name", "base_url", "endpoint", "model", "dialect", "api_key_env", "keychain_entry", "dataset_name",
                "dataset_path", "seed", "ignore_eos", "random_range_ratio", "labels", "max_concurrency", "request_rate",
                "burstiness", "random_input_len", "random_output_len", "num_prompts", "max_seconds", "warmup_requests",
                "discard_ratio", "repeat", "timeout_s", "metric_percentiles", "goodput", "definitions", "temperature",
                "top_p", "top_k", "min_p", "repetition_penalty", "presence_penalty", "frequency_penalty" })) {
        r.stringAt(root, "name", QString(), &x.name);
        r.stringAt(root, "base_url", QString(), &x.endpoint.baseUrl);
        r.stringAt(root, "endpoint", QString(), &x.endpoint.path);
        r.stringAt(root, "model", QString(), &x.endpoint.model);
        QString dialect;
        if (r.stringAt(root, "dialect", QString(), &dialect) && !dialect.isEmpty()
            && !parseDialect(dialect, &x.endpoint.dialect))
            r.error(root.member(QLatin1String("dialect")), QStringLiteral("dialect"),
                QStringLiteral("must be one of vllm, sglang, openai-strict"));
        r.stringAt(root, "api_key_env", QString(), &x.endpoint.apiKeyEnv);
        r.stringAt(root, "keychain_entry", QString(), &x.endpoint.keychainEntry);
        r.stringAt(root, "dataset_name", QString(), &x.dataset.name);
        r.stringAt(root, "dataset_path", QString(), &x.dataset.path);
        if (const JsonNode *s = root.member(QLatin1String("seed")))
            r.integer64(s, QStringLiteral("seed"), &x.dataset.seed, 0, 9007199254740991.0);
        r.boolAt(root, "ignore_eos", QString(), &x.dataset.ignoreEos);
        r.numberAt(root, "random_range_ratio", QString(), &x.dataset.rangeRatio);
        r.intAt(root, "warmup_requests", QString(), &x.load.warmupRequests);
        r.numberAt(root, "discard_ratio", QString(), &x.load.discardRatio);
        r.intAt(root, "repeat", QString(), &x.load.repeat);
        r.numberAt(root, "timeout_s", QString(), &x.load.timeouts.totalS);
        for (const char *key : kSamplingKeys) {
            if (const JsonNode *n = root.member(QLatin1String(key)))
                x.sampling.set(QLatin1String(key), n->toJsonValue());
        }
        readMetricsFlat(r, root, x);
        readPoints(r, root, x);
    }
    result.errors = r.errors;
    result.ok = result.errors.isEmpty();
    return result;
}

namespace {

JsonNode numberNode(double d)
{
    return std::isinf(d) ? JsonNode::makeString(QStringLiteral("inf")) : JsonNode::makeNumber(d);
}

// One value when all points agree, else the list.
void addPerPoint(JsonNode &root, const char *key, const QList<JsonNode> &values)
{
    bool same = true;
    for (const JsonNode &v : values)
        same = same && v.toJsonValue() == values.first().toJsonValue();
    if (same && !values.isEmpty()) {
        root.add(QLatin1String(key), values.first());
        return;
    }
    JsonNode list = JsonNode::makeArray();
    for (const JsonNode &v : values)
        list.children.push_back(v);
    root.add(QLatin1String(key), list);
}

template<typename F> QList<JsonNode> collect(const QList<LoadPoint> &points, F f)
{
    QList<JsonNode> out;
    for (const LoadPoint &p : points)
        out << f(p);
    return out;
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
    const QList<LoadPoint> &pts = x.load.points;
    JsonNode root = JsonNode::makeObject();
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
    root.add(QStringLiteral("seed"), JsonNode::makeNumber(double(x.dataset.seed)));
    root.add(QStringLiteral("ignore_eos"), JsonNode::makeBool(x.dataset.ignoreEos));
    root.add(QStringLiteral("random_range_ratio"), JsonNode::makeNumber(x.dataset.rangeRatio));
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
    if (!rate || capped)
        addPerPoint(root, "max_concurrency", collect(pts, [mode = x.load.mode](const LoadPoint &p) {
            return JsonNode::makeNumber(p.concurrencyFor(mode));
        }));
    if (rate) {
        addPerPoint(root, "request_rate", collect(pts, [](const LoadPoint &p) { return numberNode(p.requestRate); }));
        addPerPoint(root, "burstiness", collect(pts, [](const LoadPoint &p) { return numberNode(p.burstiness); }));
    }
    addPerPoint(
        root, "random_input_len", collect(pts, [](const LoadPoint &p) { return JsonNode::makeNumber(p.inputLen); }));
    addPerPoint(
        root, "random_output_len", collect(pts, [](const LoadPoint &p) { return JsonNode::makeNumber(p.outputLen); }));
    addPerPoint(
        root, "num_prompts", collect(pts, [](const LoadPoint &p) { return JsonNode::makeNumber(p.numPrompts); }));
    bool timed = false;
    for (const LoadPoint &p : pts)
        timed = timed || p.maxSeconds > 0;
    if (timed)
        addPerPoint(
            root, "max_seconds", collect(pts, [](const LoadPoint &p) { return JsonNode::makeNumber(p.maxSeconds); }));
    root.add(QStringLiteral("warmup_requests"), JsonNode::makeNumber(x.load.warmupRequests));
    root.add(QStringLiteral("discard_ratio"), JsonNode::makeNumber(x.load.discardRatio));
    root.add(QStringLiteral("repeat"), JsonNode::makeNumber(x.load.repeat));
    root.add(QStringLiteral("timeout_s"), JsonNode::makeNumber(x.load.timeouts.totalS));
    QStringList percentiles;
    for (double p : x.metrics.percentiles)
        percentiles << formatNumber(p);
    root.add(QStringLiteral("metric_percentiles"), JsonNode::makeString(percentiles.join(QLatin1Char(','))));
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
    for (const auto &item : x.sampling.items()) {
        bool known = false;
        for (const char *key : kSamplingKeys)
            known = known || item.first == QLatin1String(key);
        if (!known) {
            *error = QLatin1String("sampling.") + item.first + QLatin1String(": bench_config.json has no field for it");
            return QByteArray();
        }
        root.add(item.first, JsonNode::fromJsonValue(item.second));
    }
    return writeJsonTree(root);
}

} // namespace ServeScope
