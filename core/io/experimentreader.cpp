// SPDX-License-Identifier: MIT
// readExperimentJson(): the native JSON schema of docs/experiment-files.md, strictly (unknown keys are errors).
#include "experimentfile.h"
#include "importers.h"
#include "jsontree.h"
#include "treereader.h"

namespace ServeScope {

namespace {

class NativeReader : public TreeReader {
public:
    void readEndpoint(const JsonNode &n, Endpoint *e)
    {
        const QString p = QStringLiteral("endpoint");
        if (!object(&n, p,
                { "base_url", "path", "api", "model", "api_key_env", "keychain_entry", "dialect", "protocol", "proxy",
                    "headers", "header_env", "ca_file", "tls_skip_verify" }))
            return;
        stringAt(n, "base_url", p, &e->baseUrl);
        stringAt(n, "path", p, &e->path);
        stringAt(n, "model", p, &e->model);
        stringAt(n, "api_key_env", p, &e->apiKeyEnv);
        stringAt(n, "keychain_entry", p, &e->keychainEntry);
        stringAt(n, "proxy", p, &e->proxy);
        stringAt(n, "ca_file", p, &e->caFile);
        boolAt(n, "tls_skip_verify", p, &e->tlsSkipVerify);
        enumAt(n, "dialect", p, &e->dialect, parseDialect, "vllm, sglang, openai-strict");
        // The path names the API; `api` alone stands for that API's usual path.
        Api api = e->api();
        if (const JsonNode *m = n.member(QLatin1String("api"))) {
            enumAt(n, "api", p, &api, parseApi, "chat, completions, responses, messages, sglang-generate");
            if (!n.member(QLatin1String("path")))
                e->path = defaultPath(api);
            else if (api != e->api())
                error(m, p + QLatin1String(".api"),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is %1, but endpoint.path is the %2 API's path"),
                        { apiName(api), apiName(e->api()) } });
        }
        enumAt(n, "protocol", p, &e->protocol, parseProtocol, "http1, http2");
        if (const JsonNode *h = n.member(QLatin1String("headers")); h && !h->isObject()) {
            error(h, p + QLatin1String(".headers"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an object") });
        } else if (h) {
            for (size_t i = 0; i < h->keys.size(); ++i) {
                QString value;
                if (string(&h->children[i], p + QLatin1String(".headers.") + h->keys[i], &value))
                    e->headers.append({ h->keys[i], value });
            }
        }
        if (const JsonNode *h = n.member(QLatin1String("header_env")); h && !h->isObject()) {
            error(h, p + QLatin1String(".header_env"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an object") });
        } else if (h) {
            for (size_t i = 0; i < h->keys.size(); ++i) {
                QString variable;
                if (string(&h->children[i], p + QLatin1String(".header_env.") + h->keys[i], &variable))
                    e->headerEnv.append({ h->keys[i], variable });
            }
        }
    }

    template<typename E>
    void enumAt(const JsonNode &n, const char *key, const QString &base, E *out, bool (*parse)(QStringView, E *),
        const char *choices)
    {
        QString s;
        const JsonNode *m = n.member(QLatin1String(key));
        if (m && string(m, join(base, key), &s) && !parse(s, out))
            error(m, join(base, key),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of %1"), { QLatin1String(choices) } });
    }

    void readValues(const JsonNode &n, const QString &p, OrderedValues *out)
    {
        if (!n.isObject()) {
            error(&n, p, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an object") });
            return;
        }
        for (size_t i = 0; i < n.keys.size(); ++i)
            out->set(n.keys[i], n.children[i].toJsonValue());
    }

    void readLaunchEnv(const JsonNode &l, const QString &lp, Server *s)
    {
        const JsonNode *e = l.member(QLatin1String("env"));
        if (e && !e->isObject()) {
            error(e, lp + QLatin1String(".env"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an object") });
            return;
        }
        for (size_t i = 0; e && i < e->keys.size(); ++i) {
            QString value;
            if (string(&e->children[i], lp + QLatin1String(".env.") + e->keys[i], &value))
                s->launchEnv.append({ e->keys[i], value });
        }
    }

    void readServer(const JsonNode &n, Server *s)
    {
        const QString p = QStringLiteral("server");
        if (!object(&n, p, { "engine", "args", "launch", "dcgm_url", "gpus", "gpu_hour_price" }))
            return;
        stringAt(n, "engine", p, &s->engine);
        stringAt(n, "dcgm_url", p, &s->dcgmUrl);
        intAt(n, "gpus", p, &s->gpus);
        numberAt(n, "gpu_hour_price", p, &s->gpuHourPrice);
        if (const JsonNode *a = n.member(QLatin1String("args")))
            readValues(*a, p + QLatin1String(".args"), &s->args);
        if (const JsonNode *l = n.member(QLatin1String("launch"))) {
            const QString lp = p + QLatin1String(".launch");
            if (object(l, lp, { "argv", "ready", "env", "cwd", "ready_timeout_s" })) {
                stringListAt(*l, "argv", lp, &s->launchArgv);
                stringAt(*l, "ready", lp, &s->readyPath);
                stringAt(*l, "cwd", lp, &s->launchCwd);
                numberAt(*l, "ready_timeout_s", lp, &s->readyTimeoutS);
                readLaunchEnv(*l, lp, s);
            }
        }
    }

    void readDataset(const JsonNode &n, Dataset *d)
    {
        const QString p = QStringLiteral("dataset");
        if (!object(&n, p,
                { "name", "seed", "ignore_eos", "range_ratio", "path", "prefix_len", "groups", "zipf", "tokenizer",
                    "trace_format", "block_size", "turns", "think_time_s" }))
            return;
        intAt(n, "turns", p, &d->turns);
        numberAt(n, "think_time_s", p, &d->thinkTimeS);
        intAt(n, "prefix_len", p, &d->prefixLen);
        intAt(n, "groups", p, &d->groups);
        numberAt(n, "zipf", p, &d->zipf);
        stringAt(n, "tokenizer", p, &d->tokenizer);
        stringAt(n, "trace_format", p, &d->traceFormat);
        intAt(n, "block_size", p, &d->blockSize);
        stringAt(n, "name", p, &d->name);
        if (const JsonNode *s = n.member(QLatin1String("seed")))
            integer64(s, p + QLatin1String(".seed"), &d->seed, 0, 9007199254740991.0);
        boolAt(n, "ignore_eos", p, &d->ignoreEos);
        numberAt(n, "range_ratio", p, &d->rangeRatio);
        stringAt(n, "path", p, &d->path);
    }

    void readPoint(const JsonNode &n, const QString &p, LoadPoint *pt)
    {
        if (!object(&n, p,
                { "label", "concurrency", "request_rate", "burstiness", "max_concurrency", "input_len", "output_len",
                    "num_prompts", "max_seconds" }))
            return;
        stringAt(n, "label", p, &pt->label);
        intAt(n, "concurrency", p, &pt->concurrency);
        numberAt(n, "request_rate", p, &pt->requestRate, true);
        numberAt(n, "burstiness", p, &pt->burstiness, true);
        intAt(n, "max_concurrency", p, &pt->maxConcurrency);
        intAt(n, "input_len", p, &pt->inputLen);
        intAt(n, "output_len", p, &pt->outputLen);
        intAt(n, "num_prompts", p, &pt->numPrompts);
        numberAt(n, "max_seconds", p, &pt->maxSeconds);
    }

    void readGradient(const JsonNode &n, const JsonNode &levels, LoadMatrix *m)
    {
        const QString p = QStringLiteral("load");
        ConcurrencyGradient &g = m->gradient;
        if (array(&levels, p + QLatin1String(".concurrency_gradient"))) {
            for (size_t i = 0; i < levels.children.size(); ++i) {
                int level = 0;
                integer(&levels.children[i], p + QStringLiteral(".concurrency_gradient[%1]").arg(i), &level);
                g.levels << level;
            }
        }
        intAt(n, "input_len", p, &g.inputLen);
        intAt(n, "output_len", p, &g.outputLen);
        intAt(n, "num_prompts", p, &g.numPrompts);
        intAt(n, "prompts_per_concurrency", p, &g.promptsPerConcurrency);
        numberAt(n, "max_seconds", p, &g.maxSeconds);
        m->points = g.expand();
    }

    void readCapacity(const JsonNode &n, LoadMatrix *m)
    {
        const QString p = QStringLiteral("load.capacity");
        if (!object(&n, p,
                { "over", "slo", "attainment", "start", "max", "resolution", "max_points", "max_repeats", "max_total_s",
                    "input_len", "output_len", "num_prompts", "prompts_per_level", "max_seconds", "burstiness",
                    "max_concurrency" }))
            return;
        CapacitySearch &c = m->capacity.emplace();
        enumAt(n, "over", p, &m->mode, parseLoadMode, "concurrency, rate");
        if (const JsonNode *slo = n.member(QLatin1String("slo")); slo && anyObject(slo, join(p, "slo"))) {
            for (size_t i = 0; i < slo->keys.size(); ++i) {
                Slo s;
                const QString at = join(p, "slo") + u'.' + slo->keys[i];
                if (!parseSloKey(slo->keys[i], &s)) {
                    error(&slo->children[i], at,
                        Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                            "is not an SLO: write p<percentile>_<ttft|ttfo|tpot|itl|e2el>_ms, e.g. p90_ttft_ms") });
                    continue;
                }
                if (number(&slo->children[i], at, &s.maxMs))
                    c.slos << s;
            }
        }
        numberAt(n, "attainment", p, &c.attainment);
        numberAt(n, "start", p, &c.start);
        numberAt(n, "max", p, &c.max);
        numberAt(n, "resolution", p, &c.resolution);
        intAt(n, "max_points", p, &c.maxPoints);
        intAt(n, "max_repeats", p, &c.maxRepeats);
        numberAt(n, "max_total_s", p, &c.maxTotalSeconds);
        intAt(n, "input_len", p, &c.point.inputLen);
        intAt(n, "output_len", p, &c.point.outputLen);
        intAt(n, "num_prompts", p, &c.point.numPrompts);
        intAt(n, "prompts_per_level", p, &c.promptsPerLevel);
        numberAt(n, "max_seconds", p, &c.point.maxSeconds);
        numberAt(n, "burstiness", p, &c.point.burstiness, true);
        intAt(n, "max_concurrency", p, &c.point.maxConcurrency);
    }

    void readLoad(const JsonNode &n, LoadMatrix *m)
    {
        const QString p = QStringLiteral("load");
        if (!object(&n, p,
                { "mode", "points", "concurrency_gradient", "input_len", "output_len", "num_prompts",
                    "prompts_per_concurrency", "max_seconds", "warmup_requests", "discard_ratio", "repeat", "timeouts",
                    "reset_prefix_cache", "max_event_bytes", "capacity", "stop_when_settled" }))
            return;
        const JsonNode *capacity = n.member(QLatin1String("capacity"));
        if (QString mode; n.member(QLatin1String("mode"))
            && string(n.member(QLatin1String("mode")), join(p, "mode"), &mode) && mode == QLatin1String("capacity")) {
            if (capacity)
                readCapacity(*capacity, m);
            else
                error(n.member(QLatin1String("mode")), join(p, "mode"),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is capacity, which needs load.capacity") });
        } else {
            enumAt(n, "mode", p, &m->mode, parseLoadMode, "concurrency, rate, capacity");
            if (capacity)
                error(capacity, join(p, "capacity"),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is only allowed with load.mode capacity") });
        }
        const JsonNode *points = n.member(QLatin1String("points"));
        const JsonNode *gradient = n.member(QLatin1String("concurrency_gradient"));
        if (points && gradient)
            error(gradient, p + QLatin1String(".concurrency_gradient"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "cannot be combined with points") });
        if (gradient) {
            readGradient(n, *gradient, m);
        } else {
            for (const char *shared :
                { "input_len", "output_len", "num_prompts", "prompts_per_concurrency", "max_seconds" }) {
                if (const JsonNode *s = n.member(QLatin1String(shared)))
                    error(s, join(p, shared),
                        Reason { QT_TRANSLATE_NOOP(
                            "ServeScope::Problem", "is only allowed with concurrency_gradient (set it per point)") });
            }
        }
        if (points && array(points, p + QLatin1String(".points"))) {
            for (size_t i = 0; i < points->children.size(); ++i) {
                LoadPoint pt;
                readPoint(points->children[i], p + QStringLiteral(".points[%1]").arg(i), &pt);
                m->points << pt;
            }
        }
        intAt(n, "warmup_requests", p, &m->warmupRequests);
        numberAt(n, "discard_ratio", p, &m->discardRatio);
        intAt(n, "repeat", p, &m->repeat);
        boolAt(n, "reset_prefix_cache", p, &m->resetPrefixCache);
        intAt(n, "max_event_bytes", p, &m->maxEventBytes);
        if (const JsonNode *s = n.member(QLatin1String("stop_when_settled"))) {
            const QString sp = p + QLatin1String(".stop_when_settled");
            if (object(s, sp, { "width", "verdict", "min_requests" })) {
                numberAt(*s, "width", sp, &m->settle.width);
                boolAt(*s, "verdict", sp, &m->settle.verdict);
                intAt(*s, "min_requests", sp, &m->settle.minRequests);
            }
        }
        if (const JsonNode *t = n.member(QLatin1String("timeouts"))) {
            const QString tp = p + QLatin1String(".timeouts");
            if (object(t, tp, { "connect_s", "first_token_s", "idle_s", "total_s" })) {
                numberAt(*t, "connect_s", tp, &m->timeouts.connectS);
                numberAt(*t, "first_token_s", tp, &m->timeouts.firstTokenS);
                numberAt(*t, "idle_s", tp, &m->timeouts.idleS);
                numberAt(*t, "total_s", tp, &m->timeouts.totalS);
            }
        }
    }

    void readMetrics(const JsonNode &n, MetricsConfig *m)
    {
        const QString p = QStringLiteral("metrics");
        if (!object(&n, p, { "percentiles", "percentile_metrics", "goodput", "definitions" }))
            return;
        stringListAt(n, "percentile_metrics", p, &m->percentileMetrics);
        if (const JsonNode *ps = n.member(QLatin1String("percentiles"));
            ps && array(ps, p + QLatin1String(".percentiles"))) {
            m->percentiles.clear();
            for (size_t i = 0; i < ps->children.size(); ++i) {
                double v = 0;
                number(&ps->children[i], p + QStringLiteral(".percentiles[%1]").arg(i), &v);
                m->percentiles << v;
            }
        }
        if (const JsonNode *g = n.member(QLatin1String("goodput"))) {
            const QString gp = p + QLatin1String(".goodput");
            if (object(g, gp, { "ttft_ms", "tpot_ms", "e2el_ms" })) {
                const std::pair<const char *, std::optional<double> *> slos[] = { { "ttft_ms", &m->goodput.ttftMs },
                    { "tpot_ms", &m->goodput.tpotMs }, { "e2el_ms", &m->goodput.e2elMs } };
                for (const auto &slo : slos) {
                    double v = 0;
                    if (const JsonNode *s = g->member(QLatin1String(slo.first));
                        s && number(s, join(gp, slo.first), &v))
                        *slo.second = v;
                }
            }
        }
        enumAt(n, "definitions", p, &m->definitions, parseDefinitions, "vllm, sglang");
    }

    void readVariants(const JsonNode &n, QList<Variant> *out)
    {
        const QString p = QStringLiteral("variants");
        if (!array(&n, p))
            return;
        for (size_t i = 0; i < n.children.size(); ++i) {
            const JsonNode &v = n.children[i];
            const QString at = p + QStringLiteral("[%1]").arg(i);
            Variant variant;
            if (object(&v, at, { "name", "baseline", "reason", "changes" })) {
                stringAt(v, "name", at, &variant.name);
                boolAt(v, "baseline", at, &variant.baseline);
                stringAt(v, "reason", at, &variant.reason);
                if (const JsonNode *c = v.member(QLatin1String("changes")))
                    readValues(*c, at + QLatin1String(".changes"), &variant.changes);
            }
            out->append(variant);
        }
    }

    void readTop(const JsonNode &root, Experiment *x)
    {
        if (!object(&root, QString(),
                { "name", "endpoint", "env_snapshot", "server", "dataset", "sampling", "load", "metrics", "variants" }))
            return;
        stringAt(root, "name", QString(), &x->name);
        if (const JsonNode *n = root.member(QLatin1String("endpoint")))
            readEndpoint(*n, &x->endpoint);
        if (const JsonNode *n = root.member(QLatin1String("env_snapshot")))
            readEnvSnapshotNode(*this, *n, QStringLiteral("env_snapshot"), EnvSource::Typed, &x->envSnapshot);
        if (const JsonNode *n = root.member(QLatin1String("server")))
            readServer(*n, &x->server);
        if (const JsonNode *n = root.member(QLatin1String("dataset")))
            readDataset(*n, &x->dataset);
        if (const JsonNode *n = root.member(QLatin1String("sampling")))
            readValues(*n, QStringLiteral("sampling"), &x->sampling);
        if (const JsonNode *n = root.member(QLatin1String("load")))
            readLoad(*n, &x->load);
        else
            error(nullptr, QStringLiteral("load"), Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required") });
        if (const JsonNode *n = root.member(QLatin1String("metrics")))
            readMetrics(*n, &x->metrics);
        if (const JsonNode *n = root.member(QLatin1String("variants")))
            readVariants(*n, &x->variants);
        else
            x->variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
    }
};

} // namespace

ExperimentReadResult readExperimentTree(const JsonNode &root)
{
    ExperimentReadResult r;
    r.format = ExperimentFormat::Json;
    if (!scanForSecrets(root, &r.errors, &r.shown))
        return r;
    NativeReader reader;
    reader.readTop(root, &r.experiment);
    r.errors = reader.errors;
    r.shown = reader.shown;
    r.ok = r.errors.isEmpty();
    return r;
}

ExperimentReadResult readExperimentJson(const QByteArray &bytes)
{
    JsonNode root;
    QString error;
    QString shown;
    if (!parseJsonTree(bytes, &root, &error, JsonLimits { kMaxExperimentFileBytes, 64 }, &shown)) {
        ExperimentReadResult r;
        r.format = ExperimentFormat::Json;
        r.errors << error;
        if (shown != error)
            r.shown.insert(error, shown);
        return r;
    }
    return readExperimentTree(root);
}

ExperimentReadResult deserializeExperiment(const QByteArray &bytes)
{
    return readExperimentJson(bytes);
}

} // namespace ServeScope
