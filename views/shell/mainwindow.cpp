// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "endpointprofiles.h"
#include "experimentdocument.h"
#include "experimenteditor.h"
#include "io/experimentfile.h"
#include "loadpage.h"
#include "logdock.h"
#include "model/runorigin.h"
#include "model/validation.h"
#include "profiledialog.h"
#include "projectsession.h"
#include "projecttree.h"
#include "report/findingtext.h"
#include "resultsexport.h"
#include "resultsview.h"
#include "runmonitor.h"
#include "runsession.h"
#include "screenfit.h"
#include "serverpage.h"
#include "teamdbjobs.h"
#include "variantspage.h"
#include "welcomepage.h"
#include "windowpages.h"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTime>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace ServeScope {

MainWindow::MainWindow(SecretStore *secrets, QWidget *parent)
    : QMainWindow(parent)
    , m_secrets(secrets)
    , m_teamJobs(new TeamDbJobs(secrets, this))
    , m_profiles(new ProfileStore(this))
    , m_document(new ExperimentDocument(this))
    , m_session(new ProjectSession(this))
    , m_run(new RunSession(secrets, this))
    , m_pages(new WindowPages(this))
    , m_editor(new ExperimentEditor(m_document, m_profiles))
    , m_monitor(new RunMonitor)
    , m_results(new ResultsView)
    , m_tree(new ProjectTree)
    , m_logDock(new LogDock(this))
    , m_runBanner(new QLabel)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/servescope.svg")));
    setAcceptDrops(true);
    auto *welcome = new WelcomePage;
    auto *editorArea = new QWidget;
    auto *editorLayout = new QVBoxLayout(editorArea);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    m_runBanner->setObjectName(QStringLiteral("runBanner"));
    m_runBanner->setWordWrap(true);
    m_runBanner->setStyleSheet(QStringLiteral("background: #fff4ce; color: #5c4400; padding: 4px;"));
    m_runBanner->setText(tr("The run in progress uses the configuration it started with; these edits apply to "
                            "the next run."));
    m_runBanner->hide();
    editorLayout->addWidget(m_runBanner);
    editorLayout->addWidget(m_editor, 1);
    // Full-window pages: each part of the work gets the whole window, one at a time.
    m_pages->addPage(WindowPages::Start, welcome, tr("Start"));
    m_pages->addPage(WindowPages::Design, editorArea, tr("Design"));
    m_pages->addPage(WindowPages::Run, m_monitor, tr("Run"));
    m_pages->addPage(WindowPages::Results, m_results, tr("Results"));
    m_pages->setProjectPagesEnabled(false);
    setCentralWidget(m_pages->stack());
    addToolBar(Qt::TopToolBarArea, m_pages->bar());
    connect(m_pages, &WindowPages::pageShown, this, &MainWindow::rememberPage);
    createActions();
    createDocks();

    m_welcome = welcome;
    connect(m_editor->loadPage(), &LoadPage::commandCopied, this, [this](const QString &, const QStringList &warnings) {
        for (const QString &w : warnings)
            appendLog(QStringLiteral("warning"), w);
        statusBar()->showMessage(tr("Command copied to the clipboard"), 4000);
    });
    connect(welcome, &WelcomePage::recentRequested, this, &MainWindow::openProject);
    connect(welcome, &WelcomePage::demoRequested, this, [this] { whenSafeToLeave([this] { openDemo(); }); });
    connect(welcome, &WelcomePage::newRequested, this,
        [this] { whenSafeToLeave([this] { newProject(blankExperiment()); }); });
    connect(welcome, &WelcomePage::openRequested, this, [this] {
        chooseFile(false, tr("Open project"), tr("ServeScope projects (*.servescope)"),
            [this](const QString &p) { openProject(p); });
    });
    connect(welcome, &WelcomePage::importRequested, this, [this] {
        chooseFile(false, tr("Import experiment"), tr("Experiment files (*.json *.toml)"), [this](const QString &p) {
            if (!m_hasProject)
                newProject(blankExperiment());
            importExperimentFile(p);
        });
    });
    connect(m_document, &ExperimentDocument::changed, this, &MainWindow::documentChanged);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_editor, &ExperimentEditor::manageProfilesRequested, this, &MainWindow::showProfiles);
    connect(m_editor->serverPage(), &ServerPage::captureRequested, this, &MainWindow::captureFromServer);
    connect(m_tree, &ProjectTree::variantActivated, this, [this](int i) {
        m_editor->showPage(m_editor->variantsPage());
        m_editor->variantsPage()->selectVariant(i);
    });
    connect(m_tree, &ProjectTree::runsSelected, this, &MainWindow::showRuns);
    connect(m_tree, &ProjectTree::rerunRequested, this, &MainWindow::rerunToCheck);
    connect(m_tree, &ProjectTree::publishRequested, this, &MainWindow::publishRun);
    connect(m_session, &ProjectSession::rerunChecked, this, &MainWindow::reportCheck);
    connect(m_session, &ProjectSession::runConfigLoaded, this, [this](qint64 runId, const QByteArray &json) {
        const ExperimentReadResult r = deserializeExperiment(json);
        if (!r.ok || m_run->isRunning()) {
            appendLog(
                QStringLiteral("error"), tr("Run %1 cannot be rerun: its configuration does not read.").arg(runId));
            return;
        }
        m_checkAgainst = runId;
        appendLog(QStringLiteral("info"), tr("Rerunning run %1 to check it.").arg(runId));
        startRunOf(r.experiment);
    });
    connect(m_results, &ResultsView::resultsChanged, this, [this] {
        for (QAction *a : m_export->actions())
            a->setEnabled(m_results->hasResults());
    });
    connect(m_monitor, &RunMonitor::startRequested, this, &MainWindow::startRun);
    connect(m_monitor, &RunMonitor::cancelRequested, this, &MainWindow::cancelRun);
    connect(m_run, &RunSession::snapshotUpdated, m_monitor, &RunMonitor::showSnapshot);
    connect(m_run, &RunSession::snapshotUpdated, this, [this](const RunSnapshot &s) { m_lastRunId = s.runId; });
    connect(m_run, &RunSession::pointFinished, m_results, &ResultsView::addPoint);
    connect(m_run, &RunSession::logged, this, &MainWindow::appendLog);
    connect(m_run, &RunSession::finished, this, &MainWindow::runEnded);
    connect(m_session, &ProjectSession::opened, this,
        [this](const QString &path, bool temporary, const QString &error, const QByteArray &json) {
            if (!error.isEmpty()) {
                appendLog(QStringLiteral("error"), tr("Cannot open %1: %2").arg(path, error));
                statusBar()->showMessage(tr("Cannot open %1").arg(QFileInfo(path).fileName()));
                showWarning(tr("Cannot open the project"), tr("%1 was not opened: %2").arg(path, error));
                emit projectOpenFailed(path, error);
                return;
            }
            // The project is replaced only now that the new one is open; a new project's experiment is
            // already in the editor.
            if (!temporary) {
                const ExperimentReadResult r = json.isEmpty() ? ExperimentReadResult() : deserializeExperiment(json);
                m_document->reset(r.ok ? r.experiment : Experiment());
                clearShownRuns();
                applyTimeScale(m_chosenTimeScale > 0 ? m_chosenTimeScale : 1.0);
            }
            if (!temporary)
                addRecent(path);
            m_hasProject = true;
            m_pages->setProjectPagesEnabled(true);
            showProjectPage(temporary ? QString() : path);
            updateTitle();
            updateRunnable();
            m_session->listRuns();
            // The header was checked before opening; every page is checked now, behind the listing.
            if (!temporary) {
                statusBar()->showMessage(tr("Checking %1…").arg(QFileInfo(path).fileName()));
                m_session->checkIntegrity();
            }
            emit projectOpened(path);
        });
    connect(m_session, &ProjectSession::integrityChecked, this, [this](const QString &path, const QString &error) {
        if (error.isEmpty()) {
            statusBar()->showMessage(tr("%1 checked: no damage found").arg(QFileInfo(path).fileName()), 4000);
            return;
        }
        appendLog(QStringLiteral("error"), tr("Integrity check failed: %1").arg(error));
        statusBar()->showMessage(tr("%1 is damaged").arg(QFileInfo(path).fileName()));
        showWarning(tr("The project file is damaged"),
            tr("%1\n\nWhat can be read is shown, but results may be missing or wrong. Runs are refused into "
               "a damaged file: create a new project for new runs.")
                .arg(error));
    });
    connect(m_session, &ProjectSession::serverLogsLoaded, this, [this](qint64, const QStringList &lines) {
        m_logDock->setServerLog(lines.isEmpty()
                ? QStringList { tr("This run launched no server: only launched servers' output is kept.") }
                : lines);
    });
    connect(m_session, &ProjectSession::timeSeriesLoaded, m_results, &ResultsView::setTimeSeries);
    connect(m_session, &ProjectSession::runLoadFailed, this, [this](qint64 runId, const QString &error) {
        appendLog(QStringLiteral("error"), tr("Run %1 cannot be read: %2").arg(runId).arg(error));
        statusBar()->showMessage(tr("Run %1 cannot be read; see the log.").arg(runId), 8000);
    });
    // Every request with its events: read only when the chart over time is asked for.
    connect(m_results, &ResultsView::timeSeriesWanted, m_session, &ProjectSession::loadTimeSeries);
    connect(m_session, &ProjectSession::savedAs, this, [this](const QString &path, const QString &error) {
        if (error.isEmpty()) {
            m_document->markSaved();
            addRecent(path);
            rememberPage(m_pages->current()); // the copy opens on the page it was saved from
            statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
        } else {
            appendLog(QStringLiteral("error"), tr("Save failed: %1").arg(error));
            showWarning(tr("The project was not saved"), tr("Save failed: %1").arg(error));
        }
        updateTitle();
        emit projectSaved(path, error);
        continueAfterSave(error);
    });
    connect(m_session, &ProjectSession::experimentSaved, this, [this](const QString &error) {
        if (!error.isEmpty()) {
            appendLog(QStringLiteral("error"), tr("Saving the experiment failed: %1").arg(error));
            showWarning(tr("The project was not saved"), tr("Saving the experiment failed: %1").arg(error));
            continueAfterSave(error);
        } else if (!m_session->isTemporary()) {
            m_document->markSaved();
            updateTitle();
            statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(m_session->path()).fileName()), 4000);
            emit projectSaved(m_session->path(), error);
            continueAfterSave(error);
        }
    });
    connect(m_session, &ProjectSession::runsListed, this, [this](const QVector<RunListing> &runs) {
        m_tree->setRuns(runs);
        m_runCount = int(runs.size());
        // Which file each imported run came from: importing one again asks first.
        m_importedFrom.clear();
        for (const RunListing &r : runs) {
            if (const RunOrigin origin = RunOrigin::fromJson(r.run.origin); origin.isImported())
                m_importedFrom.insert(origin.file, r.run.id);
        }
        emit runsListed(m_runCount);
    });
    connect(m_session, &ProjectSession::runsLoaded, this, [this](const Report::ReportInput &input) {
        if (m_run->isRunning())
            return; // the Results page follows the run until it ends
        m_results->setInput(input);
        m_logDock->clearRunOutput();
        if (input.runs.size() == 1)
            m_session->loadServerLogs(input.runs.first().id);
        if (!std::exchange(m_stayOnRunPage, false))
            m_pages->show(WindowPages::Results);
        if (m_checkAgainst > 0 && input.runs.size() == 2 && input.runs[0].id == m_checkAgainst) {
            m_session->checkRerun(m_checkAgainst, input.runs[1].id);
            m_checkAgainst = 0;
        }
        statusBar()->showMessage(input.runs.size() > 1 ? tr("Comparing %1").arg(input.title) : input.title, 6000);
        emit resultsShown();
    });

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
    rebuildRecentMenu();
    updateTitle();
    updateRunnable();
}

