// SPDX-License-Identifier: MIT
#include "metrics/intervals.h"

#include "metrics/numpystats.h"

#include <algorithm>
#include <random>
#include <vector>

namespace ServeScope {

Interval bootstrapClusterMeanInterval(
    std::span<const double> sums, std::span<const double> counts, quint64 seed, int resamples, double level)
{
    Interval iv;
    const std::size_t n = std::min(sums.size(), counts.size());
    if (n == 0 || resamples < 2)
        return iv;
    std::mt19937_64 rng(seed);
    std::vector<double> means;
    means.reserve(static_cast<std::size_t>(resamples));
    for (int b = 0; b < resamples; ++b) {
        double s = 0, c = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t k = std::size_t(rng() % n);
            s += sums[k];
            c += counts[k];
        }
        means.push_back(c > 0 ? s / c : 0.0);
    }
    std::sort(means.begin(), means.end());
    const double tail = (1.0 - level) / 2 * 100;
    iv.low = Stats::percentileSorted(means, tail);
    iv.high = Stats::percentileSorted(means, 100 - tail);
    iv.valid = n >= 2;
    return iv;
}

namespace {

struct MetricSamples {
    const char *name;
    std::vector<double> values; // seconds, pooled
    std::vector<double> sums, counts; // per request, for the bootstrap
};

void addIntervals(QVector<QPair<QString, Interval>> &out, MetricSamples &m, const QVector<double> &percentiles,
    quint64 seed, int resamples)
{
    const QString suffix = u'_' + QLatin1String(m.name) + QLatin1String("_ms");
    auto ms = [](Interval iv) {
        iv.low *= 1000;
        iv.high *= 1000;
        return iv;
    };
    out.append({ QLatin1String("mean") + suffix, ms(bootstrapClusterMeanInterval(m.sums, m.counts, seed, resamples)) });
    std::sort(m.values.begin(), m.values.end());
    out.append({ QLatin1String("median") + suffix, ms(percentileInterval(m.values, 50)) });
    for (double p : percentiles)
        out.append({ u'p' + Stats::percentileKey(p) + suffix, ms(percentileInterval(m.values, p)) });
}

} // namespace

QVector<QPair<QString, Interval>> pointIntervals(
    std::span<const RequestRecord> pooled, const AggregateOptions &opts, quint64 seed, int resamples)
{
    MetricSamples ttft { "ttft", {}, {}, {} }, tpot { "tpot", {}, {}, {} }, itl { "itl", {}, {}, {} },
        e2el { "e2el", {}, {}, {} };
    std::vector<double> gaps;
    for (const auto &r : pooled) {
        if (r.warmup)
            continue;
        gaps.clear();
        const RequestMetrics m = deriveRequest(r, opts.profile, &gaps);
        if (!m.counted)
            continue;
        for (auto [s, v] : { std::pair { &ttft, m.ttft }, std::pair { &e2el, m.e2el } }) {
            s->values.push_back(v);
            s->sums.push_back(v);
            s->counts.push_back(1);
        }
        if (m.hasTpot) {
            tpot.values.push_back(m.tpot);
            tpot.sums.push_back(m.tpot);
            tpot.counts.push_back(1);
        }
        if (!gaps.empty()) {
            itl.values.insert(itl.values.end(), gaps.begin(), gaps.end());
            itl.sums.push_back(Stats::pairwiseSum(gaps));
            itl.counts.push_back(double(gaps.size()));
        }
    }
    const QVector<double> ps = opts.percentiles.isEmpty() ? QVector<double> { 50, 90, 99 } : opts.percentiles;
    QVector<QPair<QString, Interval>> out;
    quint64 s = seed;
    for (MetricSamples *m : { &ttft, &tpot, &itl, &e2el })
        addIntervals(out, *m, ps, s++, resamples);
    return out;
}

} // namespace ServeScope
