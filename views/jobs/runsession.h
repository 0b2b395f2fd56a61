// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "run/runcontroller.h"

#include <QObject>
#include <QPointer>

namespace ServeScope {

class SecretStore;

/// Starts and stops one run for the window: resolves the API key (keychain or environment)
/// asynchronously, hands it by value to a RunController, and relays its throttled signals.
class RunSession final : public RunEvents {
    Q_OBJECT
public:
    explicit RunSession(SecretStore *secrets, QObject *parent = nullptr);
    ~RunSession() override;

    bool isRunning() const { return m_running; }
    /// `options` as the window sets them (the project, the simulator's speed, whether the variants'
    /// `server.launch.argv` may start, the run to compare with); the API key and the simulator
    /// program are filled in here.
    void start(const Experiment &experiment, RunOptions options);
    void cancel();
    /// servescope-cli next to the GUI (build/app/gui/../servescope-cli) or on PATH.
    static QString simulatorProgram();

signals:
    void started();

private:
    void launch(const Experiment &experiment, RunOptions options);
    void fail(const QString &message);

    SecretStore *m_secrets;
    RunController *m_controller = nullptr;
    bool m_running = false;
};

} // namespace ServeScope
