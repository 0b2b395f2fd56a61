// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"

namespace ServeScope {

/// Every problem of an experiment, errors and warnings, each with its path. Includes the
/// variants' registry checks and variantWarnings(). Empty or warnings-only means runnable.
QList<Problem> validate(const Experiment &experiment);

} // namespace ServeScope
