// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/delta.h"

#include <QTableWidget>

namespace ServeScope {

/// Beside the chart: for each compared side against its baseline and each load point (a row across
/// the panel heads them), the headline metrics (output tok/s, TTFT p50 and p90, TPOT p50 and p90, E2EL p90, success
/// rate) with their change in % and core's verdict, coloured. Shows core's rows (Report::headlineRows, the report's
/// summary lists the same); computes nothing.
class HeadlinePanel final : public QTableWidget {
    Q_OBJECT
public:
    explicit HeadlinePanel(QWidget *parent = nullptr);

    /// `lettered`: runs are compared (sections are B, C, … against A); else one run's variants.
    void setSections(const QList<DeltaSection> &sections, bool lettered);

    enum Column { MetricColumn, ChangeColumn, VerdictColumn };
    /// On every item: the compared side and point its row belongs to ("B · baseline · c8"). A row
    /// whose first item spans the panel heads the rows of one side and point.
    static constexpr int SideRole = Qt::UserRole + 1;
};

} // namespace ServeScope
