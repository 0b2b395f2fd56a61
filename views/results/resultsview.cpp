// SPDX-License-Identifier: MIT
#include "resultsview.h"

#include "deltatable.h"
#include "findingslist.h"
#include "headlinepanel.h"
#include "pointtable.h"

#include "charts/chartview.h"
#include "report/chartbuilders.h"
#include "report/conclusiontext.h"
#include "report/metricnames.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMap>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <limits>

namespace ServeScope {

ResultsView::ResultsView(QWidget *parent)
    : QWidget(parent)
    , m_tabs(new QTabWidget(this))
    , m_table(new QTableView(this))
    , m_pointModel(new PointTableModel(this))
    , m_pointSorter(new PointTableSorter(this))
    , m_delta(new QTableView(this))
    , m_deltaModel(new DeltaTableModel(this))
    , m_deltaFilter(new DeltaTableFilter(this))
    , m_deltaPane(new QWidget(this))
    , m_definitions(new QTextBrowser(this))
    , m_headline(new HeadlinePanel(this))
    , m_findings(new FindingsList(this))
    , m_deltaFamily(new QComboBox(this))
    , m_decidedOnly(new QCheckBox(this))
    , m_empty(new QLabel(this))
    , m_note(new QLabel(this))
    , m_conclusions(new QLabel(this))
    , m_folded(new QLabel(this))
    , m_notice(new QLabel(this))
    , m_noticeTimer(new QTimer(this))
    , m_chartKind(new QComboBox(this))
    , m_targetPerUser(new QDoubleSpinBox(this))
    , m_resultSet(new QComboBox(this))
    , m_chartView(new Report::ChartView)
{
    setUpTables();
    m_tabs->addTab(buildChartPage(), tr("Charts"));
    m_tabs->addTab(buildDeltaPane(), tr("Changes"));
    m_tabs->addTab(m_findings, tr("Findings"));
    auto *tablePage = new QWidget;
    auto *tableLayout = new QVBoxLayout(tablePage);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_table, 1);
    m_tabs->addTab(tablePage, tr("Table"));
    buildLayout();
}

void ResultsView::setUpTable(QTableView *view, QAbstractItemModel *model, void (ResultsView::*copy)())
{
    view->setModel(model);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder); // the model's order until a header is clicked
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    auto *action = new QAction(tr("Copy table"), view);
    action->setShortcut(QKeySequence::Copy);
    action->setShortcutContext(Qt::WidgetShortcut);
    connect(action, &QAction::triggered, this, copy);
    view->addAction(action);
}

void ResultsView::setUpTables()
{
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_pointSorter->setSourceModel(m_pointModel);
    setUpTable(m_table, m_pointSorter, &ResultsView::copyTable); // run, variant, point and repeat order
    m_table->setAlternatingRowColors(true);
    m_delta->setObjectName(QStringLiteral("deltaTable"));
    m_deltaFilter->setSourceModel(m_deltaModel);
    setUpTable(m_delta, m_deltaFilter, &ResultsView::copyDelta); // core's order
    m_delta->horizontalHeader()->moveSection(DeltaTableModel::VerdictColumn, DeltaTableModel::A); // in sight at 1024 px
    connect(m_delta, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        auto *menu = new QMenu(m_delta);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(tr("Copy table"), this, &ResultsView::copyDelta);
        menu->popup(m_delta->viewport()->mapToGlobal(at));
    });
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        const QVariantList point = m_table->indexAt(at).siblingAtColumn(0).data(PointTableModel::PointRole).toList();
        auto *menu = new QMenu(m_table);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(tr("Copy table"), this, &ResultsView::copyTable);
        QAction *exportPrompts = menu->addAction(tr("Export prompts as dataset…"), this, [this, point] {
            emit promptsExportWanted(point.value(0).toLongLong(), point.value(1).toString(), point.value(2).toInt(),
                point.value(3).toInt(), point.value(4).toString());
        });
        exportPrompts->setEnabled(point.size() == 5 && point.value(0).toLongLong() > 0);
        exportPrompts->setToolTip(tr("The exact prompts this point sent, as files vLLM's and SGLang's benchmark "
                                     "clients replay"));
        menu->popup(m_table->viewport()->mapToGlobal(at));
    });
}

