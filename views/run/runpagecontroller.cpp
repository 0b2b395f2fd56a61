// SPDX-License-Identifier: MIT
#include "runpagecontroller.h"

#include "compare/runsource.h"
#include "diagnosistext.h"
#include "endpointcheck.h"
#include "experimentdocument.h"
#include "io/experimentfile.h"
#include "model/validation.h"
#include "model/variables.h"
#include "projectsession.h"
#include "report/reportdocument.h"
#include "run/durationestimate.h"
#include "run/launchtemplate.h"
#include "runmonitor.h"
#include "runsession.h"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QUrl>

namespace ServeScope {

namespace {

// The argv each variant would launch, one line per variant; empty when nothing is launched (a sim:
// endpoint, or no launch template).
QStringList launchLines(const Experiment &e)
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

} // namespace

RunPageController::RunPageController(QWidget *window, SecretStore *secrets, ExperimentDocument *document,
    ProjectSession *session, RunMonitor *monitor, RunSession *run)
    : QObject(window)
    , m_window(window)
    , m_secrets(secrets)
    , m_document(document)
    , m_session(session)
    , m_monitor(monitor)
    , m_run(run)
    , m_banner(new QLabel)
{
    m_banner->setObjectName(QStringLiteral("runBanner"));
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QStringLiteral("background: #fff4ce; color: #5c4400; padding: 4px;"));
    m_banner->setText(tr("The run in progress uses the configuration it started with; these edits apply to "
                         "the next run."));
    m_banner->hide();
    // Editing during a run is allowed; the run goes on with what it started with.
    connect(m_document, &ExperimentDocument::changed, this, [this] {
        if (m_run->isRunning())
            m_banner->show();
        updateRunnable();
    });
    connect(m_monitor, &RunMonitor::startRequested, this, &RunPageController::start);
    connect(m_monitor, &RunMonitor::cancelRequested, this, &RunPageController::cancel);
    connect(m_run, &RunSession::snapshotUpdated, m_monitor, &RunMonitor::showSnapshot);
    connect(m_run, &RunSession::pointCompared, m_monitor, &RunMonitor::showVerdict);
    connect(m_run, &RunSession::logged, this, &RunPageController::logged);
    connect(m_run, &RunSession::finished, this, &RunPageController::runEnded);
    connect(m_session, &ProjectSession::runConfigLoaded, this, &RunPageController::configLoaded);
    connect(m_session, &ProjectSession::rerunChecked, this, &RunPageController::reportCheck);
    // A rerun to check is compared with the run it checks once both are shown.
    connect(m_session, &ProjectSession::runsLoaded, this, [this](const Report::ReportInput &input) {
        if (m_run->isRunning() || m_checkAgainst <= 0 || input.runs.size() != 2 || input.runs[0].id != m_checkAgainst)
            return;
        m_session->checkRerun(m_checkAgainst, input.runs[1].id);
        m_checkAgainst = 0;
    });
}

RunPageController::~RunPageController() = default;

void RunPageController::createActions(QMenu *menu)
{
    QStyle *style = m_window->style();
    m_runAction = menu->addAction(style->standardIcon(QStyle::SP_MediaPlay), tr("&Run experiment"),
        QKeySequence(tr("Ctrl+R")), this, &RunPageController::start);
    m_cancelAction = menu->addAction(style->standardIcon(QStyle::SP_MediaStop), tr("&Cancel run"),
        QKeySequence(tr("Ctrl+.")), this, &RunPageController::cancel);
    updateRunnable();
}

void RunPageController::setTimeScale(double scale)
{
    m_timeScale = scale;
    updateRunnable(); // the Run page's estimate follows the scale
}

void RunPageController::setProjectOpen(bool open)
{
    m_projectOpen = open;
    m_monitor->forgetLastRun();
    updateRunnable();
}

bool RunPageController::isRunning() const
{
    return m_run->isRunning();
}

void RunPageController::updateRunnable()
{
    QString why;
    if (!m_projectOpen)
        why = tr("Open or create a project first.");
    else if (hasErrors(m_document->problems()))
        why = tr("Fix the problems listed under the fields before running.");
    const bool running = m_run->isRunning() || m_checking;
    m_monitor->setRunnable(why.isEmpty(), why.isEmpty() ? tr("Ready to run.") : why);
    if (m_projectOpen)
        m_monitor->setPlan(m_document->experiment(), m_timeScale);
    if (m_runAction) {
        m_runAction->setEnabled(why.isEmpty() && !running);
        m_cancelAction->setEnabled(running);
    }
}

bool RunPageController::start()
{
    if (m_run->isRunning() || m_checking || !m_projectOpen || hasErrors(m_document->problems()))
        return false;
    m_checkAgainst = 0;
    startExperiment(m_document->experiment());
    return true;
}

