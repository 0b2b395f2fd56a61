// SPDX-License-Identifier: MIT
#include "metrics/findings.h"

#include "metrics/estimates.h"
#include "metrics/findingrules.h"
#include "metrics/repeats.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

using Kind = RunFinding::Kind;
using Confirmation = RunFinding::Confirmation;

double loadOf(const PointSummary &p)
{
    return p.mode == QLatin1String("rate") ? p.requestRate : double(p.concurrency);
}

double ratio(double hi, double lo)
{
    return lo > 0 ? hi / lo : 0;
}

/// One variant's points that differ in load alone, medians across repeats, in load order.
struct Curve {
    QString variant;
    QList<PointSummary> points;
};

QList<Curve> curvesOf(const QList<PointSummary> &medians)
{
    QList<Curve> curves;
    for (const PointSummary &p : medians) {
        auto it = std::find_if(curves.begin(), curves.end(), [&p](const Curve &c) {
            const PointSummary &f = c.points.first();
            return c.variant == p.variant && f.mode == p.mode && f.inputLen == p.inputLen && f.outputLen == p.outputLen;
        });
        if (it == curves.end())
            curves.append({ p.variant, { p } });
        else
            it->points.append(p);
    }
    for (Curve &c : curves) {
        std::stable_sort(c.points.begin(), c.points.end(),
            [](const PointSummary &a, const PointSummary &b) { return loadOf(a) < loadOf(b); });
    }
    return curves;
}

QStringList labels(const QList<PointSummary> &points)
{
    QStringList out;
    for (const PointSummary &p : points)
        out << p.label;
    return out;
}

bool hasServer(const QList<PointSummary> &points, const char *key)
{
    return std::any_of(
        points.cbegin(), points.cend(), [key](const PointSummary &p) { return p.server.contains(QLatin1String(key)); });
}

double serverMax(const QList<PointSummary> &points, const char *key)
{
    double m = 0;
    for (const PointSummary &p : points)
        m = std::max(m, p.server.value(QLatin1String(key), 0));
    return m;
}

// TTFT grows many times, and faster than the load, while TPOT barely moves: requests wait before
// they are scheduled. (A batch's prefill alone makes TTFT grow with the load, not faster.) Refuted,
// and not reported, when the server's waiting queue stayed empty.
void queueing(const Curve &c, const FindingThresholds &t, QList<RunFinding> *out)
{
    const PointSummary &lo = c.points.first();
    for (qsizetype k = 1; k < c.points.size(); ++k) {
        const PointSummary &hi = c.points[k];
        const double ttft = ratio(hi.ttft.p50, lo.ttft.p50), tpot = ratio(hi.tpot.p50, lo.tpot.p50);
        if (ttft < t.queueTtftRatio || ttft <= ratio(loadOf(hi), loadOf(lo)) || tpot >= t.queueTpotRatio || tpot == 0)
            continue;
        const QList<PointSummary> from = c.points.mid(k);
        RunFinding f { QStringLiteral("queueing"), Kind::Problem, c.variant, labels(from),
            { { QStringLiteral("ttft_ratio"), ratio(from.last().ttft.p50, lo.ttft.p50) },
                { QStringLiteral("tpot_ratio"), ratio(from.last().tpot.p50, lo.tpot.p50) } },
            Confirmation::NoEvidence };
        if (hasServer(from, "waiting_max")) {
            const double waiting = serverMax(from, "waiting_max");
            f.evidence.append({ QStringLiteral("waiting_max"), waiting });
            if (hasServer(from, "running_max"))
                f.evidence.append({ QStringLiteral("running_max"), serverMax(from, "running_max") });
            if (waiting <= 0)
                return;
            f.confirmation = Confirmation::Confirmed;
        }
        out->append(f);
        return;
    }
}

// TPOT doubles while throughput falls: decode is limited by memory bandwidth.
void bandwidth(const Curve &c, const FindingThresholds &t, QList<RunFinding> *out)
{
    const PointSummary &lo = c.points.first();
    const auto best = std::max_element(c.points.cbegin(), c.points.cend(),
        [](const PointSummary &a, const PointSummary &b) { return a.outputThroughput < b.outputThroughput; });
    const qsizetype peak = best - c.points.cbegin();
    for (qsizetype k = peak + 1; k < c.points.size(); ++k) {
        const PointSummary &hi = c.points[k];
        const double tpot = ratio(hi.tpot.p50, lo.tpot.p50);
        if (tpot < t.bandwidthTpotRatio || hi.outputThroughput >= best->outputThroughput)
            continue;
        const QList<PointSummary> from = c.points.mid(k);
        RunFinding f { QStringLiteral("bandwidth-bound-decode"), Kind::Problem, c.variant, labels(from),
            { { QStringLiteral("tpot_ratio"), tpot },
                { QStringLiteral("throughput_drop"), 1 - hi.outputThroughput / best->outputThroughput } },
            Confirmation::NoEvidence };
        if (hasServer(from, "dram_active_mean")) {
            const double dram = serverMax(from, "dram_active_mean");
            f.evidence.append({ QStringLiteral("dram_active_mean"), dram });
            f.confirmation = dram >= 80 ? Confirmation::Confirmed : Confirmation::NotConfirmed;
        }
        out->append(f);
        return;
    }
}

