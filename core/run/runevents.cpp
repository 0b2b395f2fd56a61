// SPDX-License-Identifier: MIT
#include "runevents.h"

namespace ServeScope {

void RunEvents::relay(const RunEvents *from)
{
    connect(from, &RunEvents::snapshotUpdated, this, &RunEvents::snapshotUpdated);
    connect(from, &RunEvents::pointFinished, this, &RunEvents::pointFinished);
    connect(from, &RunEvents::pointCompared, this, &RunEvents::pointCompared);
    connect(from, &RunEvents::logged, this, &RunEvents::logged);
}

} // namespace ServeScope
