// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportdocument.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QSortFilterProxyModel>

namespace ServeScope {

/// The Results page's Table as a model: every (run, variant, point, repeat) summary of the shown runs
/// — vLLM's result set or the steady window's — with a median row and the spread across repeats under
/// each repeated point. Every value, median and spread is core's; the model words and marks them
/// (estimated, partial, failed, not reproducible).
class PointTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole + 1, ///< the number a value column sorts by (text elsewhere)
        PointRole, ///< on a point row: run id, variant, point index, repeat and label (empty on a median row)
    };
    /// The columns before the values: run letter, variant, point, repeat, load.
    static constexpr int kRequestsColumn = 5;

    explicit PointTableModel(QObject *parent = nullptr);

    void setInput(const Report::ReportInput &input, bool steady);
    /// Columns with nothing to show (the run letter of one run, goodput without SLOs, server series no
    /// point has, the spread without repeats) are hidden by the view.
    bool columnShown(int column) const { return m_shown.value(column, true); }
    /// The visible columns of every row as tab-separated text under a header line (what Copy copies),
    /// in the order of `rows` (source rows; all rows in order when empty).
    QString text(const QList<int> &rows = {}) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Cell {
        QString text;
        double sort = -1; ///< NaN: sorts by text
        QString tip;
        QColor foreground;
        bool bold = false, italic = false;
        bool number = false;
    };
    struct Row {
        QList<Cell> cells;
        QVariantList point;
    };
    static Cell textCell(const QString &text);
    /// Right-aligned, sorting by `sortValue`.
    static Cell numberCell(const QString &text, double sortValue);
    static Cell valueCell(const QMap<QString, double> &values, int column);
    static QStringList columnTitles();
    /// Marks the cells of run.points[i] when the point stopped short (a cancel, an interrupted process).
    static void markPartial(QList<Cell> &cells, const Report::ReportRun &run, qsizetype i, bool steady);
    /// Marks failures in red, estimated token counts, and the lack of a steady window on a point's cells.
    static void markValues(QList<Cell> &cells, const PointSummary &p, bool steady);
    Row medianRow(Row identity, const QList<PointEstimate> &stored, const QList<QMap<QString, double>> &repeats) const;

    QStringList m_headers;
    QList<Row> m_rows;
    QList<bool> m_shown;
};

/// Sorts the point table by its numbers, not their text.
class PointTableSorter final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit PointTableSorter(QObject *parent = nullptr);
    /// The model's text (PointTableModel::text) of the rows as shown, in the order shown: what Copy copies.
    QString shownText() const;
};

} // namespace ServeScope
