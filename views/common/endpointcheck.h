// SPDX-License-Identifier: MIT
#pragma once

#include "diagnosis/preflight.h"
#include "model/experiment.h"

#include <functional>

class QObject;

namespace ServeScope {

class SecretStore;

/// The check *Test connection* makes (core/diagnosis Preflight), against an experiment's endpoint with
/// its key, CA file, proxy and extra headers; `done` gets the result once, on the calling thread. A
/// key that cannot be read ends the check unusable, with the keychain's words as its detail.
void checkEndpoint(
    QObject *owner, const Endpoint &endpoint, SecretStore *secrets, std::function<void(const PreflightResult &)> done);

} // namespace ServeScope
