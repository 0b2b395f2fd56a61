// SPDX-License-Identifier: MIT
#pragma once

#include "compare/delta.h"

#include <QAbstractTableModel>
#include <QTableView>

namespace ServeScope {

/// The headline panel's rows: per compared side and load point a heading row, then that side's headline
/// metrics with their change and core's verdict (Report::headlineRows; the report's summary lists the
/// same). Computes nothing.
class HeadlineModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    enum Column { MetricColumn, ChangeColumn, VerdictColumn, ColumnCount };
    /// On every cell: the compared side and point its row belongs to ("B · baseline · c8").
    static constexpr int SideRole = Qt::UserRole + 1;
    /// On every cell of a metric row: its DeltaVerdict as an int.
    static constexpr int VerdictRole = Qt::UserRole;

    /// `lettered`: runs are compared (sections are B, C, … against A); else one run's variants.
    void setSections(const QList<DeltaSection> &sections, const QStringList &runs);
    bool isHeading(int row) const;
    /// Every row as tab-separated text under a header line (what Copy copies).
    QString text() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString side;
        bool heading = false;
        DeltaRow delta;
    };
    QString cellText(const Row &row, int column) const;
    QList<Row> m_rows;
};

/// Beside the chart: the headline model as a table whose heading rows span it, coloured by verdict;
/// Ctrl+C copies it.
class HeadlinePanel final : public QTableView {
    Q_OBJECT
public:
    explicit HeadlinePanel(QWidget *parent = nullptr);

    void setSections(const QList<DeltaSection> &sections, const QStringList &runs);
    HeadlineModel *headline() const { return m_model; }

private:
    HeadlineModel *m_model;
};

} // namespace ServeScope