MainWindow::~MainWindow() = default;

QPlainTextEdit *MainWindow::log() const
{
    return m_logDock->log();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_newAction = file->addAction(tr("&New project"), QKeySequence::New, this,
        [this] { whenSafeToLeave([this] { newProject(blankExperiment()); }); });
    file->addAction(tr("&Open project…"), QKeySequence::Open, this, [this] {
        whenSafeToLeave([this] {
            chooseFile(false, tr("Open project"), tr("ServeScope projects (*.servescope)"),
                [this](const QString &p) { openProject(p); });
        });
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    file->addAction(tr("Open the &demo"), this, [this] { whenSafeToLeave([this] { openDemo(); }); });
    file->addSeparator();
    m_saveAction = file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::saveProject);
    file->addAction(tr("Save &as…"), QKeySequence(tr("Ctrl+Shift+S")), this, [this] {
        chooseFile(true, tr("Save project as"), tr("ServeScope projects (*.servescope)"), [this](const QString &p) {
            saveProjectAs(p.endsWith(QLatin1String(".servescope")) ? p : p + QStringLiteral(".servescope"));
        });
    });
    file->addSeparator();
    file->addAction(tr("&Import experiment…"), QKeySequence(tr("Ctrl+I")), this, [this] {
        chooseFile(false, tr("Import experiment"), tr("Experiment files (*.json *.toml)"), [this](const QString &p) {
            if (!m_hasProject)
                newProject(blankExperiment());
            importExperimentFile(p);
        });
    });
    file->addAction(tr("Import &results…"), this, [this] {
        chooseFiles(tr("Import results"), tr("vLLM or SGLang result files (*.json *.jsonl)"),
            [this](const QStringList &paths) { importResults(paths); });
    });
    file->addAction(tr("&Merge shards…"), this, [this] {
        chooseFiles(tr("Merge shards: one project file per shard"), tr("ServeScope projects (*.servescope)"),
            [this](const QStringList &paths) { mergeShardFiles(paths); });
    });
    file->addAction(tr("&Team runs…"), QKeySequence(tr("Ctrl+Shift+D")), this, &MainWindow::showTeamRuns);
    file->addAction(tr("&Export experiment…"), QKeySequence(tr("Ctrl+E")), this, [this] {
        chooseFile(true, tr("Export experiment"), tr("Experiment JSON (*.json)"),
            [this](const QString &p) { exportExperimentFile(p); });
    });
    m_export = new ResultsExport(m_results, m_session, this);
    m_export->createActions(file);
    connect(m_export, &ResultsExport::status, statusBar(), [this](const QString &text, int timeoutMs) {
        if (text.isEmpty())
            statusBar()->clearMessage();
        else
            statusBar()->showMessage(text, timeoutMs);
    });
    connect(m_export, &ResultsExport::logged, this, &MainWindow::appendLog);
    connect(m_export, &ResultsExport::warning, this, &MainWindow::showWarning);
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
        [this] { pasteCommand(QGuiApplication::clipboard()->text()); });
    edit->addAction(tr("Endpoint &profiles…"), QKeySequence(tr("Ctrl+Shift+P")), this, &MainWindow::showProfiles);

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    m_runAction = run->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run experiment"),
        QKeySequence(tr("Ctrl+R")), this, &MainWindow::startRun);
    m_cancelAction = run->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel run"),
        QKeySequence(tr("Ctrl+.")), this, &MainWindow::cancelRun);
    m_cancelAction->setEnabled(false);

    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(undo);
    bar->addAction(redo);
    bar->addSeparator();
    bar->addAction(m_runAction);
    bar->addAction(m_cancelAction);
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
    Experiment e;
    e.name = tr("New experiment");
    e.endpoint = ProfileStore::localSimulator().endpoint;
    e.dataset.seed = 1000;
    e.sampling.set(QStringLiteral("temperature"), 0.0);
    LoadPoint p;
    p.concurrency = 1;
    p.inputLen = 512;
    p.outputLen = 128;
    p.numPrompts = 50;
    e.load.points.append(p);
    e.load.warmupRequests = 5;
    Variant v;
    v.name = QStringLiteral("baseline");
    v.baseline = true;
    e.variants.append(v);
    return e;
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
    updateRunnable(); // the Run page's estimate follows the scale
}

