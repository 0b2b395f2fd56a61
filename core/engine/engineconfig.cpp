// SPDX-License-Identifier: MIT
#include "engineconfig.h"

#include "model/apirequest.h"
#include "model/urls.h"

#include <QSslCertificate>

#include <algorithm>
#include <cmath>

namespace ServeScope {

EndpointConfig endpointConfig(const Endpoint &endpoint, const QUrl &base, const QByteArray &key, QString *tlsError)
{
    EndpointConfig config;
    config.url = joinUrlPath(base, endpoint.path);
    config.apiKey = key;
    config.http2 = endpoint.protocol == HttpProtocol::Http2;
    if (!endpoint.proxy.isEmpty()) {
        const QUrl proxy = QUrl::fromUserInput(endpoint.proxy);
        config.useProxy = true;
        config.proxy = QNetworkProxy(QNetworkProxy::HttpProxy, proxy.host(), quint16(proxy.port(8080)));
    }
    for (const auto &[name, value] : endpoint.headers)
        config.extraHeaders.append({ name.toUtf8(), value.toUtf8() });
    config.caFile = endpoint.caFile;
    config.tlsSkipVerify = endpoint.tlsSkipVerify;
    QString error;
    if (!makeTlsConfiguration(&config, &error) && tlsError)
        *tlsError = error;
    return config;
}

TransportKind resolveTransport(const EndpointConfig &endpoint)
{
    if (endpoint.transport != TransportKind::Auto)
        return endpoint.transport;
    const bool http1
        = endpoint.url.scheme() == QLatin1String("http") || endpoint.url.scheme() == QLatin1String("https");
    return http1 && !endpoint.http2 && !endpoint.useProxy ? TransportKind::Lean : TransportKind::Pool;
}

bool makeTlsConfiguration(EndpointConfig *endpoint, QString *error)
{
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    if (endpoint->tlsSkipVerify) {
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    } else if (!endpoint->caFile.isEmpty()) {
        const QList<QSslCertificate> cas = QSslCertificate::fromPath(endpoint->caFile, QSsl::Pem);
        if (cas.isEmpty()) {
            *error = QStringLiteral("endpoint.ca_file: %1 holds no PEM certificate (or cannot be read)")
                         .arg(endpoint->caFile);
            return false;
        }
        tls.setCaCertificates(cas);
    }
    endpoint->tls = tls;
    return true;
}

void applyTls(QNetworkRequest *request, const EndpointConfig &endpoint)
{
    if (request->url().scheme() == QLatin1String("https"))
        request->setSslConfiguration(endpoint.tls);
}

QNetworkRequest sideRequest(
    const EndpointConfig &endpoint, const QUrl &url, int timeoutMs, SideHeaders headers, std::optional<Api> api)
{
    QNetworkRequest req(url);
    req.setTransferTimeout(timeoutMs);
    applyTls(&req, endpoint);
    if (headers == SideHeaders::Endpoint) {
        for (const auto &[name, value] : endpointHeaders(endpoint, api.value_or(endpoint.api())))
            req.setRawHeader(name, value);
    }
    return req;
}

void addSecretHeaders(EndpointConfig *config, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    for (const auto &header : headers) {
        config->extraHeaders.append(header);
        config->secretValues.append(header.second);
    }
}

Redactor endpointRedactor(const EndpointConfig &endpoint)
{
    QList<QByteArray> secrets = endpoint.secretValues;
    secrets.prepend(endpoint.apiKey);
    return Redactor(secrets);
}

QList<QPair<QByteArray, QByteArray>> endpointHeaders(const EndpointConfig &endpoint)
{
    return endpointHeaders(endpoint, endpoint.api());
}

QList<QPair<QByteArray, QByteArray>> endpointHeaders(const EndpointConfig &endpoint, Api api)
{
    QList<QPair<QByteArray, QByteArray>> h;
    for (const auto &auth : apiAuthHeaders(api, endpoint.apiKey)) {
        const bool overridden = std::any_of(endpoint.extraHeaders.cbegin(), endpoint.extraHeaders.cend(),
            [&](const auto &extra) { return extra.first.compare(auth.first, Qt::CaseInsensitive) == 0; });
        if (!overridden)
            h.append(auth);
    }
    h.append(endpoint.extraHeaders);
    return h;
}

int LoadSpec::peakStreams() const
{
    if (mode == LoadMode::Concurrency) {
        const int turns = std::max(1, sessionTurns);
        return load.numPrompts > 0 ? std::min(load.concurrency, (load.numPrompts + turns - 1) / turns)
                                   : load.concurrency;
    }
    // Without a cap, a finite rate keeps about rate x 30 s of requests live; pools grow on demand.
    int peak = load.maxConcurrency > 0 ? load.maxConcurrency
        : std::isinf(load.requestRate) ? (load.numPrompts > 0 ? load.numPrompts : 1024)
                                       : std::max(16, int(std::ceil(load.requestRate * 30)));
    if (load.numPrompts > 0)
        peak = std::min(peak, load.numPrompts);
    return std::max(1, peak);
}

} // namespace ServeScope
