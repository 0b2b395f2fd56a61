// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "diagnosistext.h"
#include "endpointcheck.h"
#include "endpointprofiles.h"
#include "experimentdocument.h"
#include "experimenteditor.h"
#include "filedialogs.h"
#include "importflow.h"
#include "io/experimentfile.h"
#include "loadpage.h"
#include "logdock.h"
#include "profiledialog.h"
#include "projectcontroller.h"
#include "projectsession.h"
#include "projecttree.h"
#include "report/reportdocument.h"
#include "resultsexport.h"
#include "resultsview.h"
#include "runmonitor.h"
#include "runpagecontroller.h"
#include "screenfit.h"
#include "serverpage.h"
#include "teamflow.h"
#include "variantspage.h"
#include "welcomepage.h"
#include "windowpages.h"

#include <QActionGroup>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
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
#include <QVBoxLayout>

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
    , m_runs(new RunPageController(this, secrets, m_document, m_session, m_monitor, m_results, m_pages))
    , m_project(new ProjectController(this, m_document, m_session, m_runs))
    , m_imports(new ImportFlow(this, m_document, m_session, m_project, m_runs))
    , m_team(new TeamFlow(this, secrets, m_session, m_project))
    , m_welcome(new WelcomePage)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/servescope.svg")));
    setAcceptDrops(true);
    auto *editorArea = new QWidget;
    auto *editorLayout = new QVBoxLayout(editorArea);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addWidget(m_runs->banner());
    editorLayout->addWidget(m_editor, 1);
    // Full-window pages: each part of the work gets the whole window, one at a time.
    m_pages->addPage(WindowPages::Start, m_welcome, tr("Start"));
    m_pages->addPage(WindowPages::Design, editorArea, tr("Design"));
    m_pages->addPage(WindowPages::Run, m_monitor, tr("Run"));
    m_pages->addPage(WindowPages::Results, m_results, tr("Results"));
    m_pages->setProjectPagesEnabled(false);
    setCentralWidget(m_pages->stack());
    addToolBar(Qt::TopToolBarArea, m_pages->bar());
    connect(m_pages, &WindowPages::pageShown, this, &MainWindow::rememberPage);
    createActions();
    createDocks();
    connectControllers();
    connectSession();

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_pages->applyDocks();
    if (!settings.contains(QStringLiteral("window/geometry"))) {
        // A first start fills a laptop screen, frame and status bar inside it, rather than overflowing it.
        fitWindowToScreen(this, QSize(1280, 860));
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
    connect(m_runs, &RunPageController::status, this, &MainWindow::showStatus);
    connect(m_project, &ProjectController::status, this, &MainWindow::showStatus);
    connect(m_imports, &ImportFlow::status, this, &MainWindow::showStatus);
    connect(m_team, &TeamFlow::status, this, &MainWindow::showStatus);
    connect(m_export, &ResultsExport::status, this, &MainWindow::showStatus);
    connect(m_runs, &RunPageController::logged, this, &MainWindow::appendLog);
    connect(m_project, &ProjectController::logged, this, &MainWindow::appendLog);
    connect(m_imports, &ImportFlow::logged, this, &MainWindow::appendLog);
    connect(m_export, &ResultsExport::logged, this, &MainWindow::appendLog);
    connect(m_export, &ResultsExport::warning, this,
        [this](const QString &title, const QString &text) { showWarning(this, title, text); });
    connect(m_runs, &RunPageController::showRunsWanted, this, &MainWindow::showRuns);
    connect(m_runs, &RunPageController::closeWanted, this, &QWidget::close);
    connect(m_runs, &RunPageController::runFinished, this, [this](const RunResult &result) {
        if (result.runId > 0)
            m_project->runStored();
        m_session->listRuns();
        emit runFinished(result);
    });
    connect(m_imports, &ImportFlow::compareWanted, this, &MainWindow::compareRuns);
    connect(m_team, &TeamFlow::runsPulled, this, [this](const QList<qint64> &pulled) {
        // The pulled runs beside the local ones selected before.
        QList<qint64> ids = m_tree->selectedRuns();
        for (qint64 id : pulled) {
            if (!ids.contains(id))
                ids << id;
        }
        compareRuns(ids);
    });
    connect(m_project, &ProjectController::leaving, this, [this] {
        clearShownRuns();
        applyTimeScale(m_chosenTimeScale > 0 ? m_chosenTimeScale : 1.0);
    });
    connect(m_project, &ProjectController::opened, this, [this](const QString &path, bool temporary) {
        m_pages->setProjectPagesEnabled(true);
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
        emit runsListed(int(runs.size()));
    });
    connect(m_welcome, &WelcomePage::recentRequested, m_project, &ProjectController::openProject);
    connect(
        m_welcome, &WelcomePage::demoRequested, this, [this] { m_project->whenSafeToLeave([this] { openDemo(); }); });
    connect(m_welcome, &WelcomePage::newRequested, this,
        [this] { m_project->whenSafeToLeave([this] { newProject(blankExperiment()); }); });
    connect(m_welcome, &WelcomePage::openRequested, this, [this] {
        chooseFile(this, false, tr("Open project"), tr("ServeScope projects (*.servescope)"),
            [this](const QString &p) { openProject(p); });
    });
    connect(m_welcome, &WelcomePage::importRequested, m_imports, &ImportFlow::chooseExperimentFile);
    connect(m_editor->loadPage(), &LoadPage::commandCopied, this, [this](const QString &, const QStringList &warnings) {
        for (const QString &w : warnings)
            appendLog(QStringLiteral("warning"), w);
        showStatus(tr("Command copied to the clipboard"), 4000);
    });
    connect(m_editor, &ExperimentEditor::manageProfilesRequested, this, &MainWindow::showProfiles);
    connect(m_editor->serverPage(), &ServerPage::captureRequested, this, &MainWindow::captureFromServer);
    connect(m_document, &ExperimentDocument::changed, this, [this] {
        m_tree->setExperiment(m_document->experiment());
        m_logDock->showProblems(m_document->problems());
    });
    connect(m_tree, &ProjectTree::variantActivated, this, [this](int i) {
        m_editor->showPage(m_editor->variantsPage());
        m_editor->variantsPage()->selectVariant(i);
    });
    connect(m_tree, &ProjectTree::runsSelected, this, &MainWindow::showRuns);
    connect(m_tree, &ProjectTree::rerunRequested, m_runs, &RunPageController::rerunToCheck);
    connect(m_tree, &ProjectTree::publishRequested, m_team, &TeamFlow::publishRun);
    connect(m_results, &ResultsView::resultsChanged, this, [this] {
        for (QAction *a : m_export->actions())
            a->setEnabled(m_results->hasResults());
    });
}

