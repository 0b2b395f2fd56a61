// SPDX-License-Identifier: MIT
// The engine tests' and benchmarks' name for the one simulator launcher (tests/support/simchild.h).
#pragma once

#include "simchild.h"

namespace ServeScope::Testing {
using SimProcess = ::SimChild;
} // namespace ServeScope::Testing
