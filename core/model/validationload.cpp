// SPDX-License-Identifier: MIT
// Validation of the load: each point's bounds and stop rule, a plan longer than a day, a capacity search.
#include "validationchecker.h"

#include "model/variables.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace ServeScope::Validation {

namespace {

void checkPoint(Checker &c, LoadMode mode, const LoadPoint &p, const QString &at, bool fromFile, bool outputFromFile)
{
    if (mode == LoadMode::Concurrency) {
        c.range(at + QLatin1String(".concurrency"), p.concurrency, 1, 1048576);
        if (p.requestRate != 0)
            c.error(at + QLatin1String(".request_rate"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is only allowed when load.mode is rate") });
        if (p.maxConcurrency != 0)
            c.error(at + QLatin1String(".max_concurrency"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is only allowed when load.mode is rate") });
    } else {
        if (std::isnan(p.requestRate) || p.requestRate <= 0)
            c.error(at + QLatin1String(".request_rate"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be greater than 0 (or \"inf\")") });
        if (std::isnan(p.burstiness) || p.burstiness <= 0)
            c.error(at + QLatin1String(".burstiness"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be greater than 0 (or \"inf\")") });
        c.range(at + QLatin1String(".max_concurrency"), p.maxConcurrency, 0, 1048576);
        if (p.concurrency != 0)
            c.error(at + QLatin1String(".concurrency"),
                Reason { QT_TRANSLATE_NOOP(
                    "ServeScope::Problem", "is only allowed when load.mode is concurrency (use max_concurrency)") });
    }
    // custom and sharegpt prompts are the file's own (input_len 0 takes them as they are); a
    // sharegpt output_len of 0 is each conversation's reference completion length, as in vLLM.
    c.range(at + QLatin1String(".input_len"), p.inputLen, fromFile ? 0 : 1, 10000000);
    c.range(at + QLatin1String(".output_len"), p.outputLen, outputFromFile ? 0 : 1, 10000000);
    c.range(at + QLatin1String(".num_prompts"), p.numPrompts, 0, 100000000);
    c.finite(at + QLatin1String(".max_seconds"), p.maxSeconds, 0, 1e7);
    if (p.numPrompts == 0 && p.maxSeconds == 0)
        c.error(at,
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs a stop rule: num_prompts and/or max_seconds") });
    if (std::isinf(p.requestRate) && p.numPrompts == 0)
        c.error(at + QLatin1String(".num_prompts"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required with an infinite request_rate") });
    const int lanes = mode == LoadMode::Concurrency ? p.concurrency : 0; // open loop rarely fills its cap
    if (lanes > 0 && p.numPrompts > 0 && qint64(p.numPrompts) < 5 * qint64(lanes))
        c.warning(at + QLatin1String(".num_prompts"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                         "fewer than 5 x concurrency (%1) prompts; the point barely leaves its ramp"),
                { QString::number(5 * qint64(lanes)) } });
}

// An open-loop point sends its last request at num_prompts / request_rate (or stops at max_seconds): one planned
// to last over a day is a typo of the rate, not a benchmark (1e-8 req/s would wait for ever at "ETA ?").
void checkPlannedDuration(Checker &c, LoadMode mode, const LoadPoint &p, const QString &at, const QString &label)
{
    constexpr double kDaySeconds = 86400;
    if (mode != LoadMode::Rate || p.numPrompts <= 0 || !(p.requestRate > 0) || std::isinf(p.requestRate))
        return;
    double seconds = double(p.numPrompts) / p.requestRate;
    if (p.maxSeconds > 0)
        seconds = std::min(seconds, p.maxSeconds);
    if (seconds <= kDaySeconds)
        return;
    c.error(at + QLatin1String(".request_rate"),
        Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                     "plans point %1 to last %2 s (%3 prompts at %4 requests/s), longer than a day (86400 s): raise "
                     "request_rate, or lower num_prompts or max_seconds"),
            { label, formatNumber(seconds), QString::number(p.numPrompts), formatNumber(p.requestRate) } });
}

void checkCapacity(Checker &c, LoadMode mode, const CapacitySearch &s, bool fromFile, bool outputFromFile)
{
    const QString at = QStringLiteral("load.capacity");
    if (s.slos.isEmpty())
        c.error(at + QLatin1String(".slo"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs at least one SLO, e.g. p90_ttft_ms") });
    QSet<QString> keys;
    for (const Slo &slo : s.slos) {
        c.finite(at + QLatin1String(".slo.") + slo.key(), slo.maxMs, 1e-6, 1e9);
        if (keys.contains(slo.metric))
            c.error(at + QLatin1String(".slo.") + slo.key(),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "bounds %1 a second time"), { slo.metric } });
        keys.insert(slo.metric);
    }
    if (s.attainment != 0)
        c.finite(at + QLatin1String(".attainment"), s.attainment, 0.01, 1);
    const double floor = mode == LoadMode::Concurrency ? 1 : 1e-6;
    c.finite(at + QLatin1String(".start"), s.start, floor, 1048576);
    c.finite(at + QLatin1String(".max"), s.max, std::max(floor, s.start), 1048576);
    c.finite(at + QLatin1String(".resolution"), s.resolution, 0.001, 1);
    c.range(at + QLatin1String(".max_points"), s.maxPoints, 2, 100);
    c.range(at + QLatin1String(".max_repeats"), s.maxRepeats, 1, 20);
    c.finite(at + QLatin1String(".max_total_s"), s.maxTotalSeconds, 0, 1e7);
    c.range(at + QLatin1String(".prompts_per_level"), s.promptsPerLevel, 0, 1000000);
    if (s.point.numPrompts == 0 && s.promptsPerLevel == 0 && s.point.maxSeconds == 0)
        c.error(at,
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                "needs a stop rule for each level: num_prompts, prompts_per_level and/or max_seconds") });
    else
        checkPoint(c, mode, s.at(mode, s.start), at, fromFile, outputFromFile);
    // Its first level is its slowest: the rest of the search only raises the rate.
    checkPlannedDuration(c, mode, s.at(mode, s.start), at, QStringLiteral("r%1").arg(formatNumber(s.start)));
}

} // namespace

void checkLoad(Checker &c, const LoadMatrix &load, const Dataset &dataset)
{
    const bool trace = dataset.name == QLatin1String("trace");
    const bool outputFromFile = trace || dataset.name == QLatin1String("sharegpt");
    const bool fromFile = outputFromFile || dataset.name == QLatin1String("custom");
    // A trace sets every prompt's length and, in open loop, the gaps between requests (a capacity search's levels
    // too: they are made from its template).
    QList<std::pair<QString, LoadPoint>> replayed;
    for (qsizetype i = 0; trace && i < load.points.size(); ++i)
        replayed.append({ QStringLiteral("load.points[%1]").arg(i), load.points.at(i) });
    if (trace && load.capacity)
        replayed.append({ QStringLiteral("load.capacity"), load.capacity->point });
    for (const auto &[at, p] : std::as_const(replayed)) {
        if (p.inputLen != 0)
            c.error(at + QLatin1String(".input_len"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                    "must be left out for the trace dataset: the trace sets each prompt's length") });
        if (load.mode == LoadMode::Rate && p.burstiness != 1.0)
            c.error(at + QLatin1String(".burstiness"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                    "must be left out for the trace dataset: the trace's own gaps are replayed") });
    }
    if (load.capacity)
        checkCapacity(c, load.mode, *load.capacity, fromFile, outputFromFile);
    else if (load.points.isEmpty())
        c.error(QStringLiteral("load.points"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs at least one point") });
    QSet<QString> labels;
    Experiment tmp; // pointLabel() needs the mode and points only
    tmp.load = load;
    for (qsizetype i = 0; i < load.points.size(); ++i) {
        const QString at = QStringLiteral("load.points[%1]").arg(i);
        checkPoint(c, load.mode, load.points.at(i), at, fromFile, outputFromFile);
        const QString label = tmp.pointLabel(int(i));
        checkPlannedDuration(c, load.mode, load.points.at(i), at, label);
        if (labels.contains(label))
            c.error(at + QLatin1String(".label"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "repeats the point label %1"), { label } });
        labels.insert(label);
    }
    if (!load.gradient.isEmpty() && load.mode != LoadMode::Concurrency)
        c.error(QStringLiteral("load.concurrency_gradient"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs load.mode concurrency") });
    c.range(QStringLiteral("load.warmup_requests"), load.warmupRequests, 0, 10000000);
    c.finite(QStringLiteral("load.discard_ratio"), load.discardRatio, 0, 0.49);
    c.range(QStringLiteral("load.repeat"), load.repeat, 1, 1000);
    c.range(QStringLiteral("load.max_event_bytes"), load.maxEventBytes, 1024, 1 << 30);
    c.finite(QStringLiteral("load.stop_when_settled.width"), load.settle.width, 0, 1);
    c.range(QStringLiteral("load.stop_when_settled.min_requests"), load.settle.minRequests, 10, 100000000);
    if (load.settle.verdict && !load.capacity)
        c.error(QStringLiteral("load.stop_when_settled.verdict"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "needs load.mode capacity: only its levels have SLOs") });
    const Timeouts &t = load.timeouts;
    c.finite(QStringLiteral("load.timeouts.connect_s"), t.connectS, 0, 1e7);
    c.finite(QStringLiteral("load.timeouts.first_token_s"), t.firstTokenS, 0, 1e7);
    c.finite(QStringLiteral("load.timeouts.idle_s"), t.idleS, 0, 1e7);
    c.finite(QStringLiteral("load.timeouts.total_s"), t.totalS, 0, 1e7);
    // Only a first-token timeout the experiment sets: the default one simply yields to total_s.
    if (t.totalS > 0 && t.firstTokenS > t.totalS && t.firstTokenS != Timeouts().firstTokenS)
        c.warning(QStringLiteral("load.timeouts.first_token_s"),
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is longer than total_s") });
}

} // namespace ServeScope::Validation
