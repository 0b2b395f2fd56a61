// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace ServeScope {

class ProjectStore;

/// `export --sglang-jsonl FILE`: every (variant, point, repeat) of a stored run as one line of
/// SGLang's bench_serving JSON lines, its figures computed with the sglang definitions from the
/// stored requests over the point's stored duration. False and *error when the run has no
/// requests (an import without per-request arrays) or the file cannot be written.
bool writeSglangJsonl(ProjectStore &store, qint64 runId, const QString &path, QString *error);

} // namespace ServeScope
