// SPDX-License-Identifier: MIT
#include "endpointcheck.h"

#include "diagnosistext.h"
#include "secrets/apikey.h"

#include <QUrl>

namespace ServeScope {

void checkEndpoint(
    QObject *owner, const Endpoint &endpoint, SecretStore *secrets, std::function<void(const PreflightResult &)> done)
{
    auto run = [owner, endpoint, done](const QByteArray &key) {
        PreflightRequest req;
        req.baseUrl = QUrl(endpoint.baseUrl);
        req.path = endpoint.path;
        req.model = endpoint.model;
        req.apiKey = key;
        req.proxy = endpoint.proxy;
        req.caFile = endpoint.caFile;
        req.tlsSkipVerify = endpoint.tlsSkipVerify;
        for (const auto &[name, value] : endpoint.headers)
            req.headers.append({ name.toUtf8(), value.toUtf8() });
        for (const auto &[name, variable] : endpoint.headerEnv) {
            if (const SecretResult value = readApiKeyFromEnvironment(variable); value.ok) {
                req.headers.append({ name.toUtf8(), value.secret });
                req.secretHeaderValues.append(value.secret);
            }
        }
        auto *preflight = new Preflight(req, owner);
        QObject::connect(preflight, &Preflight::finished, owner, [preflight, done](const PreflightResult &r) {
            preflight->deleteLater();
            done(r);
        });
        preflight->start();
    };
    const KeyReference ref = KeyReference::forEndpoint(endpoint);
    if (ref.isNull() || !secrets) {
        run({});
        return;
    }
    resolveApiKey(ref, *secrets, owner, [run, done](const SecretResult &r) {
        if (r.ok) {
            run(r.secret);
            return;
        }
        PreflightResult failed;
        failed.usable = false;
        failed.detail = secretErrorText(r.error);
        done(failed);
    });
}

} // namespace ServeScope
