// SPDX-License-Identifier: MIT
// Builds an experiment through the real forms and checks every edit is one undo step.
#include "commanddialog.h"
#include "designpagecontroller.h"
#include "engine/fdlimit.h"
#include "experimentdocument.h"
#include "experimenteditor.h"
#include "guitesthelpers.h"
#include "importflow.h"
#include "io/experimentfile.h"
#include "loadpointsmodel.h"
#include "loadtab.h"
#include "mainwindow.h"
#include "projectcontroller.h"
#include "runpagecontroller.h"
#include "secrets/memorysecretstore.h"
#include "servertab.h"
#include "simchild.h"
#include "tracepreview.h"
#include "variantstab.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

using namespace ServeScope;

class TestExperimentEditor final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*"))); }
    void initTestCase()
    {
        TestHelpers::initGuiTest();
        QSettings().clear();
    }
    void buildThroughForms();
    void undoRedoEveryEdit();
    void validationShowsNextToField();
    void absurdPlanSaidBeforeRun();
    void endpointTabTestsTheConnection();
    void gradientPreset_data();
    void gradientPreset();
    void launchRendering_data();
    void launchRendering();
    void envJson_data();
    void envJson();
    void pastedCommandIsOneEdit();
    void pointCopiesAsCommand();
    void wheelScrollsPastFields();
    void capacitySearchThroughForm();
    void traceDatasetWithPreview();
    void earlyStopThroughForm();
};

// Scrolling the editor over a combo or spin box leaves it alone unless it has focus.
void TestExperimentEditor::wheelScrollsPastFields()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto *seed = w.findChild<QSpinBox *>(QStringLiteral("seedSpin"));
    QVERIFY(seed);
    const int before = seed->value();
    const auto wheel = [](QWidget *target) {
        const QPointF at(target->width() / 2.0, target->height() / 2.0);
        QWheelEvent e(at, target->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(target, &e);
    };
    seed->clearFocus();
    wheel(seed);
    QCOMPARE(seed->value(), before);
    QCOMPARE(w.document()->experiment().dataset.seed, before);
    QCOMPARE(w.document()->undoStack()->count(), 0);
    seed->setFocus();
    QTRY_VERIFY(seed->hasFocus());
    wheel(seed);
    QCOMPARE(seed->value(), before - 1); // focused: the wheel steps it, one undoable edit
    QCOMPARE(w.document()->undoStack()->count(), 1);
}

void TestExperimentEditor::buildThroughForms()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QAbstractItemModelTester tester(w.editor()->loadTab()->pointsModel());

    auto *name = w.findChild<QLineEdit *>(QStringLiteral("experimentName"));
    QVERIFY(name);
    name->selectAll();
    QTest::keyClicks(name, QStringLiteral("seqs sweep"));
    QCOMPARE(w.document()->experiment().name, QStringLiteral("seqs sweep"));

    auto *model = w.findChild<QLineEdit *>(QStringLiteral("model"));
    model->clear();
    QTest::keyClicks(model, QStringLiteral("Qwen2-7B"));
    QCOMPARE(w.document()->experiment().endpoint.model, QStringLiteral("Qwen2-7B"));

    auto *seed = w.findChild<QSpinBox *>(QStringLiteral("seedSpin"));
    seed->setValue(4242);
    QCOMPARE(w.document()->experiment().dataset.seed, 4242);

    auto *add = w.findChild<QPushButton *>(QStringLiteral("addPointButton"));
    QTest::mouseClick(add, Qt::LeftButton);
    QCOMPARE(w.document()->experiment().load.points.size(), 2);
    QCOMPARE(w.document()->experiment().load.points.at(1).concurrency, 2);

    LoadPointsModel *points = w.editor()->loadTab()->pointsModel();
    QVERIFY(points->setData(points->index(1, LoadPointsModel::Concurrency), 16, Qt::EditRole));
    QVERIFY(points->setData(points->index(1, LoadPointsModel::Prompts), 160, Qt::EditRole));
    QCOMPARE(w.document()->experiment().load.points.at(1).concurrency, 16);
    QCOMPARE(w.document()->experiment().load.points.at(1).numPrompts, 160);

    auto *addVariant = w.findChild<QPushButton *>(QStringLiteral("addVariantButton"));
    QTest::mouseClick(addVariant, Qt::LeftButton);
    QCOMPARE(w.document()->experiment().variants.size(), 2);
    Experiment e = w.document()->experiment();
    e.variants[1].changes.set(QStringLiteral("server.args.max_num_seqs"), 64);
    w.document()->apply(e, QStringLiteral("change"));
    QVERIFY(!hasErrors(w.document()->problems()));
}

