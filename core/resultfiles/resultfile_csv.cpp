// SPDX-License-Identifier: MIT
#include "resultfiles/resultfile.h"

#include "model/experiment.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <optional>

namespace ServeScope {

namespace {

// Shortest representation that reads back to the same double, in the C locale; a whole number as
// digits (a count of 100,000 is "100000", not the shortest "1e+05").
QByteArray num(double d)
{
    if (std::isnan(d))
        return QByteArrayLiteral("nan");
    if (std::isinf(d))
        return d > 0 ? QByteArrayLiteral("inf") : QByteArrayLiteral("-inf");
    if (d == std::trunc(d) && std::abs(d) < 1e15)
        return QByteArray::number(qint64(d));
    return QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
}

QByteArray field(const QString &s)
{
    QByteArray b = s.toUtf8();
    if (b.contains(',') || b.contains('"') || b.contains('\n') || b.contains('\r')) {
        b.replace("\"", "\"\"");
        b = '"' + b + '"';
    }
    return b;
}

} // namespace

namespace {

// The value columns by result-file key; the header names medians p50 as it always has.
struct Column {
    QString key;
    QByteArray header;
};

const QList<Column> &valueColumns()
{
    static const QList<Column> columns = [] {
        QList<Column> c;
        for (const char *k : { "completed", "failed", "success_rate", "request_throughput", "output_throughput",
                 "total_token_throughput" })
            c.append({ QLatin1String(k), QByteArray(k) });
        for (const char *m : { "ttft", "ttfo", "tpot", "itl", "e2el" }) {
            const QByteArray suffix = QByteArray("_") + m + "_ms";
            c.append({ QString::fromLatin1("median" + suffix), "p50" + suffix });
            c.append({ QString::fromLatin1("p90" + suffix), "p90" + suffix });
            c.append({ QString::fromLatin1("p99" + suffix), "p99" + suffix });
        }
        return c;
    }();
    return columns;
}

// The definitions a summary's figures follow: "vllm", or the run's other profile ("sglang").
QByteArray setOf(const PointSummary &s)
{
    return s.definitions.isEmpty() ? QByteArrayLiteral("vllm") : s.definitions.toUtf8();
}

// The cost_per_million_output_tokens field at `throughput` tokens/s (costPerMillion() of
// metrics/servingcost.h, a layer this one does not link); empty without a price or a throughput.
QByteArray costField(double hourPrice, std::optional<double> throughput)
{
    return hourPrice > 0 && throughput && *throughput > 0 ? num(hourPrice / 3600 / *throughput * 1e6) : QByteArray();
}

// `counts`: the output_estimated, input_estimated, reasoning_tokens, reasoning_estimated, cached_tokens and
// cached_prompt_tokens fields, given on value rows only; `cost`: the cost field; `extra`: the caller's further
// fields (",a,b"), after them.
QByteArray row(const PointSummary &id, const QByteArray &repeat, const QByteArray &set, const char *stat,
    const std::function<std::optional<double>(const QString &)> &value, const QByteArray &cost, const QByteArray &extra,
    const QByteArray &counts = ",,,,,")
{
    QByteArray out = field(id.variant) + ',' + field(id.label) + ',' + field(id.mode) + ','
        + QByteArray::number(id.concurrency) + ',' + num(id.requestRate) + ',' + repeat + ',' + set + ',' + stat;
    for (const Column &c : valueColumns()) {
        out += ',';
        if (const std::optional<double> v = value(c.key); v && !std::isnan(*v))
            out += num(*v); // an unknown statistic (an imported file without it) is an empty field
    }
    return out + ',' + counts + ',' + cost + extra + '\n';
}

} // namespace

QByteArray summaryCsvHeader(const QByteArray &extra)
{
    QByteArray h("variant,label,mode,concurrency,request_rate,repeat,set,stat");
    for (const Column &c : valueColumns())
        h += ',' + c.header;
    return h
        + ",output_estimated,input_estimated,reasoning_tokens,reasoning_estimated,cached_tokens,cached_prompt_tokens,"
          "cost_per_million_output_tokens"
        + extra + '\n';
}

QByteArray summaryCsvRows(const PointSummary &s, const QByteArray &extra, double hourPrice)
{
    const auto vllm = [&s](const QString &key) -> std::optional<double> {
        const std::pair<const char *, double> scalars[] = { { "completed", s.completed }, { "failed", s.failed },
            { "success_rate", s.successRate }, { "request_throughput", s.requestThroughput },
            { "output_throughput", s.outputThroughput }, { "total_token_throughput", s.totalTokenThroughput } };
        for (const auto &[k, v] : scalars) {
            if (key == QLatin1String(k))
                return v;
        }
        for (const DistributionField &f : distributionFields()) {
            const Distribution &d = s.*f.member;
            if (!key.contains(u'_' + QLatin1String(f.code) + u'_'))
                continue;
            return key.startsWith(QLatin1String("median")) ? d.p50
                : key.startsWith(QLatin1String("p90"))     ? d.p90
                                                           : d.p99;
        }
        return std::nullopt;
    };
    const QByteArray repeat = QByteArray::number(s.repeat);
    QByteArray out = row(s, repeat, setOf(s), "value", vllm, costField(hourPrice, s.outputThroughput), extra,
        QByteArray::number(s.outputEstimated) + ',' + QByteArray::number(s.inputEstimated) + ','
            + QByteArray::number(s.reasoningTokens) + ',' + QByteArray::number(s.reasoningEstimated) + ','
            + (s.cachedTokens >= 0 ? QByteArray::number(s.cachedTokens) + ',' + QByteArray::number(s.cachedPromptTokens)
                                   : QByteArray(",")));
    if (s.steady.value(QStringLiteral("valid")) == 1.0) {
        out += row(
            s, repeat, "steady", "value",
            [&s](const QString &key) -> std::optional<double> {
                const auto it = s.steady.constFind(key);
                return it == s.steady.cend() ? std::nullopt : std::optional<double>(*it);
            },
            costField(hourPrice,
                s.steady.contains(QStringLiteral("output_throughput"))
                    ? std::optional<double>(s.steady.value(QStringLiteral("output_throughput")))
                    : std::nullopt),
            extra);
    }
    return out;
}

QByteArray summaryCsvStatRows(
    const PointSummary &identity, const QList<PointEstimate> &estimates, const QByteArray &extra, double hourPrice)
{
    using Pick = double (*)(const PointEstimate &);
    const std::pair<const char *, Pick> stats[] = {
        { "median", [](const PointEstimate &e) { return e.median; } },
        { "min", [](const PointEstimate &e) { return e.min; } },
        { "max", [](const PointEstimate &e) { return e.max; } },
        { "cv", [](const PointEstimate &e) { return e.cv; } },
        { "ci_low", [](const PointEstimate &e) { return e.ciLow; } },
        { "ci_high", [](const PointEstimate &e) { return e.ciHigh; } },
    };
    // The cost of a statistic is the throughput's mirrored one: the highest throughput costs least.
    const std::pair<const char *, Pick> mirrored[] = {
        { "median", stats[0].second },
        { "min", stats[2].second },
        { "max", stats[1].second },
        { "cv", nullptr },
        { "ci_low", stats[5].second },
        { "ci_high", stats[4].second },
    };
    const auto throughput = std::find_if(estimates.cbegin(), estimates.cend(),
        [](const PointEstimate &e) { return e.metric == QLatin1String("output_throughput") && e.repeats > 0; });
    QByteArray out;
    for (size_t i = 0; i < std::size(stats); ++i) {
        // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
        const char *stat = stats[i].first;
        const Pick pick = stats[i].second;
        const bool interval = qstrncmp(stat, "ci_", 3) == 0;
        const Pick costPick = mirrored[i].second;
        const bool costKnown = throughput != estimates.cend() && costPick && (!interval || throughput->hasInterval());
        out += row(
            identity, QByteArray(), setOf(identity), stat,
            [&](const QString &key) -> std::optional<double> {
                for (const PointEstimate &e : estimates) {
                    if (e.metric == key && e.repeats > 0 && (!interval || e.hasInterval()))
                        return pick(e);
                }
                return std::nullopt;
            },
            costField(hourPrice, costKnown ? std::optional<double>(costPick(*throughput)) : std::nullopt), extra);
    }
    return out;
}

QString resultFileRelativePath(const QString &variant, const QString &label, int repeat)
{
    return sanitizeName(variant) + u'/' + sanitizeName(label) + QStringLiteral("-r") + QString::number(repeat)
        + QStringLiteral(".json");
}

} // namespace ServeScope
