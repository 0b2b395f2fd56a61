// SPDX-License-Identifier: MIT
#include "metrics/aggregate.h"

#include "metrics/findings.h"
#include "metrics/numpystats.h"
#include "metrics/repeats.h"
#include "model/clock.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope {

bool PointResult::hasFinding(const char *code) const
{
    const QLatin1String c(code);
    return std::any_of(findings.cbegin(), findings.cend(), [&](const Finding &f) { return f.code == c; });
}

namespace {

const double Ladder[] = { 1, 10, 25, 50, 75, 90, 99 };

struct Collected {
    std::vector<double> ttft, ttfc, ttfo, tpot, atpot, e2el, roleGap;
    NsList itl, citl; // every gap of the point: 4 bytes each while they fit
    std::vector<double> goodTpot; // vLLM's all_tpots: 0 when out <= 1, for goodput only
    std::vector<double> startS; // all finished measured requests (vLLM's min start_time)
    std::vector<double> okStartS; // per counted request, aligned with ttft/e2el
    std::vector<std::pair<qint64, int>> sweep; // exact: integer ns, not the seconds vLLM rebuilds
    qint64 firstScheduled = std::numeric_limits<qint64>::max(), lastEnd = std::numeric_limits<qint64>::min();
    double inputSum = 0;
    int targetIn = 0, targetOut = 0, shortOutput = 0;
    qint64 targetInSum = 0; ///< the completed requests' own target input lengths (they differ in a trace)
    std::size_t events = 0; ///< stored events of the records that count
};

std::vector<double> extraPercentiles(const QVector<double> &requested)
{
    std::vector<double> extra;
    for (double p : requested) {
        if (std::find(std::begin(Ladder), std::end(Ladder), p) == std::end(Ladder)
            && std::find(extra.begin(), extra.end(), p) == extra.end())
            extra.push_back(p);
    }
    return extra;
}

// False for a record outside the options' window, which then does not count at all.
bool inWindow(const RequestRecord &r, const AggregateOptions &o)
{
    return o.windowToNs <= 0 || (r.measured() && r.startNs >= o.windowFromNs && r.startNs <= o.windowToNs);
}

void reserveAll(Collected &c, std::span<const RequestRecord> records, const AggregateOptions &o)
{
    std::size_t events = 0;
    for (const auto &r : records) {
        if (!inWindow(r, o))
            continue;
        events += std::size_t(r.eventNs.size());
        if (!r.warmup)
            c.firstScheduled = std::min(c.firstScheduled, r.scheduledNs > 0 ? r.scheduledNs : r.startNs);
    }
    const std::size_t n = records.size();
    for (auto *v :
        { &c.ttft, &c.ttfc, &c.ttfo, &c.tpot, &c.atpot, &c.e2el, &c.roleGap, &c.goodTpot, &c.startS, &c.okStartS })
        v->reserve(n);
    c.itl.reserve(qsizetype(events));
    c.events = events;
    c.sweep.reserve(2 * n);
}

// Token times as vLLM rebuilds them (start + ttft + cumulative ITL, in seconds), bucketed by
// int(t - first_start); the largest bucket is max_output_tokens_per_s.
double maxTokensPerSecond(const Collected &c, std::size_t itlCount, const std::vector<std::size_t> &itlOffsets)
{
    if (c.okStartS.empty() || c.startS.empty())
        return 0;
    Stats::SecondBuckets buckets(*std::min_element(c.startS.begin(), c.startS.end()));
    for (std::size_t i = 0; i < c.okStartS.size(); ++i) {
        double t = c.okStartS[i] + c.ttft[i];
        buckets.add(t);
        const std::size_t end = i + 1 < itlOffsets.size() ? itlOffsets[i + 1] : itlCount;
        for (std::size_t k = itlOffsets[i]; k < end; ++k) {
            t += nsToSeconds(c.itl.at(k));
            buckets.add(t);
        }
    }
    return double(buckets.max());
}

int maxConcurrent(std::vector<std::pair<qint64, int>> &sweep)
{
    // Departures (-1) sort before arrivals (+1) at the same instant: [start, start + e2el).
    return Stats::maxOverlap(sweep);
}

double goodput(const Collected &c, const AggregateOptions &o, double duration)
{
    if (o.sloTtftMs < 0 && o.sloTpotMs < 0 && o.sloE2elMs < 0)
        return -1;
    int good = 0;
    // vLLM converts each SLO with ms / 1000 and keeps a request when slo >= value (inclusive).
    for (std::size_t i = 0; i < c.ttft.size(); ++i) {
        const bool ok = (o.sloTtftMs < 0 || o.sloTtftMs / 1000.0 >= c.ttft[i])
            && (o.sloTpotMs < 0 || o.sloTpotMs / 1000.0 >= c.goodTpot[i])
            && (o.sloE2elMs < 0 || o.sloE2elMs / 1000.0 >= c.e2el[i]);
        good += ok ? 1 : 0;
    }
    return duration > 0 ? good / duration : 0.0;
}

void addFindings(PointResult &res, Collected &c, const AggregateOptions &o, const std::vector<double> &extra);

// A session's first turns, or its later ones (whose prompts begin with the conversation so far).
struct TurnGroup {
    std::vector<double> ttft, ttfo;
    qint64 cached = -1, prompt = 0;

