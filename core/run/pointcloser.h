// SPDX-License-Identifier: MIT
#pragma once

#include "compare/runsource.h"
#include "metrics/estimates.h"

#include <QObject>

namespace ServeScope {

class LiveBaseline;
class RunOutput;
class StoreWriter;
struct PointOutcome;

/// One point of a variant while the run measures its repeats, and its closing step once they are done:
/// the estimates across repeats stored (vLLM's set and the steady window's) and written to the results
/// folder, a finding for every headline metric whose repeats spread more than 5%, and the point's verdict
/// against a live baseline (RunOptions::vs).
class PointCloser final : public QObject {
    Q_OBJECT
public:
    PointCloser(qint64 runId, StoreWriter &writer, RunOutput &output, const LiveBaseline &baseline);

    /// The open point (-1 when none is) and how many of its repeats have begun.
    int point() const { return m_point; }
    int repeats() const { return m_repeat; }
    /// Makes `point` the open one; the open point, when it is another, is closed first.
    void open(int point);
    /// The open point's next repeat, counted as begun: its number (1 for the first).
    int beginRepeat() { return ++m_repeat; }
    /// A measured repeat of the open point.
    void add(const PointOutcome &outcome);
    /// Closes the open point: nothing is stored when none of its repeats was measured.
    void close();
    /// Every closed point's statistics across repeats, in the order they were closed.
    const QList<PointEstimate> &estimates() const { return m_estimates; }

Q_SIGNALS:
    void logged(const QString &level, const QString &text);
    void pointCompared(const ServeScope::PointVerdict &verdict);

private:
    qint64 m_runId;
    StoreWriter &m_writer;
    RunOutput &m_output;
    const LiveBaseline &m_baseline;
    int m_point = -1;
    int m_repeat = 0;
    PointSummary m_identity; ///< the open point's last measured repeat: its key and labels
    PointRepeats m_repeats, m_steady;
    QList<PointEstimate> m_estimates;
};

} // namespace ServeScope
