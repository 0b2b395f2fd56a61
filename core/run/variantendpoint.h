// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineconfig.h"
#include "run/launchedserver.h"
#include "run/runtypes.h"
#include "run/simprocess.h"

#include <QUrl>

#include <atomic>
#include <functional>
#include <memory>

namespace ServeScope {

/// The request settings of an experiment's endpoint at `base` with `key` (endpointConfig()) with the
/// experiment's timeouts and event cap.
EndpointConfig endpointConfigFor(
    const Experiment &resolved, const QUrl &base, const QByteArray &key, QString *tlsError = nullptr);

/// Where one variant's requests go: the configured endpoint, or for `sim:` a simulator child started
/// with the variant's server.args; and the variant's launched server, when it has one (both stopped
/// by close() or with this object).
class VariantEndpoint {
public:
    bool open(const Experiment &resolved, const RunOptions &options, QString *error);
    void close();

    /// True when open() chose a configured endpoint whose variant has a launch argv and the run may launch it.
    bool needsLaunch(const Experiment &resolved, const RunOptions &options) const;
    /// Renders the variant's launch argv against this endpoint, starts it and waits for its readiness
    /// probe (or `cancel`). Its lines go to the project under `runId`, after one naming the command;
    /// `say` gets the pid and command, then the time to ready.
    bool launchServer(const Experiment &resolved, qint64 runId, StoreWriter &writer, const std::atomic<bool> &cancel,
        const std::function<void(const QString &)> &say, QString *error);
    /// Why the launched server is gone when it exited on its own; empty while it runs or when there is none.
    QString serverExitMessage() const;
    LaunchedServer *server() const { return m_server.get(); }
    QStringList launchArgv() const { return m_launchArgv; }

    const EndpointConfig &config() const { return m_config; }
    /// What API and side-call paths are appended to.
    QUrl baseUrl() const { return m_base; }
    /// The model requests name: the experiment's, or for `sim:` without one the simulator's.
    QString model() const { return m_model; }
    /// Whether open() started a simulator (and with which arguments).
    bool startedSimulator() const { return m_startedSimulator; }
    QStringList simulatorArguments() const { return m_sim.arguments(); }

private:
    SimProcess m_sim;
    std::unique_ptr<LaunchedServer> m_server;
    QStringList m_launchArgv;
    QByteArray m_apiKey;
    EndpointConfig m_config;
    QUrl m_base;
    QString m_model;
    bool m_startedSimulator = false;
};

} // namespace ServeScope
