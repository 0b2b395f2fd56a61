// SPDX-License-Identifier: MIT
#include "metrics/schedulerlog.h"

#include <QMap>

#include <cmath>

namespace ServeScope {

namespace {

/// `Key: value unit, Key: value unit, ...` by key; a value is its first word, read
/// in the C locale with a trailing `%` or `.` dropped. A field whose value is not a number is left out.
QMap<QString, double> fields(QStringView text)
{
    QMap<QString, double> out;
    for (QStringView field : text.split(u',')) {
        const qsizetype colon = field.lastIndexOf(u':');
        if (colon <= 0)
            continue;
        const QStringView key = field.first(colon).trimmed();
        QStringView value = field.sliced(colon + 1).trimmed();
        if (const qsizetype space = value.indexOf(u' '); space >= 0)
            value = value.first(space);
        while (value.endsWith(u'.') || value.endsWith(u'%'))
            value.chop(1);
        bool ok = false;
        const double v = value.toDouble(&ok);
        if (ok && std::isfinite(v))
            out.insert(key.toString(), v);
    }
    return out;
}

void add(QList<ServerSample> *out, qint64 timeNs, const char *name, double value)
{
    out->append({ timeNs, QLatin1String(name), QStringLiteral(""), value });
}

QList<ServerSample> vllmLine(QStringView line, qsizetype at, qint64 timeNs)
{
    const QMap<QString, double> f = fields(line.sliced(at));
    QList<ServerSample> out;
    const auto running = f.constFind(QStringLiteral("Running"));
    if (running == f.cend())
        return out;
    add(&out, timeNs, "vllm:num_requests_running", *running);
    for (const char *waiting : { "Waiting", "Pending" }) {
        if (const auto it = f.constFind(QLatin1String(waiting)); it != f.cend()) {
            add(&out, timeNs, "vllm:num_requests_waiting", *it);
            break;
        }
    }
    if (const auto it = f.constFind(QStringLiteral("GPU KV cache usage")); it != f.cend())
        add(&out, timeNs, "vllm:kv_cache_usage_perc", *it / 100);
    if (const auto it = f.constFind(QStringLiteral("Prefix cache hit rate")); it != f.cend())
        add(&out, timeNs, "vllm:gpu_prefix_cache_hit_rate", *it / 100);
    return out;
}

QList<ServerSample> sglangLine(QStringView line, qsizetype at, bool prefill, qint64 timeNs)
{
    // The fields follow the first ". " after the batch word ("Prefill batch(mixed ...). #new-seq: ...").
    const qsizetype dot = line.indexOf(QLatin1String(". "), at);
    if (dot < 0)
        return {};
    const QMap<QString, double> f = fields(line.sliced(dot + 2));
    QList<ServerSample> out;
    const auto running = f.constFind(QStringLiteral("#running-req"));
    const auto queue = f.constFind(QStringLiteral("#queue-req"));
    if (running == f.cend() || queue == f.cend())
        return out;
    add(&out, timeNs, "sglang:num_running_reqs", *running);
    add(&out, timeNs, "sglang:num_queue_reqs", *queue);
    // Hybrid (sliding-window) models report both pools; /metrics gives the fuller one.
    double usage = -1;
    for (const char *key : { "token usage", "full token usage", "swa token usage" })
        usage = std::max(usage, f.value(QLatin1String(key), -1));
    if (usage >= 0)
        add(&out, timeNs, "sglang:token_usage", usage);
    if (prefill) {
        const double fresh = f.value(QStringLiteral("#new-token"), -1),
                     cached = f.value(QStringLiteral("#cached-token"), -1);
        if (fresh >= 0 && cached >= 0 && fresh + cached > 0)
            add(&out, timeNs, "sglang:cache_hit_rate", cached / (fresh + cached));
    }
    return out;
}

} // namespace

QList<ServerSample> parseSchedulerLogLine(QStringView line, qint64 timeNs)
{
    if (const qsizetype at = line.indexOf(QLatin1String("Avg prompt throughput:")); at >= 0)
        return vllmLine(line, at, timeNs);
    if (const qsizetype at = line.indexOf(QLatin1String("Prefill batch")); at >= 0)
        return sglangLine(line, at, true, timeNs);
    if (const qsizetype at = line.indexOf(QLatin1String("Decode batch")); at >= 0)
        return sglangLine(line, at, false, timeNs);
    return {};
}

} // namespace ServeScope
