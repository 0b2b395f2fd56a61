// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/findings.h"

#include <QString>

namespace ServeScope::Report {

/// A run finding in words, with the numbers it used and how to confirm it (translated; the report
/// and the GUI's findings panel show the same text).
QString findingText(const RunFinding &finding);
/// The finding's headline: "Queueing", "Capacity knee", ...
QString findingTitle(const RunFinding &finding);
/// The thresholds the findings use, as one sentence for the report.
QString findingThresholdsText(const FindingThresholds &thresholds = {});

} // namespace ServeScope::Report
