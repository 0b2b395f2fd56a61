// SPDX-License-Identifier: MIT
// Nothing is lost and nothing pretends: a refused Open leaves the open project as it was, closing
// during a run asks before cancelling, Save in the unsaved-changes question goes on to where the
// user was going, New clears the findings; load inputs refuse values beyond their limits; a
// cancelled point reads completed/planned; charts are copied and exported at a legible size; the
// window and the profiles dialog fit the screen, frame included; the demo runs at the demo's speed.
#include "designpagecontroller.h"
#include "diagnosistext.h"
#include "experimentdocument.h"
#include "experimenteditor.h"
#include "freeport.h"
#include "guitesthelpers.h"
#include "headlinepanel.h"
#include "importflow.h"
#include "loadpointsmodel.h"
#include "loadtab.h"
#include "logdock.h"
#include "mainwindow.h"
#include "pointtable.h"
#include "profiledialog.h"
#include "projectcontroller.h"
#include "projectsession.h"
#include "projecttree.h"
#include "resultsexport.h"
#include "resultsview.h"
#include "run/durationestimate.h"
#include "runmonitor.h"
#include "runpagecontroller.h"
#include "screenfit.h"
#include "secrets/memorysecretstore.h"
#include "storage/fileinuse.h"
#include "storage/storewriter.h"
#include "windowpages.h"

#include "charts/chartexporter.h"
#include "model/validation.h"
#include "report/chartbuilders.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMap>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStackedWidget>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace ServeScope;

namespace {

Experiment sweep(int prompts, const QString &name = QStringLiteral("kept"))
{
    Experiment e = ProjectController::blankExperiment();
    e.name = name;
    e.load.points.clear();
    for (int c : { 1, 4 }) {
        LoadPoint p;
        p.concurrency = c;
        p.inputLen = 32;
        p.outputLen = 16;
        p.numPrompts = prompts;
        e.load.points.append(p);
    }
    e.load.warmupRequests = 2;
    return e;
}

bool openNew(MainWindow &w, const Experiment &e)
{
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    w.project()->newProject(e);
    return QTest::qWaitFor([&] { return opened.size() == 1; }, 10000);
}

bool saveAs(MainWindow &w, const QString &path)
{
    QSignalSpy saved(&w, &MainWindow::projectSaved);
    w.project()->saveProjectAs(path);
    return QTest::qWaitFor([&] { return saved.size() == 1; }, 10000) && saved.at(0).at(1).toString().isEmpty();
}

RunResult runOnce(MainWindow &w)
{
    QSignalSpy finished(&w, &MainWindow::runFinished);
    if (!w.runs()->start() || !QTest::qWaitFor([&] { return finished.size() == 1; }, 120000))
        return {};
    return finished.at(0).at(0).value<RunResult>();
}

QMessageBox *visibleBox(QWidget &w, const QString &name)
{
    QMessageBox *box = nullptr;
    const auto shown = [&] { return (box = w.findChild<QMessageBox *>(name)) != nullptr && box->isVisible(); };
    return QTest::qWaitFor(shown, 10000) ? box : nullptr;
}

} // namespace