// The load mode's third choice turns the points into a capacity search set up from the first point;
// its bounds are typed in the grid, its problems show once, and going back keeps a runnable point.
void TestExperimentEditor::capacitySearchThroughForm()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    w.show();
    QUndoStack *undo = w.document()->undoStack();
    const LoadPoint first = w.document()->experiment().load.points.value(0);
    auto *mode = w.findChild<QComboBox *>(QStringLiteral("loadModeCombo"));
    QVERIFY(mode);
    auto *form = w.findChild<QWidget *>(QStringLiteral("capacityForm"));
    QWidget *page = w.editor()->loadTab();
    QVERIFY(form && !form->isVisibleTo(page));
    mode->setCurrentIndex(mode->findData(QStringLiteral("capacity")));
    emit mode->activated(mode->currentIndex()); // as a user's pick
    const Experiment searching = w.document()->experiment();
    QVERIFY(searching.load.capacity);
    QVERIFY(searching.load.points.isEmpty());
    QCOMPARE(searching.load.capacity->point.inputLen, first.inputLen);
    QCOMPARE(searching.load.capacity->slos.size(), 2);
    QCOMPARE(searching.load.capacity->slos[0].key(), QStringLiteral("p90_ttft_ms"));
    QVERIFY(form->isVisibleTo(page));
    QVERIFY(!w.editor()->loadTab()->pointsView()->isVisibleTo(page));
    QVERIFY(!w.findChild<QSpinBox *>(QStringLiteral("repeatSpin"))->isEnabled());
    QVERIFY(!hasErrors(w.document()->problems()));

    // An ITL bound at p99: the percentile box wakes once the latency has a bound.
    auto *itl = w.findChild<QDoubleSpinBox *>(QStringLiteral("sloBound_itl"));
    auto *itlPercentile = w.findChild<QDoubleSpinBox *>(QStringLiteral("sloPercentile_itl"));
    QVERIFY(itl && itlPercentile && !itlPercentile->isEnabled());
    itl->setValue(40);
    QVERIFY(itlPercentile->isEnabled());
    itlPercentile->setValue(99);
    const CapacitySearch &c = *w.document()->experiment().load.capacity;
    QCOMPARE(c.slos.size(), 3);
    QCOMPARE(c.slos[2].key(), QStringLiteral("p99_itl_ms"));
    QCOMPARE(c.slos[2].maxMs, 40.0);
    const int steps = undo->index();

    // No bound at all: one problem, shown once under the grid.
    for (const char *metric : { "sloBound_ttft", "sloBound_tpot", "sloBound_itl" })
        w.findChild<QDoubleSpinBox *>(QLatin1String(metric))->setValue(0);
    QVERIFY(w.document()->experiment().load.capacity->slos.isEmpty());
    QCOMPARE(w.document()->problems().size(), 1);
    QCOMPARE(w.document()->problems().first().path, QStringLiteral("load.capacity.slo"));
    int shown = 0;
    for (const QLabel *label : form->findChildren<QLabel *>())
        shown += label->isVisibleTo(form) && label->text().contains(QLatin1String("needs at least one SLO"));
    QCOMPARE(shown, 1);
    while (undo->index() > steps)
        undo->undo();
    QCOMPARE(w.document()->experiment().load.capacity->slos.size(), 3);

    // Back to a closed loop: the search's first level becomes the one point.
    mode->setCurrentIndex(mode->findData(QStringLiteral("concurrency")));
    emit mode->activated(mode->currentIndex());
    const Experiment back = w.document()->experiment();
    QVERIFY(!back.load.capacity);
    QCOMPARE(back.load.points.size(), 1);
    QCOMPARE(back.load.points[0].concurrency, 1);
    QCOMPARE(back.load.points[0].inputLen, first.inputLen);
    QVERIFY(!hasErrors(w.document()->problems()));
    undo->undo();
    QVERIFY(w.document()->experiment().load.capacity);
    QCOMPARE(w.document()->experiment().load.capacity->slos.size(), 3);
}

