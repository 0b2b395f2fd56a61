// SPDX-License-Identifier: MIT
#include "variables.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

using Getter = QJsonValue (*)(const Experiment &);
using Setter = void (*)(Experiment &, const QJsonValue &);

struct Accessor {
    const char *path;
    Getter get;
    Setter set;
};

QJsonValue numberValue(double d)
{
    return std::isinf(d) ? QJsonValue(QStringLiteral("inf")) : QJsonValue(d);
}

double toNumber(const QJsonValue &v)
{
    return v.isString() ? std::numeric_limits<double>::infinity() : v.toDouble();
}

QStringList toStringList(const QJsonValue &v)
{
    QStringList out;
    const QJsonArray a = v.toArray();
    for (const QJsonValue &item : a)
        out << item.toString();
    return out;
}

// A per-point field read as one value when all points agree, else as the list of values.
template<typename F> QJsonValue perPoint(const Experiment &x, F field)
{
    if (x.load.capacity) // every level is the search's point
        return field(x.load.capacity->point);
    QJsonArray values;
    for (const LoadPoint &p : x.load.points)
        values.append(field(p));
    if (values.isEmpty())
        return QJsonValue(QJsonValue::Undefined);
    for (const QJsonValue &value : std::as_const(values)) {
        if (value != values.first())
            return values;
    }
    return values.first();
}

#define STR(PATH, FIELD)                                                                                               \
    {                                                                                                                  \
        PATH, [](const Experiment &x) { return QJsonValue(x.FIELD); },                                                 \
            [](Experiment &x, const QJsonValue &v) { x.FIELD = v.toString(); }                                         \
    }
#define NUM(PATH, FIELD, TYPE)                                                                                         \
    {                                                                                                                  \
        PATH, [](const Experiment &x) { return numberValue(double(x.FIELD)); },                                        \
            [](Experiment &x, const QJsonValue &v) { x.FIELD = TYPE(toNumber(v)); }                                    \
    }
#define BOOLEAN(PATH, FIELD)                                                                                           \
    {                                                                                                                  \
        PATH, [](const Experiment &x) { return QJsonValue(x.FIELD); },                                                 \
            [](Experiment &x, const QJsonValue &v) { x.FIELD = v.toBool(); }                                           \
    }
#define POINT(PATH, FIELD, TYPE)                                                                                       \
    {                                                                                                                  \
        PATH,                                                                                                          \
            [](const Experiment &x) {                                                                                  \
                return perPoint(x, [](const LoadPoint &p) { return numberValue(double(p.FIELD)); });                   \
            },                                                                                                         \
            [](Experiment &x, const QJsonValue &v) {                                                                   \
                for (LoadPoint & p : x.load.points)                                                                    \
                    p.FIELD = TYPE(toNumber(v));                                                                       \
                if (x.load.capacity)                                                                                   \
                    x.load.capacity->point.FIELD = TYPE(toNumber(v));                                                  \
            }                                                                                                          \
    }

