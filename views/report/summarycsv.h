// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QByteArray>
#include <QStringList>

namespace ServeScope::Report {

/// Columns of summary.csv (DESIGN.md, `run --out-dir`), one row per (variant, point, repeat).
QStringList summaryCsvColumns();
/// One row, C locale, shortest round-trip numbers, `inf` for an infinite rate; RFC 4180 quoting.
QString summaryCsvRow(const PointSummary &p);
/// Header plus one row per summary, LF line ends, UTF-8.
QByteArray summaryCsv(const QList<PointSummary> &points);

} // namespace ServeScope::Report
