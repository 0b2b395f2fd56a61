// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QString>

namespace ServeScope {

/// How a metric key of the comparisons (`median_ttft_ms`, `output_throughput`, …) reads in the window:
/// a human name, its unit, its family for filtering, and one precision for every value of it. Words
/// only: the values come from core unchanged (a success rate shown in %, ×100).
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

} // namespace ServeScope
