// SPDX-License-Identifier: MIT
#pragma once

#include "compare/storedrun.h"
#include "metrics/serverexit.h"
#include "report/reportdocument.h"
#include "storage/storetypes.h"

namespace ServeScope {
class ProjectStore;
}

namespace ServeScope::Report {

/// A stored run as the report shows it: base URL and model from the resolved configuration
/// (`endpoint.base_url`, `endpoint.model`), env snapshot entries (`[key, value, source]`), client host
/// (a JSON object), the run's point summaries and its statistics across repeats, and the launched servers that
/// exited while it used them (findings).
ReportRun reportRunFromStore(const StoredRun &run, const QList<PointSummary> &points,
    const QList<PointEstimate> &estimates = {}, const QList<ServerExit> &exits = {});

/// The launched servers that exited while the run used them: the "exit" lines of its server log.
QList<ServerExit> serverExits(const QVector<ServerLogLine> &logs);

/// Stored run `runId` as reportRunFromStore() makes it, read from `store`; an interrupted run's points
/// that have stored requests but no summary (the point its process was running) are summarised from
/// those requests (summarisePoint) and listed in ReportRun::partialPoints. False when the run or its
/// summaries cannot be read (store.errorString() says why).
bool loadReportRun(ProjectStore &store, qint64 runId, ReportRun *out);

} // namespace ServeScope::Report