QWidget *ResultsView::buildChartPage()
{
    m_chartKind->setObjectName(QStringLiteral("chartKind"));
    m_chartKind->addItem(tr("Output throughput vs load"), QStringLiteral("throughput"));
    m_chartKind->addItem(tr("TTFT vs load"), QStringLiteral("ttft"));
    m_chartKind->addItem(tr("TTFO (first answer token) vs load"), QStringLiteral("ttfo"));
    m_chartKind->addItem(tr("TPOT vs load"), QStringLiteral("tpot"));
    m_chartKind->addItem(tr("Answer TPOT (after the first answer token) vs load"), QStringLiteral("atpot"));
    m_chartKind->addItem(tr("ITL vs load"), QStringLiteral("itl"));
    m_chartKind->addItem(tr("E2E latency vs load"), QStringLiteral("e2el"));
    m_chartKind->addItem(tr("TTFT of sessions' first and later turns vs load"), QStringLiteral("turns"));
    m_chartKind->addItem(tr("TPOT vs throughput"), QStringLiteral("tradeoff"));
    m_chartKind->addItem(tr("Output throughput per GPU vs per user"), QStringLiteral("per-gpu"));
    m_chartKind->addItem(tr("Run over time (client and server)"), QStringLiteral("timeseries"));
    // Hover for exact values, click a legend entry to hide a series, L for a log axis, drag to
    // zoom, double-click or Esc to reset.
    m_chartView->setMinimumHeight(160); // the page fits 640 px scaled 1.25× with the log under Run
    auto *chartPage = new QWidget;
    auto *chartLayout = new QVBoxLayout(chartPage);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    // The chart with the headline panel beside it: what changed, at a glance, with the whole page.
    auto *top = new QSplitter(Qt::Horizontal);
    top->setObjectName(QStringLiteral("headlineSplit"));
    top->setChildrenCollapsible(false); // a pane never shrinks to nothing
    top->addWidget(m_chartView);
    top->addWidget(m_headline);
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 1);
    top->setSizes({ 540, 470 }); // the panel's four columns readable without scrolling at 1280 x 720
    m_headline->setMinimumWidth(200);
    m_headline->hide();
    // For the per-GPU chart: the per-user speed each curve is read at (0: none).
    m_targetPerUser->setObjectName(QStringLiteral("targetPerUser"));
    m_targetPerUser->setRange(0, 100000);
    m_targetPerUser->setDecimals(1);
    m_targetPerUser->setSpecialValueText(tr("no target"));
    m_targetPerUser->setSuffix(tr(" tok/s per user"));
    m_targetPerUser->setToolTip(tr("Each curve's output tokens/s per GPU at this speed per user, interpolated "
                                   "between its measured points (never beyond them)"));
    auto *kindRow = new QHBoxLayout;
    kindRow->setContentsMargins(0, 0, 0, 0);
    kindRow->addWidget(m_chartKind, 1);
    m_targetLabel = new QLabel(tr("Compare at"));
    m_targetLabel->setBuddy(m_targetPerUser);
    kindRow->addWidget(m_targetLabel);
    kindRow->addWidget(m_targetPerUser);
    m_targetLabel->hide(); // shown with the per-GPU chart
    m_targetPerUser->hide();
    chartLayout->addLayout(kindRow);
    chartLayout->addWidget(top, 1);
    connect(m_chartKind, &QComboBox::currentIndexChanged, this, &ResultsView::rebuildChart);
    connect(m_targetPerUser, &QDoubleSpinBox::valueChanged, this, &ResultsView::rebuildChart);
    return chartPage;
}

