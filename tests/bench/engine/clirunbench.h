// SPDX-License-Identifier: MIT
// One point of `servescope-cli run` as a child process against a simulator: its whole-process CPU
// (from the kernel's child accounting), CPU per thread (last /proc sample), peak threads,
// descriptors and resident memory.
#pragma once

#include "procstats.h"

#include <QUrl>

#include <vector>

namespace ServeScope::Testing {

struct CliRunFigures {
    int exitCode = -1;
    QByteArray error; ///< stderr when the run failed
    double wallS = 0;
    double cpuS = 0; ///< user + system of the whole process, from getrusage(RUSAGE_CHILDREN)
    double engineCpuS = 0; ///< threads named engine-*, as last sampled (every 200 ms)
    double runCpuS = 0; ///< the thread named run (the run worker), as last sampled
    std::vector<ThreadCpu> threads; ///< every thread as last sampled, busiest first
    int peakThreads = 0;
    int peakFds = 0;
    qint64 peakRssKb = 0;
    int completed = -1; ///< requests completed, from the run's summary.csv (-1: not found)
};

/// Runs one closed-loop point of `streams` concurrent requests of `tokens` output tokens each
/// against `base` (a running simulator), pinned to `cpu` when >= 0, results under `outDir`;
/// `requests` in all (`streams` when 0).
CliRunFigures benchCliRun(const QUrl &base, int streams, int tokens, int cpu, const QString &outDir, int requests = 0);

} // namespace ServeScope::Testing
