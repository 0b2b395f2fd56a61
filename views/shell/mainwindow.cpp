// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "designpagecontroller.h"
#include "endpointprofiles.h"
#include "experimentdocument.h"
#include "experimenteditor.h"
#include "filedialogs.h"
#include "importflow.h"
#include "loadtab.h"
#include "logdock.h"
#include "projectcontroller.h"
#include "projectsession.h"
#include "projecttree.h"
#include "resultsexport.h"
#include "resultspagecontroller.h"
#include "resultsview.h"
#include "runmonitor.h"
#include "runpagecontroller.h"
#include "runsession.h"
#include "screenfit.h"
#include "teamflow.h"
#include "variantstab.h"
#include "viewmenu.h"
#include "welcomepage.h"
#include "windowpages.h"

#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace ServeScope {

MainWindow::MainWindow(SecretStore *secrets, QWidget *parent)
    : QMainWindow(parent)
    , m_secrets(secrets)
    , m_profiles(new ProfileStore(this))
    , m_document(new ExperimentDocument(this))
    , m_session(new ProjectSession(this))
    , m_pages(new WindowPages(this))
    , m_editor(new ExperimentEditor(m_document, m_profiles))
    , m_monitor(new RunMonitor)
    , m_results(new ResultsView)
    , m_tree(new ProjectTree)
    , m_logDock(new LogDock(this))
    , m_run(new RunSession(secrets, this))
    , m_runs(new RunPageController(this, secrets, m_document, m_session, m_monitor, m_run))
    , m_project(new ProjectController(this, m_document, m_session, m_run))
    , m_imports(new ImportFlow(this, m_document, m_session, m_project, m_run))
    , m_team(new TeamFlow(this, secrets, m_session, m_project))
    , m_design(new DesignPageController(this, secrets, m_profiles, m_document, m_editor))
    , m_resultsPage(new ResultsPageController(this, m_results, m_session, m_run))
    , m_welcome(new WelcomePage)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/servescope.svg")));
    setAcceptDrops(true);
    // Full-window pages: each part of the work gets the whole window, one at a time.
    m_pages->addPage(WindowPages::Start, m_welcome, tr("Start"));
    m_pages->addPage(WindowPages::Design, m_design->createPage(m_runs->banner()), tr("Design"));
    m_pages->addPage(WindowPages::Run, m_monitor, tr("Run"));
    m_pages->addPage(WindowPages::Results, m_results, tr("Results"));
    m_pages->setProjectPagesEnabled(false);
    setCentralWidget(m_pages->stack());
    addToolBar(Qt::TopToolBarArea, m_pages->bar());
    connect(m_pages, &WindowPages::pageShown, this, &MainWindow::rememberPage);
    createActions();
    createDocks();
    connectControllers();

    const bool firstStart = !QSettings().contains(QStringLiteral("window/maximized"));
    restoreWindowPlacement(this);
    m_pages->applyDocks();
    if (firstStart) {
        // Docks only take their sizes once the window is laid out.
        QTimer::singleShot(0, this, [this] {
            if (auto *log = findChild<QDockWidget *>(QStringLiteral("logDock")))
                resizeDocks({ log }, { 110 }, Qt::Vertical);
        });
    }
    rebuildRecentMenu(m_project->recent());
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectControllers()
{
    connectProject();
    connectRuns();
    connectResults();
    connectFlows();
    connectWidgets();
}