void TestExperimentEditor::undoRedoEveryEdit()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    QUndoStack *undo = w.document()->undoStack();
    const Experiment start = w.document()->experiment();

    auto *name = w.findChild<QLineEdit *>(QStringLiteral("experimentName"));
    name->selectAll();
    QTest::keyClicks(name, QStringLiteral("abc"));
    QCOMPARE(undo->count(), 1); // typing merges into one step
    w.findChild<QSpinBox *>(QStringLiteral("repeatSpin"))->setValue(3);
    w.editor()->loadTab()->pointsModel()->addPoint();
    QCOMPARE(undo->count(), 3);
    const Experiment edited = w.document()->experiment();
    QCOMPARE(edited.load.repeat, 3);
    // The DCGM exporter URL is a field of the server page, one undo step like the rest.
    auto *dcgm = w.findChild<QLineEdit *>(QStringLiteral("dcgmUrl"));
    QVERIFY(dcgm);
    QTest::keyClicks(dcgm, QStringLiteral("http://gpu:9400/metrics"));
    QCOMPARE(w.document()->experiment().server.dcgmUrl, QStringLiteral("http://gpu:9400/metrics"));
    QCOMPARE(undo->count(), 4);
    // A price typed with its decimals reaches the experiment as typed (the form does not reformat
    // "3." to "3.00" under the cursor); it is one more step.
    auto *price = w.findChild<QDoubleSpinBox *>(QStringLiteral("gpuHourPrice"));
    QVERIFY(price);
    price->setFocus();
    price->selectAll();
    QTest::keyClicks(price, QStringLiteral("3.5"));
    QCOMPARE(w.document()->experiment().server.gpuHourPrice, 3.5);
    auto *gpus = w.findChild<QSpinBox *>(QStringLiteral("gpus"));
    gpus->selectAll();
    QTest::keyClicks(gpus, QStringLiteral("16"));
    QCOMPARE(w.document()->experiment().server.gpus, 16);
    undo->undo();
    undo->undo();
    QCOMPARE(w.document()->experiment().server.gpuHourPrice, 0.0);
    QCOMPARE(price->value(), 0.0);
    QCOMPARE(undo->index(), 4);
    undo->undo();
    QVERIFY(w.document()->experiment().server.dcgmUrl.isEmpty());
    QVERIFY(dcgm->text().isEmpty());

    undo->undo();
    QCOMPARE(w.document()->experiment().load.points.size(), 1);
    undo->undo();
    QCOMPARE(w.document()->experiment().load.repeat, 1);
    QCOMPARE(w.findChild<QSpinBox *>(QStringLiteral("repeatSpin"))->value(), 1); // the form follows
    undo->undo();
    QVERIFY(w.document()->experiment() == start);
    QCOMPARE(name->text(), start.name);
    QVERIFY(!w.document()->isModified());

    undo->redo();
    undo->redo();
    undo->redo();
    QVERIFY(w.document()->experiment() == edited);
    QVERIFY(w.document()->isModified());
}

