// SPDX-License-Identifier: MIT
// The main window's part of the team database: File → Team runs… and a run's "Publish to team database…".
#include "mainwindow.h"

#include "projectsession.h"
#include "projecttree.h"
#include "teamdbjobs.h"
#include "teamrunsdialog.h"

#include <QMessageBox>
#include <QStatusBar>

namespace ServeScope {

TeamRunsDialog *MainWindow::showTeamRuns()
{
    auto *dialog = new TeamRunsDialog(m_secrets, m_hasProject ? m_session->path() : QString(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &TeamRunsDialog::runsPulled, this, [this](const QList<qint64> &pulled) {
        // Once the tree lists them: the pulled runs beside the local ones selected before.
        const QList<qint64> local = m_tree->selectedRuns();
        auto *once = new QObject(this);
        connect(m_session, &ProjectSession::runsListed, once, [this, once, local, pulled] {
            once->deleteLater();
            QList<qint64> ids = local;
            for (qint64 id : pulled) {
                if (!ids.contains(id))
                    ids << id;
            }
            compareRuns(ids);
        });
        m_session->listRuns();
        statusBar()->showMessage(tr("%n run(s) copied from the team database.", nullptr, int(pulled.size())), 6000);
    });
    dialog->open();
    if (!TeamDbJobs::savedUrl().isEmpty())
        dialog->list();
    return dialog;
}

void MainWindow::publishRun(qint64 runId)
{
    QString error;
    const std::optional<TeamDbUrl> url = TeamDbUrl::parse(TeamDbJobs::savedUrl(), &error);
    if (!url) {
        showWarning(
            tr("Publish to team database"), tr("Set the team database in File → Team runs… first (%1).").arg(error));
        showTeamRuns();
        return;
    }
    if (m_teamJobs->busy()) {
        statusBar()->showMessage(tr("A publication is in progress."), 4000);
        return;
    }
    statusBar()->showMessage(tr("Publishing run %1 to %2…").arg(runId).arg(url->toString()));
    auto *once = new QObject(this);
    connect(m_teamJobs, &TeamDbJobs::published, once,
        [this, once, runId, where = url->toString()](
            const QString &uid, bool existed, qint64 requests, const QString &why) {
            once->deleteLater();
            if (!why.isEmpty()) {
                statusBar()->showMessage(tr("Run %1 was not published.").arg(runId), 6000);
                showWarning(tr("Publish to team database"),
                    tr("Run %1 was not published to %2: %3").arg(runId).arg(where, why));
                return;
            }
            statusBar()->showMessage(existed
                    ? tr("Run %1 was already in %2 as %3.").arg(runId).arg(where, uid.left(12))
                    : tr("Run %1 published to %2 as %3 (%n request(s)).", nullptr, int(requests))
                          .arg(runId)
                          .arg(where, uid.left(12)),
                10000);
        });
    m_teamJobs->publish(*url, m_session->path(), runId);
}

} // namespace ServeScope
