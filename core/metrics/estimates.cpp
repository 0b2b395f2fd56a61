// SPDX-License-Identifier: MIT
#include "metrics/estimates.h"

#include "metrics/aggregate.h"
#include "metrics/numpystats.h"
#include "metrics/servingcost.h"
#include "model/clock.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

quint64 seedFor(const QString &key)
{
    quint64 h = 1469598103934665603ULL; // FNV-1a: the same key gives the same bootstrap everywhere
    for (const QChar c : key) {
        h ^= c.unicode();
        h *= 1099511628211ULL;
    }
    return h;
}

double itlMs(qint64 ns)
{
    return nsToSeconds(ns) * 1000;
}

/// Per-request sums and counts (ms) of one latency metric, for the bootstrap of its mean: for ITL a
/// request's gaps are one cluster.
void latencySums(const std::vector<RequestSample> &samples, const QString &metric, std::vector<double> *sums,
    std::vector<double> *counts)
{
    sums->reserve(samples.size());
    counts->reserve(samples.size());
    for (const RequestSample &s : samples) {
        if (metric == QLatin1String("itl")) {
            if (s.itlNs.isEmpty())
                continue;
            double sum = 0;
            for (qint64 ns : s.itlNs)
                sum += itlMs(ns);
            sums->push_back(sum);
            counts->push_back(double(s.itlNs.size()));
            continue;
        }
        const double v = metric == QLatin1String("ttft") ? s.ttft
            : metric == QLatin1String("ttfo")            ? s.ttfo
            : metric == QLatin1String("e2el")            ? s.e2el
            : metric == QLatin1String("tpot")            ? s.tpot
                                                         : kNaN;
        if (std::isnan(v))
            continue;
        sums->push_back(v * 1000);
        counts->push_back(1);
    }
}

/// The interval of one percentile (ms) from its order statistics. ITLs are pooled as the gaps
/// themselves, 4 bytes each while they fit (at a point end those of 10,000 requests are over a
/// million), and only the two selected are converted: the conversion keeps their order.
Interval latencyPercentileInterval(const std::vector<RequestSample> &samples, const QString &metric, double p)
{
    if (metric == QLatin1String("itl")) {
        qsizetype n = 0;
        for (const RequestSample &s : samples)
            n += s.itlNs.size();
        NsList gaps;
        gaps.reserve(n);
        for (const RequestSample &s : samples)
            for (qint64 ns : s.itlNs)
                gaps.append(ns);
        return percentileInterval(gaps, p, itlMs);
    }
    std::vector<double> values, counts;
    latencySums(samples, metric, &values, &counts); // one request, one value
    return percentileInterval(values, p);
}

Interval latencyInterval(const PointRepeats &point, const QString &key, QString *method)
{
    QString stat, metric;
    if (!splitLatencyKey(key, &stat, &metric))
        return {};
    if (stat == QLatin1String("mean")) {
        std::vector<double> sums, counts;
        latencySums(point.samples, metric, &sums, &counts);
        if (sums.empty())
            return {};
        const char *name = nullptr;
        const Interval iv = clusterMeanInterval(sums, counts, seedFor(key), &name);
        *method = QLatin1String(name);
        return iv;
    }
    double p = 50;
    if (stat != QLatin1String("median")) {
        bool ok = false;
        p = stat.startsWith(u'p') ? stat.mid(1).toDouble(&ok) : 0;
        if (!ok)
            return {};
    }
    *method = QStringLiteral("order-statistic");
    return latencyPercentileInterval(point.samples, metric, p);
}

} // namespace

bool splitLatencyKey(const QString &key, QString *stat, QString *metric)
{
    if (!key.endsWith(QLatin1String("_ms")))
        return false;
    const QString body = key.chopped(3);
    const qsizetype us = body.indexOf(u'_');
    if (us <= 0)
        return false;
    *stat = body.left(us);
    *metric = body.mid(us + 1);
    return true;
}

std::vector<double> RequestSample::itlSeconds() const
{
    std::vector<double> out;
    out.reserve(std::size_t(itlNs.size()));
    for (qint64 ns : itlNs)
        out.push_back(nsToSeconds(ns));
    return out;
}

