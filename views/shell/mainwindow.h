// SPDX-License-Identifier: MIT
#pragma once

#include "run/runcontroller.h"

#include <QMainWindow>

#include <functional>
#include <QMultiHash>
#include <QPointer>
#include <QSet>
#include <QSize>

class QAction;
class QFileDialog;
class QLabel;
class QLineEdit;
class QListWidget;
class QMenu;
class QPlainTextEdit;
class QStackedWidget;
class QTabWidget;

namespace ServeScope {

namespace Report {
struct ExportOptions;
struct ReportInput;
} // namespace Report
class ExperimentDocument;
class ExperimentEditor;
class LogDock;
class ProfileDialog;
class ProfileStore;
class ProjectSession;
class ProjectTree;
class ResultsExport;
class ResultsView;
class RunMonitor;
class RunSession;
class SecretStore;
struct RerunCheck;
class TeamDbJobs;
class TeamRunsDialog;
class WelcomePage;
class WindowPages;
struct Experiment;

/// The ServeScope window: a shell of full-window pages (Start, Design, Run, Results) with the project
/// panel and the log dock beside them.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    /// `secrets` is the store keys go to (the OS keychain in the app, a private one in tests).
    explicit MainWindow(SecretStore *secrets, QWidget *parent = nullptr);
    ~MainWindow() override;

    ExperimentDocument *document() const { return m_document; }
    ExperimentEditor *editor() const { return m_editor; }
    ProjectSession *session() const { return m_session; }
    RunMonitor *runMonitor() const { return m_monitor; }
    ResultsView *results() const { return m_results; }
    /// Exports and copies of what the Results page shows (File → Export results).
    ResultsExport *resultsExport() const { return m_export; }
    ProjectTree *projectTree() const { return m_tree; }
    ProfileStore *profiles() const { return m_profiles; }
    QPlainTextEdit *log() const;
    qint64 lastRunId() const { return m_lastRunId; }
    QAction *runAction() const { return m_runAction; }
    QAction *newAction() const { return m_newAction; }

    /// Time scale for the local simulator (demo and tests run faster than real time); without one,
    /// the demo runs at kDemoTimeScale and everything else at 1.
    void setTimeScale(double scale);
    static constexpr double kDemoTimeScale = 8.0;
    /// Whether a variant's `server.launch.argv` is started: ask once per set of commands (the
    /// window's default), always (`servescope --allow-launch`) or never (a scripted run without it).
    enum class LaunchPolicy { Ask, Allow, Never };
    void setLaunchPolicy(LaunchPolicy policy) { m_launchPolicy = policy; }
    double timeScale() const { return m_timeScale; }