    void add(const RequestRecord &r, const RequestMetrics &m)
    {
        ttft.push_back(m.ttft);
        if (m.hasTtfo)
            ttfo.push_back(m.ttfo);
        if (r.cachedTokens >= 0) {
            cached = std::max<qint64>(cached, 0) + r.cachedTokens;
            prompt += r.promptTokens;
        }
    }
    void put(QMap<QString, double> &out, const QString &name)
    {
        out.insert(name + QLatin1String("_requests"), double(ttft.size()));
        if (ttft.empty())
            return;
        const Distribution t = Stats::describeSeconds(ttft, {});
        out.insert(name + QLatin1String("_median_ttft_ms"), t.median);
        out.insert(name + QLatin1String("_p99_ttft_ms"), t.p99);
        if (!ttfo.empty())
            out.insert(name + QLatin1String("_median_ttfo_ms"), Stats::describeSeconds(ttfo, {}).median);
        if (cached >= 0 && prompt > 0)
            out.insert(name + QLatin1String("_cache_hit_rate"), 100.0 * double(cached) / double(prompt));
    }
};

// A counted request into the collected arrays and the summary's totals.
void addCounted(Collected &c, PointSummary &s, const RequestRecord &r, const RequestMetrics &m,
    const AggregateOptions &opts, qint64 *usageTokens)
{
    ++s.completed;
    c.okStartS.push_back(c.startS.back());
    c.ttft.push_back(m.ttft);
    c.e2el.push_back(m.e2el);
    c.goodTpot.push_back(m.tpot);
    if (m.hasTpot)
        c.tpot.push_back(m.tpot);
    if (m.hasTtfc) {
        c.ttfc.push_back(m.ttfc);
        c.roleGap.push_back(m.ttfc - m.ttft);
    }
    if (m.hasTtfo)
        c.ttfo.push_back(m.ttfo);
    if (m.hasAtpot)
        c.atpot.push_back(m.atpot);
    s.reasoningTokens += m.reasoningTokens;
    s.reasoningEstimated += m.reasoningEstimated ? 1 : 0;
    if (r.cachedTokens >= 0) { // the server's counts, whatever the profile counts as input
        s.cachedTokens = std::max<qint64>(s.cachedTokens, 0) + r.cachedTokens;
        s.cachedPromptTokens += r.promptTokens;
    }
    c.sweep.push_back({ r.startNs, +1 });
    c.sweep.push_back({ r.startNs + m.e2elNs, -1 });
    s.totalInputTokens += m.inputTokens;
    c.targetInSum += r.targetInputLen > 0 ? r.targetInputLen : opts.targetInputLen;
    s.totalOutputTokens += m.outputTokens;
    *usageTokens = *usageTokens < 0 || m.serverOutputTokens < 0 ? -1 : *usageTokens + m.serverOutputTokens;
    s.outputEstimated += m.outputEstimated ? 1 : 0;
    s.inputEstimated += m.inputEstimated ? 1 : 0;
    // Only a trusted count can show that ignore_eos was dropped: an estimate from content
    // events undercounts whenever an event carries several tokens.
    // Each request against its own length: with a range ratio they spread around the point's.
    const int target = r.targetOutputLen > 0 ? r.targetOutputLen : opts.targetOutputLen;
    c.shortOutput += (target > 0 && m.serverOutputTokens >= 0 && m.serverOutputTokens < target) ? 1 : 0;
}

// The point's duration from `origin`, its rates and goodput, success rate, peaks and lengths.
void putRates(PointResult &res, Collected &c, const AggregateOptions &opts, qint64 origin,
    const std::vector<std::size_t> &itlOffsets)
{
    PointSummary &s = res.summary;
    s.duration = c.lastEnd > origin ? nsToSeconds(c.lastEnd - origin) : 0.0;
    if (s.duration > 0) {
        s.requestThroughput = s.completed / s.duration;
        s.outputThroughput = double(s.totalOutputTokens) / s.duration;
        s.totalTokenThroughput = double(s.totalInputTokens + s.totalOutputTokens) / s.duration;
        s.averageConcurrency = Stats::pairwiseSum(c.e2el) / s.duration;
    }
    s.requestGoodput = goodput(c, opts, s.duration);
    const int finished = s.completed + s.failed;
    s.successRate = finished > 0 ? double(s.completed) / finished : 0.0;
    res.censored = finished > 0 && double(s.failed) / finished > FindingThresholds().censoredShare;
    s.maxOutputTokensPerS = maxTokensPerSecond(c, std::size_t(c.itl.size()), itlOffsets);
    s.maxConcurrentRequests = maxConcurrent(c.sweep);
    s.inputLen = c.targetIn;
    s.outputLen = c.targetOut;
    res.achievedInputLen = s.completed > 0 ? double(s.totalInputTokens) / s.completed : 0.0;
    res.achievedOutputLen = s.completed > 0 ? double(s.totalOutputTokens) / s.completed : 0.0;
}

// Every distribution of the point (describe sorts the vectors in place).
void describeAll(PointSummary &s, Collected &c, std::span<const RequestRecord> records, const AggregateOptions &opts,
    const std::vector<double> &extra)
{
    s.ttft = Stats::describeSeconds(c.ttft, extra);
    s.ttfc = Stats::describeSeconds(c.ttfc, extra);
    s.ttfo = Stats::describeSeconds(c.ttfo, extra);
    s.tpot = Stats::describeSeconds(c.tpot, extra);
    s.atpot = Stats::describeSeconds(c.atpot, extra);
    s.itl = Stats::describeNs(c.itl, extra);
    // The content ITLs in a second pass, once the ITLs are described and freed: the point's two
    // arrays of every gap are never held at once (4 bytes per token event each while they fit).
    c.itl = NsList();
    c.citl.reserve(qsizetype(c.events));
    for (const auto &r : records) {
        if (inWindow(r, opts) && !r.warmup)
            appendTokenGapsNs(r, opts.profile, nullptr, &c.citl);
    }
    s.citl = Stats::describeNs(c.citl, extra);
    s.e2el = Stats::describeSeconds(c.e2el, extra);
}

} // namespace

