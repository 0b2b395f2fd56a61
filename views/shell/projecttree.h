// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "storage/storetypes.h"

#include <QTreeWidget>

namespace ServeScope {

/// Experiments -> variants -> runs of the open project.
class ProjectTree final : public QTreeWidget {
    Q_OBJECT
public:
    explicit ProjectTree(QWidget *parent = nullptr);

    void setExperiment(const Experiment &experiment);
    void setRuns(const QVector<RunListing> &runs);
    int runCount() const { return int(m_runs.size()); }
    /// Selects exactly these runs; `announce`: runsSelected says so (the results then show them,
    /// compared when there are several), else the tree only follows what is shown.
    void selectRuns(const QList<qint64> &ids, bool announce = true);
    /// The selected runs, oldest first (A is the oldest).
    QList<qint64> selectedRuns() const;

signals:
    void experimentActivated();
    void variantActivated(int index);
    /// The run selection changed: one run to show, or several to compare.
    void runsSelected(const QList<qint64> &ids);
    void rerunRequested(qint64 runId);
    void publishRequested(qint64 runId);

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void rebuild();
    QString runText(const RunListing &r) const;

    Experiment m_experiment;
    QVector<RunListing> m_runs;
};

} // namespace ServeScope
