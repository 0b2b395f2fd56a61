// SPDX-License-Identifier: MIT
#include "experimentdocument.h"
#include "engine/fdlimit.h"

#include "model/validation.h"

namespace ServeScope {

ExperimentDocument::ExperimentDocument(QObject *parent)
    : QObject(parent)
{
    m_undo.setUndoLimit(500);
}

void ExperimentDocument::reset(const Experiment &experiment)
{
    m_undo.clear();
    set(experiment);
    m_undo.setClean();
}

void ExperimentDocument::apply(const Experiment &edited, const QString &text, const QString &mergeKey)
{
    if (edited == m_experiment)
        return;
    m_undo.push(new ExperimentEditCommand(this, m_experiment, edited, text, mergeKey));
}

void ExperimentDocument::set(const Experiment &experiment)
{
    m_experiment = experiment;
    // What this host cannot carry (descriptors, local ports) beside what the file itself gets wrong.
    m_problems = validate(m_experiment) + descriptorProblems(m_experiment);
    emit changed();
}

ExperimentEditCommand::ExperimentEditCommand(
    ExperimentDocument *document, Experiment before, Experiment after, const QString &text, const QString &mergeKey)
    : QUndoCommand(text)
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeKey(mergeKey)
{
}

void ExperimentEditCommand::undo()
{
    m_document->set(m_before);
}

void ExperimentEditCommand::redo()
{
    m_document->set(m_after);
}

bool ExperimentEditCommand::mergeWith(const QUndoCommand *other)
{
    const auto *o = static_cast<const ExperimentEditCommand *>(other);
    if (o->m_mergeKey != m_mergeKey)
        return false;
    m_after = o->m_after;
    return true;
}

} // namespace ServeScope
