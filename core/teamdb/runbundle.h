// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"
#include "storage/storetypes.h"

#include <QList>
#include <QString>
#include <QVector>

namespace ServeScope {

/// Everything a stored run needs to be reopened: the row, its summaries and statistics across
/// repeats, every request with its events, the prompts they used and the server's series and logs.
struct RunBundle {
    RunRow run;
    QVector<PointSummary> summaries;
    QVector<PointEstimate> estimates;
    QVector<RequestRecord> requests;
    QList<PromptRow> prompts;
    QVector<ServerMetricSample> samples;
    QVector<ServerLogLine> logs;
};

/// What a team listing filters on, read from the run's stored configuration and environment.
struct RunFacets {
    QString experiment; ///< the experiment's name
    QString model; ///< endpoint.model, else the captured served_model
    QString engine; ///< server.engine, else an environment field named engine
};

/// The run's stable id: SHA-256 (hex) over its identifying fields — started, finished, the resolved
/// configuration, the client host, definitions, variants, points and the number of stored requests. A run
/// copied into another project (pull) keeps it, so publishing it again finds the same run.
QString stableRunId(const RunRow &run, qint64 requests);

RunFacets runFacets(const RunRow &run);

/// Reads run `idOrName` (numeric id or unique name) of a project file read-only; refuses a run
/// that is still running.
bool readRunBundle(const QString &projectPath, const QString &idOrName, RunBundle *out, QString *error);

/// The local run of `projectPath` with that stable id, 0 when none (or the file does not exist).
qint64 findLocalRun(const QString &projectPath, const QString &stableId, QString *error);

/// Stores the bundle as a new run of `projectPath` (created when missing) and returns its id; 0 and
/// *error when it could not be stored whole.
qint64 writeRunBundle(const QString &projectPath, const RunBundle &bundle, QString *error);

} // namespace ServeScope
