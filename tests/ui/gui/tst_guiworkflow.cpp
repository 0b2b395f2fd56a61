// SPDX-License-Identifier: MIT
// The window as a laptop user meets it: it fits 1280x720, Run is ready after the demo opens, charts,
// reports and tables export from the window, two runs compare with both named, a cancelled point is
// marked partial, and New after a run asks before dropping it.
#include "designpagecontroller.h"
#include "experimentdocument.h"
#include "guitesthelpers.h"
#include "headlinepanel.h"
#include "mainwindow.h"
#include "pointtable.h"
#include "projectcontroller.h"
#include "projectsession.h"
#include "projecttree.h"
#include "resultsexport.h"
#include "resultsview.h"
#include "runmonitor.h"
#include "runpagecontroller.h"
#include "secrets/memorysecretstore.h"

#include "charts/chartview.h"
#include "compare/delta.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace ServeScope;

namespace {

void dumpLargeMinimums(QWidget *w, int depth = 0)
{
    const QSize m = w->minimumSizeHint();
    if (m.height() > 200 || m.width() > 500)
        qInfo("%*s%s '%s' minimumSizeHint %dx%d", depth * 2, "", w->metaObject()->className(),
            qPrintable(w->objectName()), m.width(), m.height());
    for (QObject *c : w->children()) {
        if (auto *cw = qobject_cast<QWidget *>(c); cw && !cw->isWindow() && depth < 8)
            dumpLargeMinimums(cw, depth + 1);
    }
}

} // namespace

