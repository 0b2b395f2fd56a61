// SPDX-License-Identifier: MIT
#include "livemonitor.h"

#include "metrics/requestmetrics.h"
#include "model/clock.h"

#include <algorithm>

namespace ServeScope {

void LiveMonitor::begin(qint64 runId, int variantCount, int pointCount, int repeatCount)
{
    m_clock.start();
    m_snapshot = RunSnapshot();
    m_snapshot.runId = runId;
    m_snapshot.variantCount = variantCount;
    m_snapshot.pointCount = pointCount;
    m_snapshot.repeatCount = repeatCount;
    m_pointsDone = 0;
    m_pointStartNs = 0;
    m_rollTtft.clear();
    m_rollItl.clear();
    m_rollTokens.clear();
}

void LiveMonitor::setVariant(int index, const QString &name)
{
    m_snapshot.variantIndex = index;
    m_snapshot.variant = name;
}

void LiveMonitor::setPoint(int point, const QString &label, int repeat)
{
    m_snapshot.point = point;
    m_snapshot.pointLabel = label;
    m_snapshot.repeat = repeat;
}

void LiveMonitor::setPhase(const QString &phase)
{
    m_snapshot.phase = phase;
    m_snapshot.warmup = phase == QLatin1String("warmup");
    Q_EMIT snapshotUpdated(m_snapshot);
}

void LiveMonitor::setPointPlan(int requests, double seconds)
{
    m_pointRequests = requests;
    m_pointSeconds = seconds;
    m_pointStartNs = monotonicNs();
}

void LiveMonitor::observe(const RequestRecord &record)
{
    if (record.warmup)
        return;
    if (record.status == RequestStatus::Failed) {
        const QString code = errorClassCode(record.errorClass);
        if (++m_snapshot.errorsByClass[code] == 1)
            m_snapshot.firstErrorByClass.insert(code, record.errorText);
    }
    if (!record.ok())
        return;
    const RequestMetrics m = deriveRequest(record, DefinitionsProfile::Vllm);
    if (!m.counted)
        return;
    m_rollTtft.add(record.endNs, m.ttft * 1000);
    m_itl.clear();
    appendTokenGapsNs(record, DefinitionsProfile::Vllm, &m_itl, nullptr);
    for (qint64 gap : std::as_const(m_itl))
        m_rollItl.add(record.endNs, nsToSeconds(gap) * 1000);
    m_rollTokens.add(record.endNs, m.outputTokens);
}

void LiveMonitor::updateRolling()
{
    const qint64 now = monotonicNs();
    m_rollTtft.advance(now);
    m_rollItl.advance(now);
    m_rollTokens.advance(now);
    const double windowS = std::min(double(m_rollTokens.spanNs(now)), double(m_clock.nsecsElapsed())) / 1e9;
    m_snapshot.ttftP50Ms = m_rollTtft.percentile(50);
    m_snapshot.ttftP99Ms = m_rollTtft.percentile(99);
    m_snapshot.itlP50Ms = m_rollItl.percentile(50);
    m_snapshot.itlP99Ms = m_rollItl.percentile(99);
    m_snapshot.outputTokensPerS = windowS > 0 ? m_rollTokens.sum() / windowS : 0;
    m_snapshot.requestsPerS = windowS > 0 ? double(m_rollTtft.count()) / windowS : 0;
}

void LiveMonitor::publish(const LoadProgress &progress)
{
    updateRolling();
    m_snapshot.inFlight = progress.inFlight;
    m_snapshot.completed = m_doneCompleted + progress.completed;
    m_snapshot.failed = m_doneFailed + progress.failed;
    m_snapshot.cancelled = m_doneCancelled + progress.cancelled;
    m_snapshot.elapsedNs = m_clock.nsecsElapsed();
    const double elapsedS = m_snapshot.elapsedNs / 1e9;
    double point = 0;
    if (m_pointStartNs > 0) {
        if (m_pointRequests > 0)
            point = double(progress.completed + progress.failed + progress.cancelled) / m_pointRequests;
        if (m_pointSeconds > 0)
            point = std::max(point, double(monotonicNs() - m_pointStartNs) / 1e9 / m_pointSeconds);
    }
    const int units = std::max(1, m_snapshot.variantCount * m_snapshot.pointCount * m_snapshot.repeatCount);
    m_snapshot.fraction = std::clamp((m_pointsDone + std::clamp(point, 0.0, 1.0)) / units, 0.0, 1.0);
    const double f = m_snapshot.fraction;
    m_snapshot.etaSeconds = f >= 1 ? 0 : f > 0 ? elapsedS * (1 - f) / f : -1;
    Q_EMIT snapshotUpdated(m_snapshot);
}

void LiveMonitor::addFinished(const PointSummary &summary)
{
    m_doneCompleted += summary.completed;
    m_doneFailed += summary.failed;
    m_doneCancelled += summary.cancelled;
    ++m_pointsDone;
    m_pointStartNs = 0;
}

} // namespace ServeScope
