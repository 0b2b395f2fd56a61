// SPDX-License-Identifier: MIT
#include "pointcloser.h"

#include "run/livebaseline.h"
#include "run/pointrunner.h"
#include "run/runoutput.h"
#include "storage/storewriter.h"

namespace ServeScope {

PointCloser::PointCloser(qint64 runId, StoreWriter &writer, RunOutput &output, const LiveBaseline &baseline)
    : m_runId(runId)
    , m_writer(writer)
    , m_output(output)
    , m_baseline(baseline)
{
}

void PointCloser::open(int point)
{
    if (point == m_point)
        return;
    close();
    m_point = point;
}

void PointCloser::add(const PointOutcome &outcome)
{
    m_identity = outcome.summary;
    addRepeat(&m_repeats, outcome.summary, outcome.samples);
    for (auto it = outcome.failures.cbegin(); it != outcome.failures.cend(); ++it)
        m_repeats.failures[it.key()] += it.value();
    addSteadyRepeat(&m_steady, outcome.summary, outcome.steadySamples);
}

void PointCloser::close()
{
    if (!m_repeats.repeats.isEmpty()) {
        const RepeatEstimates estimates = estimateRepeats(m_runId, m_repeats);
        for (const PointEstimate &e : estimates.stored)
            m_writer.enqueue(e);
        for (const PointEstimate &e : estimateSteady(m_runId, m_steady))
            m_writer.enqueue(e);
        m_estimates << estimates.stored;
        QString error;
        if (m_output.isOpen() && !m_output.writeRepeats(m_identity, m_repeats, estimates.stored, &error))
            Q_EMIT logged(QStringLiteral("error"), error);
        for (const QString &line : estimates.findings)
            Q_EMIT logged(QStringLiteral("finding"), line);
        if (m_baseline.active()) {
            const PointVerdict v = m_baseline.verdict(m_repeats, estimates.stored);
            Q_EMIT logged(QStringLiteral("vs"), m_baseline.line(v));
            Q_EMIT pointCompared(v);
        }
    }
    m_point = -1;
    m_repeat = 0;
    m_identity = PointSummary {};
    m_repeats = PointRepeats {};
    m_steady = PointRepeats {};
}

} // namespace ServeScope
