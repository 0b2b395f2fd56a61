// SPDX-License-Identifier: MIT
#include "validation.h"

#include "model/variables.h"

#include <QRegularExpression>
#include <QSet>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace ServeScope {

namespace {

class Checker {
public:
    QList<Problem> problems;

    void error(const QString &path, const Reason &reason, int variant = -1)
    {
        problems << Problem::of(path, reason, Severity::Error, variant);
    }
    void warning(const QString &path, const Reason &reason, int variant = -1)
    {
        problems << Problem::of(path, reason, Severity::Warning, variant);
    }
    void atLeast(const QString &path, double value, double min)
    {
        if (std::isnan(value) || value < min)
            error(path,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be at least %1"), { formatNumber(min) } });
    }
    void atMost(const QString &path, double value, double max)
    {
        if (value > max)
            error(
                path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be at most %1"), { formatNumber(max) } });
    }
    void range(const QString &path, double value, double min, double max)
    {
        atLeast(path, value, min);
        atMost(path, value, max);
    }
    void finite(const QString &path, double value, double min, double max)
    {
        if (!std::isfinite(value))
            error(path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a finite number") });
        else
            range(path, value, min, max);
    }
};

bool isToken(const QString &s)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9!#$%&'*+.^_`|~-]+$"));
    return re.match(s).hasMatch();
}

void checkUrl(Checker &c, const QString &path, const QString &text, const QStringList &schemes)
{
    // QUrl only says "invalid" for a port it cannot hold; say which part is wrong.
    static const QRegularExpression port(
        QStringLiteral("^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(\\[[^\\]]*\\]|[^/:?#\\[@]*):([^/?#]*)"));
    if (const QRegularExpressionMatch m = port.match(text); m.hasMatch()) {
        bool ok = false;
        const uint n = m.captured(2).toUInt(&ok);
        if (!ok || n < 1 || n > 65535) {
            c.error(path,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "port '%1' is not a number in 1..65535"),
                    { m.captured(2) } });
            return;
        }
    }
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() || !schemes.contains(url.scheme())) {
        c.error(path,
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a URL starting with %1://"),
                { schemes.join(QLatin1String("://, ")) } });
        return;
    }
    // A password in a URL is a secret in a file.
    if (!url.userInfo().isEmpty())
        c.error(path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must not contain a user name or password") });
}