QWidget *ResultsView::buildDeltaPane()
{
    // The full delta table, one click away, with its filters: a metric family, and only the rows with a verdict.
    auto *filters = new QHBoxLayout;
    filters->setContentsMargins(0, 0, 0, 0);
    m_deltaFamily->setObjectName(QStringLiteral("deltaFamily"));
    m_deltaFamily->addItem(tr("All metrics"), -1);
    using Family = MetricName::Family;
    for (Family f : { Family::Throughput, Family::Ttft, Family::Tpot, Family::Itl, Family::E2el, Family::Success })
        m_deltaFamily->addItem(MetricName::familyName(f), int(f));
    m_decidedOnly->setObjectName(QStringLiteral("decidedOnly"));
    m_decidedOnly->setText(tr("Decided only (better or worse)"));
    m_decidedOnly->setChecked(true); // the rest folded into a count beside it
    filters->addWidget(new QLabel(tr("Show")));
    filters->addWidget(m_deltaFamily);
    filters->addWidget(m_decidedOnly);
    m_folded->setObjectName(QStringLiteral("foldedRows"));
    m_folded->setStyleSheet(QStringLiteral("color: palette(mid);"));
    filters->addWidget(m_folded, 1);
    connect(m_deltaFamily, &QComboBox::currentIndexChanged, this, &ResultsView::applyDeltaFilter);
    connect(m_decidedOnly, &QCheckBox::toggled, this, &ResultsView::applyDeltaFilter);
    auto *deltaLayout = new QVBoxLayout(m_deltaPane);
    deltaLayout->setContentsMargins(0, 0, 0, 0);
    deltaLayout->setSpacing(2);
    deltaLayout->addLayout(filters);
    // Below the deltas, resizable: what each side means by each metric, when they differ.
    m_definitions->setObjectName(QStringLiteral("definitions"));
    m_definitions->setOpenLinks(false);
    m_definitions->hide();
    auto *deltaSplit = new QSplitter(Qt::Vertical, m_deltaPane);
    deltaSplit->setChildrenCollapsible(false);
    deltaSplit->addWidget(m_delta);
    deltaSplit->addWidget(m_definitions);
    deltaSplit->setStretchFactor(0, 3);
    deltaSplit->setStretchFactor(1, 2);
    deltaLayout->addWidget(deltaSplit, 1);
    m_deltaPane->setObjectName(QStringLiteral("deltaPane"));
    return m_deltaPane;
}

void ResultsView::buildLayout()
{
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setText(tr("No results yet. Run the experiment, or pick a run in the project tree "
                        "(Ctrl-click a second run to compare them)."));
    m_empty->setStyleSheet(QStringLiteral("color: palette(mid); font-size: 11pt;"));
    m_note->setObjectName(QStringLiteral("resultsNote"));
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("color: #995500;"));
    m_note->hide();
    m_resultSet->setObjectName(QStringLiteral("resultSet"));
    m_resultSet->addItem(tr("vLLM's result set (every measured request)"), QStringLiteral("vllm"));
    m_resultSet->addItem(tr("Steady window (all slots busy)"), QStringLiteral("steady"));
    m_resultSet->setToolTip(tr("The result set the table, the charts and the comparison show. The steady window "
                               "leaves out the ramp-up and drain: it opens when every slot is first busy and closes "
                               "at the last dispatch (see docs/metrics.md)."));
    connect(m_resultSet, &QComboBox::currentIndexChanged, this, [this] {
        rebuildTable();
        rebuildChart();
        rebuildDelta();
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty);
    layout->addWidget(m_note);
    m_notice->setObjectName(QStringLiteral("resultsNotice"));
    m_notice->setWordWrap(true);
    m_notice->setTextFormat(Qt::RichText);
    m_notice->setOpenExternalLinks(true);
    m_notice->hide();
    m_noticeTimer->setSingleShot(true);
    connect(m_noticeTimer, &QTimer::timeout, m_notice, &QWidget::hide);
    layout->addWidget(m_notice);
    // What the comparison concludes, one sentence per variant, before the chart and any table.
    m_conclusions->setObjectName(QStringLiteral("conclusions"));
    m_conclusions->setWordWrap(true);
    m_conclusions->setTextFormat(Qt::RichText);
    m_conclusions->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_conclusions->setContentsMargins(4, 2, 4, 2);
    m_conclusions->hide();
    layout->addWidget(m_conclusions);
    layout->addWidget(m_tabs, 1);
    // Beside the tabs, so the switch costs no height: it governs both of them.
    m_tabs->setCornerWidget(m_resultSet, Qt::TopRightCorner);
    m_tabs->hide();
}

bool ResultsView::steadySet() const
{
    return m_resultSet->currentData().toString() == QLatin1String("steady");
}

int ResultsView::pointCount() const
{
    int n = 0;
    for (const Report::ReportRun &r : m_input.runs)
        n += int(r.points.size());
    return n;
}

void ResultsView::clear()
{
    m_input = Report::ReportInput();
    rebuild();
}

