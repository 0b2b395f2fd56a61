// SPDX-License-Identifier: MIT
#include "resultsview.h"

#include "deltatable.h"
#include "findingslist.h"
#include "headlinepanel.h"

#include "charts/chartview.h"
#include "report/chartbuilders.h"
#include "report/metricnames.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMap>
#include <QMenu>
#include <QRegularExpression>
#include <QSet>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ServeScope {

namespace {

/// On a point row's first cell: run id, variant, point index, repeat and label.
constexpr int kPointRole = Qt::UserRole + 1;

QString ms(double v)
{
    return QString::number(v, 'f', v < 10 ? 2 : 1);
}

// Sorts by its value, not by its text.
class NumberItem final : public QTableWidgetItem {
public:
    using QTableWidgetItem::QTableWidgetItem;
    bool operator<(const QTableWidgetItem &other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

QTableWidgetItem *numberItem(const QString &text, double sortValue)
{
    auto *item = new NumberItem(text);
    item->setData(Qt::UserRole, sortValue);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

ResultsView::ResultsView(QWidget *parent)
    : QWidget(parent)
    , m_tabs(new QTabWidget(this))
    , m_table(new QTableWidget(this))
    , m_delta(new QTableView(this))
    , m_deltaModel(new DeltaTableModel(this))
    , m_deltaFilter(new DeltaTableFilter(this))
    , m_deltaPane(new QWidget(this))
    , m_headline(new HeadlinePanel(this))
    , m_findings(new FindingsList(this))
    , m_deltaFamily(new QComboBox(this))
    , m_decidedOnly(new QCheckBox(this))
    , m_empty(new QLabel(this))
    , m_note(new QLabel(this))
    , m_chartKind(new QComboBox(this))
    , m_resultSet(new QComboBox(this))
    , m_chartView(new Report::ChartView)
{
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_delta->setObjectName(QStringLiteral("deltaTable"));
    m_deltaFilter->setSourceModel(m_deltaModel);
    m_delta->setModel(m_deltaFilter);
    m_delta->setSortingEnabled(true);
    m_delta->sortByColumn(-1, Qt::AscendingOrder); // core's order until a header is clicked
    m_delta->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_delta->verticalHeader()->hide();
    m_delta->verticalHeader()->setDefaultSectionSize(m_delta->fontMetrics().height() + 6);
    m_delta->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_delta->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_delta, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        auto *menu = new QMenu(m_delta);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(tr("Copy table"), this, &ResultsView::copyDelta);
        menu->popup(m_delta->viewport()->mapToGlobal(at));
    });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        const QTableWidgetItem *first = m_table->item(m_table->rowAt(at.y()), 0);
        const QVariantList point = first ? first->data(kPointRole).toList() : QVariantList();
        auto *menu = new QMenu(m_table);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        QAction *exportPrompts = menu->addAction(tr("Export prompts as dataset…"), this, [this, point] {
            emit promptsExportWanted(point.value(0).toLongLong(), point.value(1).toString(), point.value(2).toInt(),
                point.value(3).toInt(), point.value(4).toString());
        });
        exportPrompts->setEnabled(point.size() == 5 && point.value(0).toLongLong() > 0);
        exportPrompts->setToolTip(tr("The exact prompts this point sent, as files vLLM's and SGLang's benchmark "
                                     "clients replay"));
        menu->popup(m_table->viewport()->mapToGlobal(at));
    });
    auto *copy = new QAction(tr("Copy table"), m_delta);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &ResultsView::copyDelta);
    m_delta->addAction(copy);

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setText(tr("No results yet. Run the experiment, or pick a run in the project tree "
                        "(Ctrl-click a second run to compare them)."));
    m_empty->setStyleSheet(QStringLiteral("color: palette(mid); font-size: 11pt;"));
    m_note->setObjectName(QStringLiteral("resultsNote"));
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("color: #995500;"));
    m_note->hide();

    m_chartKind->setObjectName(QStringLiteral("chartKind"));
    m_chartKind->addItem(tr("Output throughput vs load"), QStringLiteral("throughput"));
    m_chartKind->addItem(tr("TTFT vs load"), QStringLiteral("ttft"));
    m_chartKind->addItem(tr("TPOT vs load"), QStringLiteral("tpot"));
    m_chartKind->addItem(tr("ITL vs load"), QStringLiteral("itl"));
    m_chartKind->addItem(tr("E2E latency vs load"), QStringLiteral("e2el"));
    m_chartKind->addItem(tr("TPOT vs throughput"), QStringLiteral("tradeoff"));
    m_chartKind->addItem(tr("Run over time (client and server)"), QStringLiteral("timeseries"));
    // Hover for exact values, click a legend entry to hide a series, L for a log axis, drag to
    // zoom, double-click or Esc to reset.
    m_chartView->setMinimumHeight(200);
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
    filters->addWidget(new QLabel(tr("Show")));
    filters->addWidget(m_deltaFamily);
    filters->addWidget(m_decidedOnly);
    filters->addStretch();
    connect(m_deltaFamily, &QComboBox::currentIndexChanged, this, &ResultsView::applyDeltaFilter);
    connect(m_decidedOnly, &QCheckBox::toggled, this, &ResultsView::applyDeltaFilter);
    auto *deltaLayout = new QVBoxLayout(m_deltaPane);
    deltaLayout->setContentsMargins(0, 0, 0, 0);
    deltaLayout->setSpacing(2);
    deltaLayout->addLayout(filters);
    deltaLayout->addWidget(m_delta, 1);
    m_deltaPane->setObjectName(QStringLiteral("deltaPane"));
    chartLayout->addWidget(m_chartKind);
    chartLayout->addWidget(top, 1);
    m_tabs->addTab(chartPage, tr("Charts"));
    m_tabs->addTab(m_deltaPane, tr("Changes"));
    m_tabs->addTab(m_findings, tr("Findings"));
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
    auto *tablePage = new QWidget;
    auto *tableLayout = new QVBoxLayout(tablePage);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_table, 1);
    m_tabs->addTab(tablePage, tr("Table"));
    connect(m_chartKind, &QComboBox::currentIndexChanged, this, &ResultsView::rebuildChart);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty);
    layout->addWidget(m_note);
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