const Accessor kAccessors[] = {
    STR("endpoint.base_url", endpoint.baseUrl),
    STR("endpoint.path", endpoint.path),
    STR("endpoint.model", endpoint.model),
    { "endpoint.dialect", [](const Experiment &x) { return QJsonValue(dialectName(x.endpoint.dialect)); },
        [](Experiment &x, const QJsonValue &v) { parseDialect(v.toString(), &x.endpoint.dialect); } },
    { "endpoint.protocol", [](const Experiment &x) { return QJsonValue(protocolName(x.endpoint.protocol)); },
        [](Experiment &x, const QJsonValue &v) { parseProtocol(v.toString(), &x.endpoint.protocol); } },
    STR("endpoint.proxy", endpoint.proxy),
    STR("endpoint.api_key_env", endpoint.apiKeyEnv),
    STR("endpoint.keychain_entry", endpoint.keychainEntry),
    STR("server.engine", server.engine),
    { "server.launch.argv",
        [](const Experiment &x) { return QJsonValue(QJsonArray::fromStringList(x.server.launchArgv)); },
        [](Experiment &x, const QJsonValue &v) { x.server.launchArgv = toStringList(v); } },
    STR("server.launch.ready", server.readyPath),
    NUM("server.gpus", server.gpus, int),
    NUM("server.gpu_hour_price", server.gpuHourPrice, double),
    STR("dataset.name", dataset.name),
    NUM("dataset.seed", dataset.seed, qint64),
    BOOLEAN("dataset.ignore_eos", dataset.ignoreEos),
    NUM("dataset.range_ratio", dataset.rangeRatio, double),
    STR("dataset.path", dataset.path),
    NUM("dataset.prefix_len", dataset.prefixLen, int),
    NUM("dataset.groups", dataset.groups, int),
    NUM("dataset.zipf", dataset.zipf, double),
    STR("dataset.trace_format", dataset.traceFormat),
    NUM("dataset.block_size", dataset.blockSize, int),
    NUM("dataset.turns", dataset.turns, int),
    NUM("dataset.think_time_s", dataset.thinkTimeS, double),
    POINT("load.input_len", inputLen, int),
    POINT("load.output_len", outputLen, int),
    POINT("load.num_prompts", numPrompts, int),
    POINT("load.max_seconds", maxSeconds, double),
    POINT("load.concurrency", concurrency, int),
    POINT("load.request_rate", requestRate, double),
    POINT("load.burstiness", burstiness, double),
    POINT("load.max_concurrency", maxConcurrency, int),
    NUM("load.warmup_requests", load.warmupRequests, int),
    NUM("load.discard_ratio", load.discardRatio, double),
    NUM("load.repeat", load.repeat, int),
    BOOLEAN("load.reset_prefix_cache", load.resetPrefixCache),
    NUM("load.max_event_bytes", load.maxEventBytes, int),
    NUM("load.stop_when_settled.width", load.settle.width, double),
    NUM("load.stop_when_settled.min_requests", load.settle.minRequests, int),
    BOOLEAN("load.stop_when_settled.verdict", load.settle.verdict),
    NUM("load.timeouts.connect_s", load.timeouts.connectS, double),
    NUM("load.timeouts.first_token_s", load.timeouts.firstTokenS, double),
    NUM("load.timeouts.idle_s", load.timeouts.idleS, double),
    NUM("load.timeouts.total_s", load.timeouts.totalS, double),
};

#undef STR
#undef NUM
#undef BOOLEAN
#undef POINT

const Accessor *accessorFor(const QString &path)
{
    for (const Accessor &a : kAccessors) {
        if (path == QLatin1String(a.path))
            return &a;
    }
    return nullptr;
}

const QLatin1String kArgs("server.args.");
const QLatin1String kSampling("sampling.");
const QLatin1String kHeaders("endpoint.headers.");

} // namespace

QJsonValue readVariable(const Experiment &x, const QString &path)
{
    if (const Accessor *a = accessorFor(path))
        return a->get(x);
    if (path.startsWith(kArgs))
        return x.server.args.value(path.mid(kArgs.size()));
    if (path.startsWith(kSampling))
        return x.sampling.value(path.mid(kSampling.size()));
    if (path.startsWith(kHeaders)) {
        const QString name = path.mid(kHeaders.size());
        for (const auto &h : x.endpoint.headers) {
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        }
    }
    return QJsonValue(QJsonValue::Undefined);
}

static void setHeader(Endpoint &endpoint, const QString &name, const QJsonValue &value)
{
    for (qsizetype i = 0; i < endpoint.headers.size(); ++i) {
        if (endpoint.headers.at(i).first.compare(name, Qt::CaseInsensitive) == 0) {
            if (value.isNull())
                endpoint.headers.removeAt(i);
            else
                endpoint.headers[i].second = value.toString();
            return;
        }
    }
    if (!value.isNull())
        endpoint.headers.append({ name, value.toString() });
}

