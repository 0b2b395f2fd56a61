// SPDX-License-Identifier: MIT
#include "metrics/aggregate.h"

#include "metrics/numpystats.h"

#include <limits>

namespace ServeScope {

namespace {

const Distribution *distributionByName(const PointSummary &s, QStringView m)
{
    if (m == QLatin1String("ttft"))
        return &s.ttft;
    if (m == QLatin1String("ttfc"))
        return &s.ttfc;
    if (m == QLatin1String("tpot"))
        return &s.tpot;
    if (m == QLatin1String("itl"))
        return &s.itl;
    if (m == QLatin1String("citl"))
        return &s.citl;
    if (m == QLatin1String("e2el") || m == QLatin1String("latency") || m == QLatin1String("e2e_latency"))
        return &s.e2el;
    return nullptr;
}

double distributionKey(const PointSummary &s, QStringView key)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (!key.endsWith(QLatin1String("_ms")))
        return nan;
    key.chop(3);
    const qsizetype us = key.indexOf(u'_');
    if (us <= 0)
        return nan;
    const QStringView stat = key.left(us);
    const Distribution *d = distributionByName(s, key.mid(us + 1));
    if (!d)
        return nan;
    if (stat == QLatin1String("mean"))
        return d->mean;
    if (stat == QLatin1String("median"))
        return d->median;
    if (stat == QLatin1String("std"))
        return d->std;
    if (stat.startsWith(u'p')) {
        bool ok = false;
        const double p = stat.mid(1).toDouble(&ok);
        return ok ? Stats::distributionPercentile(*d, p) : nan;
    }
    return nan;
}

} // namespace

double summaryValue(const PointSummary &s, QStringView key)
{
    const std::pair<const char *, double> scalars[] = {
        { "duration", s.duration },
        { "completed", s.completed },
        { "failed", s.failed },
        { "total_input_tokens", double(s.totalInputTokens) },
        { "total_output_tokens", double(s.totalOutputTokens) },
        { "request_throughput", s.requestThroughput },
        { "request_goodput", s.requestGoodput },
        { "output_throughput", s.outputThroughput },
        { "total_token_throughput", s.totalTokenThroughput },
        { "max_output_tokens_per_s", s.maxOutputTokensPerS },
        { "max_concurrent_requests", s.maxConcurrentRequests },
        { "concurrency", s.averageConcurrency },
        { "success_rate", s.successRate },
    };
    for (const auto &[name, v] : scalars) {
        if (key == QLatin1String(name))
            return v;
    }
    return distributionKey(s, key);
}

} // namespace ServeScope
