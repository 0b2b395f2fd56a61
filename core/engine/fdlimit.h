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

/// How many local ports this host's kernel hands out for outgoing connections
/// (/proc/sys/net/ipv4/ip_local_port_range); -1 where it cannot say.
int localPortCount();

/// For every point (of every variant) whose peak streams this host cannot carry: an error where they
/// need more descriptors than the hard limit allows (`hardLimit`, < 0: this process's), as no run could
/// start it; a warning where they outnumber the local ports (`localPorts`, < 0: this host's), which a
/// server behind one address runs out of.
QList<Problem> descriptorProblems(const Experiment &experiment, qint64 hardLimit = -1, int localPorts = -1);

} // namespace ServeScope