void MainWindow::newProject(const Experiment &experiment)
{
    m_document->reset(experiment);
    clearShownRuns();
    applyTimeScale(m_chosenTimeScale > 0 ? m_chosenTimeScale : 1.0);
    m_session->newTemporary();
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
    if (m_hasProject && !m_session->isTemporary() && page != WindowPages::Start)
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

// The runs, findings and server log of the project being left.
void MainWindow::clearShownRuns()
{
    m_results->clear();
    m_tree->setRuns({});
    m_runCount = 0;
    m_importedFrom.clear();
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
    statusBar()->showMessage(tr("Demo loaded: press Run (Ctrl+R) to measure it against the local simulator."));
}

void MainWindow::openProject(const QString &path)
{
    if (m_run->isRunning())
        return;
    // Nothing of the open project changes until the file is open (ProjectSession::opened).
    m_session->open(path);
}

bool MainWindow::importExperimentFile(const QString &path)
{
    const ExperimentReadResult r = loadExperimentFile(path);
    if (!r.ok) {
        const QString why = r.shownLines(r.errors).join(QLatin1Char('\n'));
        appendLog(QStringLiteral("error"), tr("Cannot import %1:\n%2").arg(QFileInfo(path).fileName(), why));
        statusBar()->showMessage(tr("Import failed; see the log."), 6000);
        return false;
    }
    m_document->apply(r.experiment, tr("Import %1").arg(QFileInfo(path).fileName()));
    // What an imported layout held that ServeScope ignores is said, not dropped silently.
    for (const QString &w : r.shownLines(r.warnings))
        appendLog(QStringLiteral("warning"), QFileInfo(path).fileName() + QLatin1String(": ") + w);
    statusBar()->showMessage(r.warnings.isEmpty()
            ? tr("Imported %1").arg(QFileInfo(path).fileName())
            : tr("Imported %1 with %n warning(s); see the log.", nullptr, int(r.warnings.size()))
                  .arg(QFileInfo(path).fileName()),
        4000);
    return true;
}

bool MainWindow::exportExperimentFile(const QString &path)
{
    const QString error = saveExperimentFile(path, m_document->experiment());
    if (!error.isEmpty())
        appendLog(QStringLiteral("error"), tr("Export failed: %1").arg(error));
    return error.isEmpty();
}

void MainWindow::saveProject()
{
    if (!m_hasProject)
        return;
    if (m_session->isTemporary()) {
        QFileDialog *dialog = chooseFile(
            true, tr("Save project as"), tr("ServeScope projects (*.servescope)"), [this](const QString &p) {
                saveProjectAs(p.endsWith(QLatin1String(".servescope")) ? p : p + QStringLiteral(".servescope"));
            });
        // No file chosen: whatever waited for the save does not happen.
        connect(dialog, &QDialog::rejected, this, [this] { m_afterSave = nullptr; });
        return;
    }
    m_session->saveExperiment(m_document->experiment().name, serializeExperiment(m_document->experiment()));
}

void MainWindow::saveProjectAs(const QString &path)
{
    if (!m_hasProject || m_run->isRunning())
        return;
    // Both go to the project thread in order: the experiment row lands before the copy is made.
    m_session->saveExperiment(m_document->experiment().name, serializeExperiment(m_document->experiment()));
    m_session->saveAs(path);
}

} // namespace ServeScope
