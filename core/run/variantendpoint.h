// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineconfig.h"
#include "run/runtypes.h"
#include "run/simprocess.h"

#include <QUrl>

namespace ServeScope {

/// The request settings of an experiment's endpoint at `base` with `key`: the full stream URL (the
/// base URL's path kept), HTTP/2 opt-in, proxy, extra headers and the experiment's timeouts.
EndpointConfig endpointConfigFor(const Experiment &resolved, const QUrl &base, const QByteArray &key);

/// Where one variant's requests go: the configured endpoint, or for `sim:` a simulator child started
/// with the variant's server.args (and stopped by close() or with this object).
class VariantEndpoint {
public:
    bool open(const Experiment &resolved, const RunOptions &options, QString *error);
    void close();

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
    EndpointConfig m_config;
    QUrl m_base;
    QString m_model;
    bool m_startedSimulator = false;
};

} // namespace ServeScope