// Asks once per set of commands (until they change) whether ServeScope may start them, then goes on
// with go(allowLaunch); a cancelled question goes nowhere. The question is opened, not exec'd.
void RunPageController::approveLaunch(const Experiment &e, std::function<void(bool)> go)
{
    const QStringList lines = launchLines(e);
    if (lines.isEmpty())
        return go(false);
    const QString key = lines.join(u'\n');
    if (m_launchPolicy == LaunchPolicy::Never) {
        emit logged(QStringLiteral("warning"),
            tr("Not starting the experiment's launch commands (start the servers yourself, or pass --allow-launch)."));
        return go(false);
    }
    if (m_launchPolicy == LaunchPolicy::Allow || m_approvedLaunches.contains(key))
        return go(true);
    auto *box = new QMessageBox(QMessageBox::Question, tr("Launch the servers?"),
        tr("Each variant starts its own server with the command below (no shell), waits until it is ready, and stops "
           "it afterwards. Start them?"),
        QMessageBox::NoButton, m_window);
    box->setObjectName(QStringLiteral("launchQuestion"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDetailedText(key);
    box->setInformativeText(key);
    QPushButton *launch = box->addButton(tr("Launch and run"), QMessageBox::AcceptRole);
    QPushButton *without = box->addButton(tr("Run without launching"), QMessageBox::ActionRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(launch);
    m_checking = true; // no second start while the question is open
    updateRunnable();
    connect(box, &QMessageBox::finished, this, [this, box, launch, without, key, go] {
        m_checking = false;
        updateRunnable();
        if (box->clickedButton() == launch)
            m_approvedLaunches.insert(key);
        if (box->clickedButton() == launch || box->clickedButton() == without)
            go(box->clickedButton() == launch);
        else
            m_checkAgainst = 0;
    });
    box->open();
}

void RunPageController::startExperiment(const Experiment &e)
{
    approveLaunch(e, [this, e](bool allowLaunch) { checkThenBegin(e, allowLaunch); });
}

void RunPageController::checkThenBegin(const Experiment &e, bool allowLaunch)
{
    // Against a server it does not start itself, a run first makes Test connection's check: a dead
    // endpoint is said in words before hundreds of requests fail. A scripted run goes straight on.
    if (e.endpoint.isLocalSimulator() || allowLaunch || m_launchPolicy == LaunchPolicy::Never) {
        beginRun(e, allowLaunch);
        return;
    }
    m_checking = true;
    updateRunnable();
    emit status(tr("Checking %1 before the run…").arg(e.endpoint.baseUrl), 0);
    emit logged(QStringLiteral("info"), tr("Checking the endpoint before the run, as Test connection does."));
    checkEndpoint(this, e.endpoint, m_secrets, [this, e](const PreflightResult &r) {
        m_checking = false;
        emit status(QString(), 0);
        if (r.usable) {
            beginRun(e, false);
            return;
        }
        emit logged(QStringLiteral("warning"), preflightSummary(r));
        auto *box = new QMessageBox(QMessageBox::Warning, tr("The endpoint did not pass the check"),
            tr("Before the run, the same check as Test connection failed:\n\n%1").arg(diagnosisText(r.diagnosis)),
            QMessageBox::NoButton, m_window);
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
}

void RunPageController::beginRun(const Experiment &e, bool allowLaunch)
{
    emit runStarting(e.name);
    m_monitor->runStarted(estimateDuration(e, e.endpoint.isLocalSimulator() ? m_timeScale : 1.0).seconds);
    m_banner->hide();
    emit status(tr("Running %1…").arg(e.name), 0);
    emit runPageWanted();
    emit logged(QStringLiteral("info"), tr("Run started: %1").arg(e.name));
    RunOptions options;
    options.projectPath = m_session->path();
    options.simulatorTimeScale = m_timeScale;
    options.allowLaunch = allowLaunch;
    if (const qint64 vs = m_monitor->baselineRun())
        options.vs = QString::number(vs);
    if (m_monitor->reuseBaselineLevels())
        options.reuseLevels = options.vs;
    m_run->start(e, std::move(options));
    updateRunnable();
}

void RunPageController::cancel()
{
    if (!m_run->isRunning())
        return;
    emit logged(
        QStringLiteral("info"), tr("Cancelling: requests in flight end as cancelled; everything finished is kept."));
    m_run->cancel();
}

void RunPageController::runEnded(const RunResult &result)
{
    m_banner->hide();
    emit status(QString(), 0);
    m_monitor->runEnded(result);
    updateRunnable();
    if (result.status == RunResult::Status::Failed)
        emit logged(QStringLiteral("error"), tr("Run failed: %1").arg(result.message));
    else
        emit logged(QStringLiteral("info"),
            tr("Run %1: %2 completed, %3 failed, %4 cancelled.")
                .arg(result.status == RunResult::Status::Finished ? tr("finished") : tr("cancelled"))
                .arg(result.completed)
                .arg(result.failed)
                .arg(result.cancelled));
    // Failures explain themselves: each class with its count and the first server message (key scrubbed).
    for (auto it = result.errorsByClass.cbegin(); it != result.errorsByClass.cend(); ++it)
        emit logged(QStringLiteral("error"),
            tr("%1 × %2, the first said: %3")
                .arg(it.value())
                .arg(it.key(), result.firstErrorByClass.value(it.key(), tr("(no message)"))));
    // A run of which nothing completed stays on the Run page, its first error in view.
    const bool nothingCompleted
        = result.completed == 0 && (result.failed > 0 || result.status == RunResult::Status::Failed);
    m_stayOnRunPage = nothingCompleted;
    // The stored run replaces the live view: footers, time scale and the variants' comparisons; a
    // rerun to check is shown beside the run it checks.
    if (result.runId > 0 && m_checkAgainst > 0 && result.status == RunResult::Status::Finished)
        emit showRunsWanted({ m_checkAgainst, result.runId });
    else if (result.runId > 0)
        emit showRunsWanted({ result.runId });
    if (result.status != RunResult::Status::Finished)
        m_checkAgainst = 0;
    if (nothingCompleted)
        emit runPageWanted();
    else
        emit resultsPageWanted();
    emit runFinished(result);
    if (std::exchange(m_closing, false))
        emit closeWanted();
}

bool RunPageController::resultsMayTakeOver()
{
    return !std::exchange(m_stayOnRunPage, false);
}

void RunPageController::rerunToCheck(qint64 runId)
{
    if (!m_projectOpen)
        return;
    if (m_run->isRunning()) {
        emit status(tr("A run is in progress: cancel it first."), 5000);
        return;
    }
    m_session->loadRunConfig(runId);
}

void RunPageController::configLoaded(qint64 runId, const Experiment &experiment, bool readable)
{
    if (!readable || m_run->isRunning()) {
        emit logged(QStringLiteral("error"), tr("Run %1 cannot be rerun: its configuration does not read.").arg(runId));
        return;
    }
    m_checkAgainst = runId;
    emit logged(QStringLiteral("info"), tr("Rerunning run %1 to check it.").arg(runId));
    startExperiment(experiment);
}

void RunPageController::reportCheck(qint64 earlierId, const RerunCheck &check, const QString &error)
{
    if (!error.isEmpty()) {
        emit logged(
            QStringLiteral("error"), tr("The rerun of run %1 could not be checked: %2").arg(earlierId).arg(error));
        return;
    }
    QStringList points;
    for (const RerunCheck::Point &p : check.points) {
        const QString point = p.variant + QLatin1Char('/') + p.label;
        points << (p.outcome == QLatin1String("agree") ? tr("%1: agree").arg(point)
                : p.outcome == QLatin1String("missing")
                ? tr("%1: missing from the rerun").arg(point)
                : tr("%1: differ (%2)").arg(point, p.differing.join(QStringLiteral(", "))));
    }
    for (const QString &p : std::as_const(points))
        emit logged(QStringLiteral("check"), p);
    for (const QString &d : check.environment)
        emit logged(QStringLiteral("check"), tr("environment: %1").arg(d));
    const bool all = check.allAgree();
    const QString summary = all
        ? tr("Rerun agrees with run %1 within 5% at every point.").arg(earlierId)
        : tr("Rerun differs from run %1 at some points; see the log and the delta table.").arg(earlierId);
    emit logged(all ? QStringLiteral("info") : QStringLiteral("warning"), summary);
    emit status(summary, 10000);
    emit checkFinished(points, all);
}

void RunPageController::askCloseDuringRun()
{
    if (m_closing || m_window->findChild<QMessageBox *>(QStringLiteral("closeDuringRunBox")))
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("A run is in progress"),
        tr("Closing the window cancels the run in progress. Requests that finished are kept."), QMessageBox::NoButton,
        m_window);
    box->setObjectName(QStringLiteral("closeDuringRunBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *keep = box->addButton(tr("Keep running"), QMessageBox::RejectRole);
    QPushButton *stop = box->addButton(tr("Cancel run and close"), QMessageBox::DestructiveRole);
    keep->setObjectName(QStringLiteral("keepRunning"));
    stop->setObjectName(QStringLiteral("cancelRunAndClose"));
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    connect(box, &QMessageBox::finished, this, [this, box, stop] {
        if (box->clickedButton() != stop || !m_run->isRunning())
            return;
        m_closing = true;
        cancel();
    });
    box->open();
}

} // namespace ServeScope
