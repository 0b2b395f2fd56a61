// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/numpystats.h"
#include "resultfiles/resultfile.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ServeScope::Test {

/// What a reader of a vLLM result file recomputes from its arrays alone, the way vLLM's
/// calculate_metrics does: successful requests are those without an error text.
struct Recomputed {
    int completed = 0, failed = 0;
    qint64 totalIn = 0, totalOut = 0;
    std::vector<double> ttft, tpot, itl, e2el;
    double maxTokensPerS = 0;
    int maxConcurrent = 0;
};

inline bool succeeded(const ResultRun &r, qsizetype i)
{
    return i >= r.errors.size() || r.errors.isEmptyAt(i);
}

inline Recomputed recompute(const ResultRun &r)
{
    Recomputed c;
    double minStart = r.startTimes.isEmpty() ? 0 : *std::min_element(r.startTimes.begin(), r.startTimes.end());
    std::vector<int> buckets;
    std::vector<std::pair<double, int>> sweep;
    for (qsizetype i = 0; i < r.ttfts.size(); ++i) {
        if (!succeeded(r, i)) {
            ++c.failed;
            continue;
        }
        ++c.completed;
        const qint64 out = i < r.outputLens.size() ? r.outputLens.at(i) : 0;
        c.totalIn += i < r.inputLens.size() ? r.inputLens.at(i) : 0;
        c.totalOut += out;
        c.ttft.push_back(r.ttfts.at(i));
        const QVector<double> gaps = r.itls.value(i).toVector();
        c.itl.insert(c.itl.end(), gaps.begin(), gaps.end());
        if (i >= r.latencies.size())
            continue;
        const double lat = r.latencies.at(i);
        c.e2el.push_back(lat);
        if (out > 1)
            c.tpot.push_back((lat - r.ttfts.at(i)) / double(out - 1));
        if (i >= r.startTimes.size())
            continue;
        double t = r.startTimes.at(i) + r.ttfts.at(i);
        auto bump = [&](double x) {
            const auto b = std::size_t(x - minStart);
            if (b >= buckets.size())
                buckets.resize(b + 1);
            ++buckets[b];
        };
        bump(t);
        for (double g : gaps)
            bump(t += g);
        sweep.push_back({ r.startTimes.at(i), +1 });
        sweep.push_back({ r.startTimes.at(i) + lat, -1 });
    }
    c.maxTokensPerS = buckets.empty() ? 0 : *std::max_element(buckets.begin(), buckets.end());
    std::sort(sweep.begin(), sweep.end());
    int cur = 0;
    for (const auto &e : sweep)
        c.maxConcurrent = std::max(c.maxConcurrent, cur += e.second);
    return c;
}

/// The value of a `{stat}_{metric}_ms` key recomputed from seconds, as vLLM does (x 1000).
inline double statMs(std::vector<double> v, const QString &stat)
{
    if (stat == QLatin1String("mean"))
        return Stats::mean(v) * 1000;
    if (stat == QLatin1String("std"))
        return Stats::populationStd(v) * 1000;
    std::sort(v.begin(), v.end());
    if (stat == QLatin1String("median"))
        return Stats::medianSorted(v) * 1000;
    return Stats::percentileSorted(v, stat.mid(1).toDouble()) * 1000;
}

} // namespace ServeScope::Test
