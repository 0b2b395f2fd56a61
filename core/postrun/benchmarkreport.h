// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace ServeScope {

class ProjectStore;

/// `export --benchmark-report FILE`: a stored run as llm-d Benchmark Reports v0.2 (docs/import.md,
/// "Benchmark Report"), one report per (variant, point, repeat) since a report describes one load:
/// FILE itself when the run has one, otherwise FILE's name with "-<variant>-<point>[-r<repeat>]"
/// before its suffix. YAML for .yaml/.yml, JSON for .json. Latencies and throughputs are the stored
/// summary's; the statistics a summary does not keep (min, p0.1, p5, p95, p99.9, max, the length
/// distributions) come from the stored requests and are left out when the run has none. The
/// written paths go to *written. False and *error when the run is missing or a file cannot be
/// written (the files written before it stay).
bool writeBenchmarkReports(
    ProjectStore &store, qint64 runId, const QString &path, QStringList *written, QString *error);

} // namespace ServeScope