// The load after which a doubling buys less than kneeGain more throughput while TTFT p99 rises.
bool knee(const Curve &c, const FindingThresholds &t, QList<RunFinding> *out)
{
    for (qsizetype k = 1; k < c.points.size(); ++k) {
        const PointSummary &a = c.points[k - 1], &b = c.points[k];
        const double doublings = std::log2(ratio(loadOf(b), loadOf(a)));
        if (doublings <= 0 || a.outputThroughput <= 0)
            continue;
        const double gain = (b.outputThroughput / a.outputThroughput - 1) / doublings;
        if (gain < t.kneeGain && b.ttft.p99 > a.ttft.p99) {
            out->append({ QStringLiteral("capacity-knee"), Kind::Info, c.variant, { a.label },
                { { QStringLiteral("gain_per_doubling"), gain },
                    { QStringLiteral("output_throughput"), a.outputThroughput } },
                Confirmation::NotApplicable });
            return true;
        }
    }
    return false;
}

// What one variant's points show against the thresholds: the points of each caveat and its worst value.
struct VariantCaveats {
    QStringList censored, estimated, inputEstimated, cached, noisy, limited, buffered, settled;
    int verdictPoints = 0;
    double settledWidth = 0, worstCensored = 0, estimatedShare = 0, inputShare = 0, hits = 0, worstSpread = 0,
           worstLag = 0, worstCpu = 0, eventsPerRead = 0, sameRead = 0, ttftShare = 0;

    void read(const PointSummary &p, const QString &v, const QList<PointEstimate> &estimates, bool cacheFree,
        const FindingThresholds &t)
    {
        const int finished = p.completed + p.failed;
        if (finished > 0 && double(p.failed) / finished > t.censoredShare) {
            censored << p.label;
            worstCensored = std::max(worstCensored, double(p.failed) / finished);
        }
        if (p.outputEstimated > 0) {
            estimated << p.label;
            estimatedShare = std::max(estimatedShare, double(p.outputEstimated) / std::max(1, p.completed));
        }
        if (p.inputEstimated > 0) {
            inputEstimated << p.label;
            inputShare = std::max(inputShare, double(p.inputEstimated) / std::max(1, p.completed));
        }
        if (p.client.contains(QStringLiteral("settled_requests"))) {
            settled << p.label;
            if (p.client.contains(QStringLiteral("settled_verdict")))
                ++verdictPoints;
            else
                settledWidth = std::max(settledWidth, p.client.value(QStringLiteral("settled_width")));
        }
        const double lag = p.client.value(QStringLiteral("dispatch_lag_p99_ms"), 0);
        const double cpu = p.client.value(QStringLiteral("cpu_percent"), 0);
        const double cores = std::max(1.0, p.client.value(QStringLiteral("cores"), 1));
        if (bufferedStream(p, t)) {
            buffered << p.label;
            eventsPerRead = std::max(eventsPerRead, p.client.value(QStringLiteral("stream_events_per_read")));
            sameRead = std::max(sameRead, p.client.value(QStringLiteral("stream_same_read_share")));
            ttftShare = std::max(ttftShare, p.client.value(QStringLiteral("stream_ttft_e2el_p50")));
        }
        // A point whose every request failed says nothing about the client: it ended at once.
        if (p.completed > 0 && (lag > t.clientLagP99Ms || cpu >= 100 * cores * t.clientCpuShare)) {
            limited << p.label;
            worstLag = std::max(worstLag, lag);
            worstCpu = std::max(worstCpu, cpu);
        }
        if (cacheFree && p.server.value(QStringLiteral("prefix_cache_hit_rate"), 0) > t.cacheHitRate) {
            cached << p.label;
            hits = std::max(hits, p.server.value(QStringLiteral("prefix_cache_hit_rate")));
        }
        for (const PointEstimate &e : estimates) {
            if (e.variant == v && e.point == p.point && e.repeats > 1 && !reproducible(metricEstimate(e).repeats)) {
                if (!noisy.contains(p.label))
                    noisy << p.label;
                worstSpread = std::max(worstSpread, e.spread());
            }
        }
    }

