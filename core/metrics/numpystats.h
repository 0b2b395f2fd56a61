// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

namespace ServeScope::Stats {

/// numpy's np.add.reduce: the values in buffers of 8,192, each summed pairwise (a plain loop below 8
/// values, eight accumulators up to 128, otherwise split at a multiple of 8 and recurse) and added to
/// an accumulator that starts at 0.0. Reproducing both is what makes our means equal vLLM's to the
/// last bit at every size.
double pairwiseSum(std::span<const double> values) noexcept;

/// np.mean: pairwiseSum / n. Empty gives 0.0 (vLLM passes `x or 0`).
double mean(std::span<const double> values) noexcept;

/// np.std with ddof 0: mean, deviations, squares, pairwise sum, / n, sqrt. Empty gives 0.0.
double populationStd(std::span<const double> values) noexcept;

/// np.percentile(x, p) with the default linear method on already sorted values (p in [0, 100]).
double percentileSorted(std::span<const double> sorted, double p) noexcept;

/// np.median on sorted values: the middle value, or the mean of the two middle values.
double medianSorted(std::span<const double> sorted) noexcept;

/// Reorders values (sorted below 4,096 values, otherwise only the needed order statistics are put
/// in place), then fills mean/median/std/p1..p99 and the extra percentiles, all in
/// milliseconds (computed in seconds, multiplied by 1000 as vLLM does). Values are seconds.
Distribution describeSeconds(std::vector<double> &values, std::span<const double> extraPercentiles);

/// describeSeconds of the seconds of `values` (nsToSeconds of each), bit for bit, reordering them in
/// place while they take 4 bytes each (a wide list is converted, and emptied).
Distribution describeNs(NsList &values, std::span<const double> extraPercentiles);

/// vLLM's max_output_tokens_per_s: token times counted in whole seconds from `origin`
/// (int(t - first start)); times before it are left out. max() is the busiest second.
class SecondBuckets {
public:
    explicit SecondBuckets(double origin)
        : m_origin(origin)
    {
    }
    void add(double t)
    {
        const double rel = t - m_origin;
        if (rel < 0)
            return;
        const auto b = std::size_t(rel);
        if (b >= m_counts.size())
            m_counts.resize(b + 1, 0);
        ++m_counts[b];
    }
    int max() const { return m_counts.empty() ? 0 : *std::max_element(m_counts.begin(), m_counts.end()); }

private:
    double m_origin;
    std::vector<int> m_counts;
};

/// The most intervals open at once, from (time, +1 at a start / -1 at an end) pairs; sorting puts
/// a departure before an arrival at the same instant, so intervals are [start, end).
template<typename Time> int maxOverlap(std::vector<std::pair<Time, int>> &sweep)
{
    std::sort(sweep.begin(), sweep.end());
    int cur = 0, best = 0;
    for (const auto &e : sweep)
        best = std::max(best, cur += e.second);
    return best;
}

} // namespace ServeScope::Stats
