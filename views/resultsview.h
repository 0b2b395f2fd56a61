// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;
class QTabWidget;

namespace ServeScope {
namespace Report {
class ChartView;
}

/// Per-point results of a run (median across repeats where there are several): a table, and the
/// comparison charts of views/report (one colour per variant) for throughput and latency.
class ResultsView final : public QWidget {
    Q_OBJECT
public:
    explicit ResultsView(QWidget *parent = nullptr);

    void setRun(const QString &runName, const QList<PointSummary> &points);
    /// Adds one point as it finishes during a run.
    void addPoint(const PointSummary &point);
    void clear();
    QTableWidget *table() const { return m_table; }
    int pointCount() const { return int(m_points.size()); }

private:
    void rebuildTable();
    void rebuildChart();

    QString m_runName;
    QList<PointSummary> m_points;
    QTabWidget *m_tabs;
    QTableWidget *m_table;
    QLabel *m_empty;
    QComboBox *m_chartKind = nullptr;
    Report::ChartView *m_chartView = nullptr;
};

} // namespace ServeScope
