// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace ServeScope {

/// Who is writing a run: stored in `runs.owner` so a run left `running` by a process that no
/// longer exists can be told from one still being measured (docs/project-file.md).
namespace RunOwner {

/// This process: "<host> <pid> <start>", start being the process start time in clock ticks
/// after boot (/proc/self/stat), which tells a live process from a later one reusing its pid.
QString current();

/// True when the owner is known to be gone: empty (written before owners were stored), or on
/// this host with no live process of that pid and start time. A run owned on another host is
/// never judged gone.
bool isGone(const QString &owner);

} // namespace RunOwner

} // namespace ServeScope
