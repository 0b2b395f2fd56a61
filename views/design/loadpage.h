// SPDX-License-Identifier: MIT
#pragma once

#include "io/commandimport.h"

#include <QWidget>

class QTableView;

namespace ServeScope {

class ExperimentDocument;
class FormBinder;
class KeyValueTable;
class LoadPointsModel;

/// Dataset and seed, sampling parameters, the load matrix table (add/remove/reorder, gradient
/// presets, rate mode with burstiness, stop rules), warmup/discard/repeats and timeouts.
class LoadPage final : public QWidget {
    Q_OBJECT
public:
    explicit LoadPage(ExperimentDocument *document, QWidget *parent = nullptr);
    void refresh();
    LoadPointsModel *pointsModel() const { return m_model; }
    QTableView *pointsView() const { return m_view; }
    /// Puts point `point` (of the baseline variant) on the clipboard as `tool`'s benchmark command.
    void copyCommand(int point, BenchTool tool);

signals:
    void commandCopied(const QString &command, const QStringList &warnings);

private:
    QWidget *datasetBox();
    QWidget *matrixBox();
    QWidget *runBox();

    ExperimentDocument *m_document;
    FormBinder *m_binder;
    LoadPointsModel *m_model;
    QTableView *m_view;
    KeyValueTable *m_sampling;
};

} // namespace ServeScope