std::optional<RequestSample> requestSample(const RequestRecord &record, DefinitionsProfile profile)
{
    if (record.warmup)
        return std::nullopt;
    RequestSample s;
    const RequestMetrics m = deriveRequest(record, profile);
    if (!m.counted)
        return std::nullopt;
    s.itlNs.reserve(qMax(0, m.tokenEvents - 1));
    appendTokenGapsNs(record, profile, &s.itlNs, nullptr);
    s.ttft = m.ttft;
    if (m.hasTtfo)
        s.ttfo = m.ttfo;
    s.e2el = m.e2el;
    if (m.hasTpot)
        s.tpot = m.tpot;
    return s;
}

QMap<QString, double> summaryValues(const PointSummary &s)
{
    QMap<QString, double> v {
        { QStringLiteral("duration"), s.duration },
        { QStringLiteral("completed"), double(s.completed) },
        { QStringLiteral("failed"), double(s.failed) },
        { QStringLiteral("total_input_tokens"), double(s.totalInputTokens) },
        { QStringLiteral("total_output_tokens"), double(s.totalOutputTokens) },
        { QStringLiteral("request_throughput"), s.requestThroughput },
        { QStringLiteral("output_throughput"), s.outputThroughput },
        { QStringLiteral("total_token_throughput"), s.totalTokenThroughput },
        { QStringLiteral("max_output_tokens_per_s"), s.maxOutputTokensPerS },
        { QStringLiteral("max_concurrent_requests"), double(s.maxConcurrentRequests) },
        { QStringLiteral("concurrency"), s.averageConcurrency },
        { QStringLiteral("success_rate"), s.successRate },
    };
    if (s.requestGoodput >= 0)
        v.insert(QStringLiteral("request_goodput"), s.requestGoodput);
    v.insert(QStringLiteral("reasoning_tokens"), double(s.reasoningTokens));
    // The prefix cache's hits as the server reported them per request (usage), in percent.
    if (s.cachedTokens >= 0 && s.cachedPromptTokens > 0)
        v.insert(QStringLiteral("cache_hit_rate"), 100.0 * double(s.cachedTokens) / double(s.cachedPromptTokens));
    v.insert(s.turns);
    for (const DistributionField &f : distributionFields()) {
        const Distribution &d = s.*f.member;
        const QString suffix = u'_' + QLatin1String(f.code) + QLatin1String("_ms");
        v.insert(QLatin1String("mean") + suffix, d.mean);
        v.insert(QLatin1String("median") + suffix, d.median);
        v.insert(QLatin1String("std") + suffix, d.std);
        for (double p : { 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0 })
            v.insert(u'p' + percentileKey(p) + suffix, d.percentile(p));
        for (const auto &[p, value] : d.extra)
            v.insert(u'p' + percentileKey(p) + suffix, value);
    }
    return v;
}

QStringList headlineMetrics()
{
    QStringList keys { QStringLiteral("output_throughput"), QStringLiteral("request_throughput"),
        QStringLiteral("total_token_throughput"), QStringLiteral("success_rate") };
    for (const char *m : { "ttft", "tpot", "itl", "e2el" }) {
        for (const char *stat : { "mean", "median", "p90", "p99" })
            keys << QLatin1String(stat) + u'_' + QLatin1String(m) + QLatin1String("_ms");
    }
    return keys;
}

PointEstimate storedEstimate(qint64 runId, const PointRepeats &point, const MetricEstimate &e)
{
    PointEstimate s;
    s.runId = runId;
    s.variant = point.variant;
    s.point = point.point;
    s.metric = e.key;
    s.repeats = e.repeats.n;
    s.median = e.repeats.median;
    s.min = e.repeats.min;
    s.max = e.repeats.max;
    s.cv = e.repeats.cv;
    if (e.ci.valid) {
        s.ciLow = e.ci.low;
        s.ciHigh = e.ci.high;
        s.ciMethod = e.method;
    }
    return s;
}

