// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"

#include <QList>
#include <QString>

namespace ServeScope {

/// Raises the open-file soft limit to the hard limit; returns the new soft limit.
qint64 raiseOpenFileLimit();
/// The current open-file soft limit.
qint64 openFileLimit();
/// The open-file hard limit: the most raiseOpenFileLimit() can reach.
qint64 openFileHardLimit();
/// Descriptors a run of `streams` concurrent streams needs (docs/engine.md: streams + streams/6 + 64).
inline qint64 descriptorsNeeded(int streams)
{
    return qint64(streams) + streams / 6 + 64;
}

/// Errors for every point (of every variant) whose peak streams need more descriptors than the hard
/// limit allows (`hardLimit`, < 0: this process's): no run could start it.
QList<Problem> descriptorProblems(const Experiment &experiment, qint64 hardLimit = -1);

} // namespace ServeScope
