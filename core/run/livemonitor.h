// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineconfig.h"
#include "run/rollinghistogram.h"
#include "run/runtypes.h"

#include <QElapsedTimer>
#include <QObject>

namespace ServeScope {

/// The run's live state for monitors: position in the run, phase, counts, errors by class, and
/// rolling figures over the last few seconds (TTFT and ITL percentiles, tokens/s, requests/s),
/// computed here on the run thread from fixed-bin histograms (to within 1 %, no sorting) and
/// published as throttled snapshots.
class LiveMonitor final : public QObject {
    Q_OBJECT
public:
    /// Starts the run's clock for variantCount × pointCount × repeatCount measured points.
    void begin(qint64 runId, int variantCount, int pointCount, int repeatCount);
    void setVariant(int index, const QString &name);
    void setPoint(int point, const QString &label, int repeat);
    /// The live baseline's figures at the point about to run (NaN throughout without one).
    void setBaseline(const BaselineFigures &figures) { m_snapshot.baseline = figures; }
    /// Sets the phase ("starting server", "preparing prompts", "warmup", "measuring", "saving") and publishes.
    void setPhase(const QString &phase);
    /// The measured part of the current point starts: it stops after `requests` (0: no count)
    /// or `seconds` (0: no time limit), whichever comes first.
    void setPointPlan(int requests, double seconds);

    /// Every finished request of the running point.
    void observe(const RequestRecord &record);
    /// The running point's progress (throttled by the generator); publishes a snapshot.
    void publish(const LoadProgress &progress);
    /// A point is done: its counts join the run's totals.
    void addFinished(const PointSummary &summary);

    const RunSnapshot &snapshot() const { return m_snapshot; }

Q_SIGNALS:
    void snapshotUpdated(const ServeScope::RunSnapshot &snapshot);

private:
    static constexpr qint64 kRollingWindowNs = 5'000'000'000;
    static constexpr int kRollingSlices = 20;
    void updateRolling();

    RunSnapshot m_snapshot;
    QElapsedTimer m_clock;
    int m_doneCompleted = 0, m_doneFailed = 0, m_doneCancelled = 0;
    int m_pointsDone = 0; ///< (variant, point, repeat) finished, for fraction
    int m_pointRequests = 0; ///< the current point's plan
    double m_pointSeconds = 0;
    qint64 m_pointStartNs = 0; ///< 0: the current point is not measuring yet
    // Rolling window (the last 5 s in 250 ms slices), by request end time: TTFT and ITL in ms,
    // output tokens (count and sum only).
    RollingHistogram m_rollTtft { kRollingWindowNs, kRollingSlices };
    RollingHistogram m_rollItl { kRollingWindowNs, kRollingSlices };
    RollingHistogram m_rollTokens { kRollingWindowNs, kRollingSlices, false };
    NsList m_itl; ///< scratch for one record's gaps (ns)
};

} // namespace ServeScope
