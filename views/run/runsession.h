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
class RunSession final : public QObject {
    Q_OBJECT
public:
    explicit RunSession(SecretStore *secrets, QObject *parent = nullptr);
    ~RunSession() override;

    bool isRunning() const { return m_running; }
    /// `allowLaunch`: start the variants' `server.launch.argv` (the user approved them).
    void start(const Experiment &experiment, const QString &projectPath, double timeScale, bool allowLaunch = false);
    void cancel();
    /// servescope-cli next to the GUI (build/app/gui/../servescope-cli) or on PATH.
    static QString simulatorProgram();

signals:
    void started();
    void snapshotUpdated(const ServeScope::RunSnapshot &snapshot);
    void pointFinished(const ServeScope::PointSummary &summary);
    void logged(const QString &level, const QString &text);
    void finished(const ServeScope::RunResult &result);

private:
    void launch(const Experiment &experiment, const QString &projectPath, double timeScale, const QByteArray &key,
        bool allowLaunch);
    void fail(const QString &message);

    SecretStore *m_secrets;
    RunController *m_controller = nullptr;
    bool m_running = false;
};

} // namespace ServeScope
