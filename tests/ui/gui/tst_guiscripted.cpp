// SPDX-License-Identifier: MIT
// Project files the window must refuse or warn about, and the scripted `servescope --run
// --quit-after-run` ending with an exit code that says how the run went.
#include "designpagecontroller.h"
#include "experimentdocument.h"
#include "freeport.h"
#include "guitesthelpers.h"
#include "mainwindow.h"
#include "model/validation.h"
#include "projectcontroller.h"
#include "projectsession.h"
#include "run/runtypes.h"
#include "runpagecontroller.h"
#include "secrets/memorysecretstore.h"
#include "storage/storewriter.h"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace ServeScope;

class TestGuiScripted final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    struct Outcome {
        int exitCode = -1;
        QByteArray err;
        QByteArray out;
    };

    Outcome gui(const QStringList &args, const QString &language = QString())
    {
        QProcess p;
        // The window's settings (recent projects, profiles) go to a folder of the test, not the user's.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        if (!language.isEmpty())
            env.insert(QStringLiteral("SERVESCOPE_LANG"), language);
        p.setProcessEnvironment(env);
        p.start(qEnvironmentVariable("SERVESCOPE_GUI"), args);
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardError(),
            p.readAllStandardOutput() };
    }

    static int cli(const QStringList &args)
    {
        QProcess p;
        p.start(qEnvironmentVariable("SERVESCOPE_CLI"), args);
        p.waitForFinished(120000);
        return p.exitCode();
    }

    QString experiment(const QString &name, const QString &baseUrl)
    {
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(
            QStringLiteral("{\"name\": \"%1\", \"endpoint\": {\"base_url\": \"%2\", \"path\": \"/v1/completions\","
                           " \"model\": \"m\"}, \"load\": {\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 2,"
                           " \"input_len\": 16, \"output_len\": 4, \"num_prompts\": 4}]}}\n")
                .arg(name, baseUrl)
                .toUtf8());
        return path;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*"))); }
    void initTestCase()
    {
        TestHelpers::initGuiTest();
        QVERIFY2(QFile::exists(qEnvironmentVariable("SERVESCOPE_GUI")), "SERVESCOPE_GUI is not set");
        QVERIFY(m_dir.isValid());
    }

    // The file is refused at once and the process ends with 2, whatever it was asked to run.
    void refusedFileEndsAScriptedRun_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero bytes") << QByteArray() << QStringLiteral("is empty");
        QTest::newRow("foreign") << QByteArray("name,value\nx,1\n") << QStringLiteral("not a ServeScope project");
    }
    void refusedFileEndsAScriptedRun()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        const QString path = m_dir.filePath(
            QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-') + QStringLiteral(".servescope"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        const Outcome o = gui({ path, QStringLiteral("--run"), QStringLiteral("--quit-after-run") });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(message.toUtf8()), o.err.constData());
        QFile again(path);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), content); // left as it was
    }

    // An experiment file that does not read ends a scripted run at once with 2 and the reason (it sat on
    // "Import failed; see the log" for ever).
    void malformedExperimentEndsAScriptedRun_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("duplicate key") << QByteArray(R"({"name": "a", "name": "b"})")
                                       << QStringLiteral("duplicate key");
        QString deep;
        for (int i = 0; i < 200; ++i)
            deep += QStringLiteral("{\"a\":");
        QTest::newRow("too deep") << deep.toUtf8() << QStringLiteral("nesting deeper than");
        QTest::newRow("over 8 MiB") << QByteArray(9 * 1024 * 1024, ' ') << QStringLiteral("larger than");
    }
    void malformedExperimentEndsAScriptedRun()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        const QString path = m_dir.filePath(
            QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-') + QStringLiteral(".json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        const Outcome o = gui({ path, QStringLiteral("--run"), QStringLiteral("--quit-after-run") });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains("cannot import"), o.err.constData());
        QVERIFY2(o.err.contains(message.toUtf8()), o.err.constData());
    }

    // --help is written in the language the window would use: --lang first, then SERVESCOPE_LANG.
    void helpFollowsTheLanguage()
    {
        const QByteArray english("Open the demo experiment in a new unsaved project.");
        const QByteArray chinese = QStringLiteral("在新的未保存项目中打开演示实验。").toUtf8();
        const Outcome en = gui({ QStringLiteral("--help") }, QStringLiteral("en"));
        QCOMPARE(en.exitCode, 0);
        QVERIFY2(en.out.contains(english), en.out.constData());
        const Outcome zh = gui({ QStringLiteral("--help") }, QStringLiteral("zh_CN"));
        QCOMPARE(zh.exitCode, 0);
        QVERIFY2(zh.out.contains(chinese), zh.out.constData());
        QVERIFY(!zh.out.contains(english));
        QVERIFY(zh.out.contains("--demo")); // option names stay as typed
        const Outcome flag = gui({ QStringLiteral("--lang=zh_CN"), QStringLiteral("--help") }, QStringLiteral("en"));
        QCOMPARE(flag.out, zh.out);
        const Outcome spaced = gui(
            { QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("en") }, QStringLiteral("zh_CN"));
        QCOMPARE(spaced.out, en.out);
    }

    // Every request of the run fails (nothing listens on port 1): the run ends failed, exit 1.
    void failedRunExitsNonZero()
    {
        const QString project = m_dir.filePath(QStringLiteral("unreachable.servescope"));
        QCOMPARE(cli({ QStringLiteral("run"),
                     experiment(QStringLiteral("unreachable"), QStringLiteral("http://127.0.0.1:1")),
                     QStringLiteral("--project"), project }),
            1);
        const Outcome o = gui({ project, QStringLiteral("--run"), QStringLiteral("--quit-after-run") });
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains("the run did not finish"), o.err.constData());
    }

    static Experiment launchedExperiment(int port)
    {
        Experiment e = ProjectController::blankExperiment();
        e.name = QStringLiteral("launched");
        e.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:%1").arg(port);
        e.endpoint.path = QStringLiteral("/v1/completions");
        e.endpoint.model = QStringLiteral("m");
        e.server.args.set(QStringLiteral("max_num_seqs"), 4);
        e.server.launchArgv = { qEnvironmentVariable("SERVESCOPE_CLI"), QStringLiteral("sim"), QStringLiteral("--port"),
            QStringLiteral("{port}"), QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--max-num-seqs"),
            QStringLiteral("{server.args.max_num_seqs}"), QStringLiteral("--time-scale"), QStringLiteral("20") };
        e.server.readyPath = QStringLiteral("/health");
        e.load.points.clear();
        LoadPoint p;
        p.concurrency = 2;
        p.inputLen = 16;
        p.outputLen = 4;
        p.numPrompts = 6;
        e.load.points << p;
        e.load.warmupRequests = 0;
        return e;
    }

    // The window asks before it starts a server, showing the exact command; approved, the server runs
    // for the run, and its output is kept and shown in the Server log tab (filterable).
    void launchIsAskedForAndItsLogShown()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        const int port = Testing::unusedPort();
        w.project()->newProject(launchedExperiment(port));
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QVERIFY2(!hasErrors(w.document()->problems()), qPrintable(w.document()->problems().value(0).toString()));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.runs()->start()); // returns with the question open (no nested event loop)
        QMessageBox *box = nullptr;
        QTRY_VERIFY(
            (box = w.findChild<QMessageBox *>(QStringLiteral("launchQuestion"))) != nullptr && box->isVisible());
        const QString asked = box->informativeText();
        QVERIFY2(
            asked.contains(QStringLiteral("sim --port %1 --model m --max-num-seqs 4").arg(port)), qPrintable(asked));
        for (QAbstractButton *b : box->buttons()) {
            if (b->text() == QLatin1String("Launch and run"))
                b->click();
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        const RunResult r = finished.at(0).at(0).value<RunResult>();
        QCOMPARE(r.status, RunResult::Status::Finished);
        QCOMPARE(r.completed, 6);

        // Shown once the run is loaded: the launch line and the simulator's own output.
        auto *log = w.findChild<QPlainTextEdit *>(QStringLiteral("serverLog"));
        QVERIFY(log);
        QTRY_VERIFY_WITH_TIMEOUT(log->toPlainText().contains(QStringLiteral("launch")), 20000);
        QVERIFY2(log->toPlainText().contains(QStringLiteral("listening")), qPrintable(log->toPlainText()));
        auto *filter = w.findChild<QLineEdit *>(QStringLiteral("serverLogFilter"));
        filter->setText(QStringLiteral("pid "));
        const QStringList kept = log->toPlainText().split(u'\n');
        QCOMPARE(kept.size(), 1);
        QVERIFY(kept.first().contains(QStringLiteral("launch")));

        // Approved once: the same commands start again without a question.
        QSignalSpy again(&w, &MainWindow::runFinished);
        bool questioned = false;
        QTimer::singleShot(200, &w, [&questioned] { questioned = QApplication::activeModalWidget() != nullptr; });
        QVERIFY(w.runs()->start());
        QTRY_COMPARE_WITH_TIMEOUT(again.size(), 1, 120000);
        QVERIFY(!questioned);
    }

    // A run whose every request fails says, in the window's log, each failure class with its count and
    // the first message.
    void failuresExplainThemselvesInTheLog()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        Experiment e = launchedExperiment(1); // port 1: nothing listens there
        e.server.launchArgv.clear();
        e.server.readyPath.clear();
        w.project()->newProject(e);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.runs()->start());
        // The check before the run finds nothing listening and asks; the run goes ahead anyway.
        QMessageBox *check = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((check = w.findChild<QMessageBox *>(QStringLiteral("runCheckBox"))) != nullptr, 20000);
        check->findChild<QPushButton *>(QStringLiteral("runAnyway"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        const RunResult r = finished.at(0).at(0).value<RunResult>();
        QVERIFY(!r.errorsByClass.isEmpty());
        const QString log = w.log()->toPlainText();
        const QString cls = r.errorsByClass.firstKey();
        QVERIFY2(log.contains(QStringLiteral("%1 × %2, the first said: %3")
                                  .arg(r.errorsByClass.first())
                                  .arg(cls, r.firstErrorByClass.value(cls))),
            qPrintable(log));
        QVERIFY2(!r.firstErrorByClass.value(cls).isEmpty(), qPrintable(log));
    }

    // A damaged page past the header opens (the header is fine), then the background check finds
    // it and the window says so.
    void damagedPageIsReported()
    {
        const QString path = m_dir.filePath(QStringLiteral("damaged.servescope"));
        {
            StoreWriter writer;
            QString error;
            QVERIFY2(writer.open(path, &error), qPrintable(error));
            RunRow row;
            row.name = QStringLiteral("r");
            row.variants = { QStringLiteral("baseline") };
            const qint64 id = writer.createRun(row, &error);
            for (int i = 0; i < 3000; ++i) {
                RequestRecord r;
                r.runId = id;
                r.variant = QStringLiteral("baseline");
                r.index = i;
                r.startNs = 1000 + i;
                r.endNs = 2000 + i;
                r.generatedText = QByteArray(40, 'x');
                writer.enqueue(r);
            }
            QVERIFY(writer.flush(30000));
            writer.close();
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 size = f.size();
        QVERIFY(size > 200 * 1024);
        f.seek(size / 2);
        f.write(QByteArray(32 * 1024, char(0xa5)));
        f.close();

        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        QSignalSpy checking(w.project(), &ProjectController::checking);
        w.project()->openProject(path);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (box = w.findChild<QMessageBox *>(QStringLiteral("projectWarning"))) != nullptr, 20000);
        QVERIFY(box->isVisible());
        QVERIFY2(box->text().contains(QStringLiteral("corrupt")), qPrintable(box->text()));
        QCOMPARE(box->windowTitle(), QStringLiteral("The project file is damaged"));
        // The status bar said the check was reading the file until it answered, then stopped saying so.
        QStringList said;
        for (const QList<QVariant> &args : std::as_const(checking))
            said << args.at(0).toString();
        QCOMPARE(said, QStringList({ QStringLiteral("Checking damaged.servescope…"), QString() }));
        const auto *label = w.findChild<QLabel *>(QStringLiteral("checkingLabel"));
        QVERIFY(label);
        QVERIFY(label->isHidden());
    }

    // Trying to open a file that cannot be opened stops the open project's check; unless it had answered, it
    // starts again, so the project still open is not left unchecked (and is not read twice).
    void failedOpenLeavesTheProjectChecked()
    {
        const QString path = m_dir.filePath(QStringLiteral("kept.servescope"));
        {
            StoreWriter writer;
            QString error;
            QVERIFY2(writer.open(path, &error), qPrintable(error));
            writer.close();
        }
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        QSignalSpy checking(w.project(), &ProjectController::checking);
        QSignalSpy checked(w.session(), &ProjectSession::integrityChecked);
        QSignalSpy failed(w.project(), &ProjectController::openFailed);
        // The other file is tried as soon as the check has started, while it reads.
        const QString missing = m_dir.filePath(QStringLiteral("missing.servescope"));
        connect(
            w.project(), &ProjectController::checking, &w,
            [&w, missing](const QString &text) {
                if (!text.isEmpty() && w.session()->path() != missing)
                    w.project()->openProject(missing);
            },
            Qt::QueuedConnection);
        w.project()->openProject(path);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 1, 10000);
        QCOMPARE(checked.last().at(0).toString(), path);
        QCOMPARE(checked.last().at(1).toString(), QString()); // no damage
        QTest::qWait(300);
        QCOMPARE(checked.size(), 1); // answered once
        QStringList said;
        for (const QList<QVariant> &args : std::as_const(checking))
            said << args.at(0).toString();
        QVERIFY2(said.size() >= 2 && said.first() == QStringLiteral("Checking kept.servescope…")
                && said.last().isEmpty() && said.count(QString()) == 1,
            qPrintable(said.join(QLatin1Char('|'))));
        QVERIFY(w.findChild<QLabel *>(QStringLiteral("checkingLabel"))->isHidden());
        QCOMPARE(w.session()->path(), path);
    }
};

QTEST_MAIN(TestGuiScripted)
#include "tst_guiscripted.moc"
