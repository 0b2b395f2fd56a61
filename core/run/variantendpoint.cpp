// SPDX-License-Identifier: MIT
#include "variantendpoint.h"

#include "model/clock.h"
#include "model/urls.h"
#include "run/launchtemplate.h"
#include "run/runtext.h"
#include "secrets/apikey.h"
#include "secrets/secretheaders.h"
#include "storage/storewriter.h"

namespace ServeScope {

namespace {

constexpr const char *kSimulatorDefaultModel = "servescope-sim";

} // namespace

namespace {

// Read when the run starts, trimmed like a key, and kept only in memory: the experiment names the variable.
bool withSecretHeaders(const Endpoint &endpoint, EndpointConfig *config, QString *error)
{
    SecretHeaders headers;
    if (!readSecretHeaders(endpoint.headerEnv, QStringLiteral("endpoint.header_env."), &headers, error))
        return false;
    addSecretHeaders(config, headers);
    return true;
}

} // namespace

EndpointConfig endpointConfigFor(const Experiment &resolved, const QUrl &base, const QByteArray &key, QString *tlsError)
{
    EndpointConfig endpoint = endpointConfig(resolved.endpoint, base, key, tlsError);
    endpoint.timeouts = resolved.load.timeouts;
    endpoint.maxEventBytes = resolved.load.maxEventBytes;
    return endpoint;
}

bool VariantEndpoint::open(const Experiment &resolved, const RunOptions &options, QString *error)
{
    close();
    m_apiKey = options.apiKey;
    if (!resolved.endpoint.isLocalSimulator()) {
        m_model = resolved.endpoint.model;
        m_base = QUrl(resolved.endpoint.baseUrl);
        QString tlsError;
        m_config = endpointConfigFor(resolved, m_base, options.apiKey, &tlsError);
        if (!tlsError.isEmpty()) {
            *error = tlsError;
            return false;
        }
        return withSecretHeaders(resolved.endpoint, &m_config, error);
    }
    const QString program
        = options.simulatorProgram.isEmpty() ? SimProcess::defaultProgram() : options.simulatorProgram;
    // Without a model the simulator serves its default, and requests name it.
    m_model = resolved.endpoint.model.isEmpty() ? QString::fromLatin1(kSimulatorDefaultModel) : resolved.endpoint.model;
    // server.engine sglang poses the simulator as SGLang (its flag and metric names, /get_server_info).
    const bool sglang = resolved.server.engine == QLatin1String("sglang");
    if (!m_sim.start(program, resolved.server.args, sglang, m_model, options.simulatorTimeScale)) {
        *error = m_sim.errorString();
        return false;
    }
    m_startedSimulator = true;
    m_base = m_sim.baseUrl();
    m_config = endpointConfigFor(resolved, m_base, m_sim.apiKey(), nullptr);
    return withSecretHeaders(resolved.endpoint, &m_config, error);
}

bool VariantEndpoint::needsLaunch(const Experiment &resolved, const RunOptions &options) const
{
    return options.allowLaunch && !resolved.endpoint.isLocalSimulator() && !resolved.server.launchArgv.isEmpty();
}

bool VariantEndpoint::launchServer(const Experiment &resolved, qint64 runId, StoreWriter &writer,
    const std::atomic<bool> &cancel, const std::function<void(const QString &)> &say, QString *error)
{
    if (!renderLaunchArgv(resolved, m_base, &m_launchArgv, error))
        return false;
    // Whatever the server prints, the run's key and secret header values never reach the project.
    QList<QByteArray> secrets = m_config.secretValues;
    secrets << m_apiKey;
    m_server = std::make_unique<LaunchedServer>(runId, writer, secrets);
    if (!m_server->start(m_launchArgv, resolved.server, error)) {
        m_server.reset();
        return false;
    }
    const QString argv = m_launchArgv.join(QLatin1Char(' '));
    // The project keeps which command wrote the lines that follow.
    writer.enqueue(ServerLogLine {
        runId, monotonicNs(), QStringLiteral("launch"), QStringLiteral("pid %1: %2").arg(m_server->pid()).arg(argv) });
    say(RunText::tr("launched server pid %1: %2").arg(m_server->pid()).arg(argv));
    const QUrl ready = joinUrlPath(m_base, resolved.server.readyPath);
    if (!m_server->waitReady(ready, m_config, resolved.server.readyTimeoutS, cancel, error))
        return false;
    say(RunText::tr("server ready after %1 s (GET %2 answered 200)")
            .arg(QString::number(m_server->readySeconds(), 'f', 1), ready.toString()));
    return true;
}

QString VariantEndpoint::serverExitMessage() const
{
    return m_server && !m_server->isRunning() ? m_server->exitMessage() : QString();
}

void VariantEndpoint::close()
{
    m_server.reset();
    m_launchArgv.clear();
    m_sim.stop();
    m_startedSimulator = false;
}

} // namespace ServeScope
