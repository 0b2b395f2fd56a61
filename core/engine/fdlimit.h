// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace ServeScope {

/// Raises the open-file soft limit to the hard limit; returns the new soft limit.
qint64 raiseOpenFileLimit();
/// The current open-file soft limit.
qint64 openFileLimit();
/// Descriptors a run of `streams` concurrent streams needs (docs/engine.md: streams + streams/6 + 64).
inline qint64 descriptorsNeeded(int streams)
{
    return qint64(streams) + streams / 6 + 64;
}

} // namespace ServeScope
