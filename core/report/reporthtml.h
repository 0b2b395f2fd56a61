// SPDX-License-Identifier: MIT
// The report body's HTML pieces, shared by the document and its per-run tables (not a public header).
#pragma once

#include "report/reportdocument.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace ServeScope::Report {

namespace Html {

QString tr(const char *text);
QString esc(const QString &s);
/// A value the point does not have (withheld for a buffered stream, never measured) is "—", never "nan".
QString num(double v, int decimals = 1);
QString isoUtc(const QDateTime &t);
/// `pairs` key-value pairs side by side on a row keep a short list short.
QString keyValueTable(const KeyValues &kv, int pairs = 1);
QString loadCell(const PointSummary &p);
/// A table whose header row repeats on every page it runs over (<thead>: the PDF's header rows).
QString tableHead(const QStringList &head, const QString &cls = QStringLiteral("points"));
QString row(const QStringList &cells, bool censored);
/// More than 0.5% failed requests marks a point as censored (docs/metrics.md).
bool censored(const PointSummary &p);

} // namespace Html

// A run's tables in the report body (reporttables.cpp).
QString pointTable(const ReportRun &run);
QString steadyTable(const ReportRun &run);
QString servingTable(const ReportRun &run);
QString capacityTable(const ReportRun &run);
QString reasoningTable(const ReportRun &run);
QString sessionsTable(const ReportRun &run);
QString findingsSection(const ReportRun &run, bool thresholds);

} // namespace ServeScope::Report
