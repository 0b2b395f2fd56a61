// SPDX-License-Identifier: MIT
#include "metrics/numpystats.h"

#include "model/clock.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace ServeScope::Stats {

namespace {
const double Ladder[] = { 1, 10, 25, 50, 75, 90, 99 };

constexpr std::size_t PwBlockSize = 128;

// numpy's pairwise sum of value(a[i]): a plain loop below 8 values, eight accumulators up to 128,
// otherwise split at a multiple of 8. `value` maps an element to the double numpy would hold (itself,
// its squared deviation, the seconds of a nanosecond count), so no mapped array is materialised.
template<typename T, typename Value> double pairwise(const T *a, std::size_t n, const Value &value) noexcept
{
    if (n < 8) {
        double res = 0.;
        for (std::size_t i = 0; i < n; ++i)
            res += value(a[i]);
        return res;
    }
    if (n <= PwBlockSize) {
        double r[8];
        for (int j = 0; j < 8; ++j)
            r[j] = value(a[j]);
        std::size_t i = 8;
        for (; i < n - (n % 8); i += 8) {
            for (int j = 0; j < 8; ++j)
                r[j] += value(a[i + j]);
        }
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i)
            res += value(a[i]);
        return res;
    }
    std::size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise(a, n2, value) + pairwise(a + n2, n - n2, value);
}

const auto identity = [](double x) { return x; };
// What nsToSeconds gives for a count that fits in 32 bits.
const auto seconds = [](quint32 ns) { return double(ns) / 1e9; };
} // namespace

namespace {
// numpy's add.reduce runs its inner loop over buffers of 8,192 elements: the accumulator starts at
// the identity 0.0 and adds each buffer's pairwise sum in turn.
constexpr std::size_t kReduceBuffer = 8192;

template<typename BlockSum> double reduceInBuffers(std::size_t n, BlockSum blockSum) noexcept
{
    double acc = 0.0;
    for (std::size_t offset = 0; offset < n; offset += kReduceBuffer)
        acc += blockSum(offset, std::min(kReduceBuffer, n - offset));
    return acc;
}
} // namespace

namespace {
// np.add.reduce of value(a[i]) over n elements.
template<typename T, typename Value> double reduce(const T *a, std::size_t n, const Value &value) noexcept
{
    return reduceInBuffers(n, [&](std::size_t off, std::size_t len) { return pairwise(a + off, len, value); });
}

// np.std with ddof 0 of value(a[i]).
template<typename T, typename Value> double stdOf(const T *a, std::size_t n, const Value &value) noexcept
{
    if (n == 0)
        return 0.0;
    const double m = reduce(a, n, value) / double(n);
    const double squares = reduce(a, n, [m, &value](T x) {
        const double d = value(x) - m;
        return d * d;
    });
    return std::sqrt(squares / double(n));
}
} // namespace

double pairwiseSum(std::span<const double> values) noexcept
{
    return reduce(values.data(), values.size(), identity);
}

double mean(std::span<const double> values) noexcept
{
    if (values.empty())
        return 0.0;
    return pairwiseSum(values) / double(values.size());
}

double populationStd(std::span<const double> values) noexcept
{
    return stdOf(values.data(), values.size(), identity);
}