class TestWindowSafety final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TestHelpers::initGuiTest(); }
    void init()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*")));
        QSettings().clear();
    }

    // A project opened by a name relative to the folder the window started in is remembered by its whole
    // path: the recent entry opens it again from any other folder (it was kept as the bare name).
    void recentProjectsAreWholePaths()
    {
        QTemporaryDir dir, elsewhere;
        const QString path = dir.filePath(QStringLiteral("relative.servescope"));
        {
            StoreWriter writer;
            QVERIFY(writer.open(path));
        }
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.project()->openProject(QStringLiteral("relative.servescope"));
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        const QStringList recent = w.project()->recent();
        QVERIFY(QDir::setCurrent(elsewhere.path()));
        QVERIFY(!recent.isEmpty());
        QCOMPARE(recent.first(), QFileInfo(path).absoluteFilePath());
        w.project()->openProject(recent.first());
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 2, 10000);
        QCOMPARE(QFileInfo(w.session()->path()).canonicalFilePath(), QFileInfo(path).canonicalFilePath());
        QVERIFY(QDir::setCurrent(before));
    }

    // The window comes back as it was left on this screen: maximized again when it was, never smaller
    // than a usable size (nor larger than the screen), and its project dock wide enough for a run's name.
    void placementPerScreen()
    {
        MemorySecretStore secrets;
        const QScreen *screen = QGuiApplication::primaryScreen();
        const QRect available = screen->availableGeometry();
        const QString key = QStringLiteral("window/%1x%2/").arg(screen->size().width()).arg(screen->size().height());
        {
            MainWindow w(&secrets); // a first start: inside the screen
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY2(available.contains(w.geometry()),
                qPrintable(QStringLiteral("%1,%2 %3x%4").arg(w.x()).arg(w.y()).arg(w.width()).arg(w.height())));
            QVERIFY(w.findChild<ProjectTree *>()->minimumWidth() >= 140);
            w.resize(300, 200); // left tiny, then closed maximized
            w.showMaximized();
            QTRY_VERIFY(w.isMaximized());
            QVERIFY(w.close());
        }
        QVERIFY(QSettings().contains(key + QStringLiteral("geometry")));
        QVERIFY(QSettings().value(QStringLiteral("window/maximized")).toBool());
        {
            MainWindow w(&secrets);
            QVERIFY(w.windowState() & Qt::WindowMaximized);
        }
        // Closed small and not maximized: it reopens at least at the usable size the screen allows.
        {
            MainWindow w(&secrets);
            w.showNormal();
            w.resize(300, 200);
            QVERIFY(w.close());
        }
        QVERIFY(!QSettings().value(QStringLiteral("window/maximized")).toBool());
        {
            MainWindow w(&secrets);
            QVERIFY(!(w.windowState() & Qt::WindowMaximized));
            // The usable size, or the screen less its frame where the screen is smaller.
            QVERIFY2(w.width() >= std::min(960, available.width() - 16)
                    && w.height() >= std::min(600, available.height() - 64) && available.contains(w.geometry()),
                qPrintable(QStringLiteral("%1x%2 in %3x%4")
                               .arg(w.width())
                               .arg(w.height())
                               .arg(available.width())
                               .arg(available.height())));
        }
        // On a screen size not seen before the window is placed afresh, not at another screen's geometry.
        QSettings().remove(key + QStringLiteral("geometry"));
        QSettings().setValue(QStringLiteral("window/maximized"), false);
        {
            MainWindow w(&secrets);
            QVERIFY(w.width() > 300 && available.contains(w.geometry()));
        }
    }

    // The log follows its newest line, also while its tab is hidden behind another; a reader who scrolled
    // back stays where they are as lines come in.
    void logFollowsNewLines()
    {
        LogDock dock;
        dock.resize(600, 160);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        auto *tabs = dock.findChild<QTabWidget *>();
        auto *log = dock.findChild<QPlainTextEdit *>(QStringLiteral("logView"));
        QVERIFY(tabs && log);
        tabs->setCurrentIndex(0); // the Problems tab in front
        for (int i = 0; i < 300; ++i)
            dock.appendLog(QStringLiteral("info"), QStringLiteral("line %1").arg(i));
        tabs->setCurrentWidget(log);
        QScrollBar *bar = log->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0);
        QTRY_COMPARE(bar->value(), bar->maximum());
        bar->setValue(bar->maximum() / 2);
        const int reading = bar->value();
        dock.appendLog(QStringLiteral("info"), QStringLiteral("one more"));
        QCOMPARE(bar->value(), reading);
        bar->setValue(bar->maximum());
        dock.appendLog(QStringLiteral("info"), QStringLiteral("and another"));
        QCOMPARE(bar->value(), bar->maximum());
    }

    void failedOpenKeepsTheProject_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("truncate");
        QTest::newRow("truncated project") << QByteArray() << true;
        QTest::newRow("text file") << QByteArray("just some notes\n") << false;
        QTest::newRow("empty file") << QByteArray() << false;
    }
    void failedOpenKeepsTheProject()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, truncate);
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("kept.servescope"));
        const QString bad = dir.filePath(QStringLiteral("bad.servescope"));
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(20);
        QVERIFY(openNew(w, sweep(4)));
        QVERIFY(saveAs(w, good));
        const RunResult run = runOnce(w);
        QVERIFY(run.runId > 0);
        QTRY_COMPARE_WITH_TIMEOUT(w.projectTree()->runCount(), 1, 10000);
        if (truncate) {
            QFile in(good);
            QVERIFY(in.open(QIODevice::ReadOnly));
            bytes = in.readAll().left(3000); // the header survives, the pages do not
        }
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        out.close();

        QSignalSpy failed(&w, &MainWindow::projectOpenFailed);
        w.project()->openProject(bad);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
        // The error is in a dialog ...
        QMessageBox *box = visibleBox(w, QStringLiteral("projectWarning"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("bad.servescope")), qPrintable(box->text()));
        // ... and the project that was open is still open, unchanged: editor, title, runs, results, Save.
        QCOMPARE(w.document()->experiment().name, QStringLiteral("kept"));
        QCOMPARE(w.session()->path(), good);
        QVERIFY(!w.session()->isTemporary());
        QVERIFY2(w.windowTitle().contains(QStringLiteral("kept.servescope")), qPrintable(w.windowTitle()));
        QCOMPARE(w.projectTree()->runCount(), 1);
        QSignalSpy listed(&w, &MainWindow::runsListed);
        w.session()->listRuns();
        QTRY_COMPARE_WITH_TIMEOUT(listed.size(), 1, 10000);
        QCOMPARE(listed.at(0).at(0).toInt(), 1);
        QSignalSpy shown(&w, &MainWindow::resultsShown);
        w.compareRuns({ run.runId });
        QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 10000);
        QCOMPARE(w.results()->input().runs.size(), 1);
        QVERIFY(w.results()->pointCount() > 0);
        Experiment edited = w.document()->experiment();
        edited.name = QStringLiteral("kept and edited");
        w.document()->apply(edited, QStringLiteral("Rename"));
        QSignalSpy saved(&w, &MainWindow::projectSaved);
        w.project()->saveProject();
        QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 10000);
        QCOMPARE(saved.at(0).at(0).toString(), good);
        QVERIFY(saved.at(0).at(1).toString().isEmpty());
        QVERIFY(!w.document()->isModified());
        // The next Open works without a detour through Discard.
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.project()->openProject(good);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QCOMPARE(w.document()->experiment().name, QStringLiteral("kept and edited"));
    }

    void closingDuringARunAsksFirst()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(2);
        QVERIFY(openNew(w, sweep(400)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.runs()->start());
        QTRY_VERIFY_WITH_TIMEOUT(w.runMonitor()->lastSnapshot().completed >= 2, 60000);
        QVERIFY(!w.close());
        QMessageBox *box = visibleBox(w, QStringLiteral("closeDuringRunBox"));
        QVERIFY(box);
        // Nothing is cancelled while the question is open.
        const qint64 before = w.runMonitor()->lastSnapshot().completed;
        QTRY_VERIFY_WITH_TIMEOUT(w.runMonitor()->lastSnapshot().completed > before, 30000);
        QCOMPARE(finished.size(), 0);
        QVERIFY(w.runMonitor()->lastSnapshot().cancelled == 0);
        // Keep running: the run goes on and the window stays.
        box->findChild<QPushButton *>(QStringLiteral("keepRunning"))->click();
        QTRY_VERIFY(w.findChild<QMessageBox *>(QStringLiteral("closeDuringRunBox")) == nullptr);
        const qint64 kept = w.runMonitor()->lastSnapshot().completed;
        QTRY_VERIFY_WITH_TIMEOUT(w.runMonitor()->lastSnapshot().completed > kept, 30000);
        QCOMPARE(finished.size(), 0);
        QVERIFY(w.isVisible());
        // Cancel run and close: the run ends cancelled, then the unsaved runs are asked about.
        QVERIFY(!w.close());
        box = visibleBox(w, QStringLiteral("closeDuringRunBox"));
        QVERIFY(box);
        box->findChild<QPushButton *>(QStringLiteral("cancelRunAndClose"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(finished.at(0).at(0).value<RunResult>().status, RunResult::Status::Cancelled);
        QMessageBox *unsaved = visibleBox(w, QStringLiteral("unsavedBox"));
        QVERIFY(unsaved);
        unsaved->button(QMessageBox::Discard)->click();
        QTRY_VERIFY(!w.isVisible());
    }

    void saveInTheQuestionContinuesToTheNewProject()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("first.servescope"));
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QVERIFY(openNew(w, sweep(4, QStringLiteral("first"))));
        w.show();
        Experiment first = w.document()->experiment();
        first.load.points[0].numPrompts = 5;
        w.document()->apply(first, QStringLiteral("Edit"));
        w.newAction()->trigger();
        QMessageBox *box = visibleBox(w, QStringLiteral("unsavedBox"));
        QVERIFY(box);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        box->button(QMessageBox::Save)->click();
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = w.findChild<QFileDialog *>()) != nullptr && dialog->isVisible());
        dialog->selectFile(path);
        static_cast<QDialog *>(dialog)->accept(); // QFileDialog's own accept() is protected
        // Saved, then on to the new project the user asked for.
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000); // the new project, once the copy is saved
        QVERIFY(QFile::exists(path));
        QVERIFY(w.session()->isTemporary());
        QCOMPARE(w.document()->experiment().name, ProjectController::blankExperiment().name);

        // A saved project with an edit: Save stores it, then New goes on.
        QVERIFY(saveAs(w, path));
        Experiment edited = w.document()->experiment();
        edited.name = QStringLiteral("edited");
        w.document()->apply(edited, QStringLiteral("Rename"));
        w.newAction()->trigger();
        box = visibleBox(w, QStringLiteral("unsavedBox"));
        QVERIFY(box);
        QSignalSpy reopened(&w, &MainWindow::projectOpened);
        box->button(QMessageBox::Save)->click();
        QTRY_COMPARE_WITH_TIMEOUT(reopened.size(), 1, 10000);
        QVERIFY(w.session()->isTemporary());
        MainWindow again(&secrets);
        QSignalSpy read(&again, &MainWindow::projectOpened);
        again.project()->openProject(path);
        QTRY_COMPARE_WITH_TIMEOUT(read.size(), 1, 10000);
        QCOMPARE(again.document()->experiment().name, QStringLiteral("edited"));

        // Cancel in the file dialog: nothing is saved and nothing happens later.
        Experiment fresh = w.document()->experiment();
        fresh.name = QStringLiteral("fresh");
        w.document()->apply(fresh, QStringLiteral("Rename"));
        w.newAction()->trigger();
        box = visibleBox(w, QStringLiteral("unsavedBox"));
        QVERIFY(box);
        QSignalSpy none(&w, &MainWindow::projectOpened);
        box->button(QMessageBox::Save)->click();
        QTRY_VERIFY((dialog = w.findChild<QFileDialog *>()) != nullptr && dialog->isVisible());
        static_cast<QDialog *>(dialog)->reject();
        QTest::qWait(300);
        QCOMPARE(none.size(), 0);
        QCOMPARE(w.document()->experiment().name, QStringLiteral("fresh"));
    }

    // Opening a project with runs: its newest finished run is ready on the Results page and selected
    // in the tree, while the window opens on the page the project was left on.
    void openingShowsTheNewestRun()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.servescope"));
        MemorySecretStore secrets;
        qint64 older = 0, newest = 0;
        {
            MainWindow w(&secrets);
            w.project()->setTimeScale(20);
            QVERIFY(openNew(w, sweep(4)));
            older = runOnce(w).runId;
            newest = runOnce(w).runId;
            QVERIFY(older > 0 && newest > older);
            QVERIFY(saveAs(w, path));
            w.showTab(WindowPages::Design);
        }
        MainWindow again(&secrets);
        QSignalSpy shown(&again, &MainWindow::resultsShown);
        again.project()->openProject(path);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 20000);
        QCOMPARE(again.results()->input().runs.size(), 1);
        QCOMPARE(again.results()->input().runs.first().id, newest);
        QCOMPARE(again.projectTree()->selectedRuns(), QList<qint64> { newest });
        QCOMPARE(again.currentPage(), int(WindowPages::Design));
        // Choosing a run afterwards still turns to the Results page.
        again.compareRuns({ older });
        QTRY_COMPARE_WITH_TIMEOUT(again.currentPage(), int(WindowPages::Results), 20000);
        QCOMPARE(again.results()->input().runs.first().id, older);
        // A run that finishes is shown, and selected in the tree in place of the run shown before.
        const qint64 third = runOnce(again).runId;
        QTRY_COMPARE_WITH_TIMEOUT(again.results()->input().runs.value(0).id, third, 20000);
        QCOMPARE(again.projectTree()->selectedRuns(), QList<qint64> { third });
    }

    // The launch question is opened, not exec'd: start() returns with the question on screen and
    // no second start is possible; Cancel starts nothing; "Run without launching" goes on to the
    // endpoint check, which names the closed port.
    void launchQuestionDoesNotBlock()
    {
        const quint16 closed = Testing::unusedPort();
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.show();
        Experiment e = sweep(4);
        e.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:%1").arg(closed);
        e.server.launchArgv
            = { QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exit 0"), QStringLiteral("{port}") };
        e.server.readyPath = QStringLiteral("/v1/models");
        QVERIFY(openNew(w, e));
        QVERIFY(w.runs()->start());
        QPointer<QMessageBox> box = visibleBox(w, QStringLiteral("launchQuestion"));
        QVERIFY(box);
        QVERIFY(box->informativeText().contains(QStringLiteral("/bin/sh")));
        QVERIFY(!w.runs()->start());
        box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(box.isNull());
        QVERIFY(!w.runs()->isRunning());

        QVERIFY(w.runs()->start());
        box = visibleBox(w, QStringLiteral("launchQuestion"));
        QVERIFY(box);
        QAbstractButton *without = nullptr;
        for (QAbstractButton *b : box->buttons()) {
            if (b->text() == QStringLiteral("Run without launching"))
                without = b;
        }
        QVERIFY(without);
        without->click();
        QMessageBox *check = visibleBox(w, QStringLiteral("runCheckBox"));
        QVERIFY(check);
        QVERIFY2(check->text().contains(QStringLiteral("Nothing is listening at that address and port")),
            qPrintable(check->text()));
        check->button(QMessageBox::Cancel)->click();
        QTest::qWait(100);
        QVERIFY(!w.runs()->isRunning());
    }

    void newClearsTheFindings()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(20);
        QVERIFY(openNew(w, sweep(8)));
        QSignalSpy shown(&w, &MainWindow::resultsShown);
        QVERIFY(runOnce(w).runId > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 20000);
        auto *findings = w.findChild<QListWidget *>(QStringLiteral("findingList"));
        QVERIFY(findings && findings->count() > 0);
        QVERIFY(openNew(w, ProjectController::blankExperiment()));
        QCOMPARE(findings->count(), 0);
        QCOMPARE(w.results()->pointCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(w.projectTree()->runCount(), 0, 10000);
        QCOMPARE(findings->count(), 0);
    }

    void loadInputsRefuseValuesBeyondTheirLimits_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("limit");
        QTest::newRow("prompts") << int(LoadPointsModel::Prompts) << QStringLiteral("9999999999")
                                 << QLocale().toString(qint64(100000000));
        QTest::newRow("concurrency") << int(LoadPointsModel::Concurrency) << QStringLiteral("999999999")
                                     << QLocale().toString(qint64(1048576));
        QTest::newRow("output tokens") << int(LoadPointsModel::OutputLen) << QStringLiteral("2147483648")
                                       << QLocale().toString(qint64(10000000));
        QTest::newRow("negative input") << int(LoadPointsModel::InputLen) << QStringLiteral("-5")
                                        << QLocale().toString(qint64(10000000));
    }
    void loadInputsRefuseValuesBeyondTheirLimits()
    {
        QFETCH(int, column);
        QFETCH(QString, typed);
        QFETCH(QString, limit);
        ExperimentDocument document;
        document.reset(ProjectController::blankExperiment());
        LoadTab page(&document);
        LoadPointsModel *model = page.pointsModel();
        const Experiment before = document.experiment();
        QSignalSpy refused(model, &LoadPointsModel::valueRefused);
        // Typed in the table: a plain text editor, so nothing is cut to fit before the model sees it.
        QTableView *view = page.pointsView();
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const QModelIndex cell = model->index(0, column);
        view->setCurrentIndex(cell);
        view->edit(cell);
        QLineEdit *editor = nullptr;
        QTRY_VERIFY((editor = view->findChild<QLineEdit *>()) != nullptr && editor->isVisible());
        editor->selectAll();
        QTest::keyClicks(editor, typed);
        QCOMPARE(editor->text(), typed);
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(refused.size(), 1);
        const QString message = refused.at(0).at(2).toString();
        QVERIFY2(message.contains(limit) && message.contains(typed), qPrintable(message));
        QVERIFY(!message.contains(QStringLiteral("705032699")));
        // Nothing applied, nothing on the undo stack.
        QCOMPARE(document.experiment().load.points[0].numPrompts, before.load.points[0].numPrompts);
        QCOMPARE(document.experiment().load.points[0].concurrency, before.load.points[0].concurrency);
        QCOMPARE(document.experiment().load.points[0].inputLen, before.load.points[0].inputLen);
        QCOMPARE(document.experiment().load.points[0].outputLen, before.load.points[0].outputLen);
        QVERIFY(!document.isModified());
        auto *note = page.findChild<QLabel *>(QStringLiteral("pointRefusal"));
        QVERIFY(note && note->isVisible() && note->text().contains(limit));
        // A value inside the limit is applied, and the note goes.
        QVERIFY(model->setData(model->index(0, LoadPointsModel::Prompts), QStringLiteral("40"), Qt::EditRole));
        QCOMPARE(document.experiment().load.points[0].numPrompts, 40);
        QVERIFY(!note->isVisible());
    }

    void underSampledWarningDoesNotOverflow()
    {
        Experiment e = ProjectController::blankExperiment();
        e.load.points[0].concurrency = 999999999;
        e.load.points[0].numPrompts = 50;
        QStringList reasons;
        for (const Problem &p : validate(e))
            reasons << p.translatedString();
        const QString all = reasons.join(u'\n');
        QVERIFY2(!all.contains(QStringLiteral("705032699")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("4999999995")), qPrintable(all));
    }

    void cancelledPointReadsCompletedOfPlanned()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(2);
        QVERIFY(openNew(w, sweep(400)));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QSignalSpy shown(&w, &MainWindow::resultsShown);
        QVERIFY(w.runs()->start());
        QTRY_VERIFY_WITH_TIMEOUT(w.runMonitor()->lastSnapshot().completed >= 5, 60000);
        w.runs()->cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 20000);
        const PointTableModel *t = w.results()->pointModel();
        int partial = 0;
        for (int r = 0; r < t->rowCount(); ++r) {
            const QModelIndex requests = t->index(r, PointTableModel::kRequestsColumn);
            if (!requests.data().toString().contains(u'/'))
                continue;
            ++partial;
            const QStringList parts = requests.data().toString().split(u'/');
            QCOMPARE(parts[1], QStringLiteral("400")); // the planned count, not what was sent
            QVERIFY(parts[0].toInt() >= 5 && parts[0].toInt() < 400);
            const QString tip = requests.data(Qt::ToolTipRole).toString();
            QVERIFY2(tip.contains(QStringLiteral("400 planned")), qPrintable(tip));
        }
        QCOMPARE(partial, 1);
    }

    // A cancel that lands between two requests leaves none cancelled in flight: the point still
    // reads what it completed of its plan, and only the cancelled run's last point does.
    void pointCutShortBetweenRequestsReadsCompletedOfPlanned()
    {
        Report::ReportRun run;
        run.status = QStringLiteral("cancelled");
        for (int point = 0; point < 2; ++point) {
            PointSummary p;
            p.variant = QStringLiteral("baseline");
            p.point = point;
            p.label = QStringLiteral("c%1").arg(point + 1);
            p.repeat = 1;
            p.completed = point == 0 ? 300 : 7; // the first stopped at its time limit, the second by the cancel
            run.plannedPrompts.insert(Report::plannedKey(p.variant, p.point), 400);
            run.points << p;
        }
        Report::ReportInput input;
        input.runs << run;
        PointTableModel model;
        model.setInput(input, false);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, PointTableModel::kRequestsColumn).data().toString(), QStringLiteral("300"));
        QCOMPARE(model.index(1, PointTableModel::kRequestsColumn).data().toString(), QStringLiteral("7/400"));
        const auto tip
            = [&model] { return model.index(1, PointTableModel::kRequestsColumn).data(Qt::ToolTipRole).toString(); };
        QVERIFY2(tip().contains(QStringLiteral("between two requests; 7 of the 400 planned")), qPrintable(tip()));
        // One request cancelled in flight reads as one, not "1 were".
        run.points[1].cancelled = 1;
        input.runs = { run };
        model.setInput(input, false);
        QVERIFY2(tip().endsWith(QStringLiteral("7 of the 400 planned requests completed, 1 cancelled in flight.")),
            qPrintable(tip()));
        run.points[1].cancelled = 0;
        run.status = QStringLiteral("finished");
        input.runs = { run };
        model.setInput(input, false);
        QCOMPARE(model.index(1, PointTableModel::kRequestsColumn).data().toString(), QStringLiteral("7"));
    }

    void chartsAreCopiedAndExportedLegibly()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(20);
        w.resize(1280, 720);
        QVERIFY(openNew(w, sweep(8)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy shown(&w, &MainWindow::resultsShown);
        QVERIFY(runOnce(w).runId > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && w.results()->hasResults(), 20000);
        // The chart on a 1280x720 window is far smaller than a legible export.
        QVERIFY(w.results()->chartViewSize().height() < 700);
        QTemporaryDir dir;
        QString error;
        for (int preset : { 0, 1 }) {
            QSettings().setValue(QStringLiteral("export/chartPreset"), preset);
            w.resultsExport()->copyChart();
            const QImage copied = QApplication::clipboard()->image();
            QVERIFY2(copied.width() >= 1200 && copied.height() >= 700,
                qPrintable(QStringLiteral("%1x%2").arg(copied.width()).arg(copied.height())));
            const QString png = dir.filePath(QStringLiteral("chart%1.png").arg(preset));
            QVERIFY2(w.resultsExport()->exportChart(png, &error), qPrintable(error));
            const QImage exported(png);
            QVERIFY(exported.width() >= 1200 && exported.height() >= 700);
        }
        QSettings().setValue(QStringLiteral("export/chartPreset"), 2);
        w.resultsExport()->copyChart();
        QCOMPARE(QApplication::clipboard()->image().size(), QSize(1600, 900));
        // A custom size is used as typed, even below the minimum, for copy and export alike.
        w.resultsExport()->setCustomChartSize(QSize(800, 500));
        w.resultsExport()->copyChart();
        QCOMPARE(QApplication::clipboard()->image().size(), QSize(800, 500));
        // Said on the page, not only in the status bar.
        auto *notice = w.findChild<QLabel *>(QStringLiteral("resultsNotice"));
        QVERIFY(notice && notice->isVisible());
        QVERIFY2(notice->text().contains(QStringLiteral("800 × 500")), qPrintable(notice->text()));
        const QString small = dir.filePath(QStringLiteral("small.png"));
        QVERIFY(w.resultsExport()->exportChart(small, &error));
        QCOMPARE(QImage(small).size(), QSize(800, 500));
        auto *custom = w.findChild<QAction *>(QStringLiteral("customChartSize"));
        QVERIFY(custom && custom->isChecked() && custom->text().contains(QStringLiteral("800")));
    }

    void frameFitsInsideTheScreen_data()
    {
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QMargins>("frame");
        QTest::addColumn<QRect>("client");
        QTest::newRow("1024x640") << QRect(0, 0, 1024, 640) << QMargins(4, 30, 4, 4) << QRect(4, 30, 1016, 606);
        QTest::newRow("1280x720 with a panel")
            << QRect(0, 32, 1280, 688) << QMargins(1, 28, 1, 1) << QRect(1, 60, 1278, 659);
        QTest::newRow("1920x1080") << QRect(0, 0, 1920, 1080) << QMargins(4, 30, 4, 4) << QRect(0, 0, 1280, 860);
    }
    void frameFitsInsideTheScreen()
    {
        QFETCH(QRect, available);
        QFETCH(QMargins, frame);
        QFETCH(QRect, client);
        const QRect fitted = fitClientInside(available, frame, QSize(1280, 860));
        QCOMPARE(fitted.size(), client.size());
        QVERIFY(available.contains(fitted.marginsAdded(frame)));
    }

    void firstStartFitsTheScreen()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect available = w.screen()->availableGeometry();
        // The laptop screen of main() with real frames, not the platform's default.
        const QStringList wh = qEnvironmentVariable("SERVESCOPE_TEST_SCREEN", QStringLiteral("1024x640")).split(u'x');
        const qreal scale = w.screen()->devicePixelRatio(); // QT_SCALE_FACTOR: 1.25 in one of the runs
        QCOMPARE(available.size(), QSize(qRound(wh.value(0).toInt() / scale), qRound(wh.value(1).toInt() / scale)));
        QVERIFY(w.frameGeometry().height() > w.geometry().height());
        QTRY_VERIFY2(available.contains(w.frameGeometry()),
            qPrintable(QStringLiteral("frame %1x%2 at %3,%4")
                           .arg(w.frameGeometry().width())
                           .arg(w.frameGeometry().height())
                           .arg(w.frameGeometry().x())
                           .arg(w.frameGeometry().y())));
        // No splitter lets a pane collapse to nothing.
        for (QSplitter *split : w.findChildren<QSplitter *>())
            QVERIFY2(!split->childrenCollapsible(), qPrintable(split->objectName()));
        // The profiles dialog fits the screen, its form scrolling, its Close button inside.
        ProfileDialog *profiles = w.design()->showProfiles();
        QVERIFY(QTest::qWaitForWindowExposed(profiles));
        QVERIFY2(profiles->minimumSizeHint().height() <= available.height() - 80,
            qPrintable(QString::number(profiles->minimumSizeHint().height())));
        QVERIFY(profiles->minimumSizeHint().width() <= 1000);
        QVERIFY(available.contains(profiles->frameGeometry()));
        profiles->close();
        // The Start page has no project to list: the project panel is beside the project's pages only.
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("projectDock"));
        QVERIFY(dock && !dock->isVisible());
        QVERIFY(openNew(w, sweep(2)));
        QCOMPARE(w.currentPage(), int(WindowPages::Design));
        QVERIFY(dock->isVisible());
        // Closed with its close button it stays closed on that page; View → Reset layout brings it back.
        dock->close();
        w.showTab(WindowPages::Results);
        w.showTab(WindowPages::Design);
        QVERIFY(!dock->isVisible());
        w.findChild<QAction *>(QStringLiteral("resetLayoutAction"))->trigger();
        QVERIFY(dock->isVisible());
        QVERIFY(dock->width() > 100);
    }

    // Every page, with a comparison of two variants on the Results page and the plan on the Run page,
    // fits the screen beside the project panel at its narrowest: no page is wider than what is left.
    void pagesFitTheScreen()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(20);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        Experiment e = sweep(8);
        Variant v;
        v.name = QStringLiteral("max_num_seqs 8 with a longer name");
        v.changes.set(QStringLiteral("server.args.max_num_seqs"), 8);
        e.variants.append(v);
        QVERIFY(openNew(w, e));
        QSignalSpy shown(&w, &MainWindow::resultsShown);
        QVERIFY(runOnce(w).runId > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 20000);
        QVERIFY(w.results()->headlinePanel()->isVisibleTo(w.results()));
        const int available = w.screen()->availableGeometry().width();
        const int frame = w.frameGeometry().width() - w.geometry().width();
        const int availableHeight = w.screen()->availableGeometry().height();
        const int frameHeight = w.frameGeometry().height() - w.geometry().height();
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("projectDock"));
        auto *stack = w.findChild<QStackedWidget *>(QStringLiteral("pageStack"));
        for (int page : { int(WindowPages::Design), int(WindowPages::Run), int(WindowPages::Results) }) {
            w.showTab(page);
            QCoreApplication::processEvents();
            // The stack takes the page shown's minimum (the others' policies are Ignored).
            const int needed = stack->minimumSizeHint().width()
                + (dock->isVisible() ? dock->minimumSizeHint().width() : 0) + frame + 8;
            qInfo("page %d needs %d px of %d (page %d, panel %d)", page, needed, available,
                stack->currentWidget()->minimumSizeHint().width(), dock->minimumSizeHint().width());
            QVERIFY2(needed <= available, qPrintable(QStringLiteral("page %1 needs %2 px").arg(page).arg(needed)));
            QVERIFY(stack->currentWidget()->width() >= stack->currentWidget()->minimumSizeHint().width());
            // And in height, with the menu, page bar, status bar and frame (the log dock under Run).
            const int neededHeight = w.minimumSizeHint().height() + frameHeight;
            qInfo("page %d needs %d px of %d in height (page %d)", page, neededHeight, availableHeight,
                stack->currentWidget()->minimumSizeHint().height());
            QVERIFY2(neededHeight <= availableHeight,
                qPrintable(QStringLiteral("page %1 needs %2 px in height").arg(page).arg(neededHeight)));
        }
    }

    // The window and the CLI run into one project at once: both keep every request, and the window
    // lists the CLI's run as it appears, without reopening the file.
    void windowBesideTheCli()
    {
        const QString cliPath = qEnvironmentVariable("SERVESCOPE_CLI");
        QVERIFY2(!cliPath.isEmpty(), "SERVESCOPE_CLI is not set");
        QTemporaryDir dir;
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(20);
        QVERIFY(openNew(w, sweep(150)));
        const QString path = dir.filePath(QStringLiteral("both.servescope"));
        QVERIFY(saveAs(w, path));
        const QString exp = dir.filePath(QStringLiteral("both.json"));
        QVERIFY(w.imports()->exportExperimentFile(exp));
        QSignalSpy listed(&w, &MainWindow::runsListed);
        QProcess cli;
        cli.setProcessChannelMode(QProcess::MergedChannels);
        cli.start(cliPath,
            { QStringLiteral("run"), exp, QStringLiteral("--project"), path, QStringLiteral("--sim-time-scale"),
                QStringLiteral("20") });
        QVERIFY(cli.waitForStarted(10000));
        const RunResult mine = runOnce(w);
        QCOMPARE(mine.status, RunResult::Status::Finished);
        QVERIFY(QTest::qWaitFor([&] { return cli.state() == QProcess::NotRunning; }, 120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAll().constData());
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty() && listed.last().at(0).toInt() == 2, 10000);
        // Every measured request of both runs is in the file, and both runs read finished.
        const QString name = QStringLiteral("both-count");
        QString seen;
        {
            // In the window's process, so opened as the window's own connections are (fileinuse.h).
            const FileInUse inUse(path);
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(path);
            db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
            QVERIFY(db.open());
            const auto finished = [&] {
                QSqlQuery q(db);
                QStringList rows;
                if (!q.exec(QStringLiteral("SELECT runs.id, runs.status, count(requests.id) FROM runs LEFT JOIN "
                                           "requests ON requests.run_id = runs.id AND requests.warmup = 0 GROUP BY "
                                           "runs.id")))
                    rows << q.lastError().text();
                bool all = true;
                while (q.next()) {
                    rows << QStringLiteral("run %1%2: %3, %4 requests")
                                .arg(q.value(0).toLongLong())
                                .arg(q.value(0).toLongLong() == mine.runId ? QStringLiteral(" (the window's)")
                                                                           : QString())
                                .arg(q.value(1).toString())
                                .arg(q.value(2).toInt());
                    all = all && q.value(1).toString() == QLatin1String("finished") && q.value(2).toInt() == 2 * 150;
                }
                seen = rows.join(QStringLiteral("; "));
                return all && rows.size() == 2;
            };
            QVERIFY2(QTest::qWaitFor(finished, 20000), qPrintable(seen));
        }
        QSqlDatabase::removeDatabase(name);
    }

    // Full-window pages: Start until a project is open, then Design; Ctrl+1..4 switch; a run shows
    // the Run page and its results the Results page; a project comes back on the page it was left on.
    void pagesSwitchAndAreRemembered()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("pages.servescope"));
        MemorySecretStore secrets;
        {
            MainWindow w(&secrets);
            w.project()->setTimeScale(20);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.currentPage(), int(WindowPages::Start));
            auto *stack = w.findChild<QStackedWidget *>(QStringLiteral("pageStack"));
            QVERIFY(stack && stack->currentWidget()->objectName() == QLatin1String("welcomePage"));
            QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier); // no project: Run is not there yet
            QCOMPARE(w.currentPage(), int(WindowPages::Start));
            QVERIFY(openNew(w, sweep(4)));
            QCOMPARE(w.currentPage(), int(WindowPages::Design));
            // The Run page reads the designed experiment without a trip to Design.
            auto *plan = w.findChild<QLabel *>(QStringLiteral("runPlan"));
            QVERIFY(plan);
            const Experiment &designed = w.document()->experiment();
            QVERIFY2(plan->text().contains(designed.name.toHtmlEscaped()), qPrintable(plan->text()));
            QVERIFY2(plan->text().contains(designed.pointLabel(0)), qPrintable(plan->text()));
            QVERIFY2(plan->text().contains(
                         QLocale().toString(estimateDuration(designed, w.project()->timeScale()).requests)),
                qPrintable(plan->text()));
            QCOMPARE(stack->currentWidget()->findChild<ExperimentEditor *>(), w.editor());
            for (int page : { 3, 1, 4, 2 }) {
                QTest::keyClick(&w, Qt::Key(Qt::Key_0 + page), Qt::ControlModifier);
                QCOMPARE(w.currentPage(), page - 1);
            }
            // The page takes the whole window: nothing else shares the central area.
            QCOMPARE(w.centralWidget(), stack);
            QSignalSpy finished(&w, &MainWindow::runFinished);
            QSignalSpy shown(&w, &MainWindow::resultsShown);
            QVERIFY(w.runs()->start());
            QCOMPARE(w.currentPage(), int(WindowPages::Run));
            QCOMPARE(stack->currentWidget(), w.runMonitor());
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
            QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 20000);
            QCOMPARE(w.currentPage(), int(WindowPages::Results));
            QCOMPARE(stack->currentWidget(), w.results());
            QVERIFY(saveAs(w, path));
            w.showTab(WindowPages::Results);
            // The log belongs to the Run page; shown on Results by the user, it stays shown there only.
            auto *log = w.findChild<QDockWidget *>(QStringLiteral("logDock"));
            QVERIFY(log && !log->isVisible());
            w.showTab(WindowPages::Run);
            QVERIFY(log->isVisible());
            w.showTab(WindowPages::Results);
            log->toggleViewAction()->trigger();
            QVERIFY(log->isVisible());
            w.showTab(WindowPages::Design);
            QVERIFY(!log->isVisible());
            w.showTab(WindowPages::Results);
            QVERIFY(log->isVisible());
            w.showTab(WindowPages::Run);
            log->close(); // its own close button, on the Run page
            w.showTab(WindowPages::Results);
            w.showTab(WindowPages::Run);
            QVERIFY(!log->isVisible());
            // Reset layout forgets the choices: the log on the Run page only.
            w.findChild<QAction *>(QStringLiteral("resetLayoutAction"))->trigger();
            QVERIFY(log->isVisible());
            w.showTab(WindowPages::Results);
            QVERIFY(!log->isVisible());
            // Hidden and shown again, the project panel keeps its place.
            auto *panel = w.findChild<QDockWidget *>(QStringLiteral("projectDock"));
            panel->toggleViewAction()->trigger();
            QVERIFY(!panel->isVisible());
            panel->toggleViewAction()->trigger();
            QVERIFY(panel->isVisible());
        }
        MainWindow again(&secrets);
        QSignalSpy opened(&again, &MainWindow::projectOpened);
        again.project()->openProject(path);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QCOMPARE(again.currentPage(), int(WindowPages::Results));
    }

    // Two runs compared: the delta table names each metric with its unit, one precision per metric,
    // no "-0.0", and filters by metric family and by verdict; Copy takes the rows shown.
    void deltaTableReadsAtAGlance()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(20);
        QVERIFY(openNew(w, sweep(12)));
        const qint64 a = runOnce(w).runId, b = runOnce(w).runId;
        QVERIFY(a > 0 && b > 0);
        QTRY_COMPARE_WITH_TIMEOUT(w.projectTree()->runCount(), 2, 10000);
        // Each run in the project panel says which model it measured.
        const QList<QTreeWidgetItem *> runItem
            = w.projectTree()->findItems(QStringLiteral("#%1 ").arg(a), Qt::MatchStartsWith | Qt::MatchRecursive);
        QCOMPARE(runItem.size(), 1);
        QVERIFY2(runItem[0]->text(0).contains(QStringLiteral(" · ") + w.document()->experiment().endpoint.model + u' '),
            qPrintable(runItem[0]->text(0)));
        QSignalSpy shown(&w, &MainWindow::resultsShown);
        w.compareRuns({ b, a }); // selected newest first: still lettered by age, A the earlier run
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && w.results()->input().runs.size() == 2, 20000);
        QCOMPARE(w.results()->input().runs.at(0).id, a);
        QCOMPARE(w.results()->input().runs.at(1).id, b);
        QTableView *view = w.results()->deltaTable();
        const QAbstractItemModel *filtered = view->model(); // what the table shows, filtered
        const QAbstractItemModel *all = qobject_cast<const QSortFilterProxyModel *>(filtered)->sourceModel();
        const auto cell = [](const QAbstractItemModel *m, int r, int c) { return m->index(r, c).data().toString(); };
        QCOMPARE(all->rowCount(), 2 * 20); // 2 points x every headline metric
        // The decided rows first and alone by default, the rest folded into a count; all with the switch off.
        auto *decidedOnly = w.results()->findChild<QCheckBox *>(QStringLiteral("decidedOnly"));
        QVERIFY(decidedOnly && decidedOnly->isChecked());
        int decidedRows = 0;
        for (int r = 0; r < all->rowCount(); ++r)
            decidedRows += cell(all, r, 8) == QLatin1String("better") || cell(all, r, 8) == QLatin1String("worse");
        QCOMPARE(filtered->rowCount(), decidedRows);
        decidedOnly->setChecked(false);
        QCOMPARE(filtered->rowCount(), all->rowCount());
        const QRegularExpression oneDecimal(QStringLiteral("^\\d+\\.\\d$"));
        const QRegularExpression signedChange(QStringLiteral("^([+\u2212]\\d+\\.\\d+|0\\.0+)$"));
        QStringList metrics;
        for (int r = 0; r < all->rowCount(); ++r) {
            const QString metric = cell(all, r, 3);
            metrics << metric;
            QVERIFY2(!metric.contains(u'_'), qPrintable(metric)); // no raw keys
            for (int c = 4; c < 8; ++c)
                QVERIFY2(!cell(all, r, c).startsWith(QStringLiteral("-0")), qPrintable(cell(all, r, c)));
            QVERIFY2(signedChange.match(cell(all, r, 6)).hasMatch(), qPrintable(cell(all, r, 6)));
            if (metric.endsWith(QStringLiteral("(ms)"))) {
                QVERIFY2(oneDecimal.match(cell(all, r, 4)).hasMatch(), qPrintable(cell(all, r, 4)));
                QVERIFY2(oneDecimal.match(cell(all, r, 5)).hasMatch(), qPrintable(cell(all, r, 5)));
            }
        }
        for (int r = 0; r < all->rowCount(); ++r) {
            if (cell(all, r, 3) == QLatin1String("Output throughput (tok/s)")) // one run each: the noise floor decides
                QVERIFY2(cell(all, r, 8).startsWith(QStringLiteral("within noise"))
                        || cell(all, r, 8) == QLatin1String("better") || cell(all, r, 8) == QLatin1String("worse"),
                    qPrintable(cell(all, r, 8)));
        }
        for (const char *name : { "TTFT p50 (ms)", "TPOT p90 (ms)", "E2EL p99 (ms)", "Output throughput (tok/s)",
                 "Request throughput (req/s)", "Success rate (%)" })
            QVERIFY2(metrics.contains(QLatin1String(name)), name);
        const auto visible = [filtered, cell] {
            QStringList rows;
            for (int r = 0; r < filtered->rowCount(); ++r)
                rows << cell(filtered, r, 3);
            return rows;
        };
        // Beside the chart, the headline panel: B against A at each point, seven headline metrics, with
        // the verdicts of the delta table (core's), word for word.
        HeadlinePanel *panel = w.results()->headlinePanel();
        const HeadlineModel *headline = panel->headline();
        const auto headlineCell = [headline](int r, int c, int role = Qt::DisplayRole) {
            return headline->index(r, c).data(role).toString();
        };
        QVERIFY(panel->isVisibleTo(w.results()));
        QCOMPARE(headline->rowCount(), 2 * (1 + 7)); // a heading row per point, then its seven metrics
        QMap<QString, QString> deltaVerdicts; // "point|metric" -> verdict, from the delta table
        for (int r = 0; r < all->rowCount(); ++r)
            deltaVerdicts.insert(cell(all, r, 2) + u'|' + cell(all, r, 3), cell(all, r, 8));
        QStringList panelMetrics, headings;
        for (int r = 0; r < headline->rowCount(); ++r) {
            const QString side = headlineCell(r, 0, HeadlineModel::SideRole);
            QVERIFY2(side.startsWith(QStringLiteral("B #%1 · baseline · ").arg(b)), qPrintable(side));
            if (headline->isHeading(r)) {
                QCOMPARE(panel->columnSpan(r, 0), HeadlineModel::ColumnCount);
                QCOMPARE(headlineCell(r, 0), side);
                headings << side;
                continue;
            }
            QCOMPARE(panel->columnSpan(r, 0), 1);
            const QString point = side.section(QStringLiteral(" · "), -1);
            const QString metric = headlineCell(r, HeadlineModel::MetricColumn);
            panelMetrics << metric;
            QCOMPARE(headlineCell(r, HeadlineModel::VerdictColumn), deltaVerdicts.value(point + u'|' + metric));
            const QString change = headlineCell(r, HeadlineModel::ChangeColumn);
            // Relative where the baseline allows it (×N from twice the baseline on), else the change in the
            // metric's unit (a rate that was 0).
            QVERIFY2((change.endsWith(u'%') || change.startsWith(QStringLiteral("×"))
                         || signedChange.match(change).hasMatch())
                    && !change.startsWith(QStringLiteral("-0")),
                qPrintable(change));
        }
        // Copy reads the model: a header line, then each row as shown.
        QApplication::clipboard()->clear();
        panel->setFocus();
        panel->actions().constFirst()->trigger();
        const QStringList copiedHeadline = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(copiedHeadline.size(), 1 + headline->rowCount());
        QCOMPARE(copiedHeadline.value(0), QStringLiteral("Metric\tChange\tVerdict"));
        QCOMPARE(copiedHeadline.value(2),
            QStringList({ headlineCell(1, 0), headlineCell(1, 1), headlineCell(1, 2) }).join(u'\t'));
        QCOMPARE(headings.size(), 2);
        // The report exported from this window says the same: each headline row's change and verdict,
        // in the panel's order.
        QTemporaryDir out;
        const QString reportPath = out.filePath(QStringLiteral("compare.html"));
        QString exportError;
        QVERIFY2(w.resultsExport()->exportReport(reportPath, &exportError), qPrintable(exportError));
        QFile reportFile(reportPath);
        QVERIFY(reportFile.open(QIODevice::ReadOnly));
        const QString report = QString::fromUtf8(reportFile.readAll());
        qsizetype at = report.indexOf(QStringLiteral("Changes: B #%1 against A #%2").arg(b).arg(a));
        QVERIFY(at > 0);
        for (int r = 0; r < headline->rowCount(); ++r) {
            if (headline->isHeading(r))
                continue;
            const QString cell = QStringLiteral("<span class=\"change\">%1</span><br><span class=\"verdict\">%2</span>")
                                     .arg(headlineCell(r, HeadlineModel::ChangeColumn).toHtmlEscaped(),
                                         headlineCell(r, HeadlineModel::VerdictColumn).toHtmlEscaped());
            const qsizetype next = report.indexOf(cell, at + 1);
            QVERIFY2(next > at, qPrintable(cell));
            at = next;
        }
        // File → Export report, before any export: in the saved project's folder, named for the runs
        // shown (an unsaved project's temporary folder is not offered).
        QTemporaryDir saved;
        QVERIFY(saveAs(w, saved.filePath(QStringLiteral("sweep.servescope"))));
        QSettings().remove(QStringLiteral("export/dir"));
        QAction *exportReport = nullptr;
        for (QAction *action : w.findChildren<QAction *>()) {
            if (action->text() == QStringLiteral("Export &report…"))
                exportReport = action;
        }
        QVERIFY(exportReport);
        exportReport->trigger();
        QFileDialog *saveDialog = nullptr;
        QTRY_VERIFY((saveDialog = w.findChild<QFileDialog *>()) != nullptr && saveDialog->isVisible());
        QCOMPARE(QDir(saveDialog->directory()).canonicalPath(), QDir(saved.path()).canonicalPath());
        QCOMPARE(QFileInfo(saveDialog->selectedFiles().value(0)).fileName(),
            QStringLiteral("sweep-run%1-vs-run%2-report.html").arg(a).arg(b));
        static_cast<QDialog *>(saveDialog)->reject();
        QCOMPARE(panelMetrics.mid(0, 7),
            (QStringList { QStringLiteral("Output throughput (tok/s)"), QStringLiteral("TTFT p50 (ms)"),
                QStringLiteral("TTFT p90 (ms)"), QStringLiteral("TPOT p50 (ms)"), QStringLiteral("TPOT p90 (ms)"),
                QStringLiteral("E2EL p90 (ms)"), QStringLiteral("Success rate (%)") }));
        auto *family = w.findChild<QComboBox *>(QStringLiteral("deltaFamily"));
        auto *decided = w.findChild<QCheckBox *>(QStringLiteral("decidedOnly"));
        QVERIFY(family && decided);
        family->setCurrentIndex(family->findText(QStringLiteral("TTFT")));
        QCOMPARE(visible().size(), 2 * 4); // mean, p50, p90, p99 at two points
        for (const QString &m : visible())
            QVERIFY(m.startsWith(QStringLiteral("TTFT ")));
        // "Decided only" keeps exactly the TTFT rows core called better or worse. With one repeat each,
        // throughput stays undecided; a latency can still be decided from its requests' intervals.
        QStringList decidedTtft;
        for (int r = 0; r < filtered->rowCount(); ++r) {
            const QString verdict = cell(filtered, r, 8);
            if (verdict == QLatin1String("better") || verdict == QLatin1String("worse"))
                decidedTtft << cell(filtered, r, 3);
        }
        decided->setChecked(true);
        QCOMPARE(visible(), decidedTtft);
        decided->setChecked(false);
        QVERIFY(!view->actions().isEmpty() && view->actions().first()->shortcut() == QKeySequence(QKeySequence::Copy));
        view->actions().first()->trigger();
        const QStringList copied = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(copied.size(), 1 + 2 * 4);
        family->setCurrentIndex(0);
        QCOMPARE(visible().size(), 2 * 20);
    }

    // Before a run against a server it does not start, the window makes Test connection's check: a
    // refused connection is said in words with Run anyway / Cancel, and nothing runs until the answer.
    void runChecksTheEndpointFirst()
    {
        const quint16 port = Testing::unusedPort(); // nothing listens there
        Experiment e = sweep(2);
        e.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:%1").arg(port);
        e.endpoint.model = QStringLiteral("m");
        e.load.warmupRequests = 0;
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QVERIFY(openNew(w, e));
        w.show();
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.runs()->start());
        QVERIFY(!w.runAction()->isEnabled()); // checking
        QMessageBox *box = visibleBox(w, QStringLiteral("runCheckBox"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(diagnosisText(Diagnosis::ConnectionRefused)), qPrintable(box->text()));
        QCOMPARE(w.currentPage(), int(WindowPages::Design)); // no run page before the answer
        box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(w.findChild<QMessageBox *>(QStringLiteral("runCheckBox")) == nullptr);
        QTest::qWait(300);
        QCOMPARE(finished.size(), 0);
        QVERIFY(w.runAction()->isEnabled());
        // Run anyway: the run goes ahead and ends with its failed requests.
        QVERIFY(w.runs()->start());
        box = visibleBox(w, QStringLiteral("runCheckBox"));
        QVERIFY(box);
        box->findChild<QPushButton *>(QStringLiteral("runAnyway"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        const RunResult result = finished.at(0).at(0).value<RunResult>();
        QCOMPARE(result.completed, 0);
        // Nothing completed: the Run page stays, its first error class said prominently.
        QVERIFY(!result.errorsByClass.isEmpty());
        QTest::qWait(500); // the stored run is loaded meanwhile; it does not take the window over
        QCOMPARE(w.currentPage(), int(WindowPages::Run));
        auto *first = w.runMonitor()->findChild<QLabel *>(QStringLiteral("firstError"));
        QVERIFY(first && first->isVisibleTo(w.runMonitor()));
        const QString cls = result.errorsByClass.firstKey();
        QVERIFY2(first->text().contains(cls) && first->text().contains(QString::number(result.errorsByClass.first())),
            qPrintable(first->text()));
    }

    // vLLM's default request_rate inf without max_concurrency sends every prompt at once: the chart
    // places it on the concurrency axis at its number of prompts, labelled burst, instead of dropping it.
    void burstPointIsPlacedAtItsPrompts()
    {
        PointSummary p;
        p.mode = QStringLiteral("rate");
        p.requestRate = std::numeric_limits<double>::infinity();
        p.concurrency = 0;
        p.completed = 880;
        p.failed = 20;
        p.inputLen = 1000;
        p.outputLen = 500;
        p.outputThroughput = 4321;
        p.successRate = 880.0 / 900;
        Report::RunSeriesInput run;
        run.name = QStringLiteral("imported");
        run.points = { p };
        const Report::ChartSpec spec = Report::throughputVsLoad({ run }, Report::ThroughputKind::OutputTokens);
        QVERIFY2(spec.notes.join(u' ').indexOf(QStringLiteral("not shown")) < 0, qPrintable(spec.notes.join(u' ')));
        QVERIFY(spec.x.title.startsWith(QStringLiteral("Concurrency")));
        bool placed = false;
        for (const Report::SeriesSpec &s : spec.series) {
            for (int i = 0; i < s.points.size(); ++i) {
                if (s.points[i] != QPointF(900, 4321))
                    continue;
                placed = true;
                QVERIFY2(s.tooltips.value(i).contains(QStringLiteral("burst: all 900 requests at once")),
                    qPrintable(s.tooltips.value(i)));
            }
        }
        QVERIFY(placed);
    }

    // The estimate the editor shows before the demo runs is within 25% of how long the demo takes.
    // Runs the whole demo (about 40 s): only in the `slow` ctest entry tst_windowsafety_demo.
    void demoEstimateKeepsItsPromise()
    {
        if (qEnvironmentVariableIntValue("SERVESCOPE_DEMO_TIMING") != 1)
            QSKIP("the demo's timing runs in tst_windowsafety_demo");
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.openDemo();
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        const double estimate = estimateDuration(w.document()->experiment(), w.project()->timeScale()).seconds;
        QElapsedTimer clock;
        clock.start();
        const RunResult result = runOnce(w);
        const double real = clock.elapsed() / 1000.0;
        qInfo("demo at %gx: estimate %.1f s, real %.1f s (%+.0f%%)", w.project()->timeScale(), estimate, real,
            (estimate - real) / real * 100);
        QCOMPARE(result.status, RunResult::Status::Finished);
        QVERIFY2(std::abs(estimate - real) <= 0.25 * real,
            qPrintable(QStringLiteral("estimate %1 s, real %2 s").arg(estimate).arg(real)));
    }

    void welcomeDemoRunsAtTheDemoSpeed()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QCOMPARE(w.project()->timeScale(), 1.0);
        QVERIFY(openNew(w, ProjectController::blankExperiment()));
        QCOMPARE(w.project()->timeScale(), 1.0);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.openDemo();
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QCOMPARE(w.project()->timeScale(), ProjectController::kDemoTimeScale);
        QCOMPARE(ProjectController::kDemoTimeScale, 8.0); // what `servescope --demo` runs at
        QVERIFY(openNew(w, ProjectController::blankExperiment()));
        QCOMPARE(w.project()->timeScale(), 1.0);
        // A chosen scale wins over the demo's.
        w.project()->setTimeScale(3);
        w.openDemo();
        QCOMPARE(w.project()->timeScale(), 3.0);
    }
};

// The offscreen screen is a laptop's: SERVESCOPE_TEST_SCREEN (1024x640 unless set), with window
// frames, so "the frame inside the screen" means something.
int main(int argc, char **argv)
{
    const QString screen = qEnvironmentVariable("SERVESCOPE_TEST_SCREEN", QStringLiteral("1024x640"));
    const QStringList wh = screen.split(u'x');
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screen.json"));
    if (qEnvironmentVariable("QT_QPA_PLATFORM") == QLatin1String("offscreen") && wh.size() == 2) {
        QFile f(config);
        if (f.open(QIODevice::WriteOnly))
            f.write(QStringLiteral("{\"windowFrameMargins\": true, \"screens\": [{\"name\": \"laptop\", \"x\": 0, "
                                   "\"y\": 0, \"width\": %1, \"height\": %2, \"logicalDpi\": 96, \"dpr\": 1}]}")
                        .arg(wh[0], wh[1])
                        .toUtf8());
        f.close();
        qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toUtf8());
    }
    QApplication app(argc, argv);
    QTEST_DISABLE_KEYPAD_NAVIGATION
    TestWindowSafety test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_windowsafety.moc"