QMap<QString, RepeatStat> repeatStats(const QList<PointEstimate> &stored, const QList<QMap<QString, double>> &repeats)
{
    QMap<QString, RepeatStat> stats;
    for (const PointEstimate &e : stored)
        stats.insert(e.metric, metricEstimate(e).repeats);
    QStringList keys;
    for (const auto &values : repeats)
        keys << values.keys();
    keys.removeDuplicates();
    for (const QString &key : std::as_const(keys)) {
        if (stats.contains(key))
            continue;
        std::vector<double> perRepeat;
        for (const auto &values : repeats)
            perRepeat.push_back(values.value(key, kNaN));
        if (const RepeatStat s = acrossRepeats(perRepeat); s.n > 0)
            stats.insert(key, s);
    }
    return stats;
}

QString widestSpread(const QMap<QString, RepeatStat> &stats)
{
    QString widest;
    for (auto it = stats.cbegin(); it != stats.cend(); ++it) {
        if (headlineMetrics().contains(it.key()) && (widest.isEmpty() || it->spread() > stats.value(widest).spread()))
            widest = it.key();
    }
    return widest;
}

MetricEstimate metricEstimate(const PointEstimate &s)
{
    MetricEstimate e;
    e.key = s.metric;
    e.repeats.n = s.repeats;
    e.repeats.median = s.median;
    e.repeats.min = s.min;
    e.repeats.max = s.max;
    e.repeats.cv = s.cv;
    if (s.hasInterval()) {
        e.ci.valid = true;
        e.ci.low = s.ciLow;
        e.ci.high = s.ciHigh;
        e.method = s.ciMethod;
    }
    return e;
}

QStringList turnMetrics()
{
    return { QStringLiteral("first_turn_median_ttft_ms"), QStringLiteral("later_turn_median_ttft_ms"),
        QStringLiteral("later_turn_cache_hit_rate") };
}

QString turnFigure(const QString &key, bool *first)
{
    static const QStringList figures = { QStringLiteral("requests"), QStringLiteral("median_ttft_ms"),
        QStringLiteral("p99_ttft_ms"), QStringLiteral("median_ttfo_ms"), QStringLiteral("cache_hit_rate") };
    for (const QLatin1String group : { QLatin1String("first_turn_"), QLatin1String("later_turn_") }) {
        if (!key.startsWith(group) || !figures.contains(key.mid(group.size())))
            continue;
        if (first)
            *first = group == QLatin1String("first_turn_");
        return key.mid(group.size());
    }
    return QString();
}

bool lowerIsBetter(const QString &key)
{
    return key.endsWith(QLatin1String("_ms")) || key == QLatin1String("failed") || key == QLatin1String("duration")
        || key == QLatin1String(kCostKey);
}

MetricEstimate estimateMetric(const PointRepeats &point, const QString &key)
{
    if (const auto stored = point.stored.constFind(key); stored != point.stored.cend())
        return *stored;
    MetricEstimate e;
    e.key = key;
    std::vector<double> perRepeat;
    for (const auto &values : point.repeats)
        perRepeat.push_back(values.value(key, kNaN));
    e.repeats = acrossRepeats(perRepeat);
    if (e.repeats.n == 0)
        return e;
    if (key.endsWith(QLatin1String("_ms"))) {
        e.ci = latencyInterval(point, key, &e.method);
        if (!e.ci.valid) {
            e.method.clear();
        } else if (e.repeats.n >= 2) {
            // The requests' interval says nothing about run-to-run variation; with repeats, the
            // interval also spans every repeat's value.
            e.ci.low = std::min(e.ci.low, e.repeats.min);
            e.ci.high = std::max(e.ci.high, e.repeats.max);
            e.method += QStringLiteral("+repeat-range");
        }
    } else if (e.repeats.n >= 2) {
        e.ci = Interval { e.repeats.min, e.repeats.max, true };
        e.method = QStringLiteral("repeat-range");
    }
    return e;
}

bool reproducible(const RepeatStat &s, double limit)
{
    return s.n < 2 || (s.cv <= limit && s.spread() <= limit);
}

QString notReproducibleLine(const PointRepeats &point, const MetricEstimate &estimate)
{
    const RepeatStat &s = estimate.repeats;
    if (reproducible(s))
        return {};
    return QStringLiteral("%1 %2: not-reproducible %3 (spread %4%, cv %5% over %6 repeats)")
        .arg(point.variant, point.label, estimate.key, QString::number(s.spread() * 100, 'f', 1),
            QString::number(s.cv * 100, 'f', 1))
        .arg(s.n);
}

