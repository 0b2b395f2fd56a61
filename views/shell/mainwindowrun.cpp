// SPDX-License-Identifier: MIT
// MainWindow: running, profiles, drag and drop, recent files and the window's chrome.
#include "mainwindow.h"

#include "commanddialog.h"
#include "diagnosistext.h"
#include "endpointcheck.h"
#include "endpointprofiles.h"
#include "experimentdocument.h"
#include "experimenteditor.h"
#include "io/experimentfile.h"
#include "logdock.h"
#include "model/validation.h"
#include "model/variables.h"
#include "profiledialog.h"
#include "projectsession.h"
#include "projecttree.h"
#include "resultimportdialog.h"
#include "resultsview.h"
#include "run/durationestimate.h"
#include "run/launchtemplate.h"
#include "runmonitor.h"
#include "runsession.h"
#include "secrets/apikey.h"
#include "welcomepage.h"
#include "windowpages.h"

#include <QCloseEvent>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QUrl>

namespace ServeScope {

void MainWindow::documentChanged()
{
    // Editing during a run is allowed; the run goes on with what it started with.
    if (m_run->isRunning())
        m_runBanner->show();
    const Experiment &e = m_document->experiment();
    m_tree->setExperiment(e);
    m_logDock->showProblems(m_document->problems());
    updateRunnable();
}

void MainWindow::updateRunnable()
{
    QString why;
    if (!m_hasProject)
        why = tr("Open or create a project first.");
    else if (hasErrors(m_document->problems()))
        why = tr("Fix the problems listed under the fields before running.");
    const bool running = m_run->isRunning() || m_checking;
    m_monitor->setRunnable(why.isEmpty(), why.isEmpty() ? tr("Ready to run.") : why);
    if (m_hasProject)
        m_monitor->setPlan(m_document->experiment(), m_timeScale);
    m_runAction->setEnabled(why.isEmpty() && !running);
    m_cancelAction->setEnabled(running);
}

void MainWindow::updateTitle()
{
    QString name = tr("no project");
    if (m_hasProject)
        name = m_session->isTemporary() ? tr("unsaved project") : QFileInfo(m_session->path()).fileName();
    setWindowTitle(tr("%1[*] — ServeScope").arg(name));
    setWindowModified(m_hasProject && (m_document->isModified() || m_session->isTemporary()));
}

bool MainWindow::startRun()
{
    if (m_run->isRunning() || m_checking || !m_hasProject || hasErrors(m_document->problems()))
        return false;
    m_checkAgainst = 0;
    return startRunOf(m_document->experiment());
}

// The argv each variant would launch, one line per variant; empty when nothing is launched (a sim:
// endpoint, or no launch template).
static QStringList launchLines(const Experiment &e)
{
    QStringList lines;
    for (int i = 0; i < e.variants.size(); ++i) {
        const Experiment resolved = resolveVariant(e, i);
        if (resolved.endpoint.isLocalSimulator() || resolved.server.launchArgv.isEmpty())
            continue;
        QStringList argv;
        QString error;
        if (!renderLaunchArgv(resolved, QUrl(resolved.endpoint.baseUrl), &argv, &error)) {
            lines << QStringLiteral("%1: %2").arg(e.variants[i].name, error);
            continue;
        }
        for (QString &a : argv) {
            if (a.contains(u' ') || a.isEmpty())
                a = u'\'' + a + u'\'';
        }
        lines << QStringLiteral("%1: %2").arg(e.variants[i].name, argv.join(u' '));
    }
    return lines;
}

// Asks once per set of commands (until they change) whether ServeScope may start them; false when
// the user cancelled the run.
bool MainWindow::approveLaunch(const Experiment &e, bool *allow)
{
    *allow = false;
    const QStringList lines = launchLines(e);
    if (lines.isEmpty())
        return true;
    const QString key = lines.join(u'\n');
    if (m_launchPolicy == LaunchPolicy::Never) {
        appendLog(QStringLiteral("warning"),
            tr("Not starting the experiment's launch commands (start the servers yourself, or pass --allow-launch)."));
        return true;
    }
    if (m_launchPolicy == LaunchPolicy::Allow || m_approvedLaunches.contains(key)) {
        *allow = true;
        return true;
    }
    QMessageBox box(QMessageBox::Question, tr("Launch the servers?"),
        tr("Each variant starts its own server with the command below (no shell), waits until it is ready, and stops "
           "it afterwards. Start them?"),
        QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("launchQuestion"));
    box.setDetailedText(lines.join(u'\n'));
    box.setInformativeText(lines.join(u'\n'));
    QPushButton *launch = box.addButton(tr("Launch and run"), QMessageBox::AcceptRole);
    QPushButton *without = box.addButton(tr("Run without launching"), QMessageBox::ActionRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(launch);
    box.exec();
    if (box.clickedButton() == launch) {
        m_approvedLaunches.insert(key);
        *allow = true;
        return true;
    }
    return box.clickedButton() == without;
}

bool MainWindow::startRunOf(const Experiment &e)
{
    bool allowLaunch = false;
    if (!approveLaunch(e, &allowLaunch))
        return false;
    // Against a server it does not start itself, a run first makes Test connection's check: a dead
    // endpoint is said in words before hundreds of requests fail. A scripted run goes straight on.
    if (e.endpoint.isLocalSimulator() || allowLaunch || m_launchPolicy == LaunchPolicy::Never) {
        beginRun(e, allowLaunch);
        return true;
    }
    m_checking = true;
    updateRunnable();
    statusBar()->showMessage(tr("Checking %1 before the run…").arg(e.endpoint.baseUrl));
    appendLog(QStringLiteral("info"), tr("Checking the endpoint before the run, as Test connection does."));
    checkEndpoint(this, e.endpoint, m_secrets, [this, e](const PreflightResult &r) {
        m_checking = false;
        statusBar()->clearMessage();
        if (r.usable) {
            beginRun(e, false);
            return;
        }
        appendLog(QStringLiteral("warning"), preflightSummary(r));
        auto *box = new QMessageBox(QMessageBox::Warning, tr("The endpoint did not pass the check"),
            tr("Before the run, the same check as Test connection failed:\n\n%1").arg(diagnosisText(r.diagnosis)),
            QMessageBox::NoButton, this);
        box->setObjectName(QStringLiteral("runCheckBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setDetailedText(preflightSummary(r));
        QPushButton *anyway = box->addButton(tr("Run anyway"), QMessageBox::AcceptRole);
        anyway->setObjectName(QStringLiteral("runAnyway"));
        QPushButton *cancel = box->addButton(QMessageBox::Cancel);
        box->setDefaultButton(cancel);
        connect(box, &QMessageBox::finished, this, [this, box, anyway, e] {
            if (box->clickedButton() == anyway && !m_run->isRunning())
                beginRun(e, false);
            else
                m_checkAgainst = 0;
            updateRunnable();
        });
        box->open();
        updateRunnable();
    });
    return true;
}

void MainWindow::beginRun(const Experiment &e, bool allowLaunch)
{
    m_results->startLive(e.name);
    m_monitor->runStarted(estimateDuration(e, e.endpoint.isLocalSimulator() ? m_timeScale : 1.0).seconds);
    m_runBanner->hide();
    statusBar()->showMessage(tr("Running %1…").arg(e.name));
    m_pages->show(WindowPages::Run);
    appendLog(QStringLiteral("info"), tr("Run started: %1").arg(e.name));
    m_run->start(e, m_session->path(), m_timeScale, allowLaunch);
    updateRunnable();
}

void MainWindow::cancelRun()
{
    if (!m_run->isRunning())
        return;
    appendLog(
        QStringLiteral("info"), tr("Cancelling: requests in flight end as cancelled; everything finished is kept."));
    m_run->cancel();
}

void MainWindow::runEnded(const RunResult &result)
{
    m_runBanner->hide();
    statusBar()->clearMessage();
    if (result.runId > 0) {
        m_lastRunId = result.runId;
        // Counted before the listing comes back: closing right after the run must still ask about it.
        ++m_runCount;
    }
    m_monitor->runEnded(result);
    updateRunnable();
    if (result.status == RunResult::Status::Failed)
        appendLog(QStringLiteral("error"), tr("Run failed: %1").arg(result.message));
    else
        appendLog(QStringLiteral("info"),
            tr("Run %1: %2 completed, %3 failed, %4 cancelled.")
                .arg(result.status == RunResult::Status::Finished ? tr("finished") : tr("cancelled"))
                .arg(result.completed)
                .arg(result.failed)
                .arg(result.cancelled));
    // Failures explain themselves: each class with its count and the first server message (key scrubbed).
    for (auto it = result.errorsByClass.cbegin(); it != result.errorsByClass.cend(); ++it)
        appendLog(QStringLiteral("error"),
            tr("%1 × %2, the first said: %3")
                .arg(it.value())
                .arg(it.key(), result.firstErrorByClass.value(it.key(), tr("(no message)"))));
    // The stored run replaces the live view: footers, time scale and the variants' comparisons; a
    // rerun to check is shown beside the run it checks.
    if (result.runId > 0 && m_checkAgainst > 0 && result.status == RunResult::Status::Finished)
        showRuns({ m_checkAgainst, result.runId }); // the tree lists the new run only after listRuns()
    else if (result.runId > 0)
        showRuns({ result.runId });
    if (result.status != RunResult::Status::Finished)
        m_checkAgainst = 0;
    // A run of which nothing completed stays on the Run page, its first error in view.
    const bool nothingCompleted
        = result.completed == 0 && (result.failed > 0 || result.status == RunResult::Status::Failed);
    m_stayOnRunPage = nothingCompleted;
    m_pages->show(nothingCompleted ? WindowPages::Run : WindowPages::Results);
    m_session->listRuns();
    emit runFinished(result);
    if (m_closing) {
        m_closing = false;
        close();
    }
}

// Non-modal: a refusal must be seen, but must not stop a scripted --run --quit-after-run.
void MainWindow::showWarning(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("projectWarning"));
    box->open();
}

void MainWindow::appendLog(const QString &level, const QString &text)
{
    m_logDock->appendLog(level, text);
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
        statusBar()->showMessage(tr("The local simulator describes itself in every run's client-host record."), 5000);
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

QFileDialog *MainWindow::chooseFile(
    bool save, const QString &title, const QString &filter, std::function<void(const QString &)> done)
{
    // open() instead of exec(): no nested event loop, so a running benchmark keeps flowing.
    auto *dialog = new QFileDialog(this, title, QString(), filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(save ? QFileDialog::AcceptSave : QFileDialog::AcceptOpen);
    dialog->setFileMode(save ? QFileDialog::AnyFile : QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [done](const QString &path) { done(path); });
    dialog->open();
    return dialog;
}

void MainWindow::chooseFiles(const QString &title, const QString &filter, std::function<void(const QStringList &)> done)
{
    auto *dialog = new QFileDialog(this, title, QString(), filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFiles);
    connect(dialog, &QFileDialog::filesSelected, this, [done](const QStringList &paths) { done(paths); });
    dialog->open();
}

void MainWindow::addRecent(const QString &path)
{
    QSettings s;
    QStringList recent = s.value(QStringLiteral("recentProjects")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    s.setValue(QStringLiteral("recentProjects"), recent.mid(0, 8));
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentProjects")).toStringList();
    for (const QString &path : recent)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                [this, path] { whenSafeToLeave([this, path] { openProject(path); }); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
    if (m_welcome)
        m_welcome->setRecent(recent);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_run->isRunning()) {
        // Nothing is cancelled before the user answers; the window closes once the run has saved what
        // it measured.
        event->ignore();
        if (!m_closing)
            askCloseDuringRun();
        return;
    }
    // The same question as New or Open: leaving the project is what closing does.
    if (!m_closeConfirmed && hasUnsavedWork()) {
        event->ignore();
        whenSafeToLeave([this] {
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

void MainWindow::askCloseDuringRun()
{
    if (findChild<QMessageBox *>(QStringLiteral("closeDuringRunBox")))
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("A run is in progress"),
        tr("Closing the window cancels the run in progress. Requests that finished are kept."), QMessageBox::NoButton,
        this);
    box->setObjectName(QStringLiteral("closeDuringRunBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *keep = box->addButton(tr("Keep running"), QMessageBox::RejectRole);
    QPushButton *cancel = box->addButton(tr("Cancel run and close"), QMessageBox::DestructiveRole);
    keep->setObjectName(QStringLiteral("keepRunning"));
    cancel->setObjectName(QStringLiteral("cancelRunAndClose"));
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    connect(box, &QMessageBox::finished, this, [this, box, cancel] {
        if (box->clickedButton() != cancel || !m_run->isRunning())
            return;
        m_closing = true;
        cancelRun();
    });
    box->open();
}

namespace {

// Shell snippets dropped as files: a command line, not an experiment.
bool isCommandFile(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("sh") || suffix == QLatin1String("txt");
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasText() && !event->mimeData()->hasUrls()) {
        event->acceptProposedAction(); // a command line dragged from a terminal or a browser
        return;
    }
    for (const QUrl &url : event->mimeData()->urls()) {
        const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
        if (suffix == QLatin1String("json") || suffix == QLatin1String("toml") || suffix == QLatin1String("jsonl")
            || suffix == QLatin1String("servescope") || isCommandFile(url.toLocalFile())) {
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::pasteCommand(const QString &text)
{
    if (m_run->isRunning()) {
        showWarning(tr("Paste command line"), tr("The experiment can be changed when the run in progress has ended."));
        return;
    }
    auto *dialog = new CommandDialog(text, this);
    dialog->setObjectName(QStringLiteral("commandDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (!m_hasProject)
            newProject(blankExperiment());
        const CommandImportResult r = dialog->result();
        m_document->apply(mergeImportedCommand(m_document->experiment(), r), tr("Paste command line"));
        for (const QString &w : r.warnings)
            appendLog(QStringLiteral("warning"), w);
        statusBar()->showMessage(tr("Command line applied to the experiment"), 4000);
    });
    dialog->open();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    if (event->mimeData()->hasText() && !event->mimeData()->hasUrls()) {
        pasteCommand(event->mimeData()->text());
        event->acceptProposedAction();
        return;
    }
    QStringList results;
    for (const QUrl &url : event->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if (isCommandFile(path)) {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly))
                pasteCommand(QString::fromUtf8(f.read(kMaxExperimentFileBytes)));
            else
                appendLog(QStringLiteral("error"), tr("Cannot read %1: %2").arg(path, f.errorString()));
            break;
        }
        if (path.endsWith(QLatin1String(".servescope"))) {
            openProject(path);
            break;
        }
        if (ResultImportDialog::isResultFile(path)) {
            results << path;
            continue;
        }
        if (!m_hasProject)
            newProject(blankExperiment());
        importExperimentFile(path);
    }
    if (!results.isEmpty())
        importResults(results);
    event->acceptProposedAction();
}

bool MainWindow::needsProjectFirst(const std::function<void()> &then)
{
    if (m_hasProject && !m_session->path().isEmpty())
        return false;
    // A new project first; `then` follows once it is open.
    auto *once = new QObject(this);
    connect(m_session, &ProjectSession::opened, once, [once, then](const QString &, bool, const QString &error) {
        once->deleteLater();
        if (error.isEmpty())
            then();
    });
    newProject(blankExperiment());
    return true;
}

void MainWindow::importResults(const QStringList &files)
{
    if (m_run->isRunning()) {
        showWarning(tr("Import results"), tr("Results can be imported when the run in progress has ended."));
        return;
    }
    if (needsProjectFirst([this, files] { importResults(files); }))
        return;
    QList<qint64> existing;
    QStringList again;
    for (const QString &f : files) {
        const QList<qint64> ids = m_importedFrom.values(QFileInfo(f).absoluteFilePath());
        if (!ids.isEmpty()) {
            existing << ids;
            again << QFileInfo(f).fileName();
        }
    }
    if (!existing.isEmpty()) {
        // The same file twice makes duplicate runs: ask whether the runs it made are what is wanted.
        auto *box = new QMessageBox(QMessageBox::Question, tr("Already imported"),
            tr("This project already holds the runs imported from %1.").arg(again.join(QStringLiteral(", "))),
            QMessageBox::NoButton, this);
        box->setObjectName(QStringLiteral("reimportBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        QPushButton *open = box->addButton(tr("Open the existing runs"), QMessageBox::AcceptRole);
        QPushButton *import = box->addButton(tr("Import again"), QMessageBox::ActionRole);
        open->setObjectName(QStringLiteral("openExisting"));
        import->setObjectName(QStringLiteral("importAgain"));
        box->addButton(QMessageBox::Cancel);
        box->setDefaultButton(open);
        connect(box, &QMessageBox::finished, this, [this, box, open, import, existing, files] {
            if (box->clickedButton() == open)
                compareRuns(existing);
            else if (box->clickedButton() == import)
                openImportDialog(files);
        });
        box->open();
        return;
    }
    openImportDialog(files);
}

void MainWindow::openImportDialog(const QStringList &files)
{
    auto *dialog = new ResultImportDialog(m_session->path(), files, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ResultImportDialog::imported, m_session, &ProjectSession::listRuns);
    dialog->open();
}

} // namespace ServeScope
