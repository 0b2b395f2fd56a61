// SPDX-License-Identifier: MIT
#include "teamdbpassword.h"

#include "model/validation.h"

namespace ServeScope {

SecretResult resolveDbPasswordBlocking(const KeyReference &ref, SecretStore *store)
{
    if (ref.kind == KeyReference::Kind::Environment && !isValidEnvironmentName(ref.name))
        return SecretResult::failure(SecretError::Other,
            QStringLiteral("the database password must come from a named environment variable "
                           "([A-Za-z_][A-Za-z0-9_]*), not be given itself"));
    if (ref.isNull())
        return SecretResult::failure(SecretError::NotFound, QStringLiteral("no database password reference"));
    SecretResult r = resolveApiKeyBlocking(ref, store);
    if (!r.ok && ref.kind == KeyReference::Kind::Keychain)
        r.message = QStringLiteral("database password from keychain entry '%1': %2").arg(ref.name, r.message);
    return r;
}

} // namespace ServeScope
