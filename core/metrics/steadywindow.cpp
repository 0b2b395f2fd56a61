// SPDX-License-Identifier: MIT
#include "metrics/aggregate.h"

#include "model/clock.h"

#include <algorithm>
#include <cmath>

namespace ServeScope {

namespace {

bool measured(const RequestRecord &r)
{
    return !r.warmup && r.status != RequestStatus::Cancelled;
}

// First instant the number of requests in flight ([start, end), departures first) reaches target.
qint64 firstReach(std::span<const RequestRecord> records, int target, bool *found)
{
    std::vector<std::pair<qint64, int>> sweep;
    sweep.reserve(2 * records.size());
    for (const auto &r : records) {
        if (!measured(r))
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
        if (measured(r))
            starts.push_back(r.startNs);
    }
    if (starts.empty())
        return res;
    std::sort(starts.begin(), starts.end());
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

    std::vector<RequestRecord> inside;
    int endedInside = 0;
    for (const auto &r : records) {
        if (!measured(r))
            continue;
        if (r.startNs >= res.windowStartNs && r.startNs <= res.windowEndNs)
            inside.push_back(r); // implicitly shared: no deep copy of events
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
    res.point = aggregatePoint(inside, opts);
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
    v.insert(QStringLiteral("output_throughput"), steady.outputThroughput);
    v.insert(QStringLiteral("request_throughput"), steady.requestThroughput);
    v.insert(QStringLiteral("completed"), double(s.completed));
    const std::pair<const char *, const Distribution *> metrics[]
        = { { "ttft", &s.ttft }, { "tpot", &s.tpot }, { "itl", &s.itl }, { "e2el", &s.e2el } };
    for (const auto &[name, d] : metrics) {
        const QString suffix = u'_' + QLatin1String(name) + QLatin1String("_ms");
        v.insert(QLatin1String("mean") + suffix, d->mean);
        v.insert(QLatin1String("median") + suffix, d->median);
        v.insert(QLatin1String("p90") + suffix, d->p90);
        v.insert(QLatin1String("p99") + suffix, d->p99);
    }
    return v;
}

} // namespace ServeScope
