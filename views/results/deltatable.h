// SPDX-License-Identifier: MIT
#pragma once

#include "compare/delta.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace ServeScope {

/// The comparison's full delta table as a model: one row per (comparison, point, metric) of core's
/// DeltaSections, in words and at each metric's precision; every value, change and verdict is core's.
class DeltaTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Comparison, Variant, Point, Metric, A, B, Change, ChangePercent, VerdictColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< numbers for the value columns, text elsewhere
        FamilyRole, ///< the row's MetricName::Family
        VerdictRole, ///< the row's Verdict
    };

    explicit DeltaTableModel(QObject *parent = nullptr);

    /// `lettered`: runs are compared (sections read "B vs A", "C vs A"); else one run's variants,
    /// each section by its title.
    /// `runs`: each compared run's tag ("A #3"), empty when the sections compare one run's variants.
    void setSections(const QList<DeltaSection> &sections, const QStringList &runs);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString comparison;
        DeltaRow delta;
    };
    QList<Row> m_rows;
};

/// What the delta table shows: one metric family (or all) and, when asked, only the rows core
/// called better or worse; sorts by value.
class DeltaTableFilter final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit DeltaTableFilter(QObject *parent = nullptr);
    /// -1: every family.
    void setFilter(int family, bool decidedOnly);
    /// The rows shown, as tab-separated text under a header line (what Copy puts on the clipboard).
    QString shownText() const;
    /// The rows "decided only" hides, of every family, counted in words (Report::foldedRows); empty when
    /// it hides none.
    QString foldedRows() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    int m_family = -1;
    bool m_decidedOnly = false;
};

} // namespace ServeScope
