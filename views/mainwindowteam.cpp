// SPDX-License-Identifier: MIT
// MainWindow: the team database — publishing a run and opening a published one (docs/teamdb.md).
#include "mainwindow.h"

#include "projectsession.h"
#include "projecttree.h"
#include "publishrundialog.h"
#include "runsession.h"
#include "teamrunsdialog.h"

namespace ServeScope {

void MainWindow::publishSelectedRun()
{
    const QList<qint64> selected = m_tree->selectedRuns();
    const qint64 run = selected.isEmpty() ? m_lastRunId : selected.last();
    if (!m_hasProject || m_session->path().isEmpty() || run <= 0) {
        showWarning(tr("Publish run"), tr("Select a run of the project to publish."));
        return;
    }
    auto *dialog = new PublishRunDialog(m_session->path(), run, m_secrets, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::showTeamRuns()
{
    if (m_run->isRunning()) {
        showWarning(tr("Team runs"), tr("Published runs can be opened when the run in progress has ended."));
        return;
    }
    if (!m_hasProject || m_session->path().isEmpty()) {
        showWarning(tr("Team runs"), tr("Open or create a project to copy published runs into."));
        return;
    }
    auto *dialog = new TeamRunsDialog(m_session->path(), m_secrets, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &TeamRunsDialog::opened, this, [this](qint64 runId) {
        m_session->listRuns();
        m_lastRunId = runId;
    });
    dialog->open();
}

} // namespace ServeScope