PointResult aggregatePoint(std::span<const RequestRecord> records, const AggregateOptions &opts)
{
    PointResult res;
    PointSummary &s = res.summary;
    s.definitions = definitionsCode(opts.profile);
    Collected c;
    reserveAll(c, records, opts);
    std::vector<std::size_t> itlOffsets;
    itlOffsets.reserve(records.size());
    const qint64 origin = opts.measuredStartNs > 0 ? opts.measuredStartNs : c.firstScheduled;
    if (!records.empty()) {
        s.runId = records.front().runId;
        s.variant = records.front().variant;
        s.point = records.front().point;
        s.repeat = records.front().repeat;
    }
    qint64 usageTokens = 0; // -1 once a request has only an estimate
    const int turns = std::max(1, opts.sessionTurns);
    TurnGroup firstTurns, laterTurns;
    for (const auto &r : records) {
        if (!inWindow(r, opts))
            continue;
        if (r.warmup) {
            ++s.warmup;
            continue;
        }
        const auto itlBefore = std::size_t(c.itl.size());
        const RequestMetrics m = deriveRequest(r, opts.profile);
        appendTokenGapsNs(r, opts.profile, &c.itl, nullptr);
        if (m.cancelled) {
            ++s.cancelled;
            continue;
        }
        c.lastEnd = std::max(c.lastEnd, r.endNs);
        if (c.targetIn == 0)
            c.targetIn = opts.targetInputLen > 0 ? opts.targetInputLen : r.targetInputLen;
        if (c.targetOut == 0)
            c.targetOut = opts.targetOutputLen > 0 ? opts.targetOutputLen : r.targetOutputLen;
        c.startS.push_back(nsToSeconds(r.startNs - origin));
        if (!m.counted) {
            ++s.failed;
            s.rateLimited += r.httpStatus == 429 ? 1 : 0;
            continue;
        }
        itlOffsets.push_back(itlBefore);
        addCounted(c, s, r, m, opts, &usageTokens);
        if (turns > 1)
            (r.index % turns == 0 ? firstTurns : laterTurns).add(r, m);
    }
    s.usageOutputTokens = usageTokens;
    putRates(res, c, opts, origin, itlOffsets);
    const std::vector<double> extra = extraPercentiles(opts.percentiles);
    addFindings(res, c, opts, extra); // before describe: describe sorts the vectors in place
    describeAll(s, c, records, opts, extra);
    if (turns > 1) {
        firstTurns.put(s.turns, QStringLiteral("first_turn"));
        laterTurns.put(s.turns, QStringLiteral("later_turn"));
    }
    return res;
}

