// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"

namespace ServeScope {

/// Every problem of an experiment, errors and warnings, each with its path. Includes the
/// variants' registry checks and variantWarnings(). Empty or warnings-only means runnable.
QList<Problem> validate(const Experiment &experiment);

/// True for a POSIX-style environment variable name ([A-Za-z_][A-Za-z0-9_]*, at most 255 characters).
bool isValidEnvironmentName(const QString &name);

} // namespace ServeScope