// What the project file's thread reads for the Results page and the log.
void MainWindow::connectSession()
{
    connect(m_session, &ProjectSession::serverLogsLoaded, this, [this](qint64, const QStringList &lines) {
        m_logDock->setServerLog(lines.isEmpty()
                ? QStringList { tr("This run launched no server: only launched servers' output is kept.") }
                : lines);
    });
    connect(m_session, &ProjectSession::timeSeriesLoaded, m_results, &ResultsView::setTimeSeries);
    // Every request with its events: read only when the chart over time is asked for.
    connect(m_results, &ResultsView::timeSeriesWanted, m_session, &ProjectSession::loadTimeSeries);
    connect(m_session, &ProjectSession::runLoadFailed, this, [this](qint64 runId, const QString &error) {
        appendLog(QStringLiteral("error"), tr("Run %1 cannot be read: %2").arg(runId).arg(error));
        showStatus(tr("Run %1 cannot be read; see the log.").arg(runId), 8000);
    });
    connect(m_session, &ProjectSession::runsLoaded, this, [this](const Report::ReportInput &input) {
        const bool takeOver = m_runs->resultsMayTakeOver();
        if (m_runs->isRunning())
            return; // the Results page follows the run until it ends
        m_results->setInput(input);
        m_logDock->clearRunOutput();
        if (input.runs.size() == 1)
            m_session->loadServerLogs(input.runs.first().id);
        if (takeOver)
            m_pages->show(WindowPages::Results);
        showStatus(input.runs.size() > 1 ? tr("Comparing %1").arg(input.title) : input.title, 6000);
        emit resultsShown();
    });
}

QPlainTextEdit *MainWindow::log() const
{
    return m_logDock->log();
}

