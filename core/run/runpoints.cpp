// SPDX-License-Identifier: MIT
// RunWorker's points of one variant: each measured with its repeats, then closed: estimates stored, the results
// folder's repeats file, the findings, and the verdict against a live baseline.
#include "runworker.h"

#include "metrics/estimates.h"
#include "run/heaptrim.h"
#include "run/pointrunner.h"
#include "storage/storewriter.h"

namespace ServeScope {

bool RunWorker::measure(const VariantContext &context, OpenPoint &open, PointOutcome *outcome)
{
    if (serverExited(context.variant))
        return false;
    m_monitor.setBaseline(m_baseline.figures(pointKey(context.resolved, open.point, context.variant)));
    *outcome = m_points->run(context, open.point, ++open.repeat);
    releaseFreedHeap(); // the point's records and result file are freed by now
    if (!outcome->ok) {
        m_result.message = outcome->error;
        log(QStringLiteral("error"), outcome->error);
        return false;
    }
    if (!outcome->measured)
        return true;
    m_result.addPoint(outcome->summary);
    open.identity = outcome->summary;
    addRepeat(&open.repeats, outcome->summary, outcome->samples);
    for (auto it = outcome->failures.cbegin(); it != outcome->failures.cend(); ++it)
        open.repeats.failures[it.key()] += it.value();
    addSteadyRepeat(&open.steady, outcome->summary, outcome->steadySamples);
    return true;
}

void RunWorker::close(OpenPoint &open)
{
    if (!open.repeats.repeats.isEmpty())
        finishPoint(open.identity, open.repeats, open.steady);
    open = OpenPoint {};
}

bool RunWorker::runPoints(const VariantContext &context)
{
    for (int p = 0; p < context.resolved.load.points.size() && !m_cancel->load(); ++p) {
        OpenPoint open;
        open.point = p;
        while (open.repeat < qMax(1, context.resolved.load.repeat) && !m_cancel->load()) {
            PointOutcome outcome;
            if (!measure(context, open, &outcome))
                return false;
        }
        close(open);
    }
    return true;
}

void RunWorker::finishPoint(const PointSummary &identity, const PointRepeats &repeats, const PointRepeats &steady)
{
    const RepeatEstimates estimates = estimateRepeats(m_result.runId, repeats);
    for (const PointEstimate &e : estimates.stored)
        m_writer->enqueue(e);
    for (const PointEstimate &e : estimateSteady(m_result.runId, steady))
        m_writer->enqueue(e);
    m_estimates << estimates.stored;
    QString error;
    if (m_output.isOpen() && !m_output.writeRepeats(identity, repeats, estimates.stored, &error))
        log(QStringLiteral("error"), error);
    for (const QString &line : estimates.findings)
        log(QStringLiteral("finding"), line);
    if (m_baseline.active()) {
        const PointVerdict v = m_baseline.verdict(repeats, estimates.stored);
        log(QStringLiteral("vs"), m_baseline.line(v));
        Q_EMIT pointCompared(v);
    }
}

} // namespace ServeScope