void TestExperimentEditor::validationShowsNextToField()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    w.show();
    LoadPointsModel *points = w.editor()->loadTab()->pointsModel();
    QVERIFY(points->setData(points->index(0, LoadPointsModel::Concurrency), 0, Qt::EditRole));
    QVERIFY(hasErrors(w.document()->problems()));
    // The offending cell carries the reason; the Run button is off and says why.
    QVERIFY(!points->data(points->index(0, LoadPointsModel::Concurrency), Qt::ToolTipRole).toString().isEmpty());
    auto *run = w.findChild<QPushButton *>(QStringLiteral("runButton"));
    QVERIFY(!run->isEnabled());
    w.document()->undoStack()->undo();
    QVERIFY(points->data(points->index(0, LoadPointsModel::Concurrency), Qt::ToolTipRole).isNull());
}

// A plan no host can carry is said beside the field and in the estimate line before Run: more streams than
// the descriptor hard limit (an error), than the local ports (a warning), and a plan longer than a working day.
void TestExperimentEditor::absurdPlanSaidBeforeRun()
{
    Experiment e = ProjectController::blankExperiment();
    e.load.points = { e.load.points.constFirst() };
    e.load.points[0].concurrency = 30000;
    e.load.points[0].numPrompts = 99999999;
    const QList<Problem> tight = descriptorProblems(e, 20000, 28232);
    QCOMPARE(tight.size(), 1);
    QCOMPARE(tight[0].path, QStringLiteral("load.points[0].concurrency"));
    QVERIFY(tight[0].isError());
    QVERIFY2(tight[0].reason.contains(QStringLiteral("30000 concurrent streams need 35064 file descriptors")),
        qPrintable(tight[0].reason));
    const QList<Problem> ports = descriptorProblems(e, 1 << 20, 28232);
    QCOMPARE(ports.size(), 1);
    QCOMPARE(ports[0].severity, Severity::Warning);
    QVERIFY2(ports[0].reason.contains(QStringLiteral("this host hands out 28232")), qPrintable(ports[0].reason));
    e.load.points[0].concurrency = 1000;
    QVERIFY(descriptorProblems(e, 20000, 28232).isEmpty());

    MemorySecretStore secrets;
    MainWindow w(&secrets);
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    w.project()->newProject(e);
    w.show();
    QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
    // 1,000 streams fit this host; 99,999,999 prompts at them do not fit a day.
    auto *summary = w.findChild<QLabel *>(QStringLiteral("editorSummary"));
    QVERIFY(summary);
    QTRY_VERIFY2(summary->text().contains(QStringLiteral("longer than a working day")), qPrintable(summary->text()));
    auto *run = w.findChild<QPushButton *>(QStringLiteral("runButton"));
    QTRY_VERIFY(run->isEnabled()); // a warning: the user may insist
    // Past the host's own hard limit, the concurrency cell says why and Run waits for a fix.
    LoadPointsModel *points = w.editor()->loadTab()->pointsModel();
    QVERIFY(points->setData(points->index(0, LoadPointsModel::Concurrency), 1048576, Qt::EditRole));
    if (openFileHardLimit() < descriptorsNeeded(1048576)) {
        QVERIFY(hasErrors(w.document()->problems()));
        QVERIFY2(points->data(points->index(0, LoadPointsModel::Concurrency), Qt::ToolTipRole)
                     .toString()
                     .contains(QStringLiteral("open-file hard limit")),
            qPrintable(points->data(points->index(0, LoadPointsModel::Concurrency), Qt::ToolTipRole).toString()));
        QVERIFY(!run->isEnabled());
    }
    w.document()->undoStack()->undo();
    QVERIFY(points->data(points->index(0, LoadPointsModel::Concurrency), Qt::ToolTipRole).isNull());
}

