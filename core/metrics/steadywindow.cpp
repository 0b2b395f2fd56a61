// SPDX-License-Identifier: MIT
#include "metrics/aggregate.h"

#include "model/clock.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

// First instant the number of requests in flight ([start, end), departures first) reaches target.
qint64 firstReach(std::span<const RequestRecord> records, int target, bool *found)
{
    std::vector<std::pair<qint64, int>> sweep;
    sweep.reserve(2 * records.size());
    for (const auto &r : records) {
        if (!r.measured())
            continue;
        sweep.push_back({ r.startNs, +1 });
        sweep.push_back({ std::max(r.endNs, r.startNs), -1 });
    }
    std::sort(sweep.begin(), sweep.end());
    int cur = 0;
    for (const auto &e : sweep) {
        cur += e.second;
        if (cur >= target) {
            *found = true;
            return e.first;
        }
    }
    *found = false;
    return 0;
}

} // namespace

SteadyResult steadyWindow(
    std::span<const RequestRecord> records, const AggregateOptions &opts, const SteadyOptions &steady)
{
    SteadyResult res;
    std::vector<qint64> starts;
    starts.reserve(records.size());
    for (const auto &r : records) {
        if (r.measured())
            starts.push_back(r.startNs);
    }
    if (starts.empty())
        return res;
    std::sort(starts.begin(), starts.end());
    res.firstStartNs = starts.front();
    if (steady.discardRatio > 0) {
        const auto drop = std::size_t(std::floor(double(starts.size()) * steady.discardRatio));
        if (2 * drop >= starts.size())
            return res;
        res.windowStartNs = starts[drop];
        res.windowEndNs = starts[starts.size() - 1 - drop];
    } else {
        bool found = false;
        res.windowStartNs = firstReach(records, std::max(1, steady.targetInFlight), &found);
        res.windowEndNs = starts.back(); // the last dispatch
        if (!found)
            return res;
    }
    if (res.windowEndNs <= res.windowStartNs)
        return res;
    res.windowSeconds = nsToSeconds(res.windowEndNs - res.windowStartNs);

    int endedInside = 0;
    for (const auto &r : records) {
        if (!r.measured())
            continue;
        const RequestMetrics m = deriveRequest(r, opts.profile);
        if (!m.counted || m.tokenEvents == 0)
            continue;
        if (r.endNs >= res.windowStartNs && r.endNs <= res.windowEndNs)
            ++endedInside;
        // A chunk may carry several tokens: each token event stands for an equal share of the output.
        const double perEvent = double(m.outputTokens) / m.tokenEvents;
        const qsizetype n = qMin(r.eventNs.size(), r.eventKinds.size());
        for (qsizetype i = 0; i < n; ++i) {
            const bool token = opts.profile == DefinitionsProfile::Vllm ? isTokenEvent(r.eventKinds.at(i))
                                                                        : isContentEvent(r.eventKinds.at(i));
            const qint64 t = r.startNs + r.eventNs.at(i);
            if (token && t >= res.windowStartNs && t <= res.windowEndNs)
                res.outputTokens += perEvent;
        }
    }
    res.outputThroughput = res.outputTokens / res.windowSeconds;
    res.requestThroughput = endedInside / res.windowSeconds;
    AggregateOptions window = opts; // the records that started inside, without a copy of them
    window.windowFromNs = res.windowStartNs;
    window.windowToNs = res.windowEndNs;
    res.point = aggregatePoint(records, window);
    res.valid = true;
    return res;
}

QMap<QString, double> steadyValues(const SteadyResult &steady)
{
    QMap<QString, double> v { { QStringLiteral("valid"), steady.valid ? 1.0 : 0.0 } };
    if (!steady.valid)
        return v;
    const PointSummary &s = steady.point.summary;
    v.insert(QStringLiteral("window_s"), steady.windowSeconds);
    // The window's edges from the point's first measured start, so a reader of the records or of a
    // result file's start_times can pick the requests the steady set holds.
    v.insert(QStringLiteral("window_open_s"), nsToSeconds(steady.windowStartNs - steady.firstStartNs));
    v.insert(QStringLiteral("window_close_s"), nsToSeconds(steady.windowEndNs - steady.firstStartNs));
    v.insert(QStringLiteral("output_throughput"), steady.outputThroughput);
    v.insert(QStringLiteral("request_throughput"), steady.requestThroughput);
    v.insert(QStringLiteral("completed"), double(s.completed));
    for (const DistributionField &f : distributionFields()) {
        const Distribution *d = &(s.*f.member);
        const QString suffix = u'_' + QLatin1String(f.code) + QLatin1String("_ms");
        v.insert(QLatin1String("mean") + suffix, d->mean);
        v.insert(QLatin1String("median") + suffix, d->median);
        const std::pair<const char *, double> ladder[] = { { "p1", d->p1 }, { "p10", d->p10 }, { "p25", d->p25 },
            { "p75", d->p75 }, { "p90", d->p90 }, { "p99", d->p99 } };
        for (const auto &[p, value] : ladder)
            v.insert(QLatin1String(p) + suffix, value);
    }
    return v;
}

std::optional<PointSummary> steadySummary(const PointSummary &summary)
{
    const QMap<QString, double> &v = summary.steady;
    if (v.value(QStringLiteral("valid")) != 1.0)
        return std::nullopt;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    PointSummary out = summary;
    out.outputThroughput = v.value(QStringLiteral("output_throughput"), nan);
    out.requestThroughput = v.value(QStringLiteral("request_throughput"), nan);
    out.totalTokenThroughput = nan; // the steady set counts output tokens only
    out.requestGoodput = -1;
    out.completed = int(v.value(QStringLiteral("completed")));
    for (const DistributionField &f : distributionFields()) {
        Distribution *d = &(out.*f.member);
        const QString suffix = u'_' + QLatin1String(f.code) + QLatin1String("_ms");
        const auto get = [&](const char *stat) { return v.value(QLatin1String(stat) + suffix, nan); };
        *d = Distribution {};
        d->count = out.completed;
        d->mean = get("mean");
        d->median = d->p50 = get("median");
        d->std = nan;
        d->p1 = get("p1");
        d->p10 = get("p10");
        d->p25 = get("p25");
        d->p75 = get("p75");
        d->p90 = get("p90");
        d->p99 = get("p99");
    }
    return out;
}

bool inSteadyWindow(const QMap<QString, double> &steady, double startSeconds)
{
    const auto open = steady.constFind(QStringLiteral("window_open_s"));
    const auto close = steady.constFind(QStringLiteral("window_close_s"));
    if (steady.value(QStringLiteral("valid")) != 1.0 || open == steady.cend() || close == steady.cend())
        return false;
    // Edges are request starts stored as seconds: half a microsecond absorbs their rounding.
    constexpr double slack = 5e-7;
    return startSeconds >= *open - slack && startSeconds <= *close + slack;
}

} // namespace ServeScope
