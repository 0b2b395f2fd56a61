// SPDX-License-Identifier: MIT
// The two TOML layouts engineers already use: [client] + [load_matrix.*], and [bench.*].
#include "importers.h"
#include "treereader.h"

namespace ServeScope {

namespace {

Experiment importedDefaults(const QString &name)
{
    Experiment x;
    x.name = name;
    x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
    return x;
}

void readDialect(TreeReader &r, const JsonNode &obj, const char *key, const QString &base, Dialect *out)
{
    QString s;
    if (const JsonNode *n = obj.member(QLatin1String(key)); n && r.string(n, TreeReader::join(base, key), &s)) {
        if (!parseDialect(s, out))
            r.error(n, TreeReader::join(base, key),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of vllm, sglang, openai-strict") });
    }
}

ExperimentReadResult finish(TreeReader &r, Experiment &x, ExperimentFormat format)
{
    ExperimentReadResult result;
    result.format = format;
    result.errors = r.errors;
    result.warnings = r.warnings;
    result.shown = r.shown;
    result.ok = r.errors.isEmpty();
    result.experiment = x;
    return result;
}

} // namespace

ExperimentReadResult importLoadMatrixToml(const JsonNode &root, const QString &name)
{
    TreeReader r;
    r.warnUnknownKeys = true;
    Experiment x = importedDefaults(name);
    if (!scanForSecrets(root, &r.errors, &r.shown)
        || !r.object(&root, QString(), { "client", "load_matrix", "env_snapshot" }))
        return finish(r, x, ExperimentFormat::TomlLoadMatrix);
    if (const JsonNode *env = root.member(QLatin1String("env_snapshot")))
        readEnvSnapshotNode(r, *env, QStringLiteral("env_snapshot"), EnvSource::Typed, &x.envSnapshot);
    if (const JsonNode *c = root.member(QLatin1String("client"))) {
        const QString p = QStringLiteral("client");
        if (r.object(c, p,
                { "name", "base_url", "path", "model_id", "api_key_env", "keychain_entry", "dialect", "timeout_s",
                    "warmup_requests", "discard_ratio", "repeat", "seed", "ignore_eos", "temperature", "tokenizer" })) {
            r.stringAt(*c, "tokenizer", p, &x.dataset.tokenizer);
            r.stringAt(*c, "name", p, &x.name);
            r.stringAt(*c, "base_url", p, &x.endpoint.baseUrl);
            r.stringAt(*c, "path", p, &x.endpoint.path);
            r.stringAt(*c, "model_id", p, &x.endpoint.model);
            r.stringAt(*c, "api_key_env", p, &x.endpoint.apiKeyEnv);
            r.stringAt(*c, "keychain_entry", p, &x.endpoint.keychainEntry);
            readDialect(r, *c, "dialect", p, &x.endpoint.dialect);
            r.numberAt(*c, "timeout_s", p, &x.load.timeouts.totalS);
            r.intAt(*c, "warmup_requests", p, &x.load.warmupRequests);
            r.numberAt(*c, "discard_ratio", p, &x.load.discardRatio);
            r.intAt(*c, "repeat", p, &x.load.repeat);
            if (const JsonNode *s = c->member(QLatin1String("seed")))
                r.integer64(s, QStringLiteral("client.seed"), &x.dataset.seed, 0, 9007199254740991.0);
            r.boolAt(*c, "ignore_eos", p, &x.dataset.ignoreEos);
            double temperature = 0;
            if (c->member(QLatin1String("temperature")) && r.numberAt(*c, "temperature", p, &temperature))
                x.sampling.set(QStringLiteral("temperature"), temperature);
        }
    } else {
        r.error(nullptr, QStringLiteral("client"), Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required") });
    }
    const JsonNode *m = root.member(QLatin1String("load_matrix"));
    if (!m) {
        r.error(nullptr, QStringLiteral("load_matrix"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs at least one [load_matrix.NAME] table") });
    } else if (r.anyObject(m, QStringLiteral("load_matrix"))) { // any table name is a label
        for (size_t i = 0; i < m->keys.size(); ++i) {
            const JsonNode &t = m->children[i];
            const QString p = QLatin1String("load_matrix.") + m->keys[i];
            LoadPoint pt;
            pt.label = m->keys[i];
            if (r.object(&t, p,
                    { "concurrency", "request_rate", "burstiness", "prompt_len", "output_len", "num_prompts",
                        "max_seconds" })) {
                r.intAt(t, "concurrency", p, &pt.concurrency);
                r.numberAt(t, "request_rate", p, &pt.requestRate, true);
                r.numberAt(t, "burstiness", p, &pt.burstiness, true);
                r.intAt(t, "prompt_len", p, &pt.inputLen);
                r.intAt(t, "output_len", p, &pt.outputLen);
                r.intAt(t, "num_prompts", p, &pt.numPrompts);
                r.numberAt(t, "max_seconds", p, &pt.maxSeconds);
            }
            if (t.member(QLatin1String("request_rate")))
                x.load.mode = LoadMode::Rate;
            x.load.points << pt;
        }
        // In rate mode a point's concurrency is its cap.
        if (x.load.mode == LoadMode::Rate) {
            for (LoadPoint &pt : x.load.points)
                pt.moveConcurrencyToCap();
        }
    }
    return finish(r, x, ExperimentFormat::TomlLoadMatrix);
}

// [bench] settings that [bench.dataset] (seed, ignore_eos) or the layout's own name (path vs
// endpoint) may also give: the same value twice is fine, two different values contradict.
static void readBenchShared(TreeReader &r, const JsonNode &root, const JsonNode &b, Experiment &x)
{
    const QString p = QStringLiteral("bench");
    const JsonNode *d = b.member(QLatin1String("dataset"));
    const auto same = [&](const char *key, const JsonNode *other, const QString &otherPath) {
        const JsonNode *n = b.member(QLatin1String(key));
        if (n && other && n->toJsonValue() != other->toJsonValue())
            r.error(n, TreeReader::join(p, key),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "contradicts %1"), { otherPath } });
    };
    same("endpoint", b.member(QLatin1String("path")), QStringLiteral("bench.path"));
    if (d && d->isObject()) {
        same("seed", d->member(QLatin1String("seed")), QStringLiteral("bench.dataset.seed"));
        same("ignore_eos", d->member(QLatin1String("ignore_eos")), QStringLiteral("bench.dataset.ignore_eos"));
        same("tokenizer", d->member(QLatin1String("tokenizer")), QStringLiteral("bench.dataset.tokenizer"));
    }
    r.stringAt(b, "endpoint", p, &x.endpoint.path);
    r.stringAt(b, "path", p, &x.endpoint.path);
    if (const JsonNode *s = b.member(QLatin1String("seed")))
        r.integer64(s, p + QLatin1String(".seed"), &x.dataset.seed, 0, 9007199254740991.0);
    r.boolAt(b, "ignore_eos", p, &x.dataset.ignoreEos);
    r.stringAt(b, "tokenizer", p, &x.dataset.tokenizer);
    if (const JsonNode *n = b.member(QLatin1String("percentile_metrics")); n && n->isString()) {
        for (const QString &part : n->string.split(QLatin1Char(','), Qt::SkipEmptyParts))
            x.metrics.percentileMetrics << part.trimmed();
    } else {
        r.stringListAt(b, "percentile_metrics", p, &x.metrics.percentileMetrics);
    }
    for (const auto &[node, at] : { std::pair { root.member(QLatin1String("env_snapshot")), "env_snapshot" },
             std::pair { b.member(QLatin1String("env_snapshot")), "bench.env_snapshot" } }) {
        if (node)
            readEnvSnapshotNode(r, *node, QLatin1String(at), EnvSource::Typed, &x.envSnapshot);
    }
}

static void readBenchLoad(TreeReader &r, const JsonNode &l, int inputLen, int outputLen, Experiment &x)
{
    const QString p = QStringLiteral("bench.load");
    if (!r.object(&l, p,
            { "mode", "concurrency", "request_rate", "burstiness", "max_concurrency", "num_prompts", "max_seconds",
                "timeout_s" }))
        return;
    QString mode = QStringLiteral("concurrency");
    if (r.stringAt(l, "mode", p, &mode) && !parseLoadMode(mode, &x.load.mode))
        r.error(l.member(QLatin1String("mode")), p + QLatin1String(".mode"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of concurrency, rate") });
    LoadPoint shared;
    shared.inputLen = inputLen;
    shared.outputLen = outputLen;
    r.numberAt(l, "burstiness", p, &shared.burstiness, true);
    r.intAt(l, "max_concurrency", p, &shared.maxConcurrency);
    r.intAt(l, "num_prompts", p, &shared.numPrompts);
    r.numberAt(l, "max_seconds", p, &shared.maxSeconds);
    r.numberAt(l, "timeout_s", p, &x.load.timeouts.totalS);
    const bool rate = x.load.mode == LoadMode::Rate;
    const char *key = rate ? "request_rate" : "concurrency";
    const JsonNode *levels = l.member(QLatin1String(key));
    if (!levels) {
        r.error(&l, p + QLatin1Char('.') + QLatin1String(key),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required") });
        return;
    }
    std::vector<JsonNode> items = levels->isArray() ? levels->children : std::vector<JsonNode> { *levels };
    for (size_t i = 0; i < items.size(); ++i) {
        const QString at = p + QLatin1Char('.') + QLatin1String(key)
            + (levels->isArray() ? QStringLiteral("[%1]").arg(i) : QString());
        LoadPoint pt = shared;
        if (rate) {
            r.number(&items[i], at, &pt.requestRate, true);
        } else {
            pt.burstiness = 1.0;
            pt.maxConcurrency = 0;
            r.integer(&items[i], at, &pt.concurrency);
        }
        x.load.points << pt;
    }
    if (!rate) {
        x.load.gradient = ConcurrencyGradient { {}, inputLen, outputLen, shared.numPrompts, 0, shared.maxSeconds };
        for (const LoadPoint &pt : std::as_const(x.load.points))
            x.load.gradient.levels << pt.concurrency;
    }
}

ExperimentReadResult importBenchToml(const JsonNode &root, const QString &name)
{
    TreeReader r;
    r.warnUnknownKeys = true;
    Experiment x = importedDefaults(name);
    const JsonNode *b = root.member(QLatin1String("bench"));
    if (!scanForSecrets(root, &r.errors, &r.shown) || !r.object(&root, QString(), { "bench", "env_snapshot" }) || !b)
        return finish(r, x, ExperimentFormat::TomlBench);
    const QString p = QStringLiteral("bench");
    if (!r.object(b, p,
            { "name", "base_url", "path", "endpoint", "model", "api_key_env", "keychain_entry", "dialect", "seed",
                "ignore_eos", "tokenizer", "warmup_requests", "discard_ratio", "repeat", "definitions", "percentiles",
                "percentile_metrics", "dataset", "load", "sampling", "env_snapshot" }))
        return finish(r, x, ExperimentFormat::TomlBench);
    r.stringAt(*b, "name", p, &x.name);
    r.stringAt(*b, "base_url", p, &x.endpoint.baseUrl);
    readBenchShared(r, root, *b, x);
    r.stringAt(*b, "model", p, &x.endpoint.model);
    r.stringAt(*b, "api_key_env", p, &x.endpoint.apiKeyEnv);
    r.stringAt(*b, "keychain_entry", p, &x.endpoint.keychainEntry);
    readDialect(r, *b, "dialect", p, &x.endpoint.dialect);
    r.intAt(*b, "warmup_requests", p, &x.load.warmupRequests);
    r.numberAt(*b, "discard_ratio", p, &x.load.discardRatio);
    r.intAt(*b, "repeat", p, &x.load.repeat);
    QString definitions;
    if (r.stringAt(*b, "definitions", p, &definitions) && !definitions.isEmpty()
        && !parseDefinitions(definitions, &x.metrics.definitions))
        r.error(b->member(QLatin1String("definitions")), p + QLatin1String(".definitions"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of vllm, sglang") });
    if (const JsonNode *ps = b->member(QLatin1String("percentiles"));
        ps && r.array(ps, p + QLatin1String(".percentiles"))) {
        x.metrics.percentiles.clear();
        for (size_t i = 0; i < ps->children.size(); ++i) {
            double v = 0;
            r.number(&ps->children[i], p + QStringLiteral(".percentiles[%1]").arg(i), &v);
            x.metrics.percentiles << v;
        }
    }
    int inputLen = 0, outputLen = 0;
    if (const JsonNode *d = b->member(QLatin1String("dataset"))) {
        const QString dp = QStringLiteral("bench.dataset");
        if (r.object(d, dp,
                { "name", "seed", "input_len", "output_len", "range_ratio", "ignore_eos", "path", "prefix_len",
                    "tokenizer" })) {
            r.stringAt(*d, "name", dp, &x.dataset.name);
            r.intAt(*d, "prefix_len", dp, &x.dataset.prefixLen);
            r.stringAt(*d, "tokenizer", dp, &x.dataset.tokenizer);
            if (const JsonNode *s = d->member(QLatin1String("seed")))
                r.integer64(s, dp + QLatin1String(".seed"), &x.dataset.seed, 0, 9007199254740991.0);
            r.intAt(*d, "input_len", dp, &inputLen);
            r.intAt(*d, "output_len", dp, &outputLen);
            r.numberAt(*d, "range_ratio", dp, &x.dataset.rangeRatio);
            r.boolAt(*d, "ignore_eos", dp, &x.dataset.ignoreEos);
            r.stringAt(*d, "path", dp, &x.dataset.path);
        }
    }
    if (const JsonNode *s = b->member(QLatin1String("sampling")); s && r.anyObject(s, p + QLatin1String(".sampling"))) {
        for (size_t i = 0; i < s->keys.size(); ++i)
            x.sampling.set(s->keys[i], s->children[i].toJsonValue());
    }
    if (const JsonNode *l = b->member(QLatin1String("load")))
        readBenchLoad(r, *l, inputLen, outputLen, x);
    else
        r.error(
            nullptr, QStringLiteral("bench.load"), Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required") });
    return finish(r, x, ExperimentFormat::TomlBench);
}

} // namespace ServeScope