// The Endpoint tab tests the experiment's own endpoint as the profiles dialog does: a model the server
// does not serve is named with the ones it lists.
void TestExperimentEditor::endpointTabTestsTheConnection()
{
    QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
    SimChild sim;
    QVERIFY(sim.start({ QStringLiteral("--model"), QStringLiteral("served-model") }));
    Experiment e = ProjectController::blankExperiment();
    e.endpoint.baseUrl = sim.url().toString();
    e.endpoint.model = QStringLiteral("asked-model");
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    w.project()->newProject(e);
    QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
    auto *test = w.findChild<QPushButton *>(QStringLiteral("endpointTestButton"));
    auto *result = w.findChild<QLabel *>(QStringLiteral("endpointTestResult"));
    QVERIFY(test && result);
    test->click();
    QVERIFY(!test->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(test->isEnabled(), 20000);
    QVERIFY2(result->text().startsWith(QStringLiteral("Connection test failed.")), qPrintable(result->text()));
    QVERIFY2(result->text().contains(QStringLiteral("The server lists: served-model")), qPrintable(result->text()));
}

void TestExperimentEditor::gradientPreset_data()
{
    QTest::addColumn<QList<int>>("levels");
    QTest::newRow("1-4-8-16-32-64") << QList<int> { 1, 4, 8, 16, 32, 64 };
    QTest::newRow("single") << QList<int> { 8 };
}

void TestExperimentEditor::gradientPreset()
{
    QFETCH(QList<int>, levels);
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    w.editor()->loadTab()->pointsModel()->applyGradient(levels);
    const auto &points = w.document()->experiment().load.points;
    QCOMPARE(points.size(), levels.size());
    for (int i = 0; i < levels.size(); ++i) {
        QCOMPARE(points.at(i).concurrency, levels.at(i));
        QVERIFY(points.at(i).numPrompts >= 5 * levels.at(i));
    }
    QVERIFY(w.document()->experiment().load.pointsFromGradient());
}

void TestExperimentEditor::launchRendering_data()
{
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("placeholder") << QStringList {
        QStringLiteral("vllm"), QStringLiteral("--max-num-seqs"), QStringLiteral("{server.args.max_num_seqs}")
    } << QStringList { QStringLiteral("vllm"), QStringLiteral("--max-num-seqs"), QStringLiteral("64") };
    QTest::newRow("unset") << QStringList { QStringLiteral("--x={server.args.missing}") }
                           << QStringList { QStringLiteral("--x=<unset>") };
    // The port and model as the launch dialog and the run give them, not the placeholder's own text.
    QTest::newRow("port and model") << QStringList {
        QStringLiteral("--port"), QStringLiteral("{port}"), QStringLiteral("--served-model-name={endpoint.model}")
    } << QStringList { QStringLiteral("--port"), QStringLiteral("8123"), QStringLiteral("--served-model-name=qwen") };
}

void TestExperimentEditor::launchRendering()
{
    QFETCH(QStringList, argv);
    QFETCH(QStringList, expected);
    Experiment e;
    e.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:8123/v1");
    e.endpoint.model = QStringLiteral("qwen");
    e.server.args.set(QStringLiteral("max_num_seqs"), 64);
    e.server.launchArgv = argv;
    QCOMPARE(ServerTab::renderLaunch(e), expected);
}

void TestExperimentEditor::envJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("firstKey");
    QTest::newRow("object") << QByteArray(R"({"gpu":{"name":"A100","count":8}})") << 2 << QStringLiteral("gpu.count");
    QTest::newRow("pairs") << QByteArray(R"([["cuda","12.1"],["torch","2.3"]])") << 2 << QStringLiteral("cuda");
    QTest::newRow("garbage") << QByteArray("{nope") << 0 << QString();
}

void TestExperimentEditor::envJson()
{
    QFETCH(QByteArray, json);
    QFETCH(int, count);
    QFETCH(QString, firstKey);
    QString error;
    const EnvSnapshot env = ServerTab::parseEnvJson(json, EnvSource::Probe, &error);
    QCOMPARE(env.size(), count);
    if (count > 0) {
        QCOMPARE(env.constFirst().key, firstKey);
        QCOMPARE(env.constFirst().source, EnvSource::Probe);
    } else {
        QVERIFY(!error.isEmpty());
    }
}