    void appendTo(QList<RunFinding> *out, const QString &v) const
    {
        const auto add = [&](const char *code, Kind kind, const QStringList &at, const char *key, double value) {
            if (!at.isEmpty())
                out->append({ QLatin1String(code), kind, v, at, { { QLatin1String(key), value } },
                    Confirmation::NotApplicable });
        };
        add("censored", Kind::Caveat, censored, "failed_share", worstCensored);
        if (!settled.isEmpty())
            out->append({ QStringLiteral("stopped-early"), Kind::Caveat, v, settled,
                { { QStringLiteral("settled_width"), settledWidth },
                    { QStringLiteral("verdict_points"), double(verdictPoints) } },
                Confirmation::NotApplicable });
        add("noisy-repeats", Kind::Caveat, noisy, "spread", worstSpread);
        add("cache-contaminated", Kind::Problem, cached, "prefix_cache_hit_rate", hits);
        add("output-estimated", Kind::Caveat, estimated, "estimated_share", estimatedShare);
        add("input-estimated", Kind::Caveat, inputEstimated, "estimated_share", inputShare);
        if (!buffered.isEmpty())
            out->append({ QStringLiteral("buffered-stream"), Kind::Problem, v, buffered,
                { { QStringLiteral("events_per_read"), eventsPerRead }, { QStringLiteral("same_read_share"), sameRead },
                    { QStringLiteral("ttft_e2el_p50"), ttftShare } },
                Confirmation::NotApplicable });
        if (!limited.isEmpty())
            out->append({ QStringLiteral("client-limited"), Kind::Problem, v, limited,
                { { QStringLiteral("dispatch_lag_p99_ms"), worstLag }, { QStringLiteral("cpu_percent"), worstCpu } },
                Confirmation::NotApplicable });
    }
};

// One note for the run: p99 from too few requests, wherever it happens.
void unreliablePercentiles(const QList<PointSummary> &medians, const FindingThresholds &t, QList<RunFinding> *out)
{
    QStringList unreliable;
    double fewest = INFINITY;
    for (const PointSummary &p : medians) {
        if (p.ttft.count > 0 && p.ttft.count < t.reliableP99Requests) {
            if (!unreliable.contains(p.label))
                unreliable << p.label;
            fewest = std::min(fewest, double(p.ttft.count));
        }
    }
    if (!unreliable.isEmpty())
        out->append({ QStringLiteral("unreliable-percentiles"), Kind::Caveat, QString(), unreliable,
            { { QStringLiteral("fewest_requests"), fewest } }, Confirmation::NotApplicable });
}

// `medians`: one summary per (variant, point), medians across repeats.
void pointCaveats(const QList<PointSummary> &medians, const QList<PointEstimate> &estimates, bool cacheFree,
    const FindingThresholds &t, QList<RunFinding> *out)
{
    QStringList variants;
    for (const PointSummary &p : medians) {
        if (!variants.contains(p.variant))
            variants << p.variant;
    }
    for (const QString &v : std::as_const(variants)) {
        VariantCaveats caveats;
        for (const PointSummary &p : medians) {
            if (p.variant == v)
                caveats.read(p, v, estimates, cacheFree, t);
        }
        caveats.appendTo(out, v);
    }
    unreliablePercentiles(medians, t, out);
}

} // namespace

bool bufferedStream(const PointSummary &point, const FindingThresholds &t)
{
    return point.client.value(QStringLiteral("stream_events_per_read"), 0) >= t.bufferedEventsPerRead
        && point.client.value(QStringLiteral("stream_same_read_share"), 0) >= t.bufferedSameReadShare;
}

bool withholdBufferedDecode(PointSummary *point)
{
    if (!bufferedStream(*point))
        return false;
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    // Every timing between a stream's events: the buffer's release pattern. TTFT, TTFC, TTFO and E2EL stay.
    for (Distribution *d : { &point->tpot, &point->atpot, &point->itl, &point->citl }) {
        for (double *v :
            { &d->mean, &d->median, &d->std, &d->p1, &d->p10, &d->p25, &d->p50, &d->p75, &d->p90, &d->p99 })
            *v = nan;
        for (auto &extra : d->extra)
            extra.second = nan;
    }
    for (auto it = point->steady.begin(); it != point->steady.end(); ++it) {
        if (it.key().endsWith(QLatin1String("_tpot_ms")) || it.key().endsWith(QLatin1String("_itl_ms"))
            || it.key().endsWith(QLatin1String("_citl_ms")))
            it.value() = nan;
    }
    return true;
}