QAction *MainWindow::runAction() const
{
    return m_runs->runAction();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_newAction = file->addAction(tr("&New project"), QKeySequence::New, this,
        [this] { m_project->whenSafeToLeave([this] { newProject(blankExperiment()); }); });
    file->addAction(tr("&Open project…"), QKeySequence::Open, this, [this] {
        m_project->whenSafeToLeave([this] {
            chooseFile(this, false, tr("Open project"), tr("ServeScope projects (*.servescope)"),
                [this](const QString &p) { openProject(p); });
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
        chooseFiles(this, tr("Import results"), tr("vLLM or SGLang result files (*.json *.jsonl)"),
            [this](const QStringList &paths) { m_imports->importResults(paths); });
    });
    file->addAction(tr("&Merge shards…"), this, [this] {
        chooseFiles(this, tr("Merge shards: one project file per shard"), tr("ServeScope projects (*.servescope)"),
            [this](const QStringList &paths) { m_imports->mergeShardFiles(paths); });
    });
    file->addAction(tr("&Team runs…"), QKeySequence(tr("Ctrl+Shift+D")), m_team, &TeamFlow::showTeamRuns);
    file->addAction(tr("&Export experiment…"), QKeySequence(tr("Ctrl+E")), this, [this] {
        chooseFile(this, true, tr("Export experiment"), tr("Experiment JSON (*.json)"),
            [this](const QString &p) { m_imports->exportExperimentFile(p); });
    });
    m_export = new ResultsExport(m_results, m_session, this);
    m_export->createActions(file);
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
    edit->addAction(tr("Endpoint &profiles…"), QKeySequence(tr("Ctrl+Shift+P")), this, &MainWindow::showProfiles);

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
    addDockWidget(Qt::LeftDockWidgetArea, treeDock);
    auto *logDock = m_logDock;
    addDockWidget(Qt::BottomDockWidgetArea, logDock);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(treeDock->toggleViewAction());
    view->addAction(logDock->toggleViewAction());
    QAction *reset = view->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);
    reset->setObjectName(QStringLiteral("resetLayoutAction"));
    view->addSeparator();
    QMenu *language = view->addMenu(tr("&Language"));
    auto *languages = new QActionGroup(language);
    const QString chosen = QSettings().value(QStringLiteral("ui/language")).toString();
    // Each language by its own name, so it can be found whatever the window is in now.
    for (const auto &[code, name] :
        { std::pair { QString(), tr("System default") }, std::pair { QStringLiteral("en"), QStringLiteral("English") },
            std::pair { QStringLiteral("zh_CN"), QStringLiteral("简体中文") } }) {
        QAction *a = language->addAction(name);
        a->setCheckable(true);
        a->setChecked(code == chosen);
        languages->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] {
            if (QSettings().value(QStringLiteral("ui/language")).toString() == code)
                return;
            QSettings().setValue(QStringLiteral("ui/language"), code);
            statusBar()->showMessage(tr("The language changes when ServeScope starts again."), 8000);
        });
    }
    resizeDocks({ treeDock }, { 260 }, Qt::Horizontal);
    resizeDocks({ logDock }, { 130 }, Qt::Vertical);
    // The project panel beside the project's pages (the Start page has none), the log under the Run
    // page; shown or closed elsewhere by the user, that is remembered per page.
    m_pages->bindDock(treeDock, { WindowPages::Design, WindowPages::Run, WindowPages::Results });
    m_pages->bindDock(logDock, { WindowPages::Run });
}

// View → Reset layout: every dock back in place and shown (the log on the Run page only), as on a
// first start; what was remembered is forgotten.
void MainWindow::resetLayout()
{
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        dock->setFloating(false);
    m_pages->resetDocks();
    if (auto *tree = findChild<QDockWidget *>(QStringLiteral("projectDock")))
        addDockWidget(Qt::LeftDockWidgetArea, tree);
    if (auto *log = findChild<QDockWidget *>(QStringLiteral("logDock")))
        addDockWidget(Qt::BottomDockWidgetArea, log);
    for (QToolBar *bar : findChildren<QToolBar *>())
        bar->show();
    const QList<QDockWidget *> docks { findChild<QDockWidget *>(QStringLiteral("projectDock")),
        findChild<QDockWidget *>(QStringLiteral("logDock")) };
    if (docks[0] && docks[1]) {
        resizeDocks({ docks[0] }, { std::min(260, width() / 4) }, Qt::Horizontal);
        resizeDocks({ docks[1] }, { 110 }, Qt::Vertical);
    }
    QSettings s;
    for (const char *key : { "window/state", "window/split" })
        s.remove(QLatin1String(key));
    statusBar()->showMessage(tr("Layout reset."), 3000);
}

