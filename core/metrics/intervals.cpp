// SPDX-License-Identifier: MIT
#include "metrics/intervals.h"

#include "metrics/numpystats.h"

#include <algorithm>
#include <cmath>
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

__extension__ typedef unsigned __int128 Uint128; // GCC and Clang; -pedantic accepts it marked so

// xoshiro256++ (Blackman and Vigna): a small, fast generator of full 64-bit words, its state filled
// from the seed by splitmix64 as its authors advise.
class Xoshiro256 {
public:
    explicit Xoshiro256(quint64 seed)
    {
        for (quint64 &s : m_s) {
            seed += 0x9e3779b97f4a7c15ULL;
            quint64 z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            s = z ^ (z >> 31);
        }
    }
    quint64 next() noexcept
    {
        const quint64 result = rotl(m_s[0] + m_s[3], 23) + m_s[0];
        const quint64 t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }
    /// Uniform in [0, n): the high word of a 64 x 64-bit product (Lemire), biased by at most n / 2^64.
    std::size_t below(std::size_t n) noexcept { return std::size_t((static_cast<Uint128>(next()) * n) >> 64); }

private:
    static quint64 rotl(quint64 x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
    quint64 m_s[4];
};

/// The order statistics of `values[0, n)` that bound the p-th percentile, selected in place and
/// converted by `value`.
template<typename T, typename Value>
Interval selectPercentileInterval(T *values, std::size_t count, double p, double level, Value value)
{
    Interval iv;
    if (count == 0)
        return iv;
    const auto n = double(count);
    const double q = std::clamp(p / 100.0, 0.0, 1.0);
    const double half = zForLevel(level) * std::sqrt(n * q * (1 - q));
    const double lo = std::floor(n * q - half), hi = std::ceil(n * q + half) + 1;
    iv.valid = lo >= 1 && hi <= n && half > 0;
    const auto clampRank = [&](double r) { return std::ptrdiff_t(std::clamp(r, 1.0, n)) - 1; };
    T *const end = values + count;
    T *const low = values + clampRank(lo);
    T *const high = values + clampRank(hi);
    std::nth_element(values, low, end);
    iv.low = value(*low);
    if (high > low)
        std::nth_element(low + 1, high, end);
    iv.high = value(*high);
    return iv;
}

} // namespace

Interval percentileInterval(std::vector<double> &values, double p, double level)
{
    return selectPercentileInterval(values.data(), values.size(), p, level, [](double v) { return v; });
}

Interval percentileInterval(NsList &values, double p, double (*value)(qint64), double level)
{
    if (quint32 *narrow = values.narrowData())
        return selectPercentileInterval(
            narrow, std::size_t(values.size()), p, level, [value](quint32 ns) { return value(qint64(ns)); });
    std::vector<qint64> wide(values.begin(), values.end());
    values.clear();
    return selectPercentileInterval(wide.data(), wide.size(), p, level, value);
}

Interval bootstrapClusterMeanInterval(
    std::span<const double> sums, std::span<const double> counts, quint64 seed, int resamples, double level)
{
    Interval iv;
    const std::size_t n = std::min(sums.size(), counts.size());
    if (n == 0 || resamples < 2)
        return iv;
    Xoshiro256 rng(seed);
    std::vector<double> means;
    means.reserve(std::size_t(resamples));
    for (int b = 0; b < resamples; ++b) {
        double s = 0, c = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t k = rng.below(n);
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

Interval linearizedClusterMeanInterval(std::span<const double> sums, std::span<const double> counts, double level)
{
    Interval iv;
    const std::size_t n = std::min(sums.size(), counts.size());
    if (n < 2)
        return iv;
    double s = 0, c = 0;
    for (std::size_t i = 0; i < n; ++i) {
        s += sums[i];
        c += counts[i];
    }
    if (!(c > 0))
        return iv;
    const double ratio = s / c;
    double squares = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double d = sums[i] - ratio * counts[i];
        squares += d * d;
    }
    const double meanCount = c / double(n);
    const double se = std::sqrt(squares / (double(n) * double(n - 1))) / meanCount;
    const double half = zForLevel(level) * se;
    iv.low = ratio - half;
    iv.high = ratio + half;
    iv.valid = true;
    return iv;
}

Interval clusterMeanInterval(
    std::span<const double> sums, std::span<const double> counts, quint64 seed, const char **method)
{
    const bool linear = std::min(sums.size(), counts.size()) >= kLinearizedFromClusters;
    if (method)
        *method = linear ? "normal" : "bootstrap";
    return linear ? linearizedClusterMeanInterval(sums, counts) : bootstrapClusterMeanInterval(sums, counts, seed);
}

namespace {

// The regularised incomplete beta function I_x(a, b) by its continued fraction (modified Lentz).
double incompleteBeta(double x, double a, double b)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double front
        = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    if (x > (a + 1) / (a + b + 2))
        return 1 - incompleteBeta(1 - x, b, a);
    constexpr double tiny = 1e-300;
    double f = 1, c = 1, d = 0;
    for (int i = 0; i <= 400; ++i) {
        const int m = i / 2;
        double numerator;
        if (i == 0)
            numerator = 1;
        else if (i % 2 == 0)
            numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        else
            numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        d = 1 + numerator * d;
        d = std::abs(d) < tiny ? tiny : d;
        d = 1 / d;
        c = 1 + numerator / c;
        c = std::abs(c) < tiny ? tiny : c;
        const double step = c * d;
        f *= step;
        if (std::abs(1 - step) < 1e-14)
            break;
    }
    return front * (f - 1) / a;
}

double studentTCdf(double t, double df)
{
    const double tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
    return t >= 0 ? 1 - tail : tail;
}

} // namespace

double studentTQuantile(double p, double df)
{
    if (p == 0.5)
        return 0;
    if (p < 0.5)
        return -studentTQuantile(1 - p, df);
    double low = 0, high = 1;
    while (studentTCdf(high, df) < p && high < 1e12)
        high *= 2;
    for (int i = 0; i < 200 && high - low > 1e-10 * std::max(1.0, high); ++i) {
        const double mid = (low + high) / 2;
        (studentTCdf(mid, df) < p ? low : high) = mid;
    }
    return (low + high) / 2;
}

} // namespace ServeScope