class TestGuiWorkflow final : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*"))); }
    void initTestCase() { TestHelpers::initGuiTest(); }

    void fitsALaptopScreen()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.openDemo();
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Without stored settings a first start fits the frame to the (offscreen) screen after the
        // first show, up to 300 ms later; the laptop size is set after that.
        QTest::qWait(700);
        w.resize(1280, 720);
        const QSize minimum = w.minimumSizeHint().expandedTo(w.minimumSize());
        if (minimum.width() > 1024 || minimum.height() > 640)
            dumpLargeMinimums(&w);
        QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 640,
            qPrintable(QStringLiteral("minimum %1x%2").arg(minimum.width()).arg(minimum.height())));
        QTRY_COMPARE(w.size(), QSize(1280, 720));
        const QRect inside = w.rect();
        for (QDockWidget *dock : w.findChildren<QDockWidget *>()) {
            const QRect g(dock->mapTo(&w, QPoint(0, 0)), dock->size());
            QVERIFY2(inside.contains(g), qPrintable(dock->objectName()));
        }
        QVERIFY(inside.contains(QRect(w.statusBar()->mapTo(&w, QPoint(0, 0)), w.statusBar()->size())));
        QVERIFY(w.statusBar()->isVisible());
    }

    void runIsReadyRightAfterTheDemoOpens()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.openDemo();
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QVERIFY(w.runAction()->isEnabled());
    }

    void twoRunsCompareAndExport()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(20);
        w.resize(1280, 720);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.project()->newProject(sweep(12));
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Without stored settings a first start fits the frame to the (offscreen) screen after the
        // first show, up to 300 ms later; the laptop size is set after that.
        QTest::qWait(700);
        w.resize(1280, 720);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        for (int i = 1; i <= 2; ++i) {
            w.runs()->start();
            // The window never grows by itself during a run.
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), i, 120000);
            QCOMPARE(w.size(), QSize(1280, 720));
        }
        const qint64 a = finished.at(0).at(0).value<RunResult>().runId,
                     b = finished.at(1).at(0).value<RunResult>().runId;
        QTRY_COMPARE_WITH_TIMEOUT(w.projectTree()->runCount(), 2, 10000);

        QSignalSpy shown(&w, &MainWindow::resultsShown);
        w.compareRuns({ b, a });
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && w.results()->input().runs.size() == 2, 20000);
        const Report::ReportInput &in = w.results()->input();
        QCOMPARE(in.runs[0].id, a); // the oldest run is A
        QCOMPARE(in.runs[1].id, b);
        QVERIFY(w.results()->definitions()->isHidden()); // one convention: nothing to reconcile
        // Every legend entry names its run (letter) and variant; the footer names each letter's run.
        const Report::ChartSpec chart = w.results()->visibleChart();
        QStringList names;
        for (const Report::SeriesSpec &s : chart.series) {
            if (s.kind == Report::SeriesKind::Line)
                names << s.name;
        }
        const QString tagA = QStringLiteral("A #%1").arg(a), tagB = QStringLiteral("B #%1").arg(b);
        QCOMPARE(names,
            (QStringList { tagA + QStringLiteral(" / baseline"), tagA + QStringLiteral(" / seqs-2"),
                tagB + QStringLiteral(" / baseline"), tagB + QStringLiteral(" / seqs-2") }));
        QVERIFY2(chart.footerText().contains(tagA + QStringLiteral(": ") + in.runs[0].name)
                && chart.footerText().contains(tagB + QStringLiteral(": ") + in.runs[1].name),
            qPrintable(chart.footerText()));
        // The findings panel words each run's findings, lettered, with the machine line behind each.
        auto *findings = w.findChild<QListWidget *>(QStringLiteral("findingList"));
        QVERIFY(findings);
        int unreliable = 0;
        for (int i = 0; i < findings->count(); ++i) {
            const QListWidgetItem *item = findings->item(i);
            if (item->data(Qt::UserRole).toString() == QLatin1String("unreliable-percentiles")) {
                ++unreliable;
                QVERIFY2(
                    item->text().startsWith(QStringLiteral("A · ")) || item->text().startsWith(QStringLiteral("B · ")),
                    qPrintable(item->text()));
                QVERIFY(
                    item->toolTip().startsWith(QStringLiteral("unreliable-percentiles\t\tc1,c4\tfewest_requests=12")));
            }
        }
        QCOMPARE(unreliable, 2); // one note per run, not one per point
        // The full delta table one click away, on the Changes tab: B against A at every point.
        auto *tabs = w.results()->findChild<QTabWidget *>();
        QVERIFY(tabs);
        const int changes = tabs->indexOf(w.results()->findChild<QWidget *>(QStringLiteral("deltaPane")));
        QVERIFY(changes > 0 && tabs->isTabVisible(changes));
        // The findings sit on the same page, their count on their tab.
        const int found = tabs->indexOf(findings);
        QVERIFY(found > 0);
        QCOMPARE(tabs->tabText(found), QStringLiteral("Findings (%1)").arg(findings->count()));
        // The decided rows by default, the rest folded into a count beside the switch; every row without it.
        auto *decidedOnly = w.results()->findChild<QCheckBox *>(QStringLiteral("decidedOnly"));
        QVERIFY(decidedOnly && decidedOnly->isChecked());
        const int decided = w.results()->deltaTable()->model()->rowCount();
        auto *folded = w.results()->findChild<QLabel *>(QStringLiteral("foldedRows"));
        QVERIFY(folded);
        QVERIFY2(
            (decided == 2 * 2 * int(headlineMetrics().size())) == folded->text().isEmpty(), qPrintable(folded->text()));
        decidedOnly->setChecked(false);
        QCOMPARE(w.results()->deltaTable()->model()->rowCount(), 2 * 2 * int(headlineMetrics().size()));
        QVERIFY(folded->text().isEmpty());
        // The steady set's deltas are computed from the requests after the runs are shown, and reach
        // the table when the set is switched (two fewer metrics: no total-token throughput or success rate).
        auto *set = w.results()->findChild<QComboBox *>(QStringLiteral("resultSet"));
        QVERIFY(set);
        set->setCurrentIndex(set->findData(QStringLiteral("steady")));
        QTRY_COMPARE_WITH_TIMEOUT(
            w.results()->deltaTable()->model()->rowCount(), 2 * 2 * int(headlineMetrics().size() - 2), 30000);
        set->setCurrentIndex(set->findData(QStringLiteral("vllm")));
        QCOMPARE(w.results()->deltaTable()->model()->rowCount(), 2 * 2 * int(headlineMetrics().size()));
        for (QAction *action : w.resultsExport()->actions())
            QVERIFY(action->isEnabled());

        QTemporaryDir dir;
        QString error;
        for (const char *name : { "chart.png", "chart.svg", "chart.pdf", "report.html", "report.pdf", "table.csv" }) {
            const QString path = dir.filePath(QLatin1String(name));
            const bool ok = path.endsWith(QLatin1String(".csv")) ? w.resultsExport()->exportTable(path, &error)
                : path.contains(QLatin1String("report"))         ? w.resultsExport()->exportReport(path, &error)
                                                                 : w.resultsExport()->exportChart(path, &error);
            QVERIFY2(ok, qPrintable(path + u' ' + error));
            QVERIFY2(QFileInfo(path).size() > 1000, name);
        }
        // Not blank: the PNG has the series' colours, not one background colour.
        const QImage png(dir.filePath(QStringLiteral("chart.png")));
        QCOMPARE(png.size(), QSize(1200, 700)); // the Report preset: the legible minimum
        QSet<QRgb> colours;
        for (int y = 0; y < png.height(); y += 7) {
            for (int x = 0; x < png.width(); x += 7)
                colours.insert(png.pixel(x, y));
        }
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
        QFile csv(dir.filePath(QStringLiteral("table.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        // header + runs x variants x points x (vLLM and steady rows of one repeat + 6 statistic rows)
        QCOMPARE(csv.readAll().count('\n'), 1 + 2 * 2 * 2 * (2 + 6));
        QFile html(dir.filePath(QStringLiteral("report.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray report = html.readAll();
        QVERIFY(report.contains(QStringLiteral("Changes: B #%1 against A #%2").arg(b).arg(a).toUtf8()));
        QVERIFY(report.contains("<h3>Findings</h3>") && report.contains("Unreliable p99"));

        // New after a run in an unsaved project asks; Cancel keeps everything.
        w.newAction()->trigger();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = w.findChild<QMessageBox *>(QStringLiteral("unsavedBox"))) != nullptr && box->isVisible());
        QVERIFY(box->text().contains(QStringLiteral("runs will be lost")));
        box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(w.findChild<QMessageBox *>(QStringLiteral("unsavedBox")) == nullptr);
        QCOMPARE(w.projectTree()->runCount(), 2);
        // Discard really starts a new project.
        w.newAction()->trigger();
        QTRY_VERIFY((box = w.findChild<QMessageBox *>(QStringLiteral("unsavedBox"))) != nullptr && box->isVisible());
        QSignalSpy reopened(&w, &MainWindow::projectOpened);
        box->button(QMessageBox::Discard)->click();
        QTRY_COMPARE_WITH_TIMEOUT(reopened.size(), 1, 10000);
        QTRY_COMPARE(w.projectTree()->runCount(), 0);
    }

    // A comparison across conventions: the Changes tab states both sides' definitions under the
    // deltas, and a withheld verdict reads as such in the table.
    void changesTabStatesTheDefinitions()
    {
        Report::ReportInput input;
        for (int k = 1; k <= 2; ++k) {
            Report::ReportRun run;
            run.id = k;
            run.name = k == 1 ? QStringLiteral("servescope") : QStringLiteral("aiperf");
            PointSummary p;
            p.runId = k;
            p.variant = QStringLiteral("baseline");
            p.label = QStringLiteral("c1");
            p.mode = QStringLiteral("concurrency");
            p.concurrency = 1;
            p.completed = 10;
            run.points << p;
            input.runs << run;
        }
        DeltaSection section;
        section.title = QStringLiteral("B: aiperf vs A: servescope");
        for (const QString &metric : { QStringLiteral("median_tpot_ms"), QStringLiteral("request_throughput") }) {
            DeltaRow r;
            r.variant = QStringLiteral("baseline");
            r.label = QStringLiteral("c1");
            r.metric = metric;
            r.a.repeats = RepeatStat { 1, 10, 10, 10, 0 };
            r.b.repeats = RepeatStat { 1, 12, 12, 12, 0 };
            r.change = 2;
            r.relative = 0.2;
            r.verdict = Verdict::Undecided;
            r.reason = QStringLiteral("statistics-only");
            section.rows << r;
        }
        section.definitions = compareDefinitions(QStringLiteral("vllm"), true, QStringLiteral("aiperf"), false);
        withholdIncomparable(section.rows, section.definitions);
        input.deltas << section;
        ResultsView view;
        view.resize(1024, 640);
        view.setInput(input);
        QVERIFY(!view.definitions()->isHidden());
        const QString text = view.definitions()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Why the numbers differ: B: aiperf vs A: servescope")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("tokens counted by the client's tokenizer")));
        QVERIFY(text.contains(QStringLiteral("comparable as published")));
        view.findChild<QCheckBox *>(QStringLiteral("decidedOnly"))->setChecked(false);
        const QAbstractItemModel *delta = view.deltaTable()->model();
        QStringList verdicts;
        for (int r = 0; r < delta->rowCount(); ++r) {
            for (int c = 0; c < delta->columnCount(); ++c)
                verdicts << delta->index(r, c).data().toString();
        }
        QVERIFY2(verdicts.contains(QStringLiteral("no verdict: not comparable")), qPrintable(verdicts.join(u'|')));
        QVERIFY(verdicts.contains(QStringLiteral("no verdict: statistics only")));
    }

    // Three repeats of one point: a bold median row under them with the stored medians, the widest
    // spread named and red past 5%; the steady set shows its own values, "—" where it has none.
    void repeatedPointShowsMedianAndSpread()
    {
        Report::ReportInput input;
        Report::ReportRun run;
        run.id = 1;
        run.name = QStringLiteral("r");
        for (int k = 1; k <= 3; ++k) {
            PointSummary p;
            p.runId = 1;
            p.variant = QStringLiteral("base");
            p.label = QStringLiteral("c4");
            p.mode = QStringLiteral("concurrency");
            p.concurrency = 4;
            p.repeat = k;
            p.completed = 100;
            p.successRate = 1;
            p.outputThroughput = 1000 + 10 * k;
            p.ttft.median = p.ttft.p50 = 20;
            p.ttft.p99 = k == 2 ? 40 : 30; // spreads 33% across the repeats
            p.steady = { { QStringLiteral("valid"), 1 }, { QStringLiteral("output_throughput"), 1100.0 + k } };
            p.server = { { QStringLiteral("waiting_max"), 2.0 * k } };
            run.points << p;
        }
        PointEstimate out;
        out.runId = 1;
        out.variant = QStringLiteral("base");
        out.metric = QStringLiteral("output_throughput");
        out.repeats = 3;
        out.median = 1020;
        out.min = 1010;
        out.max = 1030;
        out.cv = 0.008;
        PointEstimate p99 = out;
        p99.metric = QStringLiteral("p99_ttft_ms");
        p99.median = 30;
        p99.min = 30;
        p99.max = 40;
        p99.cv = 0.15;
        run.estimates = { out, p99 };
        input.runs << run;

        ResultsView view;
        // Every item model of the page, and the proxies over them, checked as they are filled.
        const auto mode = QAbstractItemModelTester::FailureReportingMode::QtTest;
        auto *deltaFilter = qobject_cast<QSortFilterProxyModel *>(view.deltaTable()->model());
        QVERIFY(deltaFilter);
        QAbstractItemModelTester points(view.pointModel(), mode);
        QAbstractItemModelTester headline(view.headlinePanel()->headline(), mode);
        QAbstractItemModelTester deltas(deltaFilter->sourceModel(), mode);
        QAbstractItemModelTester shownDeltas(deltaFilter, mode);
        view.setInput(input);
        const PointTableModel *t = view.pointModel();
        QCOMPARE(t->rowCount(), 4);
        const auto column = [t](const QString &header) {
            for (int c = 0; c < t->columnCount(); ++c) {
                if (t->headerData(c, Qt::Horizontal).toString() == header)
                    return c;
            }
            return -1;
        };
        const int output = column(QStringLiteral("Output (tok/s)")),
                  spread = column(QStringLiteral("Spread across repeats"));
        const int p99Column = column(QStringLiteral("TTFT p99 (ms)"));
        QVERIFY(output > 0 && spread > 0 && p99Column > 0);
        QVERIFY(!view.table()->isColumnHidden(spread));
        const QModelIndex median = t->index(3, output);
        QCOMPARE(t->index(3, 3).data().toString(), QStringLiteral("median of 3"));
        QCOMPARE(median.data().toString(), QStringLiteral("1020.0"));
        QVERIFY(median.data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(t->index(3, p99Column).data().toString(), QStringLiteral("30.0"));
        // Server columns appear when the server was scraped, only those it answered.
        const int waiting = column(QStringLiteral("Server waiting (max)")),
                  gpu = column(QStringLiteral("GPU util (%)"));
        QVERIFY(waiting > 0 && gpu > 0);
        QVERIFY(!view.table()->isColumnHidden(waiting));
        QVERIFY(view.table()->isColumnHidden(gpu));
        // Copy reads the model: the shown columns, tab-separated, the median row last.
        const QStringList copied = t->text().trimmed().split(u'\n');
        QCOMPARE(copied.size(), 5);
        QVERIFY(copied[0].contains(QStringLiteral("Output (tok/s)")));
        QVERIFY(!copied[0].contains(QStringLiteral("GPU util")));
        QVERIFY(copied[4].contains(QStringLiteral("median of 3")));
        QVERIFY(copied[4].contains(QStringLiteral("1020.0")));
        QCOMPARE(t->index(0, waiting).data().toString(), QStringLiteral("2"));
        QCOMPARE(t->index(3, waiting).data().toString(), QStringLiteral("4")); // median of 2, 4, 6
        const QModelIndex widest = t->index(3, spread);
        QCOMPARE(widest.data().toString(), QStringLiteral("33.3% (TTFT p99)"));
        QCOMPARE(widest.data(Qt::ForegroundRole).value<QColor>(), QColor(176, 0, 32));
        QVERIFY(widest.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Not reproducible")));
        QVERIFY(!widest.data(Qt::ToolTipRole).toString().contains(QStringLiteral("output throughput")));

        auto *set = view.findChild<QComboBox *>(QStringLiteral("resultSet"));
        QVERIFY(set);
        set->setCurrentIndex(set->findData(QStringLiteral("steady")));
        QCOMPARE(t->rowCount(), 4);
        QCOMPARE(t->index(0, output).data().toString(), QStringLiteral("1101.0"));
        QCOMPARE(t->index(0, p99Column).data().toString(), QStringLiteral("—"));
        QCOMPARE(t->index(3, output).data().toString(), QStringLiteral("1102.0")); // median of 1101, 1102, 1103
    }

    void cancelledPointIsMarkedPartial()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(2);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.project()->newProject(sweep(400));
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        w.runs()->start();
        QTRY_VERIFY_WITH_TIMEOUT(w.runMonitor()->lastSnapshot().completed >= 5, 120000);
        // Editing during a run is possible, and the window says the run keeps its configuration.
        auto *banner = w.findChild<QLabel *>(QStringLiteral("runBanner"));
        QVERIFY(banner && !banner->isVisibleTo(banner->parentWidget()));
        Experiment edited = w.document()->experiment();
        edited.load.points[0].numPrompts = 7;
        w.document()->apply(edited, QStringLiteral("Edit during a run"));
        QVERIFY(banner->isVisibleTo(banner->parentWidget()));
        w.runs()->cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY(!banner->isVisibleTo(banner->parentWidget()));
        QCOMPARE(w.document()->experiment().load.points[0].numPrompts, 7);
        QTRY_VERIFY_WITH_TIMEOUT(w.results()->pointCount() >= 1, 20000);
        const PointTableModel *t = w.results()->pointModel();
        bool partial = false;
        for (int r = 0; r < t->rowCount(); ++r) {
            const QModelIndex requests = t->index(r, PointTableModel::kRequestsColumn);
            if (requests.data().toString().contains(u'/')) {
                partial = true;
                QVERIFY(requests.data(Qt::FontRole).value<QFont>().italic());
                QVERIFY(requests.data(Qt::ToolTipRole).toString().contains(QStringLiteral("cancelled")));
                const QStringList parts = requests.data().toString().split(u'/');
                QVERIFY(parts[0].toInt() < parts[1].toInt());
            }
        }
        QVERIFY(partial);
        // The chart draws it hollow.
        bool hollow = false;
        for (const Report::SeriesSpec &s : w.results()->visibleChart().series)
            hollow = hollow || (s.kind == Report::SeriesKind::Scatter && s.hollow);
        QVERIFY(hollow);
    }

    void discardAfterARunReallyDiscards()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kept.servescope"));
        {
            MemorySecretStore secrets;
            MainWindow w(&secrets);
            w.project()->setTimeScale(20);
            QSignalSpy opened(&w, &MainWindow::projectOpened);
            w.project()->newProject(sweep(4));
            QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
            QSignalSpy saved(&w, &MainWindow::projectSaved);
            w.project()->saveProjectAs(path);
            QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 10000);
            QVERIFY(saved.at(0).at(1).toString().isEmpty());
            // An edit that is run but never saved.
            Experiment edited = w.document()->experiment();
            edited.name = QStringLiteral("edited, not saved");
            w.document()->apply(edited, QStringLiteral("Rename"));
            QSignalSpy finished(&w, &MainWindow::runFinished);
            w.runs()->start();
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
            w.show();
            QVERIFY(!w.close());
            QMessageBox *box = nullptr;
            QTRY_VERIFY((box = w.findChild<QMessageBox *>()) != nullptr && box->isVisible());
            box->button(QMessageBox::Discard)->click();
            QTRY_VERIFY(!w.isVisible());
        }
        MemorySecretStore secrets;
        MainWindow again(&secrets);
        QSignalSpy opened(&again, &MainWindow::projectOpened);
        QSignalSpy listed(&again, &MainWindow::runsListed);
        again.project()->openProject(path);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QCOMPARE(again.document()->experiment().name, QStringLiteral("workflow"));
        // The run is kept, with the configuration it ran with.
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty() && listed.last().at(0).toInt() == 1, 10000);
    }

    void rerunToCheckComparesWithTheRun()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.project()->setTimeScale(20);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.project()->newProject(sweep(12));
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        w.runs()->start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        const qint64 first = finished.at(0).at(0).value<RunResult>().runId;
        // The rerun uses the stored run's configuration, not the editor's.
        Experiment edited = w.document()->experiment();
        edited.load.points[0].numPrompts = 3;
        w.document()->apply(edited, QStringLiteral("Edit"));
        QSignalSpy checked(w.runs(), &RunPageController::checkFinished);
        w.runs()->rerunToCheck(first);
        QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 1, 120000);
        const QStringList points = checked.at(0).at(0).toStringList();
        QCOMPARE(points.size(), 4); // 2 variants x 2 points
        for (const QString &p : points)
            QVERIFY2(p.contains(QStringLiteral(": agree")) || p.contains(QStringLiteral(": differ (")), qPrintable(p));
        QCOMPARE(w.results()->input().runs.size(), 2);
        QCOMPARE(w.results()->input().runs[0].id, first);
        QCOMPARE(finished.size(), 2);
        QCOMPARE(finished.at(1).at(0).value<RunResult>().completed, 2 * 2 * 12);
    }

private:
    static Experiment sweep(int prompts)
    {
        Experiment e = ProjectController::blankExperiment();
        e.name = QStringLiteral("workflow");
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
        Variant seqs;
        seqs.name = QStringLiteral("seqs-2");
        seqs.changes.set(QStringLiteral("server.args.max_num_seqs"), 2);
        e.variants.append(seqs);
        return e;
    }
};

QTEST_MAIN(TestGuiWorkflow)
#include "tst_guiworkflow.moc"
