// SPDX-License-Identifier: MIT
#include "teamflow.h"

#include "filedialogs.h"
#include "projectcontroller.h"
#include "projectsession.h"
#include "teamdbjobs.h"
#include "teamrunsdialog.h"

namespace ServeScope {

TeamFlow::TeamFlow(QWidget *window, SecretStore *secrets, ProjectSession *session, ProjectController *project)
    : QObject(window)
    , m_window(window)
    , m_secrets(secrets)
    , m_session(session)
    , m_project(project)
    , m_jobs(new TeamDbJobs(secrets, this))
{
}

TeamRunsDialog *TeamFlow::showTeamRuns()
{
    auto *dialog = new TeamRunsDialog(m_secrets, m_project->hasProject() ? m_session->path() : QString(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &TeamRunsDialog::runsPulled, this, [this](const QList<qint64> &pulled) {
        auto *once = new QObject(this);
        connect(m_session, &ProjectSession::runsListed, once, [this, once, pulled] {
            once->deleteLater();
            emit runsPulled(pulled);
        });
        m_session->listRuns();
        emit status(tr("%n run(s) copied from the team database.", nullptr, int(pulled.size())), 6000);
    });
    dialog->open();
    if (!TeamDbJobs::savedUrl().isEmpty())
        dialog->list();
    return dialog;
}

void TeamFlow::publishRun(qint64 runId)
{
    QString error;
    const std::optional<TeamDbUrl> url = TeamDbUrl::parse(TeamDbJobs::savedUrl(), &error);
    if (!url) {
        showWarning(m_window, tr("Publish to team database"),
            tr("Set the team database in File → Team runs… first (%1).").arg(error));
        showTeamRuns();
        return;
    }
    if (m_jobs->busy()) {
        emit status(tr("A publication is in progress."), 4000);
        return;
    }
    emit status(tr("Publishing run %1 to %2…").arg(runId).arg(url->toString()), 0);
    auto *once = new QObject(this);
    connect(m_jobs, &TeamDbJobs::published, once,
        [this, once, runId, where = url->toString()](
            const QString &uid, bool existed, qint64 requests, const QString &why) {
            once->deleteLater();
            if (!why.isEmpty()) {
                emit status(tr("Run %1 was not published.").arg(runId), 6000);
                showWarning(m_window, tr("Publish to team database"),
                    tr("Run %1 was not published to %2: %3").arg(runId).arg(where, why));
                return;
            }
            emit status(existed ? tr("Run %1 was already in %2 as %3.").arg(runId).arg(where, uid.left(12))
                                : tr("Run %1 published to %2 as %3 (%n request(s)).", nullptr, int(requests))
                                      .arg(runId)
                                      .arg(where, uid.left(12)),
                10000);
        });
    m_jobs->publish(*url, m_session->path(), runId);
}

} // namespace ServeScope
