// SPDX-License-Identifier: MIT
// Runs an experiment from the window against the local simulator (a real servescope-cli sim
// child process), finds the requests in the project store, cancels a run and finds the finished
// requests kept, and renders the window with a finished run to a PNG under the build tree.
#include "designpagecontroller.h"
#include "experimentdocument.h"
#include "guitesthelpers.h"
#include "mainwindow.h"
#include "model/validation.h"
#include "projectcontroller.h"
#include "projectsession.h"
#include "requireservice.h"
#include "resultsview.h"
#include "runmonitor.h"
#include "runpagecontroller.h"
#include "runsession.h"
#include "secrets/memorysecretstore.h"
#include "storage/projectstore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QTranslator>

#include <cmath>

using namespace ServeScope;

class TestGuiRun final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*"))); }
    void initTestCase();
    void runAgainstSimulator();
    void cancelKeepsFinishedRequests();
    void screenshotOfDemo();
    void closeAsksBeforeLosingChanges();
    void phaseInWords();
    void reuseOfferedForACapacitySearch();

private:
    static Experiment smallSweep(int prompts);
    static QVector<RequestRecord> storedRequests(const QString &project, qint64 runId);
};

void TestGuiRun::initTestCase()
{
    TestHelpers::initGuiTest();
    QSettings().clear();
    SERVESCOPE_REQUIRE_SERVICE(
        !RunSession::simulatorProgram().isEmpty(), QStringLiteral("servescope-cli not found (SERVESCOPE_CLI unset)"));
}

Experiment TestGuiRun::smallSweep(int prompts)
{
    Experiment e = ProjectController::blankExperiment();
    e.name = QStringLiteral("gui run");
    e.load.points.clear();
    for (int c : { 1, 4 }) {
        LoadPoint p;
        p.concurrency = c;
        p.inputLen = 64;
        p.outputLen = 16;
        p.numPrompts = prompts;
        e.load.points.append(p);
    }
    e.load.warmupRequests = 2;
    Variant seqs;
    seqs.name = QStringLiteral("seqs-2");
    seqs.changes.set(QStringLiteral("server.args.max_num_seqs"), 2);
    e.variants.append(seqs);
    return e;
}

QVector<RequestRecord> TestGuiRun::storedRequests(const QString &project, qint64 runId)
{
    // The test is not the GUI thread's owner of the store; reading here is fine once the run ended.
    ProjectStore store;
    QVector<RequestRecord> out;
    RequestFilter filter;
    filter.withEvents = false;
    if (!store.open(project) || !store.requests(runId, filter, &out))
        qWarning("store: %s", qPrintable(store.errorString()));
    return out;
}

