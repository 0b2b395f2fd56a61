// SPDX-License-Identifier: MIT
// The flat bench_config.json: `vllm bench serve` flag names, one value or one list per field.
#include "importers.h"
#include "model/variables.h"

#include <cmath>
#include <functional>

namespace ServeScope {

const QStringList &benchConfigSamplingKeys()
{
    static const QStringList keys { QStringLiteral("temperature"), QStringLiteral("top_p"), QStringLiteral("top_k"),
        QStringLiteral("min_p"), QStringLiteral("repetition_penalty"), QStringLiteral("presence_penalty"),
        QStringLiteral("frequency_penalty") };
    return keys;
}

QString lengthKey(const QString &dataset, bool input)
{
    return dataset + (input ? QLatin1String("_input_len") : QLatin1String("_output_len"));
}

namespace {

using PointSetter = std::function<bool(TreeReader &, const JsonNode *, const QString &, LoadPoint &)>;

struct PerPointField {
    QString key;
    PointSetter set;
};

// The per-point fields of a file whose dataset is `dataset`: lengths come from that dataset's
// own flags (random_input_len, sonnet_input_len, custom_output_len, ...), as in vLLM.
QList<PerPointField> perPointFields(const QString &dataset)
{
    const auto integerField = [](int LoadPoint::*field) {
        return [field](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
            return r.integer(n, p, &(pt.*field));
        };
    };
    const auto numberField = [](double LoadPoint::*field) {
        return [field](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
            return r.number(n, p, &(pt.*field), true);
        };
    };
    return {
        { QStringLiteral("labels"),
            [](TreeReader &r, const JsonNode *n, const QString &p, LoadPoint &pt) {
                return r.string(n, p, &pt.label);
            } },
        { QStringLiteral("max_concurrency"), integerField(&LoadPoint::concurrency) },
        { QStringLiteral("concurrency_gradient"), integerField(&LoadPoint::concurrency) },
        { QStringLiteral("request_rate"), numberField(&LoadPoint::requestRate) },
        { QStringLiteral("burstiness"), numberField(&LoadPoint::burstiness) },
        { lengthKey(dataset, true), integerField(&LoadPoint::inputLen) },
        { lengthKey(dataset, false), integerField(&LoadPoint::outputLen) },
        { QStringLiteral("num_prompts"), integerField(&LoadPoint::numPrompts) },
        { QStringLiteral("max_seconds"), numberField(&LoadPoint::maxSeconds) },
    };
}

/// Every key the flat reader knows, whatever the dataset.
QStringList knownKeys()
{
    QStringList keys { QStringLiteral("name"), QStringLiteral("base_url"), QStringLiteral("endpoint"),
        QStringLiteral("model"), QStringLiteral("dialect"), QStringLiteral("api_key_env"),
        QStringLiteral("keychain_entry"), QStringLiteral("dataset_name"), QStringLiteral("dataset_path"),
        QStringLiteral("seed"), QStringLiteral("ignore_eos"), QStringLiteral("random_range_ratio"),
        QStringLiteral("sonnet_prefix_len"), QStringLiteral("tokenizer"), QStringLiteral("warmup_requests"),
        QStringLiteral("discard_ratio"), QStringLiteral("repeat"), QStringLiteral("timeout_s"),
        QStringLiteral("metric_percentiles"), QStringLiteral("percentile_metrics"), QStringLiteral("goodput"),
        QStringLiteral("definitions"), QStringLiteral("env_snapshot") };
    for (const PerPointField &f : perPointFields(QStringLiteral("random")))
        keys << f.key;
    for (const char *d : { "sonnet", "sharegpt", "custom" })
        keys << lengthKey(QLatin1String(d), true) << lengthKey(QLatin1String(d), false);
    return keys + benchConfigSamplingKeys();
}

void checkKeys(TreeReader &r, const JsonNode &root, const QString &dataset)
{
    const QStringList known = knownKeys();
    const QList<PerPointField> own = perPointFields(dataset);
    for (size_t i = 0; i < root.keys.size(); ++i) {
        const QString &key = root.keys[i];
        if (!known.contains(key)) {
            r.warning(
                &root.children[i], key, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "unknown key; ignored") });
            continue;
        }
        const bool lengthFlag = key.endsWith(QLatin1String("_input_len")) || key.endsWith(QLatin1String("_output_len"));
        const bool ownLength
            = std::any_of(own.cbegin(), own.cend(), [&](const PerPointField &f) { return f.key == key; });
        const QString family = key.section(QLatin1Char('_'), 0, 0);
        // vLLM reads only the flags of the dataset it runs; the others change nothing there either.
        if ((lengthFlag && !ownLength) || (key == QLatin1String("sonnet_prefix_len") && dataset != family)
            || (key == QLatin1String("random_range_ratio") && dataset != family && root.children[i].number != 0))
            r.warning(&root.children[i], key,
                Reason { QT_TRANSLATE_NOOP(
                             "ServeScope::Problem", "ignored: it applies to the %1 dataset, and dataset_name is %2"),
                    { family, dataset } });
    }
    if (root.member(QLatin1String("max_concurrency")) && root.member(QLatin1String("concurrency_gradient")))
        r.error(root.member(QLatin1String("concurrency_gradient")), QStringLiteral("concurrency_gradient"),
            Reason { QT_TRANSLATE_NOOP(
                "ServeScope::Problem", "contradicts max_concurrency: give the concurrency levels once") });
}