// A pasted benchmark command changes the load, dataset and endpoint in one undo step; the server stays.
void TestExperimentEditor::pastedCommandIsOneEdit()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    const Experiment start = w.document()->experiment();
    QFile f(QStringLiteral(SERVESCOPE_TEST_DATA "/seed-configs/vllm_bench_serve.sh"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    w.imports()->pasteCommand(QString::fromUtf8(f.readAll()));
    CommandDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = w.findChild<CommandDialog *>(QStringLiteral("commandDialog"))) != nullptr);
    const QString summary = dialog->findChild<QLabel *>(QStringLiteral("commandSummary"))->text();
    QVERIFY2(summary.contains(QStringLiteral("Benchmark: https://taotoken.net/api, dataset sonnet, 10 prompts")),
        qPrintable(summary));
    QVERIFY(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
    dialog->accept();
    const Experiment after = w.document()->experiment();
    QCOMPARE(after.load.points.size(), 1);
    QCOMPARE(after.load.points[0].inputLen, 256);
    QCOMPARE(after.dataset.name, QStringLiteral("sonnet"));
    QCOMPARE(after.endpoint.apiKeyEnv, QStringLiteral("TAOTOKEN_API_KEY"));
    QCOMPARE(after.server, start.server);
    QCOMPARE(after.name, start.name);
    w.document()->undoStack()->undo();
    QVERIFY(w.document()->experiment() == start);
    QTRY_VERIFY(w.findChild<CommandDialog *>(QStringLiteral("commandDialog")) == nullptr); // closed and gone
    // Text that is no command cannot be applied.
    w.imports()->pasteCommand(QStringLiteral("echo hello"));
    QTRY_VERIFY((dialog = w.findChild<CommandDialog *>(QStringLiteral("commandDialog"))) != nullptr);
    QVERIFY(!dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
    QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("commandSummary"))->text().contains(QStringLiteral("Error:")));
    dialog->reject();
}

// A load point copied as a command reads back as that point.
void TestExperimentEditor::pointCopiesAsCommand()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    Experiment x = ProjectController::blankExperiment();
    x.endpoint.baseUrl = QStringLiteral("http://10.1.2.3:8000");
    x.load.points[0].concurrency = 12;
    x.load.points[0].numPrompts = 96;
    w.project()->newProject(x);
    LoadTab *page = w.editor()->loadTab();
    page->pointsView()->setCurrentIndex(page->pointsModel()->index(0, 0));
    QSignalSpy copied(page, &LoadTab::commandCopied);
    page->pointsView()->findChild<QAction *>(QStringLiteral("copyVllmCommand"))->trigger();
    QCOMPARE(copied.size(), 1);
    const QString text = QGuiApplication::clipboard()->text();
    QVERIFY2(text.startsWith(QStringLiteral("vllm bench serve")), qPrintable(text));
    const CommandImportResult back = importCommand(text, QStringLiteral("copied"));
    QVERIFY2(back.ok, qPrintable(back.errors.join(u'\n')));
    QCOMPARE(back.experiment.load.points.value(0).concurrency, 12);
    QCOMPARE(back.experiment.load.points.value(0).numPrompts, 96);
    QCOMPARE(back.experiment.endpoint.baseUrl, x.endpoint.baseUrl);
}

