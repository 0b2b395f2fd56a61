// SPDX-License-Identifier: MIT
#pragma once

#include "model/runorigin.h"

#include <QString>

namespace ServeScope {

/// Translated words for where an imported run came from: "Imported from FILE (vllm), lines 1, 2"
/// and, on a second line, what the file lacked. Empty for a measured run.
QString importedFromText(const RunOrigin &origin);

} // namespace ServeScope
