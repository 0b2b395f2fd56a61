// SPDX-License-Identifier: MIT
#pragma once

namespace ServeScope {

/// Hands the free pages of every malloc arena back to the system (glibc's malloc_trim; a no-op
/// elsewhere). Called when a point has been aggregated and written and its records are freed:
/// glibc keeps freed memory in the arena of the thread that allocated it, and which arenas a
/// point's records and result file land in changes when the cores are contended, so without it
/// the resident size steps up to the largest such sum ever seen and stays there
/// (docs/engine.md, "Soak").
void releaseFreedHeap();

} // namespace ServeScope
