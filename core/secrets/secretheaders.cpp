// SPDX-License-Identifier: MIT
#include "secretheaders.h"

#include "apikey.h"

namespace ServeScope {

bool readSecretHeaders(
    const QList<QPair<QString, QString>> &headerEnv, const QString &where, SecretHeaders *out, QString *error)
{
    for (const auto &[name, variable] : headerEnv) {
        const SecretResult value = readApiKeyFromEnvironment(variable);
        if (!value.ok) {
            *error = QStringLiteral("%1%2: %3").arg(where, name, value.message);
            return false;
        }
        out->append({ name.toUtf8(), value.secret });
    }
    return true;
}

} // namespace ServeScope
