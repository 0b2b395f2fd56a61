// SPDX-License-Identifier: MIT
#pragma once

#include "secrets/apikey.h"

namespace ServeScope {

/// Reads the team database's password from where `ref` says: an environment variable (`env:VAR`) or
/// an OS keychain entry (`keychain:ID`, service ServeScope), trimmed like an API key. A value that is
/// not a variable name is refused without being echoed. CLI only for keychain references (blocking).
SecretResult resolveDbPasswordBlocking(const KeyReference &ref, SecretStore *store = nullptr);

} // namespace ServeScope