void MainWindow::connectProject()
{
    connect(m_project, &ProjectController::status, this, &MainWindow::showStatus);
    // A permanent widget: the status bar's passing messages do not hide it while the check reads the file.
    m_checking = new QLabel;
    m_checking->setObjectName(QStringLiteral("checkingLabel"));
    m_checking->setToolTip(tr("Every page of the project file is read to find damage. The runs can be used "
                              "meanwhile; opening another file or closing the window stops it."));
    m_checking->hide();
    statusBar()->addPermanentWidget(m_checking);
    connect(m_project, &ProjectController::checking, this, [this](const QString &text) {
        m_checking->setText(text);
        m_checking->setVisible(!text.isEmpty());
    });
    connect(m_project, &ProjectController::logged, this, &MainWindow::appendLog);
    connect(m_project, &ProjectController::leaving, this, &MainWindow::clearShownRuns);
    connect(m_project, &ProjectController::timeScaleChanged, this, [this](double scale) {
        m_editor->setTimeScale(scale);
        m_runs->setTimeScale(scale);
    });
    connect(m_project, &ProjectController::opened, this, [this](const QString &path, bool temporary) {
        m_runs->setProjectOpen(true);
        m_pages->setProjectPagesEnabled(true);
        m_justOpened = true;
        showProjectPage(temporary ? QString() : path);
        emit projectOpened(path);
    });
    connect(m_project, &ProjectController::openFailed, this, &MainWindow::projectOpenFailed);
    connect(m_project, &ProjectController::saved, this, [this](const QString &path, const QString &error) {
        if (error.isEmpty())
            rememberPage(m_pages->current()); // a copy opens on the page it was saved from
        emit projectSaved(path, error);
    });
    connect(m_project, &ProjectController::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_project, &ProjectController::recentChanged, this, &MainWindow::rebuildRecentMenu);
    connect(m_project, &ProjectController::runsListed, this, [this](const QVector<RunListing> &runs) {
        m_tree->setRuns(runs);
        m_monitor->setEarlierRuns(runs);
        if (std::exchange(m_justOpened, false)) // its newest results are ready on the Results page
            m_tree->selectRuns({ m_resultsPage->showNewest(runs) }, false);
        emit runsListed(int(runs.size()));
    });
}

void MainWindow::connectRuns()
{
    connect(m_runs, &RunPageController::status, this, &MainWindow::showStatus);
    connect(m_runs, &RunPageController::logged, this, &MainWindow::appendLog);
    connect(m_runs, &RunPageController::showRunsWanted, this, [this](const QList<qint64> &ids) {
        m_tree->selectRuns(ids, false); // the tree says which runs the Results page shows
        m_resultsPage->showRuns(ids);
    });
    connect(m_runs, &RunPageController::closeWanted, this, &QWidget::close);
    // Pages never drive one another: each asks, the shell turns.
    connect(m_run, &RunSession::pointFinished, m_results, &ResultsView::addPoint);
    connect(m_runs, &RunPageController::runStarting, m_results, &ResultsView::startLive);
    connect(m_runs, &RunPageController::runPageWanted, this, [this] { m_pages->show(WindowPages::Run); });
    connect(m_runs, &RunPageController::resultsPageWanted, this, [this] { m_pages->show(WindowPages::Results); });
    connect(m_runs, &RunPageController::runFinished, this, [this](const RunResult &result) {
        if (result.runId > 0)
            m_project->runStored();
        m_session->listRuns();
        emit runFinished(result);
    });
}

void MainWindow::connectResults()
{
    connect(m_resultsPage, &ResultsPageController::status, this, &MainWindow::showStatus);
    connect(m_resultsPage, &ResultsPageController::logged, this, &MainWindow::appendLog);
    connect(m_resultsPage, &ResultsPageController::shown, this, [this] {
        m_logDock->clearRunOutput();
        emit resultsShown();
    });
    connect(m_resultsPage, &ResultsPageController::serverLogLoaded, this, [this](const QStringList &lines) {
        m_logDock->setServerLog(lines.isEmpty()
                ? QStringList { tr("This run launched no server: only launched servers' output is kept.") }
                : lines);
    });
    connect(m_resultsPage->exports(), &ResultsExport::warning, this,
        [this](const QString &title, const QString &text) { showWarning(this, title, text); });
    connect(m_resultsPage, &ResultsPageController::pageWanted, this, [this] {
        if (m_runs->resultsMayTakeOver())
            m_pages->show(WindowPages::Results);
    });
}

void MainWindow::connectFlows()
{
    connect(m_imports, &ImportFlow::status, this, &MainWindow::showStatus);
    connect(m_imports, &ImportFlow::logged, this, &MainWindow::appendLog);
    connect(m_imports, &ImportFlow::compareWanted, this, &MainWindow::compareRuns);
    connect(m_team, &TeamFlow::status, this, &MainWindow::showStatus);
    connect(m_team, &TeamFlow::runsPulled, this, [this](const QList<qint64> &pulled) {
        // The pulled runs beside the local ones selected before.
        QList<qint64> ids = m_tree->selectedRuns();
        for (qint64 id : pulled) {
            if (!ids.contains(id))
                ids << id;
        }
        compareRuns(ids);
    });
    connect(m_design, &DesignPageController::logged, this, &MainWindow::appendLog);
    connect(m_design, &DesignPageController::status, this, &MainWindow::showStatus);
}

