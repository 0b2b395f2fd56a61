// SPDX-License-Identifier: MIT
#pragma once

#include "compare/runsource.h"
#include "model/experiment.h"
#include "run/runevents.h"
#include "run/runtypes.h"

#include <QObject>

#include <atomic>
#include <memory>

class QThread;

namespace ServeScope {

class RunWorker;

/// Runs an experiment: every selected variant through every point and repeat, warmups, prompts,
/// storage of every finished request, aggregates, result files. All work happens on its own
/// thread and the engine's workers; signals arrive queued on the caller's thread.
class RunController final : public RunEvents {
    Q_OBJECT
public:
    RunController(Experiment experiment, RunOptions options, QObject *parent = nullptr);
    ~RunController() override;

    void start();
    /// Thread-safe. Keeps everything measured; in-flight requests end as `cancelled`.
    void cancel();
    bool isRunning() const;

private:
    Experiment m_experiment;
    RunOptions m_options;
    std::unique_ptr<QThread> m_thread;
    RunWorker *m_worker = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::atomic<bool> m_running { false };
};

} // namespace ServeScope