QString writeVariable(Experiment &x, const QString &path, const QJsonValue &value)
{
    const std::optional<VariableInfo> info = lookupVariable(path);
    if (!info)
        return QStringLiteral("unknown variable");
    if (const Reason reason = checkVariableValue(*info, value); !reason.isEmpty())
        return reason.text();
    if (const Accessor *a = accessorFor(path)) {
        a->set(x, value);
    } else if (path.startsWith(kArgs)) {
        if (value.isNull())
            x.server.args.remove(path.mid(kArgs.size()));
        else
            x.server.args.set(path.mid(kArgs.size()), value);
    } else if (path.startsWith(kSampling)) {
        if (value.isNull())
            x.sampling.remove(path.mid(kSampling.size()));
        else
            x.sampling.set(path.mid(kSampling.size()), value);
    } else if (path.startsWith(kHeaders)) {
        setHeader(x.endpoint, path.mid(kHeaders.size()), value);
    } else {
        return QStringLiteral("unknown variable");
    }
    return QString();
}

static void applyChanges(Experiment &x, const Variant &variant)
{
    for (const auto &change : variant.changes.items())
        writeVariable(x, change.first, change.second);
}

Experiment resolveVariant(const Experiment &experiment, int variantIndex)
{
    Experiment out = experiment;
    if (variantIndex < 0 || variantIndex >= experiment.variants.size())
        return out;
    const int base = experiment.baselineIndex();
    if (base != variantIndex)
        applyChanges(out, experiment.variants.at(base));
    applyChanges(out, experiment.variants.at(variantIndex));
    out.variants = { experiment.variants.at(variantIndex) };
    return out;
}

QList<VariableDifference> diffVariants(const Experiment &experiment, int variantIndex)
{
    QList<VariableDifference> out;
    const int base = experiment.baselineIndex();
    if (variantIndex < 0 || variantIndex >= experiment.variants.size() || base == variantIndex)
        return out;
    const Experiment a = resolveVariant(experiment, base);
    const Experiment b = resolveVariant(experiment, variantIndex);
    QStringList paths = experiment.variants.at(variantIndex).changes.names();
    for (const QString &p : experiment.variants.at(base).changes.names()) {
        if (!paths.contains(p))
            paths << p;
    }
    for (const QString &p : std::as_const(paths)) {
        const QJsonValue va = readVariable(a, p);
        const QJsonValue vb = readVariable(b, p);
        if (va != vb)
            out << VariableDifference { p, va, vb };
    }
    return out;
}

QList<Problem> variantWarnings(const Experiment &experiment, int variantIndex)
{
    QList<Problem> out;
    const QList<VariableDifference> diffs = diffVariants(experiment, variantIndex);
    const QString where = QStringLiteral("variants[%1]").arg(variantIndex);
    const Variant &variant = experiment.variants.at(variantIndex);
    if (diffs.size() > 1 && variant.reason.trimmed().isEmpty()) {
        QStringList paths;
        for (const VariableDifference &d : diffs)
            paths << d.path;
        out << Problem::of(where,
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "changes %1 variables (%2) without a reason"),
                { QString::number(diffs.size()), paths.join(QLatin1String(", ")) } },
            Severity::Warning, variantIndex);
    }
    const Experiment resolved = resolveVariant(experiment, variantIndex);
    if (resolved.endpoint.isLocalSimulator())
        return out;
    for (const VariableDifference &d : diffs) {
        if (!d.path.startsWith(kArgs) || d.variant.isUndefined())
            continue; // a removed flag needs no placeholder
        const QString at = where + QLatin1String(".changes.") + d.path;
        if (resolved.server.launchArgv.isEmpty()) {
            out << Problem::of(at,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                    "no server.launch.argv to apply it; the server must be restarted with it by hand") },
                Severity::Warning, variantIndex);
        } else if (!resolved.server.launchArgv.join(QLatin1Char(' '))
                        .contains(QLatin1Char('{') + d.path + QLatin1Char('}'))) {
            out << Problem::of(at,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "server.launch.argv has no {%1} placeholder"),
                    { d.path } },
                Severity::Warning, variantIndex);
        }
    }
    return out;
}

QString describeValue(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Undefined:
        return QStringLiteral("unset");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return formatNumber(value.toDouble());
    case QJsonValue::String:
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
    return QString();
}

} // namespace ServeScope
