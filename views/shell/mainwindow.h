// SPDX-License-Identifier: MIT
#pragma once

#include "run/runcontroller.h"

#include <QMainWindow>

class QAction;
class QLabel;
class QMenu;
class QPlainTextEdit;

namespace ServeScope {

class DesignPageController;
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
class ResultsPageController;
class ResultsView;
class RunMonitor;
class RunPageController;
class RunSession;
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
    DesignPageController *design() const { return m_design; }
    RunMonitor *runMonitor() const { return m_monitor; }
    ResultsView *results() const { return m_results; }
    /// Exports and copies of what the Results page shows (File → Export results).
    ResultsExport *resultsExport() const;
    ProjectTree *projectTree() const { return m_tree; }
    ProfileStore *profiles() const { return m_profiles; }
    QPlainTextEdit *log() const;
    QAction *runAction() const;
    QAction *newAction() const { return m_newAction; }

    void openDemo();
    /// Selects these stored runs in the project tree: the results compare them (A is the oldest).
    void compareRuns(const QList<qint64> &ids);
    /// The shown page (WindowPages::Page: Start, Design, Run, Results; Ctrl+1..4).
    int currentPage() const;
    void showTab(int page);

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
    /// The project's life: status, the file check, opening and saving, the runs listed.
    void connectProject();
    /// Runs: their status and log, the pages they ask for, the results of each finished point.
    void connectRuns();
    void connectResults();
    /// Files coming in, the team database and the Design page's controller.
    void connectFlows();
    /// The Start page, the document and the project tree.
    void connectWidgets();
    void updateTitle();
    void rebuildRecentMenu(const QStringList &recent);
    void appendLog(const QString &level, const QString &text);
    void showStatus(const QString &text, int timeoutMs);
    void showProjectPage(const QString &path);
    void rememberPage(int page);
    /// The runs, findings and server log of the project being left.
    void clearShownRuns();

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
    RunSession *m_run;
    RunPageController *m_runs;
    ProjectController *m_project;
    ImportFlow *m_imports;
    TeamFlow *m_team;
    DesignPageController *m_design;
    ResultsPageController *m_resultsPage;
    WelcomePage *m_welcome = nullptr;
    QLabel *m_checking = nullptr; ///< in the status bar while the project file's check reads it
    QMenu *m_recentMenu = nullptr;
    QAction *m_newAction = nullptr;
    bool m_closeConfirmed = false; ///< the user chose to discard unsaved changes
    bool m_justOpened = false; ///< a project opened and its runs are not listed yet
};

} // namespace ServeScope
