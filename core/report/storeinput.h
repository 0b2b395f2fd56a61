// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportdocument.h"
#include "storage/storetypes.h"

namespace ServeScope::Report {

/// A stored run as the report shows it: base URL and model from the resolved configuration
/// (`endpoint.base_url`, `endpoint.model`), env snapshot entries (`[key, value, source]`), client host
/// (a JSON object), and the run's point summaries.
ReportRun reportRunFromStore(const RunRow &row, const QList<PointSummary> &points);

} // namespace ServeScope::Report
