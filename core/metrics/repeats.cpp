// SPDX-License-Identifier: MIT
#include "metrics/repeats.h"

#include "metrics/numpystats.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>
#include <vector>

namespace ServeScope {

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return Stats::medianSorted(v);
}

template<typename T, typename Get> double medianOf(const QList<const T *> &items, Get get)
{
    std::vector<double> v;
    v.reserve(std::size_t(items.size()));
    for (const T *item : items)
        v.push_back(double(get(*item)));
    return median(v);
}

Distribution medianDistribution(const QList<const PointSummary *> &group, Distribution PointSummary::*member)
{
    QList<const Distribution *> ds;
    for (const PointSummary *p : group)
        ds << &(p->*member);
    Distribution out = *ds.first();
    for (double Distribution::*field :
        { &Distribution::mean, &Distribution::median, &Distribution::std, &Distribution::p1, &Distribution::p10,
            &Distribution::p25, &Distribution::p50, &Distribution::p75, &Distribution::p90, &Distribution::p99 })
        out.*field = medianOf(ds, [field](const Distribution &d) { return d.*field; });
    out.count = int(medianOf(ds, [](const Distribution &d) { return d.count; }));
    return out;
}

} // namespace

QList<PointSummary> medianAcrossRepeats(const QList<PointSummary> &points)
{
    // Keyed by (run, variant, point) in first-seen order.
    QList<QList<const PointSummary *>> groups;
    QMap<std::tuple<qint64, QString, int>, qsizetype> index;
    for (const PointSummary &p : points) {
        const auto key = std::make_tuple(p.runId, p.variant, p.point);
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.insert(key, groups.size());
            groups.append(QList<const PointSummary *>());
        }
        groups[*it] << &p;
    }
    QList<PointSummary> out;
    out.reserve(groups.size());
    for (const auto &g : std::as_const(groups)) {
        PointSummary m = *g.first();
        m.repeat = int(g.size()); // number of repeats the median was taken over
        for (double PointSummary::*f : { &PointSummary::duration, &PointSummary::requestThroughput,
                 &PointSummary::outputThroughput, &PointSummary::totalTokenThroughput, &PointSummary::requestGoodput,
                 &PointSummary::averageConcurrency, &PointSummary::maxOutputTokensPerS, &PointSummary::successRate })
            m.*f = medianOf(g, [f](const PointSummary &p) { return p.*f; });
        m.maxConcurrentRequests = int(medianOf(g, [](const PointSummary &p) { return p.maxConcurrentRequests; }));
        // Counts are totals across repeats: one failed request in any repeat makes the point hollow.
        m.completed = m.failed = m.cancelled = m.outputEstimated = m.inputEstimated = m.rateLimited = 0;
        m.reasoningEstimated = 0;
        m.shortOutputs = -1;
        for (const PointSummary *p : g) {
            m.completed += p->completed;
            m.failed += p->failed;
            m.cancelled += p->cancelled;
            m.outputEstimated += p->outputEstimated;
            m.inputEstimated += p->inputEstimated;
            m.reasoningEstimated += p->reasoningEstimated;
            m.rateLimited += p->rateLimited;
            if (p->shortOutputs >= 0)
                m.shortOutputs = std::max(m.shortOutputs, 0) + p->shortOutputs;
        }
        m.roleGapMs = medianOf(g, [](const PointSummary &p) { return p.roleGapMs; });
        for (const DistributionField &f : distributionFields())
            m.*f.member = medianDistribution(g, f.member);
        // Sessions' turns: each figure's median across the repeats that have it; request counts are totals.
        std::map<QString, std::vector<double>> turns;
        for (const PointSummary *p : g) {
            for (auto it = p->turns.cbegin(); it != p->turns.cend(); ++it)
                turns[it.key()].push_back(it.value());
        }
        m.turns.clear();
        for (const auto &[key, values] : turns)
            m.turns.insert(key,
                key.endsWith(QLatin1String("_requests")) ? std::accumulate(values.begin(), values.end(), 0.0)
                                                         : median(values));
        out << m;
    }
    return out;
}

RepeatStat acrossRepeats(std::span<const double> perRepeat)
{
    std::vector<double> v;
    v.reserve(perRepeat.size());
    for (double x : perRepeat) {
        if (!std::isnan(x))
            v.push_back(x);
    }
    RepeatStat r;
    r.n = int(v.size());
    if (v.empty())
        return r;
    const double m = Stats::mean(v);
    const double sd = Stats::populationStd(v);
    std::sort(v.begin(), v.end());
    r.median = Stats::medianSorted(v);
    r.min = v.front();
    r.max = v.back();
    r.cv = m != 0 ? sd / std::abs(m) : 0.0;
    return r;
}

bool percentileUnreliable(qsizetype n, double p) noexcept
{
    if (p <= 0)
        return false;
    if (p >= 100)
        return true;
    // n < 10 / (1 - p/100), written as n * (100 - p) < 1000 with the tail rounded to 1e-9 so that
    // p90 needs exactly 100 samples and p99 exactly 1,000 (10 / 0.09999999999999998 is not 100).
    const double tail = std::round((100.0 - p) * 1e9) / 1e9;
    return double(n) * tail < 1000.0;
}

} // namespace ServeScope