void TestGuiRun::runAgainstSimulator()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->setTimeScale(20);
    w.resize(1440, 920);
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    w.project()->newProject(smallSweep(20));
    QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    QSignalSpy finished(&w, &MainWindow::runFinished);
    w.runs()->start();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
    const auto result = finished.at(0).at(0).value<RunResult>();
    QVERIFY2(result.status == RunResult::Status::Finished, qPrintable(result.message));
    QVERIFY(result.runId > 0);
    QCOMPARE(result.failed, 0);
    QCOMPARE(result.completed, 2 * 2 * 20);
    QVERIFY(w.runMonitor()->chartRefreshes() > 0 || w.runMonitor()->lastSnapshot().runId == result.runId);

    const QVector<RequestRecord> requests = storedRequests(w.session()->path(), result.runId);
    int measured = 0;
    for (const RequestRecord &r : requests)
        measured += r.warmup ? 0 : 1;
    QCOMPARE(measured, 80);
    QTRY_VERIFY_WITH_TIMEOUT(w.results()->pointCount() >= 4, 10000);

    // Screenshot of the window with a finished run, kept under the build tree.
    QTest::qWait(300);
    const QString dir = qEnvironmentVariable("SERVESCOPE_BUILD_DIR", QDir::tempPath()) + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    const QImage shot = w.grab().toImage();
    QVERIFY2(shot.width() >= 780, qPrintable(QString::number(shot.width()))); // the 800-wide offscreen screen
    QVERIFY(shot.save(dir + QStringLiteral("/mainwindow-finished-run.png")));

    // The same experiment again with the run just stored as its live baseline: its figures reach the
    // charts' snapshots and every point, once measured, gets a verdict row.
    auto *vs = w.runMonitor()->findChild<QComboBox *>(QStringLiteral("baselineRun"));
    QVERIFY(vs);
    QTRY_VERIFY_WITH_TIMEOUT(vs->findData(result.runId) > 0, 10000);
    QCOMPARE(w.runMonitor()->baselineRun(), 0);
    vs->setCurrentIndex(vs->findData(result.runId));
    QCOMPARE(w.runMonitor()->baselineRun(), result.runId);
    w.runs()->start();
    QVERIFY(!vs->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(std::isfinite(w.runMonitor()->lastSnapshot().baseline.ttftP50Ms), 60000);
    QVERIFY(w.runMonitor()->lastSnapshot().baseline.ttftP50Ms > 0);
    QVERIFY(w.runMonitor()->lastSnapshot().baseline.outputTokensPerS > 0);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 300000);
    QCOMPARE(finished.at(1).at(0).value<RunResult>().status, RunResult::Status::Finished);
    QVERIFY(vs->isEnabled());
    // The outcome stays on the Run page after the run (the page's "ready" line does not replace it).
    const auto *state = w.runMonitor()->findChild<QLabel *>(QStringLiteral("runState"));
    QVERIFY(state);
    QVERIFY2(state->text().startsWith(QStringLiteral("Run finished: 80 completed")), qPrintable(state->text()));
    auto *verdicts = w.runMonitor()->findChild<QTableWidget *>(QStringLiteral("verdicts"));
    QVERIFY(verdicts && !verdicts->isHidden());
    QCOMPARE(verdicts->rowCount(), 4);
    QCOMPARE(verdicts->item(0, 0)->text(), QStringLiteral("baseline · c1"));
    QCOMPARE(verdicts->item(3, 0)->text(), QStringLiteral("seqs-2 · c4"));
    const QStringList words { QStringLiteral("better"), QStringLiteral("worse"), QStringLiteral("mixed"),
        QStringLiteral("no change beyond noise") };
    for (int row = 0; row < 4; ++row)
        QVERIFY2(words.contains(verdicts->item(row, 1)->text()), qPrintable(verdicts->item(row, 1)->text()));
}

void TestGuiRun::cancelKeepsFinishedRequests()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->setTimeScale(2);
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    w.project()->newProject(smallSweep(400));
    QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
    QSignalSpy finished(&w, &MainWindow::runFinished);
    w.runs()->start();
    QTRY_VERIFY_WITH_TIMEOUT(w.runMonitor()->lastSnapshot().completed >= 5, 120000);
    w.runs()->cancel();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
    const auto result = finished.at(0).at(0).value<RunResult>();
    QCOMPARE(result.status, RunResult::Status::Cancelled);
    const QVector<RequestRecord> requests = storedRequests(w.session()->path(), result.runId);
    int ok = 0;
    for (const RequestRecord &r : requests)
        ok += r.ok() && !r.warmup ? 1 : 0;
    QVERIFY2(ok >= 5, qPrintable(QString::number(ok)));
    QVERIFY(ok < 2 * 2 * 400);
}

void TestGuiRun::screenshotOfDemo()
{
    // The demo as scripts/run.sh opens it, run to the end and rendered for the docs.
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    // Time scale 1 gives the simulator's real-time figures (for the docs); tests use 40.
    w.project()->setTimeScale(
        qEnvironmentVariable("SERVESCOPE_SCREENSHOT_TIME_SCALE", QStringLiteral("40")).toDouble());
    w.resize(1440, 960);
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    w.openDemo();
    QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
    QVERIFY(!hasErrors(w.document()->problems()));
    QCOMPARE(w.document()->experiment().variants.size(), 3);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy finished(&w, &MainWindow::runFinished);
    w.runs()->start();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
    const auto result = finished.at(0).at(0).value<RunResult>();
    QVERIFY2(result.status == RunResult::Status::Finished, qPrintable(result.message));
    QTRY_VERIFY_WITH_TIMEOUT(w.results()->pointCount() >= 12, 10000);
    QTest::qWait(300);
    const QString dir = qEnvironmentVariable("SERVESCOPE_BUILD_DIR", QDir::tempPath()) + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    QVERIFY(w.grab().toImage().save(dir + QStringLiteral("/mainwindow-demo.png")));
}