RepeatEstimates estimateRepeats(qint64 runId, const PointRepeats &point)
{
    QStringList keys = headlineMetrics();
    const bool reasoned = std::any_of(point.repeats.cbegin(), point.repeats.cend(),
        [](const QMap<QString, double> &r) { return r.value(QStringLiteral("reasoning_tokens")) > 0; });
    if (reasoned) {
        for (const char *stat : { "mean", "median", "p90", "p99" })
            keys << QLatin1String(stat) + QLatin1String("_ttfo_ms");
    }
    RepeatEstimates out;
    for (const QString &key : std::as_const(keys)) {
        const MetricEstimate e = estimateMetric(point, key);
        out.stored << storedEstimate(runId, point, e);
        if (point.repeats.size() >= 2)
            if (const QString line = notReproducibleLine(point, e); !line.isEmpty())
                out.findings << line;
    }
    return out;
}

QString steadyEstimateKey(const QString &key)
{
    return QStringLiteral("servescope_steady_") + key;
}

QString steadyKeyOf(const QString &storedKey)
{
    static const QString prefix = QStringLiteral("servescope_steady_");
    return storedKey.startsWith(prefix) ? storedKey.mid(prefix.size()) : QString();
}

QList<PointEstimate> estimateSteady(qint64 runId, const PointRepeats &steady)
{
    QList<PointEstimate> out;
    if (steady.repeats.isEmpty())
        return out;
    // The steady set holds neither total-token throughput nor a success rate (runsource's headline
    // metrics of that set).
    QStringList keys = headlineMetrics();
    keys.removeAll(QStringLiteral("total_token_throughput"));
    keys.removeAll(QStringLiteral("success_rate"));
    for (const QString &key : std::as_const(keys)) {
        PointEstimate e = storedEstimate(runId, steady, estimateMetric(steady, key));
        e.metric = steadyEstimateKey(key);
        out << e;
    }
    return out;
}

PointSamples pointSamples(
    std::span<const RequestRecord> records, const QMap<QString, double> &steady, DefinitionsProfile profile)
{
    PointSamples out;
    out.all.reserve(records.size());
    const bool window = steady.value(QStringLiteral("valid")) == 1.0;
    qint64 origin = std::numeric_limits<qint64>::max();
    for (const RequestRecord &r : records) {
        if (window && r.measured())
            origin = std::min(origin, r.startNs);
    }
    if (window)
        out.steady.reserve(records.size());
    for (const RequestRecord &r : records) {
        std::optional<RequestSample> s = requestSample(r, profile);
        if (!s)
            continue;
        if (window && inSteadyWindow(steady, nsToSeconds(r.startNs - origin)))
            out.steady.push_back(*s); // its ITLs shared, not copied
        out.all.push_back(std::move(*s));
    }
    return out;
}

void addRepeat(PointRepeats *point, const PointSummary &summary, const std::vector<RequestSample> &samples)
{
    point->setKey(summary.key());
    point->repeats << summaryValues(summary);
    point->samples.insert(point->samples.end(), samples.cbegin(), samples.cend());
}

void addRepeat(PointRepeats *point, const PointSummary &summary, std::vector<RequestSample> &&samples)
{
    point->setKey(summary.key());
    point->repeats << summaryValues(summary);
    if (point->samples.empty())
        point->samples = std::move(samples);
    else
        point->samples.insert(
            point->samples.end(), std::make_move_iterator(samples.begin()), std::make_move_iterator(samples.end()));
}

void addSteadyRepeat(PointRepeats *point, const PointSummary &summary, const std::vector<RequestSample> &samples)
{
    if (summary.steady.value(QStringLiteral("valid")) != 1.0)
        return;
    point->setKey(summary.key());
    point->repeats << summary.steady;
    point->samples.insert(point->samples.end(), samples.cbegin(), samples.cend());
}

std::vector<RequestSample> requestSamples(std::span<const RequestRecord> records, DefinitionsProfile profile)
{
    return pointSamples(records, {}, profile).all;
}

} // namespace ServeScope