void MainWindow::connectWidgets()
{
    connect(m_welcome, &WelcomePage::recentRequested, m_project, &ProjectController::openProject);
    connect(
        m_welcome, &WelcomePage::demoRequested, this, [this] { m_project->whenSafeToLeave([this] { openDemo(); }); });
    connect(m_welcome, &WelcomePage::newRequested, this, [this] {
        m_project->whenSafeToLeave([this] { m_project->newProject(ProjectController::blankExperiment()); });
    });
    connect(m_welcome, &WelcomePage::openRequested, this, [this] {
        chooseFile(this, false, tr("Open project"), tr("ServeScope projects (*.servescope)"),
            [this](const QString &p) { m_project->openProject(p); });
    });
    connect(m_welcome, &WelcomePage::importRequested, m_imports, &ImportFlow::chooseExperimentFile);
    connect(m_document, &ExperimentDocument::changed, this, [this] {
        m_tree->setExperiment(m_document->experiment());
        m_logDock->showProblems(m_document->problems());
    });
    connect(m_tree, &ProjectTree::variantActivated, this, [this](int i) {
        m_editor->showTab(m_editor->variantsTab());
        m_editor->variantsTab()->selectVariant(i);
    });
    connect(m_tree, &ProjectTree::runsSelected, m_resultsPage, &ResultsPageController::showRuns);
    connect(m_tree, &ProjectTree::rerunRequested, m_runs, &RunPageController::rerunToCheck);
    connect(m_tree, &ProjectTree::publishRequested, m_team, &TeamFlow::publishRun);
}

QPlainTextEdit *MainWindow::log() const
{
    return m_logDock->log();
}

ResultsExport *MainWindow::resultsExport() const
{
    return m_resultsPage->exports();
}

QAction *MainWindow::runAction() const
{
    return m_runs->runAction();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_newAction = file->addAction(tr("&New project"), QKeySequence::New, this, [this] {
        m_project->whenSafeToLeave([this] { m_project->newProject(ProjectController::blankExperiment()); });
    });
    file->addAction(tr("&Open project…"), QKeySequence::Open, this, [this] {
        m_project->whenSafeToLeave([this] {
            chooseFile(this, false, tr("Open project"), tr("ServeScope projects (*.servescope)"),
                [this](const QString &p) { m_project->openProject(p); });
        });
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    file->addAction(tr("Open the &demo"), this, [this] { m_project->whenSafeToLeave([this] { openDemo(); }); });
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, m_project, &ProjectController::saveProject);
    file->addAction(tr("Save &as…"), QKeySequence(tr("Ctrl+Shift+S")), m_project, &ProjectController::chooseSaveAs);
    file->addSeparator();
    file->addAction(
        tr("&Import experiment…"), QKeySequence(tr("Ctrl+I")), m_imports, &ImportFlow::chooseExperimentFile);
    file->addAction(tr("Import &results…"), this, [this] {
        chooseFiles(this, tr("Import results"),
            tr("Result files of vLLM, SGLang, AIPerf, GuideLLM, genai-bench, inference-perf, llmperf or llm-d "
               "(*.json *.jsonl *.yaml *.yml)"),
            [this](const QStringList &paths) { m_imports->importResults(paths); });
    });
    file->addAction(tr("&Merge shards…"), this, [this] {
        chooseFiles(this, tr("Merge shards: one project file per shard"), tr("ServeScope projects (*.servescope)"),
            [this](const QStringList &paths) { m_imports->mergeShardFiles(paths); });
    });
    file->addAction(tr("&Team runs…"), QKeySequence(tr("Ctrl+Shift+D")), m_team, &TeamFlow::showTeamRuns);
    file->addAction(tr("&Export experiment…"), QKeySequence(tr("Ctrl+E")), this, [this] {
        chooseFile(
            this, true, tr("Export experiment"), tr("Experiment JSON (*.json)"),
            [this](const QString &p) { m_imports->exportExperimentFile(p); },
            fileNameFor(m_document->experiment().name, QStringLiteral(".json")));
    });
    m_resultsPage->exports()->createActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("Paste &command line…"), QKeySequence(tr("Ctrl+Shift+V")), this,
        [this] { m_imports->pasteCommand(QGuiApplication::clipboard()->text()); });
    edit->addAction(
        tr("Endpoint &profiles…"), QKeySequence(tr("Ctrl+Shift+P")), m_design, &DesignPageController::showProfiles);

    m_runs->createActions(menuBar()->addMenu(tr("&Run")));
    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(undo);
    bar->addAction(redo);
    bar->addSeparator();
    bar->addAction(m_runs->runAction());
    bar->addAction(m_runs->cancelAction());
}

