// SPDX-License-Identifier: MIT
#pragma once

#include "compare/runsource.h"
#include "model/experiment.h"

#include <QObject>

#include <atomic>
#include <functional>

namespace ServeScope {

class CapacitySearcher;
class PointCloser;
class StoreWriter;
struct CapacityResult;
struct PointOutcome;
struct VariantContext;

/// load.capacity for a run: each variant's levels as CapacitySearcher asks for them, every level a
/// point of the run (appended to the run's points when first measured, and shared by every variant),
/// and the levels of an earlier run (RunOptions::reuseLevels) reused where this search's SLOs decide
/// them.
class CapacityRun final : public QObject {
    Q_OBJECT
public:
    /// `experiment` is the run's own: the levels measured are appended to its points and the run's
    /// stored configuration follows. `reuseLevels` names the earlier run (empty: none).
    CapacityRun(Experiment &experiment, QString reuseLevels);

    /// Reads the earlier run, with every request's sample; false with *error when it has none to give
    /// (no capacity search here, no such run, other definitions).
    bool readReused(const QString &projectPath, QString *error);

    /// The next repeat of the open point of `points` measured; false when the run must stop.
    using Measure = std::function<bool(PointOutcome *outcome)>;
    /// Searches one variant until the search is done or cancelled; its result stored and in *result.
    /// False when the run must stop.
    bool search(const VariantContext &context, Experiment &resolved, StoreWriter &writer, PointCloser &points,
        const Measure &measure, const std::atomic<bool> &cancel, CapacityResult *result);

Q_SIGNALS:
    void logged(const QString &level, const QString &text);

private:
    /// The earlier run's levels of `variant` that this search's SLOs decide, handed to `search`.
    void reuseLevels(const QString &variant, const Experiment &resolved, CapacitySearcher &search);
    /// Index of the run's point at `level`, appended (to the run and to `resolved`) when new.
    int pointAt(Experiment &resolved, double level, StoreWriter &writer, qint64 runId);

    Experiment &m_experiment;
    QString m_reuseLevels;
    RunSource m_reused;
};

} // namespace ServeScope
