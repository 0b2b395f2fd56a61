// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "storage/storetypes.h"

#include <QList>
#include <QString>

#include <optional>

namespace ServeScope {

class ProjectStore;

/// A run as the project holds it: its row, and the experiment it ran read once, each variant resolved.
/// Every reader of a stored run's configuration goes through it.
class StoredRun {
public:
    StoredRun() = default;
    explicit StoredRun(RunRow row);
    /// The run `runId` of `store`; nullopt when the store has no such run (or cannot read it).
    static std::optional<StoredRun> read(ProjectStore &store, qint64 runId);

    const RunRow &row() const { return m_row; }
    /// The experiment as the run resolved it (its variants not applied); null when the stored
    /// configuration does not read (an imported run may have none).
    const Experiment *experiment() const { return m_experiment ? &*m_experiment : nullptr; }
    /// The variant's experiment, resolved; null when the run has no such variant or no configuration.
    const Experiment *variant(const QString &name) const;
    const Experiment *variant(int index) const;
    /// The variant's experiment, or the run's own for a name it does not know; null without a configuration.
    const Experiment *variantOrRun(const QString &name) const;
    /// The index of the point labelled `label` (the experiment's own labels), -1 when none.
    int pointOfLabel(const QString &label) const;

private:
    RunRow m_row;
    std::optional<Experiment> m_experiment;
    QList<Experiment> m_variants; ///< in the experiment's order
};

} // namespace ServeScope