    void newProject(const Experiment &experiment);
    void openDemo();
    void openProject(const QString &path);
    /// Imports an experiment file (JSON, TOML) into the open project as an undoable edit.
    bool importExperimentFile(const QString &path);
    /// vLLM or SGLang result files into the project (a new one when none is open); lists the outcome.
    void importResults(const QStringList &files);
    /// File → Merge shards…: one run in this project from the shard runs of these project files
    /// (each file's latest run), on a worker thread; says what the merge found and selects the run.
    void mergeShardFiles(const QStringList &files);
    /// Opens the paste dialog with `text` (a server or benchmark command line); what it reads is
    /// merged into the experiment as one undoable edit (a new project when none is open).
    void pasteCommand(const QString &text);
    bool exportExperimentFile(const QString &path);
    void saveProject();
    void saveProjectAs(const QString &path);
    /// Starts the experiment as edited; false when it cannot start (a run in progress, no project,
    /// validation errors).
    bool startRun();
    void cancelRun();
    ProfileDialog *showProfiles();
    /// File → Team runs…: published runs listed and copied into this project, then compared with
    /// the local runs selected before.
    TeamRunsDialog *showTeamRuns();
    /// Publishes a stored run to the team database of the settings (docs/teamdb.md).
    void publishRun(qint64 runId);
    /// Selects these stored runs in the project tree: the results compare them (A is the oldest).
    void compareRuns(const QList<qint64> &ids);
    /// Runs a stored run's configuration again, then shows both compared and says, point by point,
    /// whether they agree within 5% (the result also arrives as checkFinished()).
    void rerunToCheck(qint64 runId);
    static Experiment blankExperiment();
    /// The shown page (WindowPages::Page: Start, Design, Run, Results; Ctrl+1..4).
    int currentPage() const;
    void showPage(int page);
    /// View → Reset layout: docks shown and in place, panes at their first-start sizes.
    void resetLayout();

signals:
    void projectOpened(const QString &path);
    /// A project file was refused (missing, empty, foreign, newer or corrupt header).
    void projectOpenFailed(const QString &path, const QString &error);
    void projectSaved(const QString &path, const QString &error);
    void runFinished(const ServeScope::RunResult &result);
    void runsListed(int count);
    /// The Results page shows runs loaded from the project (one, or several compared).
    void resultsShown();
    /// A rerun to check ended: one line per point ("c8: agree", "c16: differ (median_ttft_ms +12.0%)").
    void checkFinished(const QStringList &points, bool allAgree);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void createDocks();
    void updateTitle();
    void updateRunnable();
    void documentChanged();
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    QFileDialog *chooseFile(
        bool save, const QString &title, const QString &filter, std::function<void(const QString &)> done);
    /// One or more existing files, as chooseFile (no nested event loop).
    void chooseFiles(const QString &title, const QString &filter, std::function<void(const QStringList &)> done);
    void captureFromServer();
    void appendLog(const QString &level, const QString &text);
    void showWarning(const QString &title, const QString &text);
    /// True when no project file is open yet: one is created and `then` runs once it is open.
    bool needsProjectFirst(const std::function<void()> &then);
    void clearShownRuns();
    void showProjectPage(const QString &path);
    void rememberPage(int page);
    void applyTimeScale(double scale);
    void runEnded(const RunResult &result);
    void showRuns(const QList<qint64> &ids);
    bool startRunOf(const Experiment &experiment);
    void beginRun(const Experiment &experiment, bool allowLaunch);
    void openImportDialog(const QStringList &files);
    bool approveLaunch(const Experiment &experiment, bool *allow);
    /// Words core's check of a rerun in the log and the status bar.
    void reportCheck(qint64 earlierId, const RerunCheck &check, const QString &error);
    /// Runs `proceed` once unsaved edits or runs are saved or knowingly discarded; not on Cancel.
    void whenSafeToLeave(std::function<void()> proceed);
    /// Closing while a run is in progress: Keep running, or Cancel run and close.
    void askCloseDuringRun();
    /// Runs the continuation saved by whenSafeToLeave()'s Save once the save succeeded.
    void continueAfterSave(const QString &error);
    bool hasUnsavedRuns() const;
    bool hasUnsavedWork() const;

    SecretStore *m_secrets;
    TeamDbJobs *m_teamJobs;
    ProfileStore *m_profiles;
    ExperimentDocument *m_document;
    ProjectSession *m_session;
    RunSession *m_run;
    WindowPages *m_pages;
    ExperimentEditor *m_editor;
    RunMonitor *m_monitor;
    ResultsView *m_results;
    ResultsExport *m_export = nullptr;
    ProjectTree *m_tree;
    LogDock *m_logDock;
    QLabel *m_runBanner;
    WelcomePage *m_welcome = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_runAction = nullptr, *m_cancelAction = nullptr, *m_saveAction = nullptr, *m_newAction = nullptr;
    std::function<void()> m_afterSave; ///< what Save in the unsaved-changes question was on its way to
    QPointer<ProfileDialog> m_profileDialog;
    double m_timeScale = 1.0; ///< the local simulator's speed for the open project
    double m_chosenTimeScale = 0; ///< setTimeScale()'s, 0 when none was chosen
    LaunchPolicy m_launchPolicy = LaunchPolicy::Ask;
    QSet<QString> m_approvedLaunches; ///< launch commands the user approved in this session
    qint64 m_lastRunId = 0;
    qint64 m_checkAgainst = 0; ///< the stored run a rerun checks, 0 when none
    bool m_closing = false;
    bool m_checking = false; ///< the endpoint check before a run is under way
    QMultiHash<QString, qint64> m_importedFrom; ///< imported file (absolute path) -> the runs made from it
    bool m_stayOnRunPage = false; ///< the run just ended completed nothing: its results do not take over
    bool m_closeConfirmed = false; ///< the user chose to discard unsaved changes
    bool m_hasProject = false;
    int m_runCount = 0;
};

} // namespace ServeScope