double RunFinding::value(const QString &key, double fallback) const
{
    for (const auto &[k, v] : evidence) {
        if (k == key)
            return v;
    }
    return fallback;
}

namespace {

// A point that stopped early in any repeat says so, whichever repeat is its median: the median's
// record takes the settled keys of the first repeat that stopped.
QList<PointSummary> withSettledRepeats(QList<PointSummary> medians, const QList<PointSummary> &points)
{
    static const QString kSettled[]
        = { QStringLiteral("settled_requests"), QStringLiteral("settled_width"), QStringLiteral("settled_verdict") };
    for (PointSummary &m : medians) {
        if (m.client.contains(kSettled[0]))
            continue;
        const auto stopped = std::find_if(points.cbegin(), points.cend(), [&m](const PointSummary &p) {
            return p.variant == m.variant && p.point == m.point && p.client.contains(kSettled[0]);
        });
        if (stopped == points.cend())
            continue;
        for (const QString &key : kSettled) {
            if (stopped->client.contains(key))
                m.client.insert(key, stopped->client.value(key));
        }
    }
    return medians;
}

} // namespace

QList<RunFinding> runFindings(const QList<PointSummary> &points, const QList<PointEstimate> &estimates, bool cacheFree,
    const FindingThresholds &t, const PrefillBudgets &budgets, const QList<ServerExit> &exits)
{
    QList<RunFinding> out;
    const QList<PointSummary> medians = medianAcrossRepeats(points);
    for (const Curve &c : curvesOf(medians)) {
        if (c.points.size() < 2)
            continue;
        const qsizetype before = out.size();
        queueing(c, t, &out);
        bandwidth(c, t, &out);
        FindingRules::prefillInterference(c.variant, c.points, t, budgets, &out);
        // Preemptions while the KV cache is nearly full: requests are evicted and recomputed.
        QList<PointSummary> pressured;
        for (const PointSummary &p : c.points) {
            if (p.server.value(QStringLiteral("preemptions"), 0) > 0
                && p.server.value(QStringLiteral("kv_usage_max"), 0) >= t.kvUsageHigh)
                pressured << p;
        }
        if (!pressured.isEmpty())
            out.append({ QStringLiteral("kv-cache-pressure"), Kind::Problem, c.variant, labels(pressured),
                { { QStringLiteral("preemptions"), serverMax(pressured, "preemptions") },
                    { QStringLiteral("kv_usage_max"), serverMax(pressured, "kv_usage_max") } },
                Confirmation::Confirmed });
        // Along a curve with a buffered point the decode timings are the buffer's, not the server's; a server
        // that died under the load is not healthy whatever its points before said.
        const bool problems = out.size() > before
            || std::any_of(exits.cbegin(), exits.cend(), [&c](const ServerExit &e) { return e.variant == c.variant; })
            || std::any_of(
                c.points.cbegin(), c.points.cend(), [&t](const PointSummary &p) { return bufferedStream(p, t); });
        knee(c, t, &out);
        // Nothing wrong along a curve whose throughput rises: decode-bound, the normal regime.
        if (!problems && c.points.last().outputThroughput > c.points.first().outputThroughput)
            out.append({ QStringLiteral("healthy"), Kind::Info, c.variant, labels(c.points),
                { { QStringLiteral("throughput_ratio"),
                    ratio(c.points.last().outputThroughput, c.points.first().outputThroughput) } },
                Confirmation::NotApplicable });
    }
    pointCaveats(withSettledRepeats(medians, points), estimates, cacheFree, t, &out);
    FindingRules::rateLimited(medians, t, &out);
    FindingRules::usageMismatch(points, &out);
    FindingRules::serverExited(exits, medians, &out);
    FindingRules::streamNotes(medians, t, &out);
    return out;
}

QString confirmationCode(RunFinding::Confirmation c)
{
    switch (c) {
    case Confirmation::Confirmed:
        return QStringLiteral("confirmed");
    case Confirmation::NotConfirmed:
        return QStringLiteral("not-confirmed");
    case Confirmation::NoEvidence:
        return QStringLiteral("no-evidence");
    case Confirmation::NotApplicable:
        break;
    }
    return QString();
}

QString findingLine(const RunFinding &f)
{
    QStringList parts { f.code, f.variant, f.points.join(u',') };
    for (const auto &[k, v] : f.evidence)
        parts << k + u'=' + QString::number(v, 'g', 4);
    if (const QString c = confirmationCode(f.confirmation); !c.isEmpty())
        parts << c;
    return parts.join(u'\t');
}

} // namespace ServeScope
