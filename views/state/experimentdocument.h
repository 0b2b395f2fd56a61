// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"

#include <QObject>
#include <QUndoCommand>
#include <QUndoStack>

namespace ServeScope {

/// The experiment being edited. Every edit goes through apply(), which pushes an undoable command;
/// widgets never change the experiment behind the stack's back.
class ExperimentDocument final : public QObject {
    Q_OBJECT
public:
    explicit ExperimentDocument(QObject *parent = nullptr);

    const Experiment &experiment() const { return m_experiment; }
    QUndoStack *undoStack() { return &m_undo; }
    /// Problems of the current experiment (validate()), refreshed on every change.
    const QList<Problem> &problems() const { return m_problems; }

    /// Replaces the experiment without an undo entry (open, new, demo) and marks it clean.
    void reset(const Experiment &experiment);
    /// Pushes an undoable edit. `mergeKey` lets consecutive edits of one field (typing, spinning)
    /// collapse into one undo step; empty means never merge.
    void apply(const Experiment &edited, const QString &text, const QString &mergeKey = {});
    bool isModified() const { return !m_undo.isClean(); }
    void markSaved() { m_undo.setClean(); }

signals:
    /// The experiment changed (edit, undo, redo or reset).
    void changed();

private:
    friend class ExperimentEditCommand;
    void set(const Experiment &experiment);

    Experiment m_experiment;
    QList<Problem> m_problems;
    QUndoStack m_undo;
};

/// One edit: the experiment before and after. Whole-value snapshots keep undo exact for every form.
class ExperimentEditCommand final : public QUndoCommand {
public:
    ExperimentEditCommand(ExperimentDocument *document, Experiment before, Experiment after, const QString &text,
        const QString &mergeKey);
    void undo() override;
    void redo() override;
    int id() const override { return m_mergeKey.isEmpty() ? -1 : 1; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    ExperimentDocument *m_document;
    Experiment m_before, m_after;
    QString m_mergeKey;
};

} // namespace ServeScope
