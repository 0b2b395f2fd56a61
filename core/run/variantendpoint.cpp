// SPDX-License-Identifier: MIT
#include "variantendpoint.h"

#include "model/urls.h"
#include "secrets/apikey.h"

namespace ServeScope {

namespace {

constexpr const char *kSimulatorDefaultModel = "servescope-sim";

bool addSecretHeaders(const Endpoint &endpoint, EndpointConfig *config, QString *error)
{
    // Read when the run starts, trimmed like a key, and kept only in memory: the experiment names the variable.
    for (const auto &[name, variable] : endpoint.headerEnv) {
        const SecretResult value = readApiKeyFromEnvironment(variable);
        if (!value.ok) {
            *error = QStringLiteral("endpoint.header_env.%1: %2").arg(name, value.message);
            return false;
        }
        config->extraHeaders.append({ name.toUtf8(), value.secret });
        config->secretValues.append(value.secret);
    }
    return true;
}

} // namespace

EndpointConfig endpointConfigFor(const Experiment &resolved, const QUrl &base, const QByteArray &key)
{
    EndpointConfig endpoint;
    endpoint.url = joinUrlPath(base, resolved.endpoint.path);
    endpoint.apiKey = key;
    endpoint.http2 = resolved.endpoint.protocol == HttpProtocol::Http2;
    endpoint.timeouts = resolved.load.timeouts;
    endpoint.maxEventBytes = resolved.load.maxEventBytes;
    if (!resolved.endpoint.proxy.isEmpty()) {
        const QUrl proxy = QUrl::fromUserInput(resolved.endpoint.proxy);
        endpoint.useProxy = true;
        endpoint.proxy = QNetworkProxy(QNetworkProxy::HttpProxy, proxy.host(), quint16(proxy.port(8080)));
    }
    for (const auto &[name, value] : resolved.endpoint.headers)
        endpoint.extraHeaders.append({ name.toUtf8(), value.toUtf8() });
    return endpoint;
}

bool VariantEndpoint::open(const Experiment &resolved, const RunOptions &options, QString *error)
{
    close();
    if (!resolved.endpoint.isLocalSimulator()) {
        m_model = resolved.endpoint.model;
        m_base = QUrl(resolved.endpoint.baseUrl);
        m_config = endpointConfigFor(resolved, m_base, options.apiKey);
        return addSecretHeaders(resolved.endpoint, &m_config, error);
    }
    const QString program
        = options.simulatorProgram.isEmpty() ? SimProcess::defaultProgram() : options.simulatorProgram;
    // Without a model the simulator serves its default, and requests name it.
    m_model = resolved.endpoint.model.isEmpty() ? QString::fromLatin1(kSimulatorDefaultModel) : resolved.endpoint.model;
    if (!m_sim.start(program, resolved.server.args, m_model, options.simulatorTimeScale)) {
        *error = m_sim.errorString();
        return false;
    }
    m_startedSimulator = true;
    m_base = m_sim.baseUrl();
    m_config = endpointConfigFor(resolved, m_base, m_sim.apiKey());
    return addSecretHeaders(resolved.endpoint, &m_config, error);
}

void VariantEndpoint::close()
{
    m_sim.stop();
    m_startedSimulator = false;
}

} // namespace ServeScope
