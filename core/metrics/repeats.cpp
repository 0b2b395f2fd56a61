// SPDX-License-Identifier: MIT
#include "metrics/repeats.h"

#include "metrics/aggregate.h"
#include "metrics/numpystats.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace ServeScope {

namespace {

// Two-sided standard normal quantile for the usual levels; others by bisection on erfc.
double zForLevel(double level)
{
    const double alpha = 1.0 - level;
    double lo = 0, hi = 10;
    for (int i = 0; i < 200; ++i) {
        const double mid = (lo + hi) / 2;
        (std::erfc(mid / std::sqrt(2.0)) > alpha ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

} // namespace

RepeatStat acrossRepeats(std::span<const double> perRepeat)
{
    RepeatStat r;
    r.n = int(perRepeat.size());
    if (perRepeat.empty())
        return r;
    std::vector<double> v(perRepeat.begin(), perRepeat.end());
    const double m = Stats::mean(v);
    const double sd = Stats::populationStd(v);
    std::sort(v.begin(), v.end());
    r.median = Stats::medianSorted(v);
    r.min = v.front();
    r.max = v.back();
    r.cv = m != 0 ? sd / std::abs(m) : 0.0;
    return r;
}

RepeatStat acrossRepeats(std::span<const PointSummary> repeats, QStringView key)
{
    std::vector<double> v;
    v.reserve(repeats.size());
    for (const auto &s : repeats)
        v.push_back(summaryValue(s, key));
    return acrossRepeats(v);
}

Interval percentileInterval(std::span<const double> sorted, double p, double level)
{
    Interval iv;
    const auto n = double(sorted.size());
    if (sorted.empty())
        return iv;
    const double q = std::clamp(p / 100.0, 0.0, 1.0);
    const double half = zForLevel(level) * std::sqrt(n * q * (1 - q));
    // 1-based ranks of the bracketing order statistics.
    const double lo = std::floor(n * q - half), hi = std::ceil(n * q + half) + 1;
    iv.valid = lo >= 1 && hi <= n && half > 0;
    const auto clampRank = [&](double r) { return std::size_t(std::clamp(r, 1.0, n)) - 1; };
    iv.low = sorted[clampRank(lo)];
    iv.high = sorted[clampRank(hi)];
    return iv;
}

Interval bootstrapMeanInterval(std::span<const double> values, quint64 seed, int resamples, double level)
{
    Interval iv;
    const std::size_t n = values.size();
    if (n == 0 || resamples < 2)
        return iv;
    std::mt19937_64 rng(seed);
    std::vector<double> means(static_cast<std::size_t>(resamples));
    for (auto &m : means) {
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i)
            sum += values[std::size_t(rng() % n)];
        m = sum / double(n);
    }
    std::sort(means.begin(), means.end());
    const double tail = (1.0 - level) / 2 * 100;
    iv.low = Stats::percentileSorted(means, tail);
    iv.high = Stats::percentileSorted(means, 100 - tail);
    iv.valid = n >= 2;
    return iv;
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