void MainWindow::createDocks()
{
    auto *treeDock = new QDockWidget(tr("Project"), this);
    treeDock->setObjectName(QStringLiteral("projectDock"));
    treeDock->setWidget(m_tree);
    m_tree->setMinimumWidth(140); // a run's number and name stay readable however the dock was left
    addDockWidget(Qt::LeftDockWidgetArea, treeDock);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    auto *view = new ViewMenu(this, m_pages, treeDock, m_logDock);
    view->build(menuBar()->addMenu(tr("&View")));
    connect(view, &ViewMenu::status, this, &MainWindow::showStatus);
    resizeDocks({ treeDock }, { 260 }, Qt::Horizontal);
    resizeDocks({ m_logDock }, { 130 }, Qt::Vertical);
    // The project panel beside the project's pages (the Start page has none), the log under the Run
    // page; shown or closed elsewhere by the user, that is remembered per page.
    m_pages->bindDock(treeDock, { WindowPages::Design, WindowPages::Run, WindowPages::Results });
    m_pages->bindDock(m_logDock, { WindowPages::Run });
}

void MainWindow::compareRuns(const QList<qint64> &ids)
{
    m_tree->selectRuns(ids);
}

void MainWindow::updateTitle()
{
    QString name = tr("no project");
    if (m_project->hasProject())
        name = m_session->isTemporary() ? tr("unsaved project") : QFileInfo(m_session->path()).fileName();
    setWindowTitle(tr("%1[*] — ServeScope").arg(name));
    setWindowModified(m_project->hasProject() && (m_document->isModified() || m_session->isTemporary()));
}

// The page a project was left on comes back with it (Design for a new project, or one never opened).
void MainWindow::showProjectPage(const QString &path)
{
    const int page = path.isEmpty()
        ? int(WindowPages::Design)
        : QSettings().value(QStringLiteral("pages/") + path, int(WindowPages::Design)).toInt();
    m_pages->show(
        page > WindowPages::Start && page < WindowPages::PageCount ? WindowPages::Page(page) : WindowPages::Design);
}

void MainWindow::rememberPage(int page)
{
    if (m_project->hasProject() && !m_session->isTemporary() && page != WindowPages::Start)
        QSettings().setValue(QStringLiteral("pages/") + m_session->path(), page);
}

void MainWindow::showTab(int page)
{
    m_pages->show(WindowPages::Page(page));
}

int MainWindow::currentPage() const
{
    return m_pages->current();
}

void MainWindow::clearShownRuns()
{
    m_results->clear();
    m_tree->setRuns({});
    m_logDock->clearRunOutput();
}

void MainWindow::openDemo()
{
    if (m_project->openDemo())
        m_editor->showTab(m_editor->loadTab());
}

void MainWindow::appendLog(const QString &level, const QString &text)
{
    m_logDock->appendLog(level, text);
}

void MainWindow::showStatus(const QString &text, int timeoutMs)
{
    text.isEmpty() ? statusBar()->clearMessage() : statusBar()->showMessage(text, timeoutMs);
}

void MainWindow::rebuildRecentMenu(const QStringList &recent)
{
    m_recentMenu->clear();
    for (const QString &path : recent)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                [this, path] { m_project->whenSafeToLeave([this, path] { m_project->openProject(path); }); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
    m_welcome->setRecent(recent);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_runs->isRunning()) {
        // Nothing is cancelled before the user answers; the window closes once the run has saved what
        // it measured.
        event->ignore();
        m_runs->askCloseDuringRun();
        return;
    }
    // The same question as New or Open: leaving the project is what closing does.
    if (!m_closeConfirmed && m_project->hasUnsavedWork()) {
        event->ignore();
        m_project->whenSafeToLeave([this] {
            m_closeConfirmed = true;
            close();
        });
        return;
    }
    saveWindowPlacement(this);
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (ImportFlow::accepts(event->mimeData()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    m_imports->drop(event->mimeData());
    event->acceptProposedAction();
}

} // namespace ServeScope
