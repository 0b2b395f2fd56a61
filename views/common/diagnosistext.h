// SPDX-License-Identifier: MIT
#pragma once

#include "diagnosis/preflight.h"
#include "secrets/secretstore.h"

#include <QString>

namespace ServeScope {

/// Plain, translated words for a connection-test diagnosis: what is wrong and what to do.
QString diagnosisText(Diagnosis d);
/// Test connection's outcome in a line: "Connection works." or "Connection test failed.".
QString connectionOutcome(bool works);
/// A translated summary of a whole preflight result (diagnosis, evidence, capabilities).
QString preflightSummary(const PreflightResult &r);
/// Translated words for a keychain failure.
QString secretErrorText(SecretError e);

} // namespace ServeScope
