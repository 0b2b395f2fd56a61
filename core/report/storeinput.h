// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportdocument.h"
#include "storage/storetypes.h"

namespace ServeScope::Report {

/// A stored run as the report shows it: base URL and model from the resolved configuration
/// (`endpoint.base_url`, `endpoint.model`), env snapshot entries (`[key, value, source]`), client host
/// (a JSON object), the run's point summaries and its statistics across repeats.
ReportRun reportRunFromStore(
    const RunRow &row, const QList<PointSummary> &points, const QList<PointEstimate> &estimates = {});

} // namespace ServeScope::Report
