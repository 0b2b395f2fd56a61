// SPDX-License-Identifier: MIT
// MainWindow: comparing runs, checking a rerun, and asking before a project
// with unsaved edits or runs is left.
#include "mainwindow.h"

#include "compare/runsource.h"
#include "experimentdocument.h"
#include "projectsession.h"
#include "projecttree.h"
#include "runsession.h"

#include <QMessageBox>
#include <QStatusBar>

namespace ServeScope {

void MainWindow::compareRuns(const QList<qint64> &ids)
{
    m_tree->selectRuns(ids);
}

void MainWindow::rerunToCheck(qint64 runId)
{
    if (!m_hasProject)
        return;
    if (m_run->isRunning()) {
        statusBar()->showMessage(tr("A run is in progress: cancel it first."), 5000);
        return;
    }
    m_session->loadRunConfig(runId);
}

void MainWindow::reportCheck(qint64 earlierId, const RerunCheck &check, const QString &error)
{
    if (!error.isEmpty()) {
        appendLog(
            QStringLiteral("error"), tr("The rerun of run %1 could not be checked: %2").arg(earlierId).arg(error));
        return;
    }
    QStringList points;
    for (const RerunCheck::Point &p : check.points) {
        const QString point = p.variant + QLatin1Char('/') + p.label;
        points << (p.outcome == QLatin1String("agree") ? tr("%1: agree").arg(point)
                : p.outcome == QLatin1String("missing")
                ? tr("%1: missing from the rerun").arg(point)
                : tr("%1: differ (%2)").arg(point, p.differing.join(QStringLiteral(", "))));
    }
    for (const QString &p : std::as_const(points))
        appendLog(QStringLiteral("check"), p);
    for (const QString &d : check.environment)
        appendLog(QStringLiteral("check"), tr("environment: %1").arg(d));
    const bool all = check.allAgree();
    const QString summary = all
        ? tr("Rerun agrees with run %1 within 5% at every point.").arg(earlierId)
        : tr("Rerun differs from run %1 at some points; see the log and the delta table.").arg(earlierId);
    appendLog(all ? QStringLiteral("info") : QStringLiteral("warning"), summary);
    statusBar()->showMessage(summary, 10000);
    emit checkFinished(points, all);
}

void MainWindow::showRuns(const QList<qint64> &ids)
{
    if (ids.isEmpty())
        return;
    statusBar()->showMessage(
        ids.size() > 1 ? tr("Comparing %n runs…", nullptr, int(ids.size())) : tr("Loading the run…"));
    m_session->loadRuns(ids);
}

void MainWindow::continueAfterSave(const QString &error)
{
    std::function<void()> next = std::exchange(m_afterSave, nullptr);
    if (next && error.isEmpty() && !hasUnsavedWork())
        next();
}

bool MainWindow::hasUnsavedRuns() const
{
    // An unsaved project lives in a temporary file: leaving it loses its runs.
    return m_hasProject && m_session->isTemporary() && m_runCount > 0;
}

bool MainWindow::hasUnsavedWork() const
{
    return m_hasProject && (m_document->isModified() || hasUnsavedRuns());
}

void MainWindow::whenSafeToLeave(std::function<void()> proceed)
{
    if (m_run->isRunning()) {
        statusBar()->showMessage(tr("A run is in progress: cancel it first."), 5000);
        return;
    }
    if (!hasUnsavedWork()) {
        proceed();
        return;
    }
    const bool unsavedRuns = hasUnsavedRuns();
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Unsaved changes"),
        unsavedRuns ? tr("This project has not been saved yet; its runs will be lost.")
                    : tr("The experiment has changes that are not saved."),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("unsavedBox"));
    box->setInformativeText(tr("Save before leaving this project?"));
    box->setDefaultButton(QMessageBox::Save);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, proceed] {
        switch (box->standardButton(box->clickedButton())) {
        case QMessageBox::Discard:
            proceed();
            break;
        case QMessageBox::Save:
            m_afterSave = proceed; // the user leaves once it is saved
            saveProject();
            break;
        default:
            break;
        }
    });
    box->open();
}

} // namespace ServeScope
