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

/// Sets glibc's malloc up for a run (a no-op elsewhere); called first in main(), before any
/// thread starts.
/// - One arena for the whole process (M_ARENA_MAX). The engine's threads allocate each request's
///   record and the run thread keeps it; with an arena per thread, memory one thread frees (the
///   prompts, a point end's transients) cannot serve another's allocations, so a run's peak was
///   the sum of the arenas' peaks. A 100,000-request point: 264 MB with an arena per thread, 228
///   MB with one, and CPU per event within the bench's noise.
/// - Blocks of 128 kB and more always mapped on their own (M_MMAP_THRESHOLD fixed at glibc's
///   initial value). glibc otherwise raises the threshold to the size of each mapped block freed,
///   so after a point end's first 10 MB array the next ones were carved from the arena and their
///   pages stayed resident: between points the soak's RSS stayed 10–13 MB higher. With the
///   threshold fixed they are unmapped when freed.
/// (docs/engine.md, "Memory by run length" and "Soak").
void setUpHeap();

} // namespace ServeScope
