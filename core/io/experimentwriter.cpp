// SPDX-License-Identifier: MIT
// writeExperimentJson(): the native schema in documentation order, defaults left out.
#include "experimentfile.h"
#include "importers.h"

#include <QSaveFile>

#include <cmath>

namespace ServeScope {

namespace {

JsonNode str(const QString &s)
{
    return JsonNode::makeString(s);
}
JsonNode num(double d)
{
    return std::isinf(d) ? JsonNode::makeString(QStringLiteral("inf")) : JsonNode::makeNumber(d);
}

JsonNode values(const OrderedValues &v)
{
    JsonNode n = JsonNode::makeObject();
    for (const auto &item : v.items())
        n.add(item.first, JsonNode::fromJsonValue(item.second));
    return n;
}

JsonNode serverTree(const Server &s)
{
    JsonNode n = JsonNode::makeObject();
    n.add(QStringLiteral("engine"), str(s.engine));
    n.add(QStringLiteral("args"), values(s.args));
    if (!s.launchArgv.isEmpty() || !s.readyPath.isEmpty()) {
        JsonNode l = JsonNode::makeObject();
        JsonNode argv = JsonNode::makeArray();
        for (const QString &a : s.launchArgv)
            argv.children.push_back(str(a));
        l.add(QStringLiteral("argv"), argv);
        l.add(QStringLiteral("ready"), str(s.readyPath));
        if (!s.launchEnv.isEmpty()) {
            JsonNode env = JsonNode::makeObject();
            for (const auto &[name, value] : s.launchEnv)
                env.add(name, str(value));
            l.add(QStringLiteral("env"), env);
        }
        if (!s.launchCwd.isEmpty())
            l.add(QStringLiteral("cwd"), str(s.launchCwd));
        if (s.readyTimeoutS != Server().readyTimeoutS)
            l.add(QStringLiteral("ready_timeout_s"), num(s.readyTimeoutS));
        n.add(QStringLiteral("launch"), l);
    }
    if (!s.dcgmUrl.isEmpty())
        n.add(QStringLiteral("dcgm_url"), str(s.dcgmUrl));
    if (s.gpus > 0)
        n.add(QStringLiteral("gpus"), num(s.gpus));
    if (s.gpuHourPrice > 0)
        n.add(QStringLiteral("gpu_hour_price"), num(s.gpuHourPrice));
    return n;
}

JsonNode pointTree(LoadMode mode, const LoadPoint &p)
{
    JsonNode n = JsonNode::makeObject();
    if (!p.label.isEmpty())
        n.add(QStringLiteral("label"), str(p.label));
    if (mode == LoadMode::Concurrency || p.concurrency != 0)
        n.add(QStringLiteral("concurrency"), num(p.concurrency));
    if (mode == LoadMode::Rate || p.requestRate != 0) {
        n.add(QStringLiteral("request_rate"), num(p.requestRate));
        n.add(QStringLiteral("burstiness"), num(p.burstiness));
    }
    if (p.maxConcurrency != 0)
        n.add(QStringLiteral("max_concurrency"), num(p.maxConcurrency));
    n.add(QStringLiteral("input_len"), num(p.inputLen));
    n.add(QStringLiteral("output_len"), num(p.outputLen));
    if (p.numPrompts != 0)
        n.add(QStringLiteral("num_prompts"), num(p.numPrompts));
    if (p.maxSeconds != 0)
        n.add(QStringLiteral("max_seconds"), num(p.maxSeconds));
    return n;
}

JsonNode capacityTree(LoadMode over, const CapacitySearch &c)
{
    JsonNode n = JsonNode::makeObject();
    n.add(QStringLiteral("over"), str(loadModeName(over)));
    JsonNode slo = JsonNode::makeObject();
    for (const Slo &s : c.slos)
        slo.add(s.key(), num(s.maxMs));
    n.add(QStringLiteral("slo"), slo);
    if (c.attainment > 0)
        n.add(QStringLiteral("attainment"), num(c.attainment));
    n.add(QStringLiteral("start"), num(c.start));
    n.add(QStringLiteral("max"), num(c.max));
    n.add(QStringLiteral("resolution"), num(c.resolution));
    n.add(QStringLiteral("max_points"), num(c.maxPoints));
    n.add(QStringLiteral("max_repeats"), num(c.maxRepeats));
    if (c.maxTotalSeconds != 0)
        n.add(QStringLiteral("max_total_s"), num(c.maxTotalSeconds));
    n.add(QStringLiteral("input_len"), num(c.point.inputLen));
    n.add(QStringLiteral("output_len"), num(c.point.outputLen));
    if (c.point.numPrompts != 0)
        n.add(QStringLiteral("num_prompts"), num(c.point.numPrompts));
    if (c.promptsPerLevel != 0)
        n.add(QStringLiteral("prompts_per_level"), num(c.promptsPerLevel));
    if (c.point.maxSeconds != 0)
        n.add(QStringLiteral("max_seconds"), num(c.point.maxSeconds));
    if (over == LoadMode::Rate)
        n.add(QStringLiteral("burstiness"), num(c.point.burstiness));
    if (c.point.maxConcurrency != 0)
        n.add(QStringLiteral("max_concurrency"), num(c.point.maxConcurrency));
    return n;
}

JsonNode loadTree(const LoadMatrix &m)
{
    JsonNode n = JsonNode::makeObject();
    n.add(QStringLiteral("mode"), str(m.capacity ? QStringLiteral("capacity") : loadModeName(m.mode)));
    if (m.capacity) {
        n.add(QStringLiteral("capacity"), capacityTree(m.mode, *m.capacity));
        if (!m.points.isEmpty()) { // the levels a run measured
            JsonNode points = JsonNode::makeArray();
            for (const LoadPoint &p : m.points)
                points.children.push_back(pointTree(m.mode, p));
            n.add(QStringLiteral("points"), points);
        }
    } else if (m.pointsFromGradient()) {
        const ConcurrencyGradient &g = m.gradient;
        JsonNode levels = JsonNode::makeArray();
        for (int level : g.levels)
            levels.children.push_back(num(level));
        n.add(QStringLiteral("concurrency_gradient"), levels);
        n.add(QStringLiteral("input_len"), num(g.inputLen));
        n.add(QStringLiteral("output_len"), num(g.outputLen));
        if (g.numPrompts != 0)
            n.add(QStringLiteral("num_prompts"), num(g.numPrompts));
        if (g.promptsPerConcurrency != 0)
            n.add(QStringLiteral("prompts_per_concurrency"), num(g.promptsPerConcurrency));
        if (g.maxSeconds != 0)
            n.add(QStringLiteral("max_seconds"), num(g.maxSeconds));
    } else {
        JsonNode points = JsonNode::makeArray();
        for (const LoadPoint &p : m.points)
            points.children.push_back(pointTree(m.mode, p));
        n.add(QStringLiteral("points"), points);
    }
    n.add(QStringLiteral("warmup_requests"), num(m.warmupRequests));
    n.add(QStringLiteral("discard_ratio"), num(m.discardRatio));
    n.add(QStringLiteral("repeat"), num(m.repeat));
    if (m.resetPrefixCache)
        n.add(QStringLiteral("reset_prefix_cache"), JsonNode::makeBool(true));
    if (m.maxEventBytes != LoadMatrix().maxEventBytes)
        n.add(QStringLiteral("max_event_bytes"), num(m.maxEventBytes));
    if (m.settle.enabled()) {
        JsonNode s = JsonNode::makeObject();
        if (m.settle.width > 0)
            s.add(QStringLiteral("width"), num(m.settle.width));
        if (m.settle.verdict)
            s.add(QStringLiteral("verdict"), JsonNode::makeBool(true));
        s.add(QStringLiteral("min_requests"), num(m.settle.minRequests));
        n.add(QStringLiteral("stop_when_settled"), s);
    }
    JsonNode t = JsonNode::makeObject();
    t.add(QStringLiteral("connect_s"), num(m.timeouts.connectS));
    t.add(QStringLiteral("first_token_s"), num(m.timeouts.firstTokenS));
    t.add(QStringLiteral("idle_s"), num(m.timeouts.idleS));
    t.add(QStringLiteral("total_s"), num(m.timeouts.totalS));
    n.add(QStringLiteral("timeouts"), t);
    return n;
}

JsonNode metricsTree(const MetricsConfig &m)
{
    JsonNode n = JsonNode::makeObject();
    JsonNode ps = JsonNode::makeArray();
    for (double p : m.percentiles)
        ps.children.push_back(num(p));
    n.add(QStringLiteral("percentiles"), ps);
    if (!m.percentileMetrics.isEmpty()) {
        JsonNode names = JsonNode::makeArray();
        for (const QString &name : m.percentileMetrics)
            names.children.push_back(str(name));
        n.add(QStringLiteral("percentile_metrics"), names);
    }
    if (!m.goodput.isEmpty()) {
        JsonNode g = JsonNode::makeObject();
        if (m.goodput.ttftMs)
            g.add(QStringLiteral("ttft_ms"), num(*m.goodput.ttftMs));
        if (m.goodput.tpotMs)
            g.add(QStringLiteral("tpot_ms"), num(*m.goodput.tpotMs));
        if (m.goodput.e2elMs)
            g.add(QStringLiteral("e2el_ms"), num(*m.goodput.e2elMs));
        n.add(QStringLiteral("goodput"), g);
    }
    n.add(QStringLiteral("definitions"), str(definitionsName(m.definitions)));
    return n;
}

} // namespace

JsonNode endpointTree(const Endpoint &e)
{
    JsonNode n = JsonNode::makeObject();
    n.add(QStringLiteral("base_url"), str(e.baseUrl));
    n.add(QStringLiteral("path"), str(e.path));
    n.add(QStringLiteral("model"), str(e.model));
    if (!e.apiKeyEnv.isEmpty())
        n.add(QStringLiteral("api_key_env"), str(e.apiKeyEnv));
    if (!e.keychainEntry.isEmpty())
        n.add(QStringLiteral("keychain_entry"), str(e.keychainEntry));
    n.add(QStringLiteral("dialect"), str(dialectName(e.dialect)));
    n.add(QStringLiteral("protocol"), str(protocolName(e.protocol)));
    if (!e.proxy.isEmpty())
        n.add(QStringLiteral("proxy"), str(e.proxy));
    if (!e.caFile.isEmpty())
        n.add(QStringLiteral("ca_file"), str(e.caFile));
    if (e.tlsSkipVerify)
        n.add(QStringLiteral("tls_skip_verify"), JsonNode::makeBool(true));
    if (!e.headers.isEmpty()) {
        JsonNode h = JsonNode::makeObject();
        for (const auto &header : e.headers)
            h.add(header.first, str(header.second));
        n.add(QStringLiteral("headers"), h);
    }
    if (!e.headerEnv.isEmpty()) {
        JsonNode h = JsonNode::makeObject();
        for (const auto &header : e.headerEnv)
            h.add(header.first, str(header.second));
        n.add(QStringLiteral("header_env"), h);
    }
    return n;
}

JsonNode experimentToTree(const Experiment &x)
{
    JsonNode root = JsonNode::makeObject();
    root.add(QStringLiteral("name"), str(x.name));
    root.add(QStringLiteral("endpoint"), endpointTree(x.endpoint));
    if (!x.envSnapshot.isEmpty()) {
        JsonNode env = JsonNode::makeArray();
        for (const EnvEntry &e : x.envSnapshot) {
            JsonNode pair = JsonNode::makeArray();
            pair.children.push_back(str(e.key));
            pair.children.push_back(str(e.value));
            if (e.source != EnvSource::Typed)
                pair.children.push_back(str(envSourceName(e.source)));
            env.children.push_back(pair);
        }
        root.add(QStringLiteral("env_snapshot"), env);
    }
    root.add(QStringLiteral("server"), serverTree(x.server));
    JsonNode d = JsonNode::makeObject();
    d.add(QStringLiteral("name"), str(x.dataset.name));
    d.add(QStringLiteral("seed"), num(double(x.dataset.seed)));
    d.add(QStringLiteral("ignore_eos"), JsonNode::makeBool(x.dataset.ignoreEos));
    d.add(QStringLiteral("range_ratio"), num(x.dataset.rangeRatio));
    if (!x.dataset.path.isEmpty())
        d.add(QStringLiteral("path"), str(x.dataset.path));
    if (x.dataset.prefixLen != Dataset().prefixLen)
        d.add(QStringLiteral("prefix_len"), num(x.dataset.prefixLen));
    if (x.dataset.groups != Dataset().groups)
        d.add(QStringLiteral("groups"), num(x.dataset.groups));
    if (x.dataset.zipf != Dataset().zipf)
        d.add(QStringLiteral("zipf"), num(x.dataset.zipf));
    if (!x.dataset.traceFormat.isEmpty())
        d.add(QStringLiteral("trace_format"), str(x.dataset.traceFormat));
    if (x.dataset.blockSize != Dataset().blockSize)
        d.add(QStringLiteral("block_size"), num(x.dataset.blockSize));
    if (x.dataset.turns != Dataset().turns)
        d.add(QStringLiteral("turns"), num(x.dataset.turns));
    if (x.dataset.thinkTimeS != Dataset().thinkTimeS)
        d.add(QStringLiteral("think_time_s"), num(x.dataset.thinkTimeS));
    if (!x.dataset.tokenizer.isEmpty())
        d.add(QStringLiteral("tokenizer"), str(x.dataset.tokenizer));
    root.add(QStringLiteral("dataset"), d);
    root.add(QStringLiteral("sampling"), values(x.sampling));
    root.add(QStringLiteral("load"), loadTree(x.load));
    root.add(QStringLiteral("metrics"), metricsTree(x.metrics));
    JsonNode variants = JsonNode::makeArray();
    for (const Variant &v : x.variants) {
        JsonNode n = JsonNode::makeObject();
        n.add(QStringLiteral("name"), str(v.name));
        if (v.baseline)
            n.add(QStringLiteral("baseline"), JsonNode::makeBool(true));
        if (!v.reason.isEmpty())
            n.add(QStringLiteral("reason"), str(v.reason));
        if (!v.changes.isEmpty())
            n.add(QStringLiteral("changes"), values(v.changes));
        variants.children.push_back(n);
    }
    root.add(QStringLiteral("variants"), variants);
    return root;
}

QByteArray writeExperimentJson(const Experiment &experiment)
{
    return writeJsonTree(experimentToTree(experiment));
}

QByteArray serializeExperiment(const Experiment &experiment)
{
    return writeExperimentJson(experiment);
}

QString saveExperimentFile(const QString &path, const Experiment &experiment)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    file.write(writeExperimentJson(experiment));
    if (!file.commit())
        return file.errorString();
    return QString();
}

} // namespace ServeScope
