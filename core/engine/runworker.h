// SPDX-License-Identifier: MIT
#pragma once

#include "engineconfig.h"
#include "runcontroller.h"
#include "runoutput.h"
#include "simprocess.h"

#include <QElapsedTimer>
#include <QObject>

#include <deque>
#include <memory>

namespace ServeScope {

class LoadGenerator;
class StoreWriter;

/// The body of a run, on the run thread: variants → points → repeats, each with warmup, prompts,
/// storage and aggregates. Blocking waits here are local event loops on the run thread, never
/// on the GUI thread.
class RunWorker final : public QObject {
public:
    RunWorker(RunController *controller, Experiment experiment, RunOptions options);
    ~RunWorker() override;

    void run();
    void cancelNow();

private:
    bool cancelled() const;
    bool runVariant(int variantIndex);
    bool runPointRepeat(const Experiment &resolved, const EndpointConfig &endpoint, int point, int repeat);
    LoadOutcome runLoad(const EndpointConfig &endpoint, const QVector<PreparedRequest> &requests, const LoadSpec &spec,
        QVector<RequestRecord> *records);
    bool endpointFor(const Experiment &resolved, EndpointConfig *endpoint);
    QList<int> countTokens(const QUrl &base, const QByteArray &key, const QString &model, const QStringList &texts);
    /// One small request on the run thread; returns the body, or a null array on failure.
    QByteArray serverCall(const EndpointConfig &endpoint, const QString &path, const QByteArray &postBody = {});
    void waitServerIdle(const EndpointConfig &endpoint);
    void resetPrefixCache(const Experiment &resolved, const EndpointConfig &endpoint);
    void observe(const RequestRecord &record);
    void publish(const LoadProgress &progress);
    void log(const QString &level, const QString &text);
    QJsonObject manifest(const QString &status) const;

    RunController *m_controller;
    Experiment m_experiment;
    RunOptions m_options;
    std::unique_ptr<StoreWriter> m_writer;
    std::unique_ptr<LoadGenerator> m_generator;
    SimProcess m_sim;
    RunOutput m_output;
    RunResult m_result;
    RunSnapshot m_snapshot;
    QElapsedTimer m_clock;
    QStringList m_simArguments;
    QJsonObject m_clientHost;
    QString m_started;

    // Rolling window (last few seconds) for the monitor: (end ns, value ms).
    std::deque<std::pair<qint64, double>> m_rollTtft, m_rollItl;
    std::deque<std::pair<qint64, int>> m_rollTokens;
};

} // namespace ServeScope
