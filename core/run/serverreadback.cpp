// SPDX-License-Identifier: MIT
#include "serverreadback.h"

#include "run/endpointcalls.h"
#include "run/runtext.h"
#include "workload/promptgen.h"

#include <QHostAddress>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>

namespace ServeScope {

namespace {

/// server.args names (vLLM's and SGLang's) of each read-back setting, by its vLLM name.
struct Setting {
    const char *vllm;
    const char *sglang;
};
constexpr Setting kSettings[] = { { "max_num_seqs", "max_running_requests" }, { "max_model_len", "context_length" },
    { "max_num_batched_tokens", "chunked_prefill_size" }, { "block_size", "page_size" },
    { "enable_prefix_caching", nullptr }, { "max_prefill_tokens", "max_prefill_tokens" },
    { "mem_fraction_static", "mem_fraction_static" } };

QString render(const QJsonValue &v)
{
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble()) {
        const double d = v.toDouble();
        return d == qint64(d) ? QString::number(qint64(d)) : QString::number(d, 'g', QLocale::FloatingPointShortest);
    }
    return v.toString();
}

void put(EffectiveConfig *out, const QString &name, const QString &value, const char *source)
{
    if (value.isEmpty() || out->values.contains(name))
        return;
    out->values.insert(name, value);
    out->sources.insert(name, QString::fromLatin1(source));
}

/// Equal as numbers when both are, as booleans when both read as one, else as text.
bool sameValue(const QString &a, const QString &b)
{
    bool okA = false, okB = false;
    const double x = a.toDouble(&okA), y = b.toDouble(&okB);
    if (okA && okB)
        return qAbs(x - y) <= 1e-9 * qMax(1.0, qAbs(x));
    const auto boolean = [](const QString &s) { return s.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0; };
    return a.compare(b, Qt::CaseInsensitive) == 0 || (boolean(a) && boolean(b));
}

} // namespace

void readServerInfo(const QByteArray &json, EffectiveConfig *out)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    for (const Setting &s : kSettings) {
        if (s.sglang && o.contains(QLatin1String(s.sglang)) && !o.value(QLatin1String(s.sglang)).isNull())
            put(out, QString::fromLatin1(s.vllm), render(o.value(QLatin1String(s.sglang))), "/get_server_info");
    }
    if (o.contains(QLatin1String("disable_radix_cache")))
        put(out, QStringLiteral("enable_prefix_caching"),
            o.value(QLatin1String("disable_radix_cache")).toBool() ? QStringLiteral("false") : QStringLiteral("true"),
            "/get_server_info");
}

void readModelsInfo(const QByteArray &json, EffectiveConfig *out)
{
    const QJsonArray data = QJsonDocument::fromJson(json).object().value(QLatin1String("data")).toArray();
    if (!data.isEmpty() && data.first().toObject().contains(QLatin1String("max_model_len")))
        put(out, QStringLiteral("max_model_len"), render(data.first().toObject().value(QLatin1String("max_model_len"))),
            "/v1/models");
}

void readMetricsInfo(const QByteArray &text, EffectiveConfig *out)
{
    static const QRegularExpression label(QStringLiteral("([A-Za-z_][A-Za-z0-9_]*)=\"([^\"]*)\""));
    for (const QByteArray &raw : text.split('\n')) {
        const bool cache = raw.startsWith("vllm:cache_config_info{");
        if (!cache && !raw.startsWith("servescope_sim:scheduler_config_info{"))
            continue;
        const QString line = QString::fromUtf8(raw);
        auto it = label.globalMatch(line.left(line.lastIndexOf(QLatin1Char('}'))));
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            const QString name = m.captured(1);
            // Only the settings server.args can name; the cache info has many more labels.
            for (const Setting &s : kSettings) {
                if (name == QLatin1String(s.vllm))
                    put(out, name, m.captured(2), "/metrics");
            }
        }
    }
}

EffectiveConfig readEffectiveConfig(EndpointCalls &calls)
{
    EffectiveConfig config;
    if (const QByteArray info = calls.get(QStringLiteral("/get_server_info")); !info.isNull())
        readServerInfo(info, &config);
    if (const QByteArray models = calls.get(QStringLiteral("/v1/models")); !models.isNull())
        readModelsInfo(models, &config);
    if (const QByteArray metrics = calls.get(QStringLiteral("/metrics")); !metrics.isNull())
        readMetricsInfo(metrics, &config);
    return config;
}

