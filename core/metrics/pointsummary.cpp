// SPDX-License-Identifier: MIT
#include "pointsummary.h"

#include "metrics/clienthealth.h"
#include "metrics/findings.h"
#include "model/apirequest.h"

namespace ServeScope {

DefinitionsProfile definitionsProfile(const Experiment &resolved)
{
    return resolved.metrics.definitions == Definitions::Sglang ? DefinitionsProfile::Sglang : DefinitionsProfile::Vllm;
}

AggregateOptions aggregateOptions(const Experiment &resolved, const PointKey &key, qint64 clockStartNs)
{
    AggregateOptions opts;
    opts.profile = definitionsProfile(resolved);
    opts.measuredStartNs = clockStartNs;
    opts.percentiles = QVector<double>(resolved.metrics.percentiles.cbegin(), resolved.metrics.percentiles.cend());
    opts.sloTtftMs = resolved.metrics.goodput.ttftMs.value_or(-1);
    opts.sloTpotMs = resolved.metrics.goodput.tpotMs.value_or(-1);
    opts.sloE2elMs = resolved.metrics.goodput.e2elMs.value_or(-1);
    opts.ignoreEos = sendsIgnoreEos(resolved); // what the requests carried, not what the dataset asked
    opts.targetInputLen = key.inputLen;
    opts.targetOutputLen = key.outputLen;
    opts.sessionTurns = resolved.dataset.sessionTurns();
    return opts;
}

PointResult summarisePoint(const Experiment &resolved, const PointKey &key, int repeat,
    const QVector<RequestRecord> &records, qint64 clockStartNs)
{
    const AggregateOptions opts = aggregateOptions(resolved, key, clockStartNs);
    PointResult result = aggregatePoint(records, opts);
    PointSummary &s = result.summary;
    s.setKey(key);
    s.repeat = repeat;
    s.definitions = definitionsName(resolved.metrics.definitions);
    // The steady window opens when the point's slots (or cap) are first all busy; an uncapped
    // open loop has no such level and opens with its first request. discard_ratio trims by start time instead.
    const SteadyOptions steady { std::max(1, s.concurrency), resolved.load.discardRatio };
    s.steady = steadyValues(steadyWindow(records, opts, steady));
    // Wherever a point is summarised, a buffered stream's decode timings are not shown as measured.
    s.client = streamArrival(records);
    s.client.insert(usageSetAside(records));
    withholdBufferedDecode(&s);
    return result;
}

} // namespace ServeScope