void ResultsView::setInput(const Report::ReportInput &input)
{
    m_input = input;
    if (m_input.runs.size() != 1 || m_input.runs.first().id != m_timeSeriesRun) {
        m_timeSeriesRun = m_timeSeriesAsked = 0; // the requests of another run: let them go
        m_timeSeries = Report::TimeSeriesInput();
    }
    rebuild();
}

void ResultsView::setSteadyDeltas(const QList<qint64> &runIds, const QList<DeltaSection> &sections)
{
    QList<qint64> shown;
    for (const Report::ReportRun &r : std::as_const(m_input.runs))
        shown << r.id;
    if (shown != runIds)
        return;
    m_input.steadyDeltas = sections;
    if (steadySet())
        rebuildDelta();
}

void ResultsView::startLive(const QString &runName)
{
    m_input = Report::ReportInput();
    Report::ReportRun run;
    run.name = runName;
    m_input.runs << run;
    rebuild();
}

void ResultsView::addPoint(const PointSummary &point)
{
    if (m_input.runs.isEmpty())
        startLive(QString());
    m_input.runs.first().points << point;
    rebuild();
}

void ResultsView::setTimeSeries(qint64 runId, const Report::TimeSeriesInput &input)
{
    if (m_input.runs.size() != 1 || m_input.runs.first().id != runId)
        return;
    m_timeSeriesRun = runId;
    m_timeSeries = input;
    rebuildChart();
}

void ResultsView::setChartActions(const QList<QAction *> &actions)
{
    m_chartView->setExtraActions(actions);
}

Report::ChartSpec ResultsView::visibleChart() const
{
    return m_chartView->visibleSpec();
}

QSize ResultsView::chartViewSize() const
{
    return m_chartView->size();
}

void ResultsView::rebuild()
{
    rebuildTable();
    rebuildChart();
    rebuildDelta();
    const int found = m_findings->showFindings(m_input);
    m_tabs->setTabText(m_tabs->indexOf(m_findings), found > 0 ? tr("Findings (%1)").arg(found) : tr("Findings"));
    // Times against a time-scaled simulator are that many times shorter than the modelled GPU's.
    QMap<QString, QStringList> runsByScale; // time scale -> run letters
    for (qsizetype i = 0; i < m_input.runs.size(); ++i) {
        for (const auto &[key, value] : m_input.runs[i].clientHost) {
            if (key == QLatin1String("simulator_time_scale") && value.toDouble() != 1.0)
                runsByScale[value] << QString(QChar(char16_t(u'A' + i)));
        }
    }
    QStringList scaled;
    for (auto it = runsByScale.cbegin(); it != runsByScale.cend(); ++it) {
        const QString who = m_input.runs.size() > 1 ? it.value().join(QStringLiteral(", ")) : tr("This run");
        scaled << tr("%1: simulator at %2× speed, times %2× shorter than the modelled hardware").arg(who, it.key());
    }
    m_note->setText(scaled.join(QStringLiteral(" · ")));
    m_note->setVisible(!scaled.isEmpty());
    const bool any = pointCount() > 0;
    m_empty->setVisible(!any);
    m_tabs->setVisible(any);
    emit resultsChanged();
}

void ResultsView::showNotice(const QString &text, bool failed, const QString &folder)
{
    QString html = text.toHtmlEscaped();
    if (!folder.isEmpty())
        html += QStringLiteral(" <a href=\"%1\">%2</a>")
                    .arg(QUrl::fromLocalFile(folder).toString(QUrl::FullyEncoded), tr("Open the folder"));
    m_notice->setText(html);
    m_notice->setStyleSheet(failed ? QStringLiteral("background: #fde7e9; color: #8a1020; padding: 4px;")
                                   : QStringLiteral("background: #e6f4ea; color: #1e5b2e; padding: 4px;"));
    m_notice->show();
    // A success goes after a while; a failure stays until the next export says otherwise.
    if (failed)
        m_noticeTimer->stop();
    else
        m_noticeTimer->start(10000);
}

