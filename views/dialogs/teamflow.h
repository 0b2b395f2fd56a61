// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QWidget;

namespace ServeScope {

class ProjectController;
class ProjectSession;
class SecretStore;
class TeamDbJobs;
class TeamRunsDialog;

/// The window's part of the team database (docs/teamdb.md): File → Team runs… and a run's
/// "Publish to team database…".
class TeamFlow final : public QObject {
    Q_OBJECT
public:
    TeamFlow(QWidget *window, SecretStore *secrets, ProjectSession *session, ProjectController *project);

    /// Published runs listed and copied into this project (runsPulled() once the project lists them).
    TeamRunsDialog *showTeamRuns();
    /// Publishes a stored run to the team database of the settings.
    void publishRun(qint64 runId);

signals:
    /// Runs copied from the team database, now listed in the project.
    void runsPulled(const QList<qint64> &ids);
    void status(const QString &text, int timeoutMs);

private:
    QWidget *m_window;
    SecretStore *m_secrets;
    ProjectSession *m_session;
    ProjectController *m_project;
    TeamDbJobs *m_jobs;
};

} // namespace ServeScope
