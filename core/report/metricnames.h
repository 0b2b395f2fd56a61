// SPDX-License-Identifier: MIT
#pragma once

#include "compare/delta.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>

namespace ServeScope {

/// How a metric key of the comparisons (`median_ttft_ms`, `output_throughput`, …) reads in the window
/// and in the report: a human name, its unit, its family for filtering, and one precision for every
/// value of it. Words only: the values come unchanged (a success rate shown in %, ×100).
struct MetricName {
    Q_DECLARE_TR_FUNCTIONS(ServeScope::MetricName)
public:
    enum class Family { Throughput, Ttft, Tpot, Itl, E2el, Success, Other };

    QString key;
    QString name; ///< "TTFT p50"
    QString unit; ///< "ms", "tok/s", "req/s", "%", or empty
    Family family = Family::Other;
    int decimals = 2;
    double scale = 1; ///< shown value = stored value × scale

    static MetricName of(const QString &key);
    static QString familyName(Family family);
    /// "TTFT p50 (ms)"
    QString title() const;
    /// The value at this metric's precision; never "-0.0".
    QString format(double value) const;
    /// A change at this metric's precision with its sign ("+12.5", "−3.0", "0.0").
    QString formatChange(double change) const;
    /// A relative change in % with one decimal and its sign; empty for NaN.
    static QString formatPercent(double relative);
};

namespace Report {

/// The headline metric keys, in order: the rows of the Results page's headline panel and of the
/// report's summary (output tok/s, TTFT p50 and p90, TPOT p50 and p90, E2EL p90, success rate).
const QStringList &headlineKeys();
/// The headline changes' keys: headlineKeys() with TTFO p50 and p90 after TTFT's, which a comparison
/// holds only when a point reasoned.
const QStringList &headlineChangeKeys();
/// A section's rows of the headline metrics: point by point in the section's order, the metrics in
/// headlineChangeKeys() order.
QList<DeltaRow> headlineRows(const DeltaSection &section);
/// A row's change as the window and the report show it: "+12.5%" ("0.0%", never "-0.0%"), "×17.0"
/// from twice the baseline on, the absolute change at the metric's precision when the baseline is 0,
/// or "—" when the values do not compare (DeltaRow::blank()).
QString changeText(const DeltaRow &row);
/// The background of a verdict wherever one is shown (the window's tables, the report); invalid for
/// undecided.
QColor verdictColour(Verdict v);

} // namespace Report

} // namespace ServeScope