// The trace dataset: its own settings only, a preview of the file read off the GUI thread, a refusal with the line.
void TestExperimentEditor::traceDatasetWithPreview()
{
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("t.jsonl")), bad = dir.filePath(QStringLiteral("b.csv"));
    {
        QFile f(good);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"timestamp\": 0, \"input_length\": 1024, \"output_length\": 10, \"hash_ids\": [1, 2]}\n"
                "{\"timestamp\": 250, \"input_length\": 1024, \"output_length\": 20, \"hash_ids\": [1, 3]}\n"
                "{\"timestamp\": 500, \"input_length\": 512, \"output_length\": 30, \"hash_ids\": [4]}\n");
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46,5,4\n2023-11-16 18:15:45,5,4\n");
    }
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto *dataset = w.findChild<QComboBox *>(QStringLiteral("datasetCombo"));
    auto *format = w.findChild<QComboBox *>(QStringLiteral("traceFormatCombo"));
    auto *groups = w.findChild<QSpinBox *>(QStringLiteral("prefixGroupsSpin"));
    auto *path = w.findChild<QLineEdit *>(QStringLiteral("datasetPath"));
    auto *preview = w.findChild<TracePreview *>(QStringLiteral("tracePreview"));
    QVERIFY(dataset && format && groups && path && preview);
    QWidget *page = w.editor()->loadTab();
    QVERIFY(!path->isVisibleTo(page)); // random reads no file
    QVERIFY(!format->isVisibleTo(page));
    dataset->setCurrentIndex(dataset->findData(QStringLiteral("trace")));
    emit dataset->activated(dataset->currentIndex());
    QCOMPARE(w.document()->experiment().dataset.name, QStringLiteral("trace"));
    QVERIFY(format->isVisibleTo(page));
    QVERIFY(path->isVisibleTo(page));
    QVERIFY(!groups->isVisibleTo(page)); // shared prefixes only

    QSignalSpy updated(preview, &TracePreview::updated);
    path->setFocus();
    QTest::keyClicks(path, good);
    QTest::keyClick(path, Qt::Key_Return);
    QCOMPARE(w.document()->experiment().dataset.path, good);
    QTRY_VERIFY(preview->summary().startsWith(QStringLiteral("Mooncake trace: 3 requests over 0.5 s (4 req/s)")));
    // Block 1 comes back once: 512 of 2,560 prompt tokens.
    QVERIFY2(preview->summary().contains(QStringLiteral("20.0% of prompt tokens in repeated blocks")),
        qPrintable(preview->summary()));
    QVERIFY(preview->summary().contains(QStringLiteral("output median 20, p90 28 tokens")));

    path->selectAll();
    QTest::keyClicks(path, bad);
    QTest::keyClick(path, Qt::Key_Return);
    QTRY_COMPARE(preview->summary(),
        QStringLiteral("line 3: the timestamp is earlier than line 2's; a trace must be in time order"));
    w.document()->undoStack()->undo(); // edits of one field merge: back to no file
    QCOMPARE(w.document()->experiment().dataset.path, QString());
    QTRY_COMPARE(preview->summary(), QStringLiteral("Name the trace file to see what it holds."));
    dataset->setCurrentIndex(dataset->findData(QStringLiteral("random")));
    emit dataset->activated(dataset->currentIndex());
    QVERIFY(!preview->isVisibleTo(page));
}

// The early stop in percent on the form, a share in the experiment; its minimum only matters once it is on.
void TestExperimentEditor::earlyStopThroughForm()
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto *width = w.findChild<QDoubleSpinBox *>(QStringLiteral("settleWidthSpin"));
    auto *minimum = w.findChild<QSpinBox *>(QStringLiteral("settleMinSpin"));
    QVERIFY(width && minimum);
    QCOMPARE(width->value(), 0.0);
    QCOMPARE(width->text(), QStringLiteral("off (every planned request)"));
    QVERIFY(!minimum->isEnabled());
    width->setValue(5);
    QCOMPARE(w.document()->experiment().load.settle.width, 0.05);
    QVERIFY(minimum->isEnabled());
    minimum->setValue(500);
    QCOMPARE(w.document()->experiment().load.settle.minRequests, 500);
    QVERIFY(
        QString::fromUtf8(writeExperimentJson(w.document()->experiment())).contains(QStringLiteral("\"width\": 0.05")));
    w.document()->undoStack()->undo();
    w.document()->undoStack()->undo();
    QCOMPARE(w.document()->experiment().load.settle, SettleRule {});
    QVERIFY(!minimum->isEnabled());
}

QTEST_MAIN(TestExperimentEditor)
#include "tst_experimenteditor.moc"
