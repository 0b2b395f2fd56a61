// SPDX-License-Identifier: MIT
#include "import/resultrecompute.h"

#include "metrics/numpystats.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

bool succeeded(const ResultRun &r, qsizetype i)
{
    return i >= r.errors.size() || r.errors.isEmptyAt(i);
}

// vLLM's max_output_tokens_per_s: token times rebuilt as start + ttft + cumulative ITL, bucketed
// by int(t - min(start_times)); max_concurrent_requests: a sweep over [start, start + latency).
void addTimeline(const ResultRun &r, ArrayStats &c)
{
    if (!c.hasStarts || !c.hasLatencies || !c.hasItls)
        return;
    Stats::SecondBuckets buckets(*std::min_element(r.startTimes.begin(), r.startTimes.end()));
    std::vector<std::pair<double, int>> sweep;
    for (qsizetype i = 0; i < r.ttfts.size(); ++i) {
        if (!succeeded(r, i))
            continue;
        double t = r.startTimes.at(i) + r.ttfts.at(i);
        buckets.add(t);
        for (double g : r.itls.at(i))
            buckets.add(t += g);
        sweep.push_back({ r.startTimes.at(i), +1 });
        sweep.push_back({ r.startTimes.at(i) + r.latencies.at(i), -1 });
    }
    c.maxTokensPerS = buckets.max();
    c.maxConcurrent = Stats::maxOverlap(sweep);
}

double duration(const ResultRun &r)
{
    const double d = r.number(QStringLiteral("duration"));
    return d > 0 ? d : NaN;
}

} // namespace

ArrayStats recomputeArrays(const ResultRun &r)
{
    ArrayStats c;
    const qsizetype n = r.ttfts.size();
    c.requests = int(n);
    c.hasErrors = r.errors.size() == n;
    c.hasInputs = r.inputLens.size() == n;
    c.hasOutputs = r.outputLens.size() == n;
    c.hasItls = r.itls.size() == n;
    c.hasLatencies = r.latencies.size() == n;
    c.hasStarts = r.startTimes.size() == n;
    if (!r.hasArrays)
        return c;
    for (qsizetype i = 0; i < n; ++i) {
        if (!succeeded(r, i)) {
            ++c.failed;
            continue;
        }
        ++c.completed;
        const qint64 out = c.hasOutputs ? r.outputLens.at(i) : 0;
        c.zeroOutputSuccesses += c.hasOutputs && out == 0 ? 1 : 0;
        c.totalIn += c.hasInputs ? r.inputLens.at(i) : 0;
        c.totalOut += out;
        c.ttft.push_back(r.ttfts.at(i));
        if (c.hasItls) {
            const GapRow gaps = r.itls.at(i);
            c.itl.insert(c.itl.end(), gaps.begin(), gaps.end());
            c.chunks += 1 + gaps.size();
        }
        if (!c.hasLatencies)
            continue;
        const double lat = r.latencies.at(i);
        c.e2el.push_back(lat);
        if (out > 1)
            c.tpot.push_back((lat - r.ttfts.at(i)) / double(out - 1));
    }
    c.e2elSum = Stats::pairwiseSum(c.e2el);
    addTimeline(r, c);
    return c;
}

bool distributionKey(const QString &key, QString *stat, QString *metric)
{
    static const QRegularExpression re(
        QStringLiteral("^(mean|median|std|p[0-9]+(?:\\.[0-9]+)?)_(ttft|tpot|itl|e2el)_ms$"));
    const QRegularExpressionMatch m = re.match(key);
    if (!m.hasMatch())
        return false;
    *stat = m.captured(1);
    *metric = m.captured(2);
    return true;
}

