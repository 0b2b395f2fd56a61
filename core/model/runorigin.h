// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace ServeScope {

/// Where a stored run came from when ServeScope did not measure it: an imported result file
/// (docs/import.md). Stored as JSON in runs.origin; a measured run has none.
struct RunOrigin {
    QString format; ///< "vllm", "sglang", "aiperf", "guidellm", "genai-bench", "inference-perf", "llmperf", "llm-d";
                    ///< empty: measured
    QString toolVersion; ///< the other tool's version or layout as its file gives it ("0.8.0.dev18, report v2"); may be
                         ///< empty
    QString file; ///< absolute path of the imported file
    QList<int> lines; ///< per point, the file line it came from (0: a single-object file)
    bool arrays = false; ///< the file had per-request arrays: requests are stored
    int pointsWithoutArrays = -1; ///< points whose line had no arrays; -1: not stored (older projects)
    QString note; ///< C locale: what is missing and why (no arrays: no bands, only the file's percentiles)

    bool isImported() const { return !format.isEmpty(); }
    QByteArray toJson() const;
    /// Empty or unreadable JSON gives a measured run's origin.
    static RunOrigin fromJson(const QByteArray &json);
    /// "imported from /x/results.jsonl (vllm), lines 1-3", "imported from /x/benchmarks.json (guidellm
    /// 0.8.0.dev18, report v2)"; empty for a measured run.
    QString describe() const;
};

} // namespace ServeScope
