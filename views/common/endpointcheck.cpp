// SPDX-License-Identifier: MIT
#include "endpointcheck.h"

#include "diagnosistext.h"
#include "secrets/apikey.h"
#include "secrets/secretheaders.h"

#include <QUrl>

namespace ServeScope {

void checkEndpoint(
    QObject *owner, const Endpoint &endpoint, SecretStore *secrets, std::function<void(const PreflightResult &)> done)
{
    auto run = [owner, endpoint, done](const QByteArray &key) {
        // Reached as the run reaches it, secret headers included: a header the run could not read
        // fails the check in the run's words.
        PreflightRequest req = PreflightRequest::of(endpoint, key);
        QString error;
        SecretHeaders headers;
        if (!readSecretHeaders(endpoint.headerEnv, QStringLiteral("endpoint.header_env."), &headers, &error)) {
            PreflightResult failed;
            failed.detail = error;
            done(failed);
            return;
        }
        addSecretHeaders(&req.endpoint, headers);
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
