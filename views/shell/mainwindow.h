// SPDX-License-Identifier: MIT
#pragma once

#include "run/runcontroller.h"

#include <QMainWindow>

#include <QPointer>

class QAction;
class QMenu;
class QPlainTextEdit;

namespace ServeScope {

class ExperimentDocument;
class ExperimentEditor;
class ImportFlow;
class LogDock;
class ProfileDialog;
class ProfileStore;
class ProjectController;
class ProjectSession;
class ProjectTree;
class ResultsExport;
class ResultsView;
class RunMonitor;
class RunPageController;
class SecretStore;
class TeamFlow;
class WelcomePage;
class WindowPages;
struct Experiment;

/// The ServeScope window: a shell of full-window pages (Start, Design, Run, Results) with the project
/// panel and the log dock beside them. Each page's work has its controller: the project's life
/// (ProjectController), runs (RunPageController), files coming in (ImportFlow), exports (ResultsExport)
/// and the team database (TeamFlow); the shell wires them to the widgets.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    /// `secrets` is the store keys go to (the OS keychain in the app, a private one in tests).
    explicit MainWindow(SecretStore *secrets, QWidget *parent = nullptr);
    ~MainWindow() override;

    ExperimentDocument *document() const { return m_document; }
    ExperimentEditor *editor() const { return m_editor; }
    ProjectSession *session() const { return m_session; }
    ProjectController *project() const { return m_project; }
    RunPageController *runs() const { return m_runs; }
    ImportFlow *imports() const { return m_imports; }
    TeamFlow *team() const { return m_team; }
    RunMonitor *runMonitor() const { return m_monitor; }
    ResultsView *results() const { return m_results; }
    /// Exports and copies of what the Results page shows (File → Export results).
    ResultsExport *resultsExport() const { return m_export; }
    ProjectTree *projectTree() const { return m_tree; }
    ProfileStore *profiles() const { return m_profiles; }
    QPlainTextEdit *log() const;
    QAction *runAction() const;
    QAction *newAction() const { return m_newAction; }

    /// Time scale for the local simulator (demo and tests run faster than real time); without one,
    /// the demo runs at kDemoTimeScale and everything else at 1.
    void setTimeScale(double scale);
    static constexpr double kDemoTimeScale = 8.0;
    double timeScale() const { return m_timeScale; }

    void newProject(const Experiment &experiment);
    void openDemo();
    void openProject(const QString &path);
    bool startRun();
    void cancelRun();
    ProfileDialog *showProfiles();
    /// Selects these stored runs in the project tree: the results compare them (A is the oldest).
    void compareRuns(const QList<qint64> &ids);
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

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void createDocks();
    void connectControllers();
    void connectSession();
    void updateTitle();
    void rebuildRecentMenu(const QStringList &recent);
    void captureFromServer();
    void appendLog(const QString &level, const QString &text);
    void showStatus(const QString &text, int timeoutMs);
    void showProjectPage(const QString &path);
    void rememberPage(int page);
    void applyTimeScale(double scale);
    /// The runs, findings and server log of the project being left.
    void clearShownRuns();
    void showRuns(const QList<qint64> &ids);

    SecretStore *m_secrets;
    ProfileStore *m_profiles;
    ExperimentDocument *m_document;
    ProjectSession *m_session;
    WindowPages *m_pages;
    ExperimentEditor *m_editor;
    RunMonitor *m_monitor;
    ResultsView *m_results;
    ProjectTree *m_tree;
    LogDock *m_logDock;
    RunPageController *m_runs;
    ProjectController *m_project;
    ImportFlow *m_imports;
    TeamFlow *m_team;
    ResultsExport *m_export = nullptr;
    WelcomePage *m_welcome = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_newAction = nullptr;
    QPointer<ProfileDialog> m_profileDialog;
    double m_timeScale = 1.0; ///< the local simulator's speed for the open project
    double m_chosenTimeScale = 0; ///< setTimeScale()'s, 0 when none was chosen
    bool m_closeConfirmed = false; ///< the user chose to discard unsaved changes
};

} // namespace ServeScope