QStringList configMismatches(const OrderedValues &args, const EffectiveConfig &config)
{
    QStringList out;
    for (const Setting &s : kSettings) {
        const QString effective = config.values.value(QString::fromLatin1(s.vllm));
        if (effective.isEmpty())
            continue;
        for (const char *name : { s.vllm, s.sglang }) {
            if (!name || (name == s.sglang && qstrcmp(s.sglang, s.vllm) == 0) || !args.contains(QLatin1String(name)))
                continue;
            const QJsonValue wanted = args.value(QLatin1String(name));
            if (wanted.isNull() || wanted.isUndefined() || sameValue(render(wanted), effective))
                continue;
            out << QStringLiteral("server.args.%1 is %2 but the server runs with %3 (%4)")
                       .arg(QLatin1String(name), render(wanted), effective,
                           config.sources.value(QString::fromLatin1(s.vllm)));
        }
    }
    return out;
}

bool checkLaunchedConfig(const Experiment &resolved, EndpointCalls &calls, QString *info, QString *error)
{
    const EffectiveConfig config = readEffectiveConfig(calls);
    QStringList read;
    for (auto it = config.values.cbegin(); it != config.values.cend(); ++it)
        read << QStringLiteral("%1 %2 (%3)").arg(it.key(), it.value(), config.sources.value(it.key()));
    *info = read.isEmpty() ? RunText::tr("the launched server reports none of its settings: nothing to check")
                           : RunText::tr("the launched server runs with %1").arg(read.join(QLatin1String(", ")));
    const QStringList mismatches = configMismatches(resolved.server.args, config);
    if (mismatches.isEmpty())
        return true;
    *error = RunText::tr("the launched server does not run with the variant's settings: %1; "
                         "stopping the run (is a {server.args.NAME} placeholder missing from "
                         "server.launch.argv?)")
                 .arg(mismatches.join(QLatin1String("; ")));
    return false;
}

QStringList missingRouteWarnings(const Experiment &resolved, EndpointCalls &calls, const QString &base)
{
    QStringList out;
    if (PromptGenerator(resolved).wantsTokenCounts() && !calls.hasTokenize())
        out << RunText::tr("%1 has no /tokenize: text prompts are sized by three max_tokens 1 calibration requests "
                           "that read usage.prompt_tokens, and without usage in the stream input counts are "
                           "estimates")
                   .arg(base);
    if (resolved.load.warmupRequests > 0 && !calls.hasRunningMetric())
        out << RunText::tr("%1 has no /metrics with vllm:num_requests_running or sglang:num_running_reqs: after "
                           "warmup the measured clock starts at once, without waiting for the server to drain")
                   .arg(base);
    return out;
}

QString sharedHostWarning(const Experiment &resolved, const QUrl &base)
{
    if (resolved.endpoint.isLocalSimulator())
        return {};
    const QString host = base.host();
    if (host != QLatin1String("localhost") && !QHostAddress(host).isLoopback())
        return {};
    return RunText::tr("the server at %1 runs on this host and shares its CPUs with the client; see the "
                       "dispatch lag and client CPU of each point (client-limited)")
        .arg(base.toString());
}

bool reviewEndpoint(const Experiment &resolved, EndpointCalls &calls, const QUrl &base, bool launched, bool firstVisit,
    const std::function<void(const QString &, const QString &)> &say, QString *error)
{
    if (launched) {
        QString info;
        const bool same = checkLaunchedConfig(resolved, calls, &info, error);
        say(QStringLiteral("info"), info);
        if (!same)
            return false;
    }
    if (firstVisit) {
        for (const QString &warning : missingRouteWarnings(resolved, calls, base.toString()))
            say(QStringLiteral("warning"), warning);
    }
    // A server on this host takes CPU from the client; the client-health columns say how much it mattered.
    if (const QString shared = sharedHostWarning(resolved, base); !shared.isEmpty())
        say(QStringLiteral("warning"), shared);
    return true;
}

} // namespace ServeScope