void readPoints(TreeReader &r, const JsonNode &root, const QString &dataset, Experiment &x)
{
    const QList<PerPointField> fields = perPointFields(dataset);
    size_t count = 1;
    for (const PerPointField &f : fields) {
        const JsonNode *n = root.member(f.key);
        if (n && n->isArray() && n->children.size() > 1)
            count = std::max(count, n->children.size());
    }
    for (const PerPointField &f : fields) {
        const JsonNode *n = root.member(f.key);
        if (n && n->isArray() && n->children.size() != 1 && n->children.size() != count)
            r.error(n, f.key,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "has %1 values but another list has %2"),
                    { QString::number(n->children.size()), QString::number(count) } });
    }
    if (!r.errors.isEmpty())
        return;
    bool finiteRate = false;
    for (size_t i = 0; i < count; ++i) {
        LoadPoint pt;
        pt.requestRate = std::numeric_limits<double>::infinity();
        for (const PerPointField &f : fields) {
            const JsonNode *n = root.member(f.key);
            if (!n)
                continue;
            const bool list = n->isArray();
            const JsonNode *item = list ? &n->children[n->children.size() == 1 ? 0 : i] : n;
            f.set(r, item, list ? QString(f.key + QStringLiteral("[%1]").arg(i)) : f.key, pt);
        }
        finiteRate = finiteRate || std::isfinite(pt.requestRate);
        x.load.points << pt;
    }
    const JsonNode *gradient = root.member(QLatin1String("concurrency_gradient"));
    if (finiteRate && gradient)
        r.error(gradient, QStringLiteral("concurrency_gradient"),
            Reason { QT_TRANSLATE_NOOP(
                "ServeScope::Problem", "contradicts a finite request_rate: a gradient is closed loop") });
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
    if (gradient && !finiteRate && !x.load.points.isEmpty()) {
        // Kept as the shorthand when the points are exactly its expansion (one length, one count).
        const LoadPoint &first = x.load.points.first();
        ConcurrencyGradient &g = x.load.gradient;
        g = ConcurrencyGradient { {}, first.inputLen, first.outputLen, first.numPrompts, 0, first.maxSeconds };
        for (const LoadPoint &pt : std::as_const(x.load.points))
            g.levels << pt.concurrency;
        if (!x.load.pointsFromGradient())
            g = ConcurrencyGradient();
    }
}