Experiment MainWindow::blankExperiment()
{
    return ProjectController::blankExperiment();
}

void MainWindow::setTimeScale(double scale)
{
    m_chosenTimeScale = scale;
    applyTimeScale(scale);
}

void MainWindow::applyTimeScale(double scale)
{
    m_timeScale = scale;
    m_editor->setTimeScale(scale);
    m_runs->setTimeScale(scale);
}

void MainWindow::newProject(const Experiment &experiment)
{
    m_project->newProject(experiment);
}

void MainWindow::openProject(const QString &path)
{
    m_project->openProject(path);
}

bool MainWindow::startRun()
{
    return m_runs->start();
}

void MainWindow::cancelRun()
{
    m_runs->cancel();
}

void MainWindow::compareRuns(const QList<qint64> &ids)
{
    m_tree->selectRuns(ids);
}

void MainWindow::showRuns(const QList<qint64> &ids)
{
    if (ids.isEmpty())
        return;
    showStatus(ids.size() > 1 ? tr("Comparing %n runs…", nullptr, int(ids.size())) : tr("Loading the run…"), 0);
    m_session->loadRuns(ids);
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

void MainWindow::showPage(int page)
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
    QFile file(QStringLiteral(":/demo/demo-experiment.json")); // compiled in
    file.open(QIODevice::ReadOnly);
    const ExperimentReadResult r = readExperimentJson(file.readAll());
    if (!r.ok) {
        appendLog(QStringLiteral("error"),
            tr("The demo experiment could not be read: %1").arg(r.errors.join(QStringLiteral("; "))));
        newProject(blankExperiment());
        return;
    }
    newProject(r.experiment);
    // The demo runs as `--demo` does, whichever way it was opened, unless a time scale was chosen.
    if (m_chosenTimeScale <= 0)
        applyTimeScale(kDemoTimeScale);
    m_editor->showPage(m_editor->loadPage());
    showStatus(tr("Demo loaded: press Run (Ctrl+R) to measure it against the local simulator."), 0);
}

void MainWindow::appendLog(const QString &level, const QString &text)
{
    m_logDock->appendLog(level, text);
}

void MainWindow::showStatus(const QString &text, int timeoutMs)
{
    if (text.isEmpty())
        statusBar()->clearMessage();
    else
        statusBar()->showMessage(text, timeoutMs);
}

ProfileDialog *MainWindow::showProfiles()
{
    if (!m_profileDialog) {
        m_profileDialog = new ProfileDialog(m_profiles, m_secrets, this);
        m_profileDialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_profileDialog->show();
    m_profileDialog->raise();
    return m_profileDialog;
}

void MainWindow::captureFromServer()
{
    const Endpoint endpoint = m_document->experiment().endpoint;
    if (endpoint.isLocalSimulator()) {
        showStatus(tr("The local simulator describes itself in every run's client-host record."), 5000);
        return;
    }
    checkEndpoint(this, endpoint, m_secrets, [this](const PreflightResult &r) {
        if (!r.usable) {
            appendLog(QStringLiteral("warning"), preflightSummary(r));
            return;
        }
        Experiment e = m_document->experiment();
        const auto put = [&e](const QString &key, const QString &value) {
            e.envSnapshot.removeIf([&](const EnvEntry &x) { return x.key == key; });
            e.envSnapshot.append({ key, value, EnvSource::Captured });
        };
        if (!r.models.isEmpty())
            put(QStringLiteral("model"), r.models.constFirst());
        if (r.maxModelLen > 0)
            put(QStringLiteral("max_model_len"), QString::number(r.maxModelLen));
        m_document->apply(e, tr("Capture environment from server"));
    });
}

void MainWindow::rebuildRecentMenu(const QStringList &recent)
{
    m_recentMenu->clear();
    for (const QString &path : recent)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                [this, path] { m_project->whenSafeToLeave([this, path] { openProject(path); }); })
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
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
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
