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

signals:
    void experimentActivated();
    void variantActivated(int index);
    void runActivated(qint64 runId, const QString &name);

private:
    void rebuild();
    QString runText(const RunListing &r) const;

    Experiment m_experiment;
    QVector<RunListing> m_runs;
};

} // namespace ServeScope
