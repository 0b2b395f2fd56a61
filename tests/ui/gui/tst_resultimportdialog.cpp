// SPDX-License-Identifier: MIT
// File → Import results and dropped result files: the dialog lists each file's outcome and the
// imported runs reach the project tree.
#include "guitesthelpers.h"
#include "importflow.h"
#include "mainwindow.h"
#include "origintext.h"
#include "projecttree.h"
#include "resultimportdialog.h"
#include "resultsview.h"
#include "secrets/memorysecretstore.h"
#include "storage/projectstore.h"

#include <QApplication>
#include <QColor>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUrl>

using namespace ServeScope;

namespace {

const QString kReal = QStringLiteral(SERVESCOPE_TEST_DATA "/real/");
const QString kLambda = kReal + QStringLiteral("vllm_LambdaLabsML_vllm-benchmark_llama3-8b-1xh100-len2048.json");
const QString kNerd = kReal + QStringLiteral("vllm_nerdalert_vllm-bench-automation_results.jsonl");
const QString kSglang = kReal + QStringLiteral("sglang_TonyLi15_sglang-benchmark_agg-n50-in128-out64-c8.jsonl");

int treeRuns(QWidget *window)
{
    auto *tree = window->findChild<QTreeWidget *>(QStringLiteral("projectTree"));
    if (!tree || tree->topLevelItemCount() == 0)
        return -1;
    QTreeWidgetItem *exp = tree->topLevelItem(0);
    return exp->childCount() > 0 ? exp->child(exp->childCount() - 1)->childCount() : -1;
}

} // namespace

