// SPDX-License-Identifier: MIT
#pragma once

#include "run/runcontroller.h"

#include <QLabel>
#include <QObject>
#include <QSet>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace ServeScope {

class ExperimentDocument;
class ProjectSession;
class RunMonitor;
class RunSession;
class SecretStore;
struct Experiment;
struct RerunCheck;

/// The Run page's controller: starts a run of the experiment as edited (asking before it launches
/// servers, and making Test connection's check first against a server it does not start), cancels
/// it, follows it on the Run page and hands its stored result to the Results page; reruns a stored run
/// to check it. It owns Run → Run experiment and Cancel run, and the banner the Design page shows while
/// a run goes on with the configuration it started with.
class RunPageController final : public QObject {
    Q_OBJECT
public:
    /// Whether a variant's `server.launch.argv` is started: ask once per set of commands (the
    /// window's default), always (`servescope --allow-launch`) or never (a scripted run without it).
    enum class LaunchPolicy { Ask, Allow, Never };

    RunPageController(QWidget *window, SecretStore *secrets, ExperimentDocument *document, ProjectSession *session,
        RunMonitor *monitor, RunSession *run);
    ~RunPageController() override;

    /// Run → Run experiment and Cancel run, added to `menu`.
    void createActions(QMenu *menu);
    QAction *runAction() const { return m_runAction; }
    QAction *cancelAction() const { return m_cancelAction; }
    /// Shown above the experiment editor while a run goes on and the experiment is edited.
    QWidget *banner() const { return m_banner; }

    void setLaunchPolicy(LaunchPolicy policy) { m_launchPolicy = policy; }
    /// The local simulator's speed for the next run (the estimate on the Run page follows it).
    void setTimeScale(double scale);
    /// Whether a project is open: without one nothing can run.
    void setProjectOpen(bool open);

    bool isRunning() const;
    /// Starts the experiment as edited, after the launch question and the endpoint check where they
    /// apply (both opened, never exec'd); false when it cannot start (a run in progress or being
    /// checked, no project, validation errors).
    bool start();
    void cancel();
    /// Runs a stored run's configuration again, then shows both compared and says, point by point,
    /// whether they agree within 5% (the result also arrives as checkFinished()).
    void rerunToCheck(qint64 runId);
    /// Closing while a run is in progress: Keep running, or Cancel run and close (closeWanted() once
    /// the run has saved what it measured). Nothing is cancelled before the answer.
    void askCloseDuringRun();
    /// Called when the Results page is about to show stored runs after a run: false once after a run
    /// that completed nothing (its first error stays in view).
    bool resultsMayTakeOver();

signals:
    void logged(const QString &level, const QString &text);
    /// A status-bar message; empty text clears it.
    void status(const QString &text, int timeoutMs);
    /// These stored runs should be shown (a run ended; a rerun beside the run it checks).
    void showRunsWanted(const QList<qint64> &ids);
    void runFinished(const ServeScope::RunResult &result);
    /// A rerun to check ended: one line per point ("c8: agree", "c16: differ (median_ttft_ms +12.0%)").
    void checkFinished(const QStringList &points, bool allAgree);
    /// The run the user chose to cancel on closing has ended: the window may close now.
    void closeWanted();
    /// A run named `name` is about to start: the Results page follows it live.
    void runStarting(const QString &name);
    /// The shell is asked to show the Run page (a run started; one ended having completed nothing)
    /// or the Results page (a run ended with results).
    void runPageWanted();
    void resultsPageWanted();

private:
    void updateRunnable();
    void startExperiment(const Experiment &experiment);
    void approveLaunch(const Experiment &experiment, std::function<void(bool allowLaunch)> go);
    /// Against a server the run does not start itself, Test connection's check first.
    void checkThenBegin(const Experiment &experiment, bool allowLaunch);
    void beginRun(const Experiment &experiment, bool allowLaunch);
    void runEnded(const RunResult &result);
    void configLoaded(qint64 runId, const Experiment &experiment, bool readable);
    /// Words core's check of a rerun in the log and the status bar.
    void reportCheck(qint64 earlierId, const RerunCheck &check, const QString &error);

    QWidget *m_window;
    SecretStore *m_secrets;
    ExperimentDocument *m_document;
    ProjectSession *m_session;
    RunMonitor *m_monitor;
    RunSession *m_run;
    QLabel *m_banner;
    QAction *m_runAction = nullptr, *m_cancelAction = nullptr;
    double m_timeScale = 1.0;
    LaunchPolicy m_launchPolicy = LaunchPolicy::Ask;
    QSet<QString> m_approvedLaunches; ///< launch commands the user approved in this session
    qint64 m_checkAgainst = 0; ///< the stored run a rerun checks, 0 when none
    bool m_projectOpen = false;
    bool m_checking = false; ///< the endpoint check before a run is under way
    bool m_closing = false; ///< the user chose Cancel run and close
    bool m_stayOnRunPage = false; ///< the run just ended completed nothing: its results do not take over
};

} // namespace ServeScope