void checkEndpoint(Checker &c, const Endpoint &e)
{
    if (e.baseUrl.isEmpty())
        c.error(
            QStringLiteral("endpoint.base_url"), Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required") });
    else if (!e.isLocalSimulator())
        checkUrl(
            c, QStringLiteral("endpoint.base_url"), e.baseUrl, { QStringLiteral("http"), QStringLiteral("https") });
    if (!e.path.startsWith(QLatin1Char('/')))
        c.error(
            QStringLiteral("endpoint.path"), Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must start with /") });
    else if (!e.path.endsWith(defaultPath(e.api()).section(QLatin1Char('/'), -1)))
        c.warning(QStringLiteral("endpoint.path"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is not an API's path: the %1 API's is %2"),
                { apiName(e.api()), defaultPath(e.api()) } });
    if (e.model.trimmed().isEmpty() && !e.isLocalSimulator())
        c.error(QStringLiteral("endpoint.model"), Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required") });
    if (!e.proxy.isEmpty())
        checkUrl(c, QStringLiteral("endpoint.proxy"), e.proxy,
            { QStringLiteral("http"), QStringLiteral("https"), QStringLiteral("socks5") });
    const bool https = e.baseUrl.startsWith(QLatin1String("https://"), Qt::CaseInsensitive);
    if (!https && (!e.caFile.isEmpty() || e.tlsSkipVerify))
        c.warning(e.caFile.isEmpty() ? QStringLiteral("endpoint.tls_skip_verify") : QStringLiteral("endpoint.ca_file"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "has no effect: the base URL is not https://") });
    else if (e.tlsSkipVerify)
        c.warning(QStringLiteral("endpoint.tls_skip_verify"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                "the server's certificate is not checked: anyone on the path can read the key and the answers") });
    if (e.tlsSkipVerify && !e.caFile.isEmpty())
        c.warning(QStringLiteral("endpoint.ca_file"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is not used while tls_skip_verify is true") });
    if (!e.apiKeyEnv.isEmpty() && !isValidEnvironmentName(e.apiKeyEnv))
        c.error(QStringLiteral("endpoint.api_key_env"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an environment variable name") });
    if (!e.apiKeyEnv.isEmpty() && !e.keychainEntry.isEmpty())
        c.error(QStringLiteral("endpoint.keychain_entry"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "cannot be combined with api_key_env") });
    QSet<QString> seen;
    for (const auto &h : e.headers) {
        const QString at = QLatin1String("endpoint.headers.") + h.first;
        if (!isToken(h.first))
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is not a valid header name") });
        const QString lower = h.first.toLower();
        if (lower == QLatin1String("authorization") || lower == QLatin1String("x-api-key")
            || lower == QLatin1String("api-key"))
            c.error(at,
                Reason { QT_TRANSLATE_NOOP(
                    "ServeScope::Problem", "would hold a secret; use api_key_env or keychain_entry") });
        if (seen.contains(lower))
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is given twice") });
        seen.insert(lower);
    }
    for (const auto &h : e.headerEnv) {
        const QString at = QLatin1String("endpoint.header_env.") + h.first;
        if (!isToken(h.first))
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is not a valid header name") });
        if (h.first.compare(QLatin1String("authorization"), Qt::CaseInsensitive) == 0)
            c.error(at,
                Reason { QT_TRANSLATE_NOOP(
                    "ServeScope::Problem", "carries the API key: use api_key_env or keychain_entry") });
        // Never echoed: a value that is not a variable name is usually the secret itself.
        if (!isValidEnvironmentName(h.second))
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an environment variable name") });
        if (seen.contains(h.first.toLower()))
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is given twice") });
        seen.insert(h.first.toLower());
    }
}

void checkEnvAndServer(Checker &c, const Experiment &x)
{
    QSet<QString> keys;
    for (qsizetype i = 0; i < x.envSnapshot.size(); ++i) {
        const QString at = QStringLiteral("env_snapshot[%1]").arg(i);
        const QString &key = x.envSnapshot.at(i).key;
        if (key.trimmed().isEmpty())
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs a name") });
        else if (keys.contains(key))
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "repeats the name %1"), { key } });
        keys.insert(key);
    }
    const Server &s = x.server;
    static const QStringList engines { QStringLiteral("vllm"), QStringLiteral("sglang"), QStringLiteral("sim"),
        QStringLiteral("other") };
    if (!engines.contains(s.engine))
        c.error(QStringLiteral("server.engine"),
            Reason {
                QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of %1"), { engines.join(QLatin1String(", ")) } });
    for (const auto &arg : s.args.items()) {
        const QString path = QLatin1String("server.args.") + arg.first;
        const std::optional<VariableInfo> info = lookupVariable(path);
        if (!info)
            c.error(path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is not a valid flag name") });
        else if (const Reason reason = checkVariableValue(*info, arg.second); !reason.isEmpty())
            c.error(path, reason);
    }
    if (!s.launchArgv.isEmpty() && s.launchArgv.first().trimmed().isEmpty())
        c.error(QStringLiteral("server.launch.argv[0]"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must name a program") });
    static const QRegularExpression placeholder(QStringLiteral("\\{([^{}]*)\\}"));
    for (qsizetype i = 0; i < s.launchArgv.size(); ++i) {
        auto it = placeholder.globalMatch(s.launchArgv.at(i));
        while (it.hasNext()) {
            const QString name = it.next().captured(1);
            const bool known = name.startsWith(QLatin1String("server.args.")) && s.args.contains(name.mid(12));
            if (!known && !(name == QLatin1String("endpoint.model") || name == QLatin1String("port")))
                c.error(QStringLiteral("server.launch.argv[%1]").arg(i),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "placeholder {%1} names no server.args value"),
                        { name } });
        }
    }
    if (!s.dcgmUrl.isEmpty())
        checkUrl(c, QStringLiteral("server.dcgm_url"), s.dcgmUrl, { QStringLiteral("http"), QStringLiteral("https") });
    if (!s.launchArgv.isEmpty() && !s.readyPath.startsWith(QLatin1Char('/')))
        c.error(QStringLiteral("server.launch.ready"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a path starting with /") });
    c.finite(QStringLiteral("server.launch.ready_timeout_s"), s.readyTimeoutS, 0.1, 86400);
    c.range(QStringLiteral("server.gpus"), s.gpus, 0, 100000);
    c.finite(QStringLiteral("server.gpu_hour_price"), s.gpuHourPrice, 0, 1000000);
    static const QRegularExpression variable(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    for (const auto &[name, value] : s.launchEnv) {
        if (!variable.match(name).hasMatch())
            c.error(QLatin1String("server.launch.env.") + name,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is not an environment variable name") });
    }
}

void checkDatasetAndSampling(Checker &c, const Experiment &x)
{
    const Dataset &d = x.dataset;
    if (const Reason r = checkVariableValue(*lookupVariable(QStringLiteral("dataset.name")), d.name); !r.isEmpty())
        c.error(QStringLiteral("dataset.name"), r);
    c.atLeast(QStringLiteral("dataset.seed"), double(d.seed), 0);
    c.finite(QStringLiteral("dataset.range_ratio"), d.rangeRatio, 0, 0.999999);
    if ((d.name == QLatin1String("sharegpt") || d.name == QLatin1String("custom") || d.name == QLatin1String("trace"))
        && d.path.isEmpty())
        c.error(QStringLiteral("dataset.path"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required for the %1 dataset"), { d.name } });
    c.range(QStringLiteral("dataset.prefix_len"), d.prefixLen, 0, 10000000);
    c.range(QStringLiteral("dataset.groups"), d.groups, 1, 1000000);
    c.finite(QStringLiteral("dataset.zipf"), d.zipf, 0, 100);
    c.range(QStringLiteral("dataset.block_size"), d.blockSize, 1, 1000000);
    if (!d.traceFormat.isEmpty()
        && !QStringList { QStringLiteral("mooncake"), QStringLiteral("azure"), QStringLiteral("burstgpt") }.contains(
            d.traceFormat))
        c.error(QStringLiteral("dataset.trace_format"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be mooncake, azure or burstgpt (or left out)") });
    c.range(QStringLiteral("dataset.turns"), d.turns, 1, 1000);
    c.finite(QStringLiteral("dataset.think_time_s"), d.thinkTimeS, 0, 3600);
    // multi_turn: a session's next turn follows its answer, so sessions hold slots (closed loop) and need chat
    // messages to carry the conversation.
    if (d.name == QLatin1String("multi_turn")) {
        if (x.load.mode != LoadMode::Concurrency)
            c.error(QStringLiteral("load.mode"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                    "must be concurrency for the multi_turn dataset (concurrency counts sessions in flight)") });
        if (x.endpoint.api() != Api::Chat)
            c.error(QStringLiteral("endpoint.path"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                    "must name the chat completions API for the multi_turn dataset (its turns are chat messages)") });
    }
    // shared_prefix: every prompt is its group's prefix and a suffix of its own, at least one token.
    if (d.name == QLatin1String("shared_prefix")) {
        for (qsizetype i = 0; i < x.load.points.size(); ++i) {
            if (x.load.points.at(i).inputLen <= d.prefixLen)
                c.error(QStringLiteral("load.points[%1].input_len").arg(i),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                                 "must be greater than dataset.prefix_len (%1) for the shared_prefix dataset"),
                        { QString::number(d.prefixLen) } });
        }
    }
    for (const auto &param : x.sampling.items()) {
        const QString path = QLatin1String("sampling.") + param.first;
        const std::optional<VariableInfo> info = lookupVariable(path);
        if (!info)
            c.error(path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is not a valid parameter name") });
        else if (param.second.isNull())
            c.error(path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must have a value") });
        else if (const Reason reason = checkVariableValue(*info, param.second); !reason.isEmpty())
            c.error(path, reason);
    }
    static const QStringList reserved { QStringLiteral("model"), QStringLiteral("messages"), QStringLiteral("prompt"),
        QStringLiteral("stream"), QStringLiteral("stream_options"), QStringLiteral("max_tokens"),
        QStringLiteral("max_completion_tokens"), QStringLiteral("ignore_eos") };
    for (const QString &name : reserved) {
        if (x.sampling.contains(name))
            c.error(QLatin1String("sampling.") + name,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is set by ServeScope itself") });
    }
}

void checkPoint(Checker &c, LoadMode mode, const LoadPoint &p, const QString &at, bool fromFile, bool outputFromFile)
{
    if (mode == LoadMode::Concurrency) {
        c.range(at + QLatin1String(".concurrency"), p.concurrency, 1, 1048576);
        if (p.requestRate != 0)
            c.error(at + QLatin1String(".request_rate"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is only allowed when load.mode is rate") });
        if (p.maxConcurrency != 0)
            c.error(at + QLatin1String(".max_concurrency"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is only allowed when load.mode is rate") });
    } else {
        if (std::isnan(p.requestRate) || p.requestRate <= 0)
            c.error(at + QLatin1String(".request_rate"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be greater than 0 (or \"inf\")") });
        if (std::isnan(p.burstiness) || p.burstiness <= 0)
            c.error(at + QLatin1String(".burstiness"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be greater than 0 (or \"inf\")") });
        c.range(at + QLatin1String(".max_concurrency"), p.maxConcurrency, 0, 1048576);
        if (p.concurrency != 0)
            c.error(at + QLatin1String(".concurrency"),
                Reason { QT_TRANSLATE_NOOP(
                    "ServeScope::Problem", "is only allowed when load.mode is concurrency (use max_concurrency)") });
    }
    // custom and sharegpt prompts are the file's own (input_len 0 takes them as they are); a
    // sharegpt output_len of 0 is each conversation's reference completion length, as in vLLM.
    c.range(at + QLatin1String(".input_len"), p.inputLen, fromFile ? 0 : 1, 10000000);
    c.range(at + QLatin1String(".output_len"), p.outputLen, outputFromFile ? 0 : 1, 10000000);
    c.range(at + QLatin1String(".num_prompts"), p.numPrompts, 0, 100000000);
    c.finite(at + QLatin1String(".max_seconds"), p.maxSeconds, 0, 1e7);
    if (p.numPrompts == 0 && p.maxSeconds == 0)
        c.error(at,
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs a stop rule: num_prompts and/or max_seconds") });
    if (std::isinf(p.requestRate) && p.numPrompts == 0)
        c.error(at + QLatin1String(".num_prompts"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required with an infinite request_rate") });
    const int lanes = mode == LoadMode::Concurrency ? p.concurrency : 0; // open loop rarely fills its cap
    if (lanes > 0 && p.numPrompts > 0 && qint64(p.numPrompts) < 5 * qint64(lanes))
        c.warning(at + QLatin1String(".num_prompts"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                         "fewer than 5 x concurrency (%1) prompts; the point barely leaves its ramp"),
                { QString::number(5 * qint64(lanes)) } });
}

// An open-loop point sends its last request at num_prompts / request_rate (or stops at max_seconds): one planned
// to last over a day is a typo of the rate, not a benchmark (1e-8 req/s would wait for ever at "ETA ?").
void checkPlannedDuration(Checker &c, LoadMode mode, const LoadPoint &p, const QString &at, const QString &label)
{
    constexpr double kDaySeconds = 86400;
    if (mode != LoadMode::Rate || p.numPrompts <= 0 || !(p.requestRate > 0) || std::isinf(p.requestRate))
        return;
    double seconds = double(p.numPrompts) / p.requestRate;
    if (p.maxSeconds > 0)
        seconds = std::min(seconds, p.maxSeconds);
    if (seconds <= kDaySeconds)
        return;
    c.error(at + QLatin1String(".request_rate"),
        Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                     "plans point %1 to last %2 s (%3 prompts at %4 requests/s), longer than a day (86400 s): raise "
                     "request_rate, or lower num_prompts or max_seconds"),
            { label, formatNumber(seconds), QString::number(p.numPrompts), formatNumber(p.requestRate) } });
}

void checkCapacity(Checker &c, LoadMode mode, const CapacitySearch &s, bool fromFile, bool outputFromFile)
{
    const QString at = QStringLiteral("load.capacity");
    if (s.slos.isEmpty())
        c.error(at + QLatin1String(".slo"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs at least one SLO, e.g. p90_ttft_ms") });
    QSet<QString> keys;
    for (const Slo &slo : s.slos) {
        c.finite(at + QLatin1String(".slo.") + slo.key(), slo.maxMs, 1e-6, 1e9);
        if (keys.contains(slo.metric))
            c.error(at + QLatin1String(".slo.") + slo.key(),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "bounds %1 a second time"), { slo.metric } });
        keys.insert(slo.metric);
    }
    if (s.attainment != 0)
        c.finite(at + QLatin1String(".attainment"), s.attainment, 0.01, 1);
    const double floor = mode == LoadMode::Concurrency ? 1 : 1e-6;
    c.finite(at + QLatin1String(".start"), s.start, floor, 1048576);
    c.finite(at + QLatin1String(".max"), s.max, std::max(floor, s.start), 1048576);
    c.finite(at + QLatin1String(".resolution"), s.resolution, 0.001, 1);
    c.range(at + QLatin1String(".max_points"), s.maxPoints, 2, 100);
    c.range(at + QLatin1String(".max_repeats"), s.maxRepeats, 1, 20);
    c.finite(at + QLatin1String(".max_total_s"), s.maxTotalSeconds, 0, 1e7);
    c.range(at + QLatin1String(".prompts_per_level"), s.promptsPerLevel, 0, 1000000);
    if (s.point.numPrompts == 0 && s.promptsPerLevel == 0 && s.point.maxSeconds == 0)
        c.error(at,
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                "needs a stop rule for each level: num_prompts, prompts_per_level and/or max_seconds") });
    else
        checkPoint(c, mode, s.at(mode, s.start), at, fromFile, outputFromFile);
    // Its first level is its slowest: the rest of the search only raises the rate.
    checkPlannedDuration(c, mode, s.at(mode, s.start), at, QStringLiteral("r%1").arg(formatNumber(s.start)));
}

void checkLoad(Checker &c, const LoadMatrix &load, const Dataset &dataset)
{
    const bool trace = dataset.name == QLatin1String("trace");
    const bool outputFromFile = trace || dataset.name == QLatin1String("sharegpt");
    const bool fromFile = outputFromFile || dataset.name == QLatin1String("custom");
    // A trace sets every prompt's length and, in open loop, the gaps between requests (a capacity search's levels
    // too: they are made from its template).
    QList<std::pair<QString, LoadPoint>> replayed;
    for (qsizetype i = 0; trace && i < load.points.size(); ++i)
        replayed.append({ QStringLiteral("load.points[%1]").arg(i), load.points.at(i) });
    if (trace && load.capacity)
        replayed.append({ QStringLiteral("load.capacity"), load.capacity->point });
    for (const auto &[at, p] : std::as_const(replayed)) {
        if (p.inputLen != 0)
            c.error(at + QLatin1String(".input_len"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                    "must be left out for the trace dataset: the trace sets each prompt's length") });
        if (load.mode == LoadMode::Rate && p.burstiness != 1.0)
            c.error(at + QLatin1String(".burstiness"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                    "must be left out for the trace dataset: the trace's own gaps are replayed") });
    }
    if (load.capacity)
        checkCapacity(c, load.mode, *load.capacity, fromFile, outputFromFile);
    else if (load.points.isEmpty())
        c.error(QStringLiteral("load.points"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs at least one point") });
    QSet<QString> labels;
    Experiment tmp; // pointLabel() needs the mode and points only
    tmp.load = load;
    for (qsizetype i = 0; i < load.points.size(); ++i) {
        const QString at = QStringLiteral("load.points[%1]").arg(i);
        checkPoint(c, load.mode, load.points.at(i), at, fromFile, outputFromFile);
        const QString label = tmp.pointLabel(int(i));
        checkPlannedDuration(c, load.mode, load.points.at(i), at, label);
        if (labels.contains(label))
            c.error(at + QLatin1String(".label"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "repeats the point label %1"), { label } });
        labels.insert(label);
    }
    if (!load.gradient.isEmpty() && load.mode != LoadMode::Concurrency)
        c.error(QStringLiteral("load.concurrency_gradient"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs load.mode concurrency") });
    c.range(QStringLiteral("load.warmup_requests"), load.warmupRequests, 0, 10000000);
    c.finite(QStringLiteral("load.discard_ratio"), load.discardRatio, 0, 0.49);
    c.range(QStringLiteral("load.repeat"), load.repeat, 1, 1000);
    c.range(QStringLiteral("load.max_event_bytes"), load.maxEventBytes, 1024, 1 << 30);
    c.finite(QStringLiteral("load.stop_when_settled.width"), load.settle.width, 0, 1);
    c.range(QStringLiteral("load.stop_when_settled.min_requests"), load.settle.minRequests, 10, 100000000);
    if (load.settle.verdict && !load.capacity)
        c.error(QStringLiteral("load.stop_when_settled.verdict"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs load.mode capacity: only its levels have SLOs") });
    const Timeouts &t = load.timeouts;
    c.finite(QStringLiteral("load.timeouts.connect_s"), t.connectS, 0, 1e7);
    c.finite(QStringLiteral("load.timeouts.first_token_s"), t.firstTokenS, 0, 1e7);
    c.finite(QStringLiteral("load.timeouts.idle_s"), t.idleS, 0, 1e7);
    c.finite(QStringLiteral("load.timeouts.total_s"), t.totalS, 0, 1e7);
    // Only a first-token timeout the experiment sets: the default one simply yields to total_s.
    if (t.totalS > 0 && t.firstTokenS > t.totalS && t.firstTokenS != Timeouts().firstTokenS)
        c.warning(QStringLiteral("load.timeouts.first_token_s"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is longer than total_s") });
}

void checkMetrics(Checker &c, const MetricsConfig &m)
{
    if (m.percentiles.isEmpty())
        c.error(QStringLiteral("metrics.percentiles"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs at least one percentile") });
    for (qsizetype i = 0; i < m.percentiles.size(); ++i) {
        const double p = m.percentiles.at(i);
        const QString at = QStringLiteral("metrics.percentiles[%1]").arg(i);
        if (!std::isfinite(p) || p <= 0 || p > 100)
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be greater than 0 and at most 100") });
        else if (i > 0 && p <= m.percentiles.at(i - 1))
            c.error(at,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be greater than the previous percentile") });
    }
    static const QStringList metricNames { QStringLiteral("ttft"), QStringLiteral("tpot"), QStringLiteral("itl"),
        QStringLiteral("e2el") };
    for (qsizetype i = 0; i < m.percentileMetrics.size(); ++i) {
        const QString at = QStringLiteral("metrics.percentile_metrics[%1]").arg(i);
        if (!metricNames.contains(m.percentileMetrics.at(i)))
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of ttft, tpot, itl, e2el") });
        else if (m.percentileMetrics.indexOf(m.percentileMetrics.at(i)) < i)
            c.error(at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "repeats a metric") });
    }
    const std::pair<const char *, std::optional<double>> slos[] = {
        { "metrics.goodput.ttft_ms", m.goodput.ttftMs },
        { "metrics.goodput.tpot_ms", m.goodput.tpotMs },
        { "metrics.goodput.e2el_ms", m.goodput.e2elMs },
    };
    for (const auto &slo : slos) {
        if (slo.second && (!std::isfinite(*slo.second) || *slo.second <= 0))
            c.error(QString::fromLatin1(slo.first),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a positive number of milliseconds") });
    }
}

void checkVariants(Checker &c, const Experiment &x)
{
    if (x.variants.isEmpty()) {
        c.error(QStringLiteral("variants"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs at least one variant") });
        return;
    }
    QSet<QString> names;
    int baselines = 0;
    for (int i = 0; i < x.variants.size(); ++i) {
        const Variant &v = x.variants.at(i);
        const QString at = QStringLiteral("variants[%1]").arg(i);
        if (v.name.trimmed().isEmpty())
            c.error(at + QLatin1String(".name"), Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required") }, i);
        else if (names.contains(sanitizeName(v.name)))
            c.error(at + QLatin1String(".name"),
                Reason {
                    QT_TRANSLATE_NOOP("ServeScope::Problem", "repeats the variant name %1"), { sanitizeName(v.name) } },
                i);
        names.insert(sanitizeName(v.name));
        baselines += v.baseline ? 1 : 0;
        for (const auto &change : v.changes.items()) {
            const QString where = at + QLatin1String(".changes.") + change.first;
            const std::optional<VariableInfo> info = lookupVariable(change.first);
            if (!info)
                c.error(where, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is not a known variable") }, i);
            else if (const Reason reason = checkVariableValue(*info, change.second); !reason.isEmpty())
                c.error(where, reason, i);
        }
    }
    if (baselines > 1)
        c.error(QStringLiteral("variants"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "more than one variant is marked baseline") });
    if (hasErrors(c.problems))
        return; // resolving variants over broken input would only repeat the errors
    for (int i = 0; i < x.variants.size(); ++i) {
        const Experiment resolved = resolveVariant(x, i);
        Checker inner;
        checkEndpoint(inner, resolved.endpoint);
        checkEnvAndServer(inner, resolved);
        checkDatasetAndSampling(inner, resolved);
        checkLoad(inner, resolved.load, resolved.dataset);
        for (Problem p : std::as_const(inner.problems)) {
            if (!p.isError())
                continue;
            p.path = QStringLiteral("variants[%1] (resolved) ").arg(i) + p.path;
            p.variant = i;
            c.problems << p;
        }
        c.problems << variantWarnings(x, i);
    }
}

} // namespace

QList<Problem> validate(const Experiment &x)
{
    Checker c;
    if (x.name.trimmed().isEmpty())
        c.error(QStringLiteral("name"), Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required") });
    checkEndpoint(c, x.endpoint);
    checkEnvAndServer(c, x);
    checkDatasetAndSampling(c, x);
    checkLoad(c, x.load, x.dataset);
    checkMetrics(c, x.metrics);
    checkVariants(c, x);
    return c.problems;
}

bool isValidEnvironmentName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return name.size() <= 255 && re.match(name).hasMatch();
}

} // namespace ServeScope
