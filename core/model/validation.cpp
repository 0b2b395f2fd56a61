// SPDX-License-Identifier: MIT
#include "validation.h"
#include "validationchecker.h"

#include "model/variables.h"

#include <QRegularExpression>
#include <QSet>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace ServeScope {

using namespace Validation;

namespace {

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
