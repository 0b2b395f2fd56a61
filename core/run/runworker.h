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

class CapacityRun;
class LoadGenerator;
class PointCloser;
class PointRunner;
class StoreWriter;
struct PointOutcome;
struct VariantContext;

/// The body of a run, on the run thread: opens the results folder and the project, then runs every
/// selected variant through its points (the experiment's, or the levels a CapacityRun asks for), each
/// repeat by the PointRunner and each point closed by the PointCloser, and records the outcome.
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
    /// The next repeat of the closer's open point; false when the run must stop (the message set and logged).
    bool measure(const VariantContext &context, PointOutcome *outcome);
    /// The experiment's points in order, each with every repeat.
    bool runPoints(const VariantContext &context);
    /// True (and the message set) when the variant's launched server exited on its own; the exit is stored
    /// (a server log line of stream "exit") and named by the run's findings.
    bool serverExited(const QString &variant);
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
    QList<ServerExit> m_serverExits; ///< launched servers that exited while the run used them
    std::unique_ptr<StoreWriter> m_writer;
    std::unique_ptr<LoadGenerator> m_generator;
    std::unique_ptr<PointRunner> m_points;
    std::unique_ptr<PointCloser> m_closer; ///< the points measured, closed with their estimates
    std::unique_ptr<CapacityRun> m_capacity; ///< load.capacity: the search over every variant
    QMap<QString, QPair<QString, QString>> m_answered; ///< per variant, kept from the point runner
    VariantEndpoint m_endpoint;
    RunOutput m_output;
    LiveMonitor m_monitor;
    LiveBaseline m_baseline;
    RunResult m_result;
    QStringList m_probedBases;
    Redactor m_redactor;
    std::atomic<bool> m_storageFailed { false };
};

} // namespace ServeScope
