// SPDX-License-Identifier: MIT
#include "metrics/numpystats.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace ServeScope::Stats {

namespace {
const double Ladder[] = { 1, 10, 25, 50, 75, 90, 99 };

constexpr std::size_t PwBlockSize = 128;

double pairwise(const double *a, std::size_t n) noexcept
{
    if (n < 8) {
        double res = 0.;
        for (std::size_t i = 0; i < n; ++i)
            res += a[i];
        return res;
    }
    if (n <= PwBlockSize) {
        double r[8];
        for (int j = 0; j < 8; ++j)
            r[j] = a[j];
        std::size_t i = 8;
        for (; i < n - (n % 8); i += 8) {
            for (int j = 0; j < 8; ++j)
                r[j] += a[i + j];
        }
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i)
            res += a[i];
        return res;
    }
    std::size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

// Squared deviations summed pairwise without materialising them: same tree, same rounding.
double pairwiseSq(const double *a, std::size_t n, double m) noexcept
{
    auto sq = [m](double x) {
        const double d = x - m;
        return d * d;
    };
    if (n < 8) {
        double res = 0.;
        for (std::size_t i = 0; i < n; ++i)
            res += sq(a[i]);
        return res;
    }
    if (n <= PwBlockSize) {
        double r[8];
        for (int j = 0; j < 8; ++j)
            r[j] = sq(a[j]);
        std::size_t i = 8;
        for (; i < n - (n % 8); i += 8) {
            for (int j = 0; j < 8; ++j)
                r[j] += sq(a[i + j]);
        }
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i)
            res += sq(a[i]);
        return res;
    }
    std::size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwiseSq(a, n2, m) + pairwiseSq(a + n2, n - n2, m);
}
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

double pairwiseSum(std::span<const double> values) noexcept
{
    const double *a = values.data();
    return reduceInBuffers(values.size(), [a](std::size_t off, std::size_t n) { return pairwise(a + off, n); });
}

double mean(std::span<const double> values) noexcept
{
    if (values.empty())
        return 0.0;
    return pairwiseSum(values) / double(values.size());
}

double populationStd(std::span<const double> values) noexcept
{
    if (values.empty())
        return 0.0;
    const double n = double(values.size());
    const double m = pairwiseSum(values) / n;
    const double *a = values.data();
    const double squares = reduceInBuffers(
        values.size(), [a, m](std::size_t off, std::size_t len) { return pairwiseSq(a + off, len, m); });
    return std::sqrt(squares / n);
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
void selectOrderStatistics(std::vector<double> &v, std::span<const double> percentiles)
{
    const std::size_t n = v.size();
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
        std::nth_element(v.begin() + std::ptrdiff_t(lo), v.begin() + std::ptrdiff_t(i), v.end());
        lo = i + 1;
    }
}
} // namespace

double percentileSorted(std::span<const double> sorted, double p) noexcept
{
    const std::size_t n = sorted.size();
    if (n == 0)
        return 0.0;
    double t = 0;
    const std::size_t i = lowerIndex(n, p, &t);
    const double a = sorted[i];
    const double b = sorted[std::min(i + 1, n - 1)];
    const double diff = b - a;
    return t < 0.5 ? a + diff * t : b - diff * (1 - t);
}

double medianSorted(std::span<const double> sorted) noexcept
{
    const std::size_t n = sorted.size();
    if (n == 0)
        return 0.0;
    if (n % 2 == 1)
        return sorted[n / 2];
    // np.median takes np.mean of the two middle values: (0 + a + b) / 2.
    return (0.0 + sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

Distribution describeSeconds(std::vector<double> &values, std::span<const double> extraPercentiles)
{
    Distribution d;
    d.count = int(values.size());
    d.mean = mean(values) * 1000;
    d.std = populationStd(values) * 1000;
    std::vector<double> wanted(std::begin(Ladder), std::end(Ladder));
    wanted.insert(wanted.end(), extraPercentiles.begin(), extraPercentiles.end());
    if (values.size() < 4096)
        std::sort(values.begin(), values.end());
    else if (!values.empty())
        selectOrderStatistics(values, wanted);
    const std::span<const double> s(values);
    d.median = medianSorted(s) * 1000;
    d.p1 = percentileSorted(s, 1) * 1000;
    d.p10 = percentileSorted(s, 10) * 1000;
    d.p25 = percentileSorted(s, 25) * 1000;
    d.p50 = percentileSorted(s, 50) * 1000;
    d.p75 = percentileSorted(s, 75) * 1000;
    d.p90 = percentileSorted(s, 90) * 1000;
    d.p99 = percentileSorted(s, 99) * 1000;
    d.extra.reserve(qsizetype(extraPercentiles.size()));
    for (double p : extraPercentiles)
        d.extra.append({ p, percentileSorted(s, p) * 1000 });
    return d;
}

} // namespace ServeScope::Stats
