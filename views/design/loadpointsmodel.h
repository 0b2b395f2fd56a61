// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"

#include <QAbstractTableModel>

namespace ServeScope {

class ExperimentDocument;

/// The load matrix as an editable table. Edits go to the document as undoable commands; the model
/// re-reads the document whenever it changes. Cells with validation problems are tinted.
class LoadPointsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Label,
        Concurrency,
        Rate,
        Burstiness,
        MaxConcurrency,
        InputLen,
        OutputLen,
        Prompts,
        MaxSeconds,
        ColumnCount
    };

    explicit LoadPointsModel(ExperimentDocument *document, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    /// File name of a column as used in problem paths (`load.points[i].<name>`).
    static QString fieldName(int column);

    void addPoint();
    void removePoint(int row);
    void movePoint(int row, int delta);
    /// Replaces the points with a closed-loop gradient sharing the first point's lengths.
    void applyGradient(const QList<int> &levels);

signals:
    /// A typed value was not applied: `message` names the column, its limits and what was typed.
    void valueRefused(int row, int column, const QString &message);

private:
    void reload();
    /// Empty when `value` fits `column`'s limits (then *out holds it); the refusal otherwise.
    QString checkValue(int column, const QVariant &value, double *out) const;

    ExperimentDocument *m_document;
    int m_rows = 0;
    QList<Problem> m_problems;
};

} // namespace ServeScope