class TestResultImportDialog final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &text)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return path;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*"))); }
    void initTestCase()
    {
        TestHelpers::initGuiTest();
        QVERIFY(m_dir.isValid());
    }

    void tellsResultFilesFromExperiments_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("result");
        QTest::newRow("vllm object") << kLambda << true;
        QTest::newRow("json lines") << kNerd << true;
        QTest::newRow("experiment") << write(QStringLiteral("exp.json"),
            R"({"name": "x", "endpoint": {"base_url": "sim:"}, "load": {"points": [{"concurrency": 1}]}})")
                                    << false;
        QTest::newRow("missing") << m_dir.filePath(QStringLiteral("none.json")) << false;
    }
    void tellsResultFilesFromExperiments()
    {
        QFETCH(QString, path);
        QFETCH(bool, result);
        QCOMPARE(ResultImportDialog::isResultFile(path), result);
    }

    void listsEachFilesOutcome()
    {
        const QString broken = write(QStringLiteral("broken.jsonl"), "{\"completed\": 1, \"duration\": 1}\nnot json\n");
        ResultImportDialog dialog(m_dir.filePath(QStringLiteral("d.servescope")), { kLambda, kNerd, broken });
        QSignalSpy done(&dialog, &ResultImportDialog::imported);
        dialog.show();
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 30000);
        auto *tree = dialog.findChild<QTreeWidget *>(QStringLiteral("importOutcomes"));
        QVERIFY(tree);
        QCOMPARE(tree->topLevelItemCount(), 3);
        // The outcomes keep at least three fifths of the width, however long the file names.
        QVERIFY2(tree->columnWidth(1) >= tree->viewport()->width() * 3 / 5 - 2,
            qPrintable(QStringLiteral("%1 of %2").arg(tree->columnWidth(1)).arg(tree->viewport()->width())));
        QCOMPARE(tree->topLevelItem(0)->text(1), QStringLiteral("1 run(s) created"));
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(1), QStringLiteral("1 point(s), requests stored"));
        QCOMPARE(tree->topLevelItem(1)->text(1), QStringLiteral("3 run(s) created"));
        QCOMPARE(tree->topLevelItem(1)->child(0)->text(1), QStringLiteral("3 point(s), statistics only"));
        const QStringList tip = tree->topLevelItem(1)->child(0)->toolTip(0).split(u'\n');
        QCOMPARE(tip.size(), 2);
        QVERIFY2(tip[0].startsWith(QStringLiteral("Imported from /")), qPrintable(tip[0]));
        QVERIFY2(tip[0].contains(QFileInfo(kNerd).fileName() + QStringLiteral(" (vllm)")), qPrintable(tip[0]));
        QVERIFY2(tip[0].endsWith(QStringLiteral("), line(s) 1, 2, 3")), qPrintable(tip[0]));
        QCOMPARE(tip[1],
            QStringLiteral("The file has no per-request arrays for its 3 point(s): only the statistics it gives are "
                           "stored (no requests, so no bands, scatter or recomputed percentiles)."));
        QCOMPARE(tree->topLevelItem(0)->child(0)->toolTip(0).count(u'\n'), 0); // arrays: nothing lacking
        QCOMPARE(tree->topLevelItem(2)->text(1), QStringLiteral("1 run(s) created, 1 error(s)"));
        QTreeWidgetItem *error = tree->topLevelItem(2)->child(1);
        QCOMPARE(error->text(0), QStringLiteral("Error"));
        QCOMPARE(error->text(1), QStringLiteral("line 2: not valid JSON"));
    }

    // A file whose requests all failed is a failed run, said in red, not a tick over latencies of 0.
    void allFailedFileImportsAsFailed()
    {
        const QString path = write(QStringLiteral("all-failed.jsonl"),
            "{\"backend\": \"vllm\", \"completed\": 0, \"failed\": 20, \"num_prompts\": 20, \"duration\": 5, "
            "\"request_rate\": \"inf\", \"mean_ttft_ms\": 0.0, \"median_ttft_ms\": 0.0}\n");
        const QString project = m_dir.filePath(QStringLiteral("failed.servescope"));
        ResultImportDialog dialog(project, { path, kLambda });
        QSignalSpy done(&dialog, &ResultImportDialog::imported);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 30000);
        auto *tree = dialog.findChild<QTreeWidget *>(QStringLiteral("importOutcomes"));
        QVERIFY(tree);
        QTreeWidgetItem *run = tree->topLevelItem(0)->child(0);
        QCOMPARE(run->text(1), QStringLiteral("every request failed: imported as a failed run"));
        QCOMPARE(run->foreground(1).color(), QColor(176, 0, 32));
        QCOMPARE(tree->topLevelItem(1)->child(0)->text(1), QStringLiteral("1 point(s), requests stored"));
        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<RunListing> runs;
        QVERIFY(store.listRuns(&runs));
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].run.status, RunStatus::Failed);
        QCOMPARE(runs[1].run.status, RunStatus::Finished);
    }

    // The same file imported again asks: open the runs it made before, or import it again.
    void importingTheSameFileAgainAsks()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy listed(&w, &MainWindow::runsListed);
        w.imports()->importResults({ kNerd });
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty() && listed.last().at(0).toInt() == 3, 30000);
        w.imports()->importResults({ kNerd });
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = w.findChild<QMessageBox *>(QStringLiteral("reimportBox"))) != nullptr && box->isVisible());
        QVERIFY2(box->text().contains(QFileInfo(kNerd).fileName()), qPrintable(box->text()));
        QSignalSpy shown(&w, &MainWindow::resultsShown);
        box->findChild<QPushButton *>(QStringLiteral("openExisting"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 20000);
        QCOMPARE(w.results()->input().runs.size(), 3); // the runs it made, compared
        QCOMPARE(w.projectTree()->runCount(), 3); // and none made again
        w.imports()->importResults({ kNerd });
        QTRY_VERIFY((box = w.findChild<QMessageBox *>(QStringLiteral("reimportBox"))) != nullptr && box->isVisible());
        const qsizetype before = listed.size();
        box->findChild<QPushButton *>(QStringLiteral("importAgain"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(listed.size() > before && listed.last().at(0).toInt() == 6, 30000);
    }

    // Some of a file's points without arrays say how many; a run imported before the count was
    // stored shows the sentence it stored.
    void wordsWhatAnImportLacked()
    {
        RunOrigin o;
        o.format = QStringLiteral("vllm");
        o.file = QStringLiteral("/x/r.jsonl");
        o.lines = { 1, 2, 3, 4 };
        o.pointsWithoutArrays = 1;
        QCOMPARE(importedFromText(o),
            QStringLiteral("Imported from /x/r.jsonl (vllm), line(s) 1, 2, 3, 4\nThe file has no per-request arrays "
                           "for 1 of its 4 point(s): only the statistics it gives are stored for those (no requests, "
                           "so no bands, scatter or recomputed percentiles)."));
        o.pointsWithoutArrays = -1;
        o.note = QStringLiteral("stored sentence");
        QCOMPARE(importedFromText(o),
            QStringLiteral("Imported from /x/r.jsonl (vllm), line(s) 1, 2, 3, 4\nstored sentence"));
        o.lines = { 0 };
        o.arrays = true;
        QCOMPARE(importedFromText(o), QStringLiteral("Imported from /x/r.jsonl (vllm)"));
        o.format = QStringLiteral("guidellm");
        o.file = QStringLiteral("/x/benchmarks.json");
        o.toolVersion = QStringLiteral("0.8.0.dev18, report v2");
        QCOMPARE(
            importedFromText(o), QStringLiteral("Imported from /x/benchmarks.json (guidellm 0.8.0.dev18, report v2)"));
        QCOMPARE(importedFromText(RunOrigin()), QString());
    }

    // As `import --verify`: a file with arrays is checked against them, and one altered digit shows.
    void checksEachLineAgainstItsArrays()
    {
        QFile lambda(kLambda);
        QVERIFY(lambda.open(QIODevice::ReadOnly));
        QByteArray altered = lambda.readAll();
        const qsizetype at = altered.indexOf("\"mean_ttft_ms\":");
        QVERIFY(at > 0);
        const qsizetype digit = altered.indexOf('.', at) + 2; // the second decimal of its value
        altered[digit] = altered[digit] == '9' ? '0' : char(altered[digit] + 1);
        const QString path = write(QStringLiteral("altered.json"), altered);
        ResultImportDialog dialog(m_dir.filePath(QStringLiteral("v.servescope")), { kLambda, path, kSglang });
        QSignalSpy done(&dialog, &ResultImportDialog::imported);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 30000);
        auto *tree = dialog.findChild<QTreeWidget *>(QStringLiteral("importOutcomes"));
        QVERIFY(tree);
        QTreeWidgetItem *clean = tree->topLevelItem(0)->child(1);
        QCOMPARE(clean->text(0), QStringLiteral("Line 1"));
        QVERIFY2(clean->text(1).contains(QLatin1String(", 0 mismatched,")), qPrintable(clean->text(1)));
        QVERIFY(!clean->text(1).contains(QLatin1String("Checked: 0 statistic")));
        QVERIFY(
            tree->topLevelItem(1)->text(1).endsWith(QLatin1String("; 1 statistic(s) do not match the file's arrays")));
        QTreeWidgetItem *checked = tree->topLevelItem(1)->child(1);
        QVERIFY2(checked->text(1).contains(QLatin1String(", 1 mismatched,")), qPrintable(checked->text(1)));
        QCOMPARE(checked->child(0)->text(0), QStringLiteral("mean_ttft_ms"));
        QVERIFY(checked->child(0)->text(1).startsWith(QLatin1String("file ")));
        QCOMPARE(tree->topLevelItem(2)->child(2)->text(1),
            QStringLiteral("Not checked: no per-request arrays to recompute from"));
    }

    void droppedFilesReachTheTree()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.show();
        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(kSglang), QUrl::fromLocalFile(kNerd) });
        // A drop follows the drag that entered the window (Qt delivers it to that target only).
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        // No project was open: one is created, then the import runs and the tree lists the runs.
        QTRY_VERIFY_WITH_TIMEOUT(w.findChild<ResultImportDialog *>(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(treeRuns(&w), 4, 30000);
        w.findChild<ResultImportDialog *>()->close();
    }
};

QTEST_MAIN(TestResultImportDialog)
#include "tst_resultimportdialog.moc"
