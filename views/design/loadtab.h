// SPDX-License-Identifier: MIT
#pragma once

#include "io/commandimport.h"

#include <QWidget>

class QBoxLayout;
class QFormLayout;
class QLineEdit;
class QTableView;

namespace ServeScope {

class ExperimentDocument;
class FormBinder;
class CapacityForm;
class KeyValueTable;
class LoadPointsModel;
class TracePreview;

/// Dataset and seed, sampling parameters, the load matrix table (add/remove/reorder, gradient
/// presets, rate mode with burstiness, stop rules), warmup/discard/repeats and timeouts.
class LoadTab final : public QWidget {
    Q_OBJECT
public:
    explicit LoadTab(ExperimentDocument *document, QWidget *parent = nullptr);
    void refresh();
    LoadPointsModel *pointsModel() const { return m_model; }
    QTableView *pointsView() const { return m_view; }
    /// Puts point `point` (of the baseline variant) on the clipboard as `tool`'s benchmark command.
    void copyCommand(int point, BenchTool tool);

signals:
    void commandCopied(const QString &command, const QStringList &warnings);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    /// The dataset and run boxes side by side where the page's view is wide enough for both, else one
    /// under the other (a 1024-wide screen beside the project panel).
    void arrangeBoxes();
    QWidget *datasetBox();
    /// The seed, and the shape of the prompts each dataset that generates them reads: the length range,
    /// the prefix, a session's turns and think time, the prefix groups and their skew.
    void addPromptShapeRows(QFormLayout *form);
    QWidget *matrixBox();
    /// Add, Remove, Move up and down, and the gradient presets, over the points table.
    QWidget *pointTools();
    /// The row of the points table's current point; -1 when none.
    int selectedPoint() const;
    QWidget *runBox();
    /// The mode combo's edit: a capacity search replaces the points (and back, its first level becomes the one
    /// point).
    static void setMode(Experiment &e, const QString &mode);

    ExperimentDocument *m_document;
    FormBinder *m_binder;
    LoadPointsModel *m_model;
    QTableView *m_view;
    KeyValueTable *m_sampling;
    QBoxLayout *m_boxes = nullptr;
    QWidget *m_pointsPanel = nullptr, *m_pointTools = nullptr;
    CapacityForm *m_capacity = nullptr;
    TracePreview *m_tracePreview = nullptr;
    QWidget *m_prefixRow = nullptr; ///< its label names what the dataset makes of it
    QLineEdit *m_datasetPath = nullptr;
    /// A dataset setting's field, shown only for the datasets that read it.
    struct DatasetRow {
        QWidget *field;
        QStringList datasets;
    };
    QList<DatasetRow> m_datasetRows;
    QWidget *m_repeat = nullptr;
    QWidget *m_settleMin = nullptr, *m_settleVerdict = nullptr;
    QWidget *m_datasetBox = nullptr, *m_runBox = nullptr;
};

} // namespace ServeScope
