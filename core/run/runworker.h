// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/estimates.h"
#include "model/experiment.h"
#include "model/redaction.h"
#include "run/livebaseline.h"
#include "run/livemonitor.h"
#include "run/runevents.h"
#include "run/runoutput.h"
#include "run/runrecord.h"
#include "run/runtypes.h"
#include "run/variantendpoint.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace ServeScope {

class CapacitySearcher;

class LoadGenerator;
class PointRunner;
class StoreWriter;
struct PointOutcome;
struct VariantContext;

/// The body of a run, on the run thread: opens the results folder and the project, then runs every
/// selected variant through every point and repeat (each by the PointRunner) and records the outcome.
class RunWorker final : public RunEvents {
    Q_OBJECT
public:
    RunWorker(Experiment experiment, RunOptions options, std::shared_ptr<std::atomic<bool>> cancel);
    ~RunWorker() override;

    void run();
    /// Ends the running point's in-flight requests as `cancelled` (after the cancel flag is set).
    void cancelNow();
    /// The project could not store what the run measured (a full disk, an I/O error): the load
    /// stops at once, as on cancel, and the run ends failed. Any thread.
    void stopOnStorageFailure(const QString &why);

private:
    bool record(QString *error);
    bool runVariant(int variantIndex);
    /// A point being measured: its repeats so far.
    struct OpenPoint {
        int point = -1;
        int repeat = 0;
        PointSummary identity;
        PointRepeats repeats, steady;
    };
    /// The next repeat of `open`; false when the run must stop (the message set and logged).
    bool measure(const VariantContext &context, OpenPoint &open, PointOutcome *outcome);
    /// Its estimates stored once its repeats are done.
    void close(OpenPoint &open);
    /// The experiment's points in order, each with every repeat.
    bool runPoints(const VariantContext &context);
    /// load.capacity: the levels the search asks for (runcapacity.cpp), each appended to the run's
    /// points when first measured.
    bool searchCapacity(const VariantContext &context, Experiment &resolved);
    /// RunOptions::reuseLevels read: a capacity search's, under the same definitions (else *error).
    bool readReusedRun(QString *error);
    /// The reused run's levels of `variant` that this search's SLOs decide, handed to `search`.
    void reuseLevels(const QString &variant, const Experiment &resolved, CapacitySearcher &search);
    /// Index of the run's point at `level`, appended (to the run and to `resolved`) when new.
    int pointAt(Experiment &resolved, double level);
    /// True (and the message set) when the variant's launched server exited on its own; the exit is stored
    /// (a server log line of stream "exit") and named by the run's findings.
    bool serverExited(const QString &variant);
    /// After a point's repeats: the estimates across them stored (vLLM's set and the steady window's)
    /// and written to the results folder, and a finding for every headline metric whose repeats
    /// spread more than 5%.
    void finishPoint(const PointSummary &identity, const PointRepeats &repeats, const PointRepeats &steady);
    void finish();
    void fail(const QString &message);
    /// Every line of the run's log passes the redaction rule for the run's key and the open
    /// endpoint's secret header values.
    void log(const QString &level, const QString &text) { Q_EMIT logged(level, m_redactor.apply(text)); }

    Experiment m_experiment;
    RunOptions m_options;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QList<int> m_variants;
    RunIdentity m_identity;
    QList<PointEstimate> m_estimates; ///< every finished point's statistics across repeats
    QList<ServerExit> m_serverExits; ///< launched servers that exited while the run used them
    std::unique_ptr<StoreWriter> m_writer;
    std::unique_ptr<LoadGenerator> m_generator;
    std::unique_ptr<PointRunner> m_points;
    QMap<QString, QPair<QString, QString>> m_answered; ///< per variant, kept from the point runner
    VariantEndpoint m_endpoint;
    RunOutput m_output;
    LiveMonitor m_monitor;
    LiveBaseline m_baseline;
    RunSource m_reused; ///< RunOptions::reuseLevels, with every request's sample
    RunResult m_result;
    QStringList m_probedBases;
    Redactor m_redactor;
    std::atomic<bool> m_storageFailed { false };
};

} // namespace ServeScope