void ResultsView::rebuildTable()
{
    m_pointModel->setInput(m_input, steadySet());
    for (int c = 0; c < m_pointModel->columnCount(); ++c)
        m_table->setColumnHidden(c, !m_pointModel->columnShown(c));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void ResultsView::copyTable()
{
    QApplication::clipboard()->setText(m_pointSorter->shownText()); // what is shown, in the order shown, is copied
}

void ResultsView::rebuildChart()
{
    using namespace Report;
    if (pointCount() == 0) {
        m_chartView->setSpec(ChartSpec {});
        return;
    }
    const QList<RunSeriesInput> inputs = reportSeriesInputs(m_input);
    const QString kind = m_chartKind->currentData().toString();
    m_targetLabel->setVisible(kind == QLatin1String("per-gpu"));
    m_targetPerUser->setVisible(kind == QLatin1String("per-gpu"));
    LoadChartOptions options;
    options.steady = steadySet();
    ChartSpec spec;
    if (kind == QLatin1String("timeseries")) {
        const bool shown
            = m_timeSeriesRun > 0 && m_input.runs.size() == 1 && m_timeSeriesRun == m_input.runs.first().id;
        spec = shown ? runTimeSeries({ m_timeSeries }) : ChartSpec {};
        if (!shown && m_input.runs.size() == 1 && m_input.runs.first().id > 0
            && m_timeSeriesAsked != m_input.runs.first().id) {
            m_timeSeriesAsked = m_input.runs.first().id;
            emit timeSeriesWanted(m_input.runs.first().id, m_input.runs.first().name);
        }
        if (!shown && m_input.runs.size() != 1)
            spec.notes << tr("One run at a time: select a single run to see it over time.");
        else if (!shown)
            spec.notes << (m_input.runs.first().id > 0 ? tr("Loading the run's requests…")
                                                       : tr("Shown once the run has ended and is stored."));
    } else if (kind == QLatin1String("throughput")) {
        spec = throughputVsLoad(inputs, ThroughputKind::OutputTokens, options);
    } else if (kind == QLatin1String("turns")) {
        spec = turnsVsLoad(inputs, options);
    } else if (kind == QLatin1String("tradeoff")) {
        spec = latencyVsThroughput(inputs, Metric::Tpot, options);
    } else if (kind == QLatin1String("per-gpu")) {
        const double target = m_targetPerUser->value();
        spec = throughputPerGpu(inputs, target > 0 ? target : std::numeric_limits<double>::quiet_NaN(), options);
    } else {
        Metric m = Metric::Ttft;
        metricFromCode(kind, &m);
        spec = latencyVsLoad(inputs, m, options);
    }
    m_chartView->setSpec(spec);
}

void ResultsView::rebuildDelta()
{
    const QList<DeltaSection> &deltas = steadySet() ? m_input.steadyDeltas : m_input.deltas;
    const QStringList runs = Report::runTags(m_input);
    m_deltaModel->setSections(deltas, runs);
    m_delta->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tabs->setTabVisible(m_tabs->indexOf(m_deltaPane), m_deltaModel->rowCount() > 0);
    m_headline->setSections(deltas, runs);
    const QString conclusions = Report::conclusionsHtml(deltas, m_input.runs);
    m_conclusions->setText(conclusions);
    m_conclusions->setVisible(!conclusions.isEmpty());
    applyDeltaFilter();
    QString definitions;
    for (const DeltaSection &section : deltas) {
        if (const QString table = Report::definitionsTable(section); !table.isEmpty())
            definitions += QStringLiteral("<h4>%1</h4>")
                               .arg(tr("Why the numbers differ: %1").arg(section.title).toHtmlEscaped())
                + table;
    }
    if (!definitions.isEmpty())
        definitions += QStringLiteral("<p>%1</p>")
                           .arg(tr("Only metrics comparable as published have a verdict; the others say why not.")
                                    .toHtmlEscaped());
    m_definitions->setHtml(definitions);
    m_definitions->setVisible(!definitions.isEmpty());
}

void ResultsView::applyDeltaFilter()
{
    m_deltaFilter->setFilter(m_deltaFamily->currentData().toInt(), m_decidedOnly->isChecked());
    const QString folded = m_deltaFilter->foldedRows();
    if (folded.isEmpty())
        m_folded->clear();
    else if (m_deltaFilter->rowCount() == 0)
        m_folded->setText(tr("No change decided: %1 (untick to list them)").arg(folded));
    else
        m_folded->setText(tr("and %1 (not listed)").arg(folded));
}

void ResultsView::copyDelta()
{
    QApplication::clipboard()->setText(m_deltaFilter->shownText()); // what is shown is what is copied
}

QByteArray ResultsView::tableCsv() const
{
    return Report::reportSummaryCsv(m_input);
}

} // namespace ServeScope