namespace {

// The table's value columns by result-file key; success_rate shows as a percentage.
struct TableColumn {
    const char *key;
    int decimals; ///< -1: latency formatting
};
constexpr TableColumn kColumns[] = { { "completed", 0 }, { "failed", 0 }, { "success_rate", 1 },
    { "request_throughput", 2 }, { "output_throughput", 1 }, { "request_goodput", 2 }, { "median_ttft_ms", -1 },
    { "p99_ttft_ms", -1 }, { "median_tpot_ms", -1 }, { "p99_tpot_ms", -1 }, { "median_itl_ms", -1 },
    { "p99_itl_ms", -1 }, { "median_e2el_ms", -1 }, { "p99_e2el_ms", -1 }, { "server_running_mean", 1 },
    { "server_waiting_max", 0 }, { "server_kv_usage_max", 1 }, { "server_preemptions", 0 },
    { "server_gpu_util_mean", 1 }, { "client_dispatch_lag_p99_ms", 2 }, { "client_cpu_percent", 0 } };
constexpr int kFirstValueColumn = 5;

QTableWidgetItem *valueItem(const QMap<QString, double> &values, const TableColumn &c)
{
    const auto it = values.constFind(QLatin1String(c.key));
    if (it == values.cend() || std::isnan(*it) || (*it < 0 && qstrcmp(c.key, "request_goodput") == 0))
        return numberItem(QStringLiteral("—"), -1);
    const double v = qstrcmp(c.key, "success_rate") == 0 ? *it * 100 : *it;
    return numberItem(c.decimals < 0 ? ms(v) : QString::number(v, 'f', c.decimals), v);
}

// Without usage and without /tokenize the output count is the number of content events: output
// throughput and TPOT are estimates (ITL, per event, is not).
void markEstimated(const QList<QTableWidgetItem *> &items, const PointSummary &p)
{
    for (int c = 0; c < int(std::size(kColumns)); ++c) {
        const QLatin1String key(kColumns[c].key);
        if (key != QLatin1String("output_throughput") && !key.contains(QLatin1String("_tpot_")))
            continue;
        QTableWidgetItem *item = items[kFirstValueColumn + c];
        item->setText(QStringLiteral("≈ ") + item->text());
        item->setToolTip(ResultsView::tr("Estimated: %1 of %2 requests had no usage and the server no /tokenize, so "
                                         "their output tokens are the number of content events.")
                             .arg(p.outputEstimated)
                             .arg(p.completed));
    }
}

// "TTFT p99" for "p99_ttft_ms", "output throughput" for "output_throughput".
QString metricWords(const QString &key)
{
    static const QRegularExpression latency(QStringLiteral("^(mean|median|p[0-9.]+)_([a-z0-9]+)_ms$"));
    const QRegularExpressionMatch m = latency.match(key);
    if (m.hasMatch())
        return m.captured(2).toUpper() + u' ' + m.captured(1);
    return QString(key).replace(u'_', u' ');
}

} // namespace