void TestGuiRun::closeAsksBeforeLosingChanges()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    w.project()->newProject(smallSweep(4));
    QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    Experiment edited = w.document()->experiment();
    edited.name = QStringLiteral("renamed");
    w.document()->apply(edited, QStringLiteral("Rename"));
    QVERIFY(w.document()->isModified());

    // Closing asks; Cancel keeps the window and the edit.
    QVERIFY(!w.close());
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = w.findChild<QMessageBox *>()) != nullptr && box->isVisible());
    box->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY(w.findChild<QMessageBox *>() == nullptr);
    QVERIFY(w.isVisible());
    QCOMPARE(w.document()->experiment().name, QStringLiteral("renamed"));

    // Discard closes.
    QVERIFY(!w.close());
    QTRY_VERIFY((box = w.findChild<QMessageBox *>()) != nullptr && box->isVisible());
    box->button(QMessageBox::Discard)->click();
    QTRY_VERIFY(!w.isVisible());
}

// The monitor names the run's phase in words, translated; a code it does not know stays as it is.
void TestGuiRun::phaseInWords()
{
    QCOMPARE(RunMonitor::phaseText(QStringLiteral("measuring")), QStringLiteral("Measuring…"));
    QCOMPARE(RunMonitor::phaseText(QStringLiteral("something new")), QStringLiteral("something new"));
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/servescope_zh_CN.qm")));
    QVERIFY(QCoreApplication::installTranslator(&zh));
    QCOMPARE(RunMonitor::phaseText(QStringLiteral("preparing prompts")), QStringLiteral("正在准备提示…"));
    QCOMPARE(RunMonitor::phaseText(QStringLiteral("warmup")), QStringLiteral("正在预热…"));
    // Qt's own words for a folder in the file dialog, which Qt's zh_CN catalogue lacks.
    QCOMPARE(QCoreApplication::translate("QAbstractFileIconProvider", "Folder", "All other platforms"),
        QStringLiteral("文件夹"));
    QCoreApplication::removeTranslator(&zh);
}

void TestGuiRun::reuseOfferedForACapacitySearch()
{
    RunMonitor monitor;
    auto *vs = monitor.findChild<QComboBox *>(QStringLiteral("baselineRun"));
    auto *reuse = monitor.findChild<QCheckBox *>(QStringLiteral("reuseLevels"));
    QVERIFY(vs && reuse);
    RunListing earlier, running;
    earlier.run.id = 5;
    earlier.run.name = QStringLiteral("search");
    earlier.run.status = RunStatus::Finished;
    running.run.id = 6;
    running.run.status = RunStatus::Running;
    monitor.setEarlierRuns({ earlier, running });
    QCOMPARE(vs->count(), 2); // none, and the finished run: a running one is no baseline
    QCOMPARE(vs->itemData(1).toLongLong(), 5);

    Experiment gradient = smallSweep(4);
    monitor.setPlan(gradient, 1);
    QVERIFY(reuse->isHidden());
    Experiment search = gradient;
    search.load.capacity = CapacitySearch {};
    monitor.setPlan(search, 1);
    QVERIFY(!reuse->isHidden());
    QVERIFY(!reuse->isEnabled()); // nothing to reuse without a run chosen
    vs->setCurrentIndex(1);
    QVERIFY(reuse->isEnabled());
    QVERIFY(!monitor.reuseBaselineLevels());
    reuse->setChecked(true);
    QVERIFY(monitor.reuseBaselineLevels());
    // The list refreshed keeps the choice while its run is listed.
    monitor.setEarlierRuns({ earlier });
    QCOMPARE(monitor.baselineRun(), 5);
    monitor.setEarlierRuns({});
    QCOMPARE(monitor.baselineRun(), 0);
    QVERIFY(!monitor.reuseBaselineLevels());
    QVERIFY(!reuse->isEnabled());
    monitor.setPlan(gradient, 1);
    QVERIFY(!monitor.reuseBaselineLevels());
}

QTEST_MAIN(TestGuiRun)
#include "tst_guirun.moc"