void readPercentiles(TreeReader &r, const JsonNode &root, Experiment &x)
{
    QString percentiles;
    if (r.stringAt(root, "metric_percentiles", QString(), &percentiles) && !percentiles.isEmpty()) {
        x.metrics.percentiles.clear();
        for (const QString &part : percentiles.split(QLatin1Char(','))) {
            bool ok = false;
            const double v = part.trimmed().toDouble(&ok);
            if (!ok)
                r.error(root.member(QLatin1String("metric_percentiles")), QStringLiteral("metric_percentiles"),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be numbers separated by commas") });
            x.metrics.percentiles << v;
        }
    }
    // vLLM spells it "ttft,tpot,itl"; a list of names reads the same.
    if (const JsonNode *n = root.member(QLatin1String("percentile_metrics")); n && n->isString()) {
        for (const QString &part : n->string.split(QLatin1Char(','), Qt::SkipEmptyParts))
            x.metrics.percentileMetrics << part.trimmed();
    } else {
        r.stringListAt(root, "percentile_metrics", QString(), &x.metrics.percentileMetrics);
    }
}

void readMetricsFlat(TreeReader &r, const JsonNode &root, Experiment &x)
{
    readPercentiles(r, root, x);
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
                    Reason { QT_TRANSLATE_NOOP(
                        "ServeScope::Problem", "entries must look like ttft:500, tpot:50 or e2el:2000") });
            else
                *target = v;
        }
    }
    QString definitions;
    if (r.stringAt(root, "definitions", QString(), &definitions) && !definitions.isEmpty()
        && !parseDefinitions(definitions, &x.metrics.definitions))
        r.error(root.member(QLatin1String("definitions")), QStringLiteral("definitions"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of vllm, sglang") });
}

void readSettings(TreeReader &r, const JsonNode &root, Experiment &x)
{
    r.stringAt(root, "name", QString(), &x.name);
    r.stringAt(root, "base_url", QString(), &x.endpoint.baseUrl);
    r.stringAt(root, "endpoint", QString(), &x.endpoint.path);
    r.stringAt(root, "model", QString(), &x.endpoint.model);
    QString dialect;
    if (r.stringAt(root, "dialect", QString(), &dialect) && !dialect.isEmpty()
        && !parseDialect(dialect, &x.endpoint.dialect))
        r.error(root.member(QLatin1String("dialect")), QStringLiteral("dialect"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of vllm, sglang, openai-strict") });
    r.stringAt(root, "api_key_env", QString(), &x.endpoint.apiKeyEnv);
    r.stringAt(root, "keychain_entry", QString(), &x.endpoint.keychainEntry);
    r.stringAt(root, "dataset_path", QString(), &x.dataset.path);
    r.stringAt(root, "tokenizer", QString(), &x.dataset.tokenizer);
    if (const JsonNode *s = root.member(QLatin1String("seed")))
        r.integer64(s, QStringLiteral("seed"), &x.dataset.seed, 0, 9007199254740991.0);
    r.boolAt(root, "ignore_eos", QString(), &x.dataset.ignoreEos);
    if (x.dataset.name == QLatin1String("random"))
        r.numberAt(root, "random_range_ratio", QString(), &x.dataset.rangeRatio);
    if (x.dataset.name == QLatin1String("sonnet"))
        r.intAt(root, "sonnet_prefix_len", QString(), &x.dataset.prefixLen);
    r.intAt(root, "warmup_requests", QString(), &x.load.warmupRequests);
    r.numberAt(root, "discard_ratio", QString(), &x.load.discardRatio);
    r.intAt(root, "repeat", QString(), &x.load.repeat);
    r.numberAt(root, "timeout_s", QString(), &x.load.timeouts.totalS);
    for (const QString &key : benchConfigSamplingKeys()) {
        if (const JsonNode *n = root.member(key))
            x.sampling.set(key, n->toJsonValue());
    }
    if (const JsonNode *env = root.member(QLatin1String("env_snapshot")))
        readEnvSnapshotNode(r, *env, QStringLiteral("env_snapshot"), EnvSource::Typed, &x.envSnapshot);
}

} // namespace

ExperimentReadResult importBenchConfigTree(const JsonNode &root, const QString &name)
{
    ExperimentReadResult result;
    result.format = ExperimentFormat::BenchConfig;
    TreeReader r;
    r.warnUnknownKeys = true;
    Experiment &x = result.experiment;
    x.name = name;
    x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
    if (!scanForSecrets(root, &result.errors, &result.shown))
        return result;
    if (r.anyObject(&root, QString())) {
        r.stringAt(root, "dataset_name", QString(), &x.dataset.name);
        checkKeys(r, root, x.dataset.name);
        readSettings(r, root, x);
        readMetricsFlat(r, root, x);
        readPoints(r, root, x.dataset.name, x);
    }
    result.errors = r.errors;
    result.warnings = r.warnings;
    result.shown = r.shown;
    result.ok = result.errors.isEmpty();
    return result;
}

} // namespace ServeScope