double statisticMs(std::vector<double> v, const QString &stat)
{
    if (stat == QLatin1String("mean"))
        return Stats::mean(v) * 1000;
    if (stat == QLatin1String("std"))
        return Stats::populationStd(v) * 1000;
    if (v.empty())
        return 0; // vLLM passes `x or 0`
    std::sort(v.begin(), v.end());
    if (stat == QLatin1String("median"))
        return Stats::medianSorted(v) * 1000;
    return Stats::percentileSorted(v, stat.mid(1).toDouble()) * 1000;
}

QString missingArrayFor(const ResultRun &r, const ArrayStats &c, const QString &key)
{
    if (!r.hasArrays)
        return QStringLiteral("ttfts");
    QString stat, metric;
    QStringList need;
    if (!c.hasErrors && r.numbers.contains(QStringLiteral("failed")))
        need << QStringLiteral("errors");
    if (distributionKey(key, &stat, &metric)) {
        if (metric == QLatin1String("itl") && !c.hasItls)
            need << QStringLiteral("itls");
        if ((metric == QLatin1String("e2el") || metric == QLatin1String("tpot")) && !c.hasLatencies)
            need << QStringLiteral("latencies");
        if (metric == QLatin1String("tpot") && !c.hasOutputs)
            need << QStringLiteral("output_lens");
        return need.join(QLatin1String(", "));
    }
    if (key == QLatin1String("request_goodput"))
        return QStringLiteral("the goodput SLOs (not written in the file)");
    const bool perSecond = key.endsWith(QLatin1String("_throughput")) || key == QLatin1String("concurrency");
    if (perSecond && std::isnan(duration(r)))
        need << QStringLiteral("duration");
    if ((key.contains(QLatin1String("input")) || key.contains(QLatin1String("total_t"))) && !c.hasInputs)
        need << QStringLiteral("input_lens");
    if ((key.contains(QLatin1String("output")) || key.contains(QLatin1String("total_t"))) && !c.hasOutputs)
        need << QStringLiteral("output_lens");
    if (key == QLatin1String("concurrency") && !c.hasLatencies)
        need << QStringLiteral("latencies");
    if (key == QLatin1String("max_output_tokens_per_s") || key == QLatin1String("max_concurrent_requests")) {
        for (const auto &[has, name] :
            { std::pair { c.hasStarts, "start_times" }, { c.hasLatencies, "latencies" }, { c.hasItls, "itls" } }) {
            if (!has)
                need << QLatin1String(name);
        }
    }
    return need.join(QLatin1String(", "));
}

double recomputedValue(const ResultRun &r, const ArrayStats &c, const QString &key)
{
    if (!r.hasArrays || !missingArrayFor(r, c, key).isEmpty())
        return NaN;
    QString stat, metric;
    if (distributionKey(key, &stat, &metric)) {
        const std::vector<double> &v = metric == QLatin1String("ttft") ? c.ttft
            : metric == QLatin1String("tpot")                          ? c.tpot
            : metric == QLatin1String("itl")                           ? c.itl
                                                                       : c.e2el;
        return statisticMs(v, stat);
    }
    const double d = duration(r);
    const double in = double(c.totalIn), out = double(c.totalOut);
    if (key == QLatin1String("completed"))
        return c.completed;
    if (key == QLatin1String("failed"))
        return c.failed;
    if (key == QLatin1String("total_input_tokens"))
        return in;
    if (key == QLatin1String("total_output_tokens"))
        return out;
    if (key == QLatin1String("request_throughput"))
        return c.completed / d;
    if (key == QLatin1String("input_throughput"))
        return in / d;
    if (key == QLatin1String("output_throughput"))
        return out / d;
    if (key == QLatin1String("total_token_throughput") || key == QLatin1String("total_throughput"))
        return (in + out) / d;
    if (key == QLatin1String("concurrency"))
        return c.e2elSum / d;
    if (key == QLatin1String("max_output_tokens_per_s"))
        return c.maxTokensPerS;
    if (key == QLatin1String("max_concurrent_requests"))
        return c.maxConcurrent;
    return NaN;
}

} // namespace ServeScope