namespace {
// numpy's linear method: h = (n - 1) * q, i = floor(h) clamped to the data.
std::size_t lowerIndex(std::size_t n, double p, double *t) noexcept
{
    const double h = double(n - 1) * (p / 100.0);
    const double fi = std::floor(h);
    std::size_t i = fi <= 0 ? 0 : std::size_t(fi);
    if (i > n - 1)
        i = n - 1;
    if (t)
        *t = h - double(i);
    return i;
}

// Puts the order statistics that the percentiles and the median read at their sorted positions
// (nth_element on shrinking ranges): cheaper than sorting millions of pooled ITL gaps.
template<typename T> void selectOrderStatistics(T *v, std::size_t n, std::span<const double> percentiles)
{
    std::vector<std::size_t> idx { n / 2, n / 2 - (n % 2 == 0 ? 1 : 0) };
    for (double p : percentiles) {
        const std::size_t i = lowerIndex(n, p, nullptr);
        idx.push_back(i);
        idx.push_back(std::min(i + 1, n - 1));
    }
    std::sort(idx.begin(), idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
    std::size_t lo = 0;
    for (std::size_t i : idx) {
        std::nth_element(v + lo, v + i, v + n);
        lo = i + 1;
    }
}
} // namespace

namespace {
template<typename T, typename Value> double percentileOf(const T *sorted, std::size_t n, double p, const Value &value)
{
    if (n == 0)
        return 0.0;
    double t = 0;
    const std::size_t i = lowerIndex(n, p, &t);
    const double a = value(sorted[i]);
    const double b = value(sorted[std::min(i + 1, n - 1)]);
    const double diff = b - a;
    return t < 0.5 ? a + diff * t : b - diff * (1 - t);
}

template<typename T, typename Value> double medianOf(const T *sorted, std::size_t n, const Value &value)
{
    if (n == 0)
        return 0.0;
    if (n % 2 == 1)
        return value(sorted[n / 2]);
    // np.median takes np.mean of the two middle values: (0 + a + b) / 2.
    return (0.0 + value(sorted[n / 2 - 1]) + value(sorted[n / 2])) / 2.0;
}

// describeSeconds of value(v[i]) for a value() that keeps the order of v's elements.
template<typename T, typename Value>
Distribution describe(T *v, std::size_t n, const Value &value, std::span<const double> extraPercentiles)
{
    Distribution d;
    d.count = int(n);
    d.mean = (n == 0 ? 0.0 : reduce(v, n, value) / double(n)) * 1000;
    d.std = stdOf(v, n, value) * 1000;
    std::vector<double> wanted(std::begin(Ladder), std::end(Ladder));
    wanted.insert(wanted.end(), extraPercentiles.begin(), extraPercentiles.end());
    if (n < 4096)
        std::sort(v, v + n);
    else
        selectOrderStatistics(v, n, wanted);
    d.median = medianOf(v, n, value) * 1000;
    d.p1 = percentileOf(v, n, 1, value) * 1000;
    d.p10 = percentileOf(v, n, 10, value) * 1000;
    d.p25 = percentileOf(v, n, 25, value) * 1000;
    d.p50 = percentileOf(v, n, 50, value) * 1000;
    d.p75 = percentileOf(v, n, 75, value) * 1000;
    d.p90 = percentileOf(v, n, 90, value) * 1000;
    d.p99 = percentileOf(v, n, 99, value) * 1000;
    d.extra.reserve(qsizetype(extraPercentiles.size()));
    for (double p : extraPercentiles)
        d.extra.append({ p, percentileOf(v, n, p, value) * 1000 });
    return d;
}
} // namespace

double percentileSorted(std::span<const double> sorted, double p) noexcept
{
    return percentileOf(sorted.data(), sorted.size(), p, identity);
}

double medianSorted(std::span<const double> sorted) noexcept
{
    return medianOf(sorted.data(), sorted.size(), identity);
}

Distribution describeSeconds(std::vector<double> &values, std::span<const double> extraPercentiles)
{
    return describe(values.data(), values.size(), identity, extraPercentiles);
}

Distribution describeNs(NsList &values, std::span<const double> extraPercentiles)
{
    if (quint32 *narrow = values.narrowData())
        return describe(narrow, std::size_t(values.size()), seconds, extraPercentiles);
    std::vector<double> s;
    s.reserve(std::size_t(values.size()));
    for (qint64 ns : values)
        s.push_back(nsToSeconds(ns));
    values.clear();
    return describeSeconds(s, extraPercentiles);
}

} // namespace ServeScope::Stats
