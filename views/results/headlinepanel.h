// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/delta.h"

#include <QTableWidget>

namespace ServeScope {

/// Beside the chart: for each compared side against its baseline and each load point, the headline
/// metrics (output tok/s, TTFT p50 and p90, TPOT p50 and p90, E2EL p90, success rate) with their change
/// in % and core's verdict, coloured. Shows core's rows; computes nothing.
class HeadlinePanel final : public QTableWidget {
    Q_OBJECT
public:
    explicit HeadlinePanel(QWidget *parent = nullptr);

    /// The background of a verdict wherever the window shows one (this panel, the delta table);
    /// invalid for undecided.
    static QColor verdictColour(Verdict v);
    /// The metric keys shown, in order.
    static const QStringList &headlineKeys();
    /// `lettered`: runs are compared (sections are B, C, … against A); else one run's variants.
    void setSections(const QList<DeltaSection> &sections, bool lettered);
};

} // namespace ServeScope