void ResultsView::rebuildTable()
{
    const bool several = m_input.runs.size() > 1;
    const bool steady = steadySet();
    const QStringList headers { tr("Run"), tr("Variant"), tr("Point"), tr("Repeat"), tr("Load"), tr("Requests"),
        tr("Failed"), tr("Success (%)"), tr("Requests/s"), tr("Output (tok/s)"), tr("Goodput (req/s)"),
        tr("TTFT p50 (ms)"), tr("TTFT p99 (ms)"), tr("TPOT p50 (ms)"), tr("TPOT p99 (ms)"), tr("ITL p50 (ms)"),
        tr("ITL p99 (ms)"), tr("E2EL p50 (ms)"), tr("E2EL p99 (ms)"), tr("Server running (mean)"),
        tr("Server waiting (max)"), tr("KV cache (max %)"), tr("Preemptions"), tr("GPU util (%)"),
        tr("Dispatch lag p99 (ms)"), tr("Client CPU (%)"), tr("Spread across repeats") };
    QList<QList<QTableWidgetItem *>> rows;
    bool goodput = false, anyRepeats = false;
    QSet<QString> shownServer; // server and client columns some point has
    for (qsizetype r = 0; r < m_input.runs.size(); ++r) {
        const Report::ReportRun &run = m_input.runs.at(r);
        QList<QMap<QString, double>> repeats; // of the point being listed
        for (qsizetype i = 0; i < run.points.size(); ++i) {
            const PointSummary &p = run.points.at(i);
            goodput = goodput || (!steady && p.requestGoodput >= 0);
            const QString load = p.mode == QLatin1String("rate")
                ? (std::isinf(p.requestRate) ? tr("rate inf") : tr("%1 req/s").arg(p.requestRate))
                : tr("c=%1").arg(p.concurrency);
            // The server's series do not depend on the set: they describe the whole point.
            QMap<QString, double> values = steady ? p.steady : summaryValues(p);
            for (auto it = p.server.cbegin(); it != p.server.cend(); ++it) {
                values.insert(QStringLiteral("server_") + it.key(), it.value());
                shownServer.insert(QStringLiteral("server_") + it.key());
            }
            for (auto it = p.client.cbegin(); it != p.client.cend(); ++it) {
                values.insert(QStringLiteral("client_") + it.key(), it.value());
                shownServer.insert(QStringLiteral("client_") + it.key());
            }
            repeats << values;
            const auto identity = [&](const QString &repeat, double sortValue) {
                return QList<QTableWidgetItem *> { new QTableWidgetItem(QString(QChar(char16_t(u'A' + r)))),
                    new QTableWidgetItem(p.variant), new QTableWidgetItem(p.label), numberItem(repeat, sortValue),
                    new QTableWidgetItem(load) };
            };
            QList<QTableWidgetItem *> items = identity(QString::number(p.repeat), p.repeat);
            items[0]->setData(kPointRole, QVariantList { p.runId, p.variant, p.point, p.repeat, p.label });
            for (const TableColumn &c : kColumns) {
                // No request completed: there is no latency to show, not a latency of 0.
                if (c.decimals < 0 && p.completed == 0)
                    items << numberItem(QStringLiteral("—"), -1);
                else
                    items << valueItem(values, c);
            }
            items << new QTableWidgetItem;
            // A cancelled point shows what it completed of what it was to send: "192/320" (of the
            // requests it sent when the configuration does not say how many were planned).
            const qint64 planned = run.plannedPrompts.value(
                Report::plannedKey(p.variant, p.point), qint64(p.completed) + p.failed + p.cancelled);
            if (!steady && p.cancelled > 0) {
                items[kFirstValueColumn]->setText(QStringLiteral("%1/%2").arg(p.completed).arg(planned));
                for (QTableWidgetItem *item : std::as_const(items)) {
                    QFont f = item->font();
                    f.setItalic(true);
                    item->setFont(f);
                    item->setToolTip(
                        tr("Partial: the run was cancelled here; %1 of the %2 planned requests completed, %3 were "
                           "cancelled.")
                            .arg(p.completed)
                            .arg(planned)
                            .arg(p.cancelled));
                }
            }
            if (!steady && p.failed > 0)
                items[kFirstValueColumn + 1]->setForeground(QColor(176, 0, 32));
            if (p.outputEstimated > 0)
                markEstimated(items, p);
            if (p.inputEstimated > 0 && !steady) {
                // Input counts appear in no column; the requests cell carries the mark.
                QTableWidgetItem *requests = items[kFirstValueColumn];
                requests->setText(QStringLiteral("≈ ") + requests->text());
                requests->setToolTip(tr("Estimated input: %1 of %2 requests had no usage and the server no /tokenize, "
                                        "so their input tokens are an estimate (calibrated with max_tokens 1 probes, "
                                        "else the target length).")
                                         .arg(p.inputEstimated)
                                         .arg(p.completed));
            }
            if (steady && p.steady.value(QStringLiteral("valid")) != 1.0) {
                for (QTableWidgetItem *item : std::as_const(items))
                    item->setToolTip(tr("No steady window: the point never had all its slots busy at once."));
            }
            rows << items;

            const bool last = i + 1 == run.points.size() || run.points.at(i + 1).point != p.point
                || run.points.at(i + 1).variant != p.variant;
            if (!last)
                continue;
            if (repeats.size() > 1) {
                anyRepeats = true;
                rows << medianRow(identity(tr("median of %1").arg(repeats.size()), p.repeat + 0.5),
                    steady ? QList<PointEstimate>() : Report::pointEstimates(run, p.variant, p.point), repeats);
            }
            repeats.clear();
        }
    }
    m_table->setSortingEnabled(false);
    m_table->clear();
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setColumnHidden(0, !several);
    m_table->setRowCount(int(rows.size()));
    for (int row = 0; row < rows.size(); ++row) {
        for (int c = 0; c < rows[row].size(); ++c)
            m_table->setItem(row, c, rows[row][c]);
    }
    m_table->setColumnHidden(10, !goodput);
    for (int c = 0; c < int(std::size(kColumns)); ++c) {
        const QString key = QLatin1String(kColumns[c].key);
        if (key.startsWith(QLatin1String("server_")) || key.startsWith(QLatin1String("client_")))
            m_table->setColumnHidden(kFirstValueColumn + c, !shownServer.contains(key));
    }
    m_table->setColumnHidden(int(headers.size()) - 1, !anyRepeats);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

// The row under a point's repeats: each value's median across them (the stored estimate of vLLM's
// set; for the steady set, computed here), and the widest spread of a headline metric, red with
// every metric named when the point is not reproducible.
QList<QTableWidgetItem *> ResultsView::medianRow(QList<QTableWidgetItem *> items, const QList<PointEstimate> &stored,
    const QList<QMap<QString, double>> &repeats) const
{
    // Every statistic is core's; this row only words and colours them.
    const QMap<QString, RepeatStat> stats = repeatStats(stored, repeats);
    QMap<QString, double> medians;
    for (auto it = stats.cbegin(); it != stats.cend(); ++it)
        medians.insert(it.key(), it->median);
    for (const TableColumn &c : kColumns)
        items << valueItem(medians, c);
    const QString widest = widestSpread(stats);
    QStringList unreproducible;
    for (auto it = stats.cbegin(); it != stats.cend(); ++it) {
        if (headlineMetrics().contains(it.key()) && !reproducible(*it))
            unreproducible << tr("%1: spread %2%, CV %3%")
                                  .arg(metricWords(it.key()), QString::number(it->spread() * 100, 'f', 1),
                                      QString::number(it->cv * 100, 'f', 1));
    }
    auto *spread = widest.isEmpty()
        ? numberItem(QString(), -1)
        : numberItem(
            tr("%1% (%2)").arg(QString::number(stats.value(widest).spread() * 100, 'f', 1), metricWords(widest)),
            stats.value(widest).spread());
    spread->setToolTip(unreproducible.isEmpty()
            ? tr("Every headline metric's repeats agree within 5% ((max − min) / median and CV).")
            : tr("Not reproducible at this point:\n%1").arg(unreproducible.join(u'\n')));
    if (!unreproducible.isEmpty())
        spread->setForeground(QColor(176, 0, 32));
    items << spread;
    for (QTableWidgetItem *item : std::as_const(items)) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
    }
    return items;
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
    } else if (kind == QLatin1String("tradeoff")) {
        spec = latencyVsThroughput(inputs, Metric::Tpot, options);
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
    m_deltaModel->setSections(deltas, m_input.runs.size() > 1);
    m_delta->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tabs->setTabVisible(m_tabs->indexOf(m_deltaPane), m_deltaModel->rowCount() > 0);
    m_headline->setSections(deltas, m_input.runs.size() > 1);
}

void ResultsView::applyDeltaFilter()
{
    m_deltaFilter->setFilter(m_deltaFamily->currentData().toInt(), m_decidedOnly->isChecked());
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