namespace {

void addFindings(PointResult &res, Collected &c, const AggregateOptions &o, const std::vector<double> &extra)
{
    const PointSummary &s = res.summary;
    const FindingThresholds t; // the run's findings read the same limits
    auto add = [&](const char *code, double value, double threshold, const QString &metric = {}, double p = 0) {
        res.findings.append(Finding { QLatin1String(code), metric, value, threshold, p });
    };
    const int finished = s.completed + s.failed;
    if (res.censored)
        add(FindingCode::Censored, double(s.failed) / finished, t.censoredShare);
    if (!c.roleGap.empty()) {
        std::sort(c.roleGap.begin(), c.roleGap.end());
        res.medianRoleGapMs = Stats::medianSorted(c.roleGap) * 1000;
        res.summary.roleGapMs = res.medianRoleGapMs;
        if (res.medianRoleGapMs > t.roleGapMs)
            add(FindingCode::RoleChunkBeforeToken, res.medianRoleGapMs, t.roleGapMs);
    }
    if (o.ignoreEos)
        res.summary.shortOutputs = c.shortOutput;
    if (o.ignoreEos && s.completed > 0 && double(c.shortOutput) / s.completed > t.shortOutputShare)
        add(FindingCode::IgnoreEosNotHonoured, double(c.shortOutput) / s.completed, t.shortOutputShare);
    // An estimated input count says nothing about what the server received.
    if (c.targetInSum > 0 && s.completed > 0 && s.inputEstimated == 0) {
        const double dev = std::abs(double(s.totalInputTokens - c.targetInSum)) / double(c.targetInSum);
        if (dev > 0.02)
            add(FindingCode::InputLengthDeviation, dev, 0.02);
    }
    if (s.outputEstimated > 0)
        add(FindingCode::OutputEstimated, double(s.outputEstimated) / s.completed, 0);
    if (s.inputEstimated > 0)
        add(FindingCode::InputEstimated, double(s.inputEstimated) / s.completed, 0);
    std::vector<double> ps(extra.begin(), extra.end());
    for (double p : o.percentiles) {
        if (std::find(ps.begin(), ps.end(), p) == ps.end())
            ps.push_back(p);
    }
    if (std::find(ps.begin(), ps.end(), 99.0) == ps.end())
        ps.push_back(99.0);
    const std::pair<const char *, std::size_t> metrics[] = { { "ttft", c.ttft.size() }, { "tpot", c.tpot.size() },
        { "itl", std::size_t(c.itl.size()) }, { "e2el", c.e2el.size() } };
    for (const auto &[name, n] : metrics) {
        for (double p : ps) {
            const double need = p >= 100 ? std::numeric_limits<double>::infinity() : 10.0 / (1.0 - p / 100.0);
            if (percentileUnreliable(qsizetype(n), p))
                add(FindingCode::UnreliablePercentile, double(n), need, QLatin1String(name), p);
        }
    }
}

} // namespace

} // namespace ServeScope
