// SPDX-License-Identifier: MIT
#include "metrics/intervals.h"

#include "metrics/numpystats.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace ServeScope {

namespace {

// Two-sided standard normal quantile for a coverage level, by bisection on erfc.
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

Interval bootstrapClusterMeanInterval(
    std::span<const double> sums, std::span<const double> counts, quint64 seed, int resamples, double level)
{
    Interval iv;
    const std::size_t n = std::min(sums.size(), counts.size());
    if (n == 0 || resamples < 2)
        return iv;
    std::mt19937_64 rng(seed);
    std::vector<double> means;
    means.reserve(std::size_t(resamples));
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

} // namespace ServeScope
