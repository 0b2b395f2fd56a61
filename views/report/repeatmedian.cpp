// SPDX-License-Identifier: MIT
#include "report/chartbuilders.h"

#include <QMap>

#include <algorithm>

namespace ServeScope::Report {

namespace {

double median(QList<double> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

template<typename T, typename Get> double medianOf(const QList<const T *> &items, Get get)
{
    QList<double> v;
    v.reserve(items.size());
    for (const T *item : items)
        v << double(get(*item));
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
        m.completed = m.failed = m.cancelled = 0;
        for (const PointSummary *p : g) {
            m.completed += p->completed;
            m.failed += p->failed;
            m.cancelled += p->cancelled;
        }
        for (Distribution PointSummary::*d : { &PointSummary::ttft, &PointSummary::ttfc, &PointSummary::tpot,
                 &PointSummary::itl, &PointSummary::citl, &PointSummary::e2el })
            m.*d = medianDistribution(g, d);
        out << m;
    }
    return out;
}

QList<RunSeriesInput> inputsPerVariant(const QString &runName, const QList<PointSummary> &points, int firstColour)
{
    QList<RunSeriesInput> out;
    for (const PointSummary &p : points) {
        auto it = std::find_if(
            out.begin(), out.end(), [&](const RunSeriesInput &r) { return r.points.first().variant == p.variant; });
        if (it == out.end()) {
            RunSeriesInput r;
            r.colour = defaultRunColour(firstColour + int(out.size()));
            r.points << p;
            out << r;
        } else {
            it->points << p;
        }
    }
    for (RunSeriesInput &r : out) {
        const QString v = r.points.first().variant;
        if (out.size() == 1 || v.isEmpty())
            r.name = runName.isEmpty() ? v : runName;
        else
            r.name = runName.isEmpty() ? v : runName + QStringLiteral(" / ") + v;
    }
    return out;
}

} // namespace ServeScope::Report
