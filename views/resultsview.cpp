// SPDX-License-Identifier: MIT
#include "resultsview.h"

#include "charts/chartview.h"
#include "report/chartbuilders.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ServeScope {

ResultsView::ResultsView(QWidget *parent)
    : QWidget(parent)
    , m_tabs(new QTabWidget(this))
    , m_table(new QTableWidget(this))
    , m_empty(new QLabel(this))
{
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->setSortingEnabled(false);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setText(tr("No results yet. Run the experiment, or pick a run in the project tree."));
    m_empty->setStyleSheet(QStringLiteral("color: palette(mid); font-size: 11pt;"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty);
    layout->addWidget(m_tabs, 1);
    auto *chartPage = new QWidget;
    auto *chartLayout = new QVBoxLayout(chartPage);
    m_chartKind = new QComboBox;
    m_chartKind->setObjectName(QStringLiteral("chartKind"));
    m_chartKind->addItem(tr("Output throughput vs load"), QStringLiteral("throughput"));
    m_chartKind->addItem(tr("TTFT vs load"), QStringLiteral("ttft"));
    m_chartKind->addItem(tr("TPOT vs load"), QStringLiteral("tpot"));
    m_chartKind->addItem(tr("ITL vs load"), QStringLiteral("itl"));
    m_chartKind->addItem(tr("E2E latency vs load"), QStringLiteral("e2el"));
    m_chartKind->addItem(tr("TPOT vs throughput"), QStringLiteral("tradeoff"));
    // Hover for exact values, click a legend entry to hide a variant, L for a log axis,
    // drag to zoom, double-click or Esc to reset.
    m_chartView = new Report::ChartView;
    m_chartView->setMinimumHeight(260);
    chartLayout->addWidget(m_chartKind);
    chartLayout->addWidget(m_chartView, 1);
    m_tabs->addTab(chartPage, tr("Charts"));
    connect(m_chartKind, &QComboBox::currentIndexChanged, this, &ResultsView::rebuildChart);
    m_tabs->addTab(m_table, tr("Table"));
    m_tabs->hide();
}

void ResultsView::clear()
{
    m_points.clear();
    m_runName.clear();
    rebuildTable();
    rebuildChart();
}

void ResultsView::setRun(const QString &runName, const QList<PointSummary> &points)
{
    m_runName = runName;
    m_points = points;
    rebuildTable();
    rebuildChart();
}

void ResultsView::addPoint(const PointSummary &point)
{
    m_points.append(point);
    rebuildTable();
    rebuildChart();
}

static QString ms(double v)
{
    return QString::number(v, 'f', v < 10 ? 2 : 1);
}

void ResultsView::rebuildTable()
{
    const QStringList headers { tr("Variant"), tr("Point"), tr("Repeat"), tr("Load"), tr("Completed"), tr("Failed"),
        tr("Success"), tr("Req/s"), tr("Output tok/s"), tr("TTFT p50"), tr("TTFT p99"), tr("TPOT p50"), tr("TPOT p99"),
        tr("ITL p50"), tr("ITL p99"), tr("E2EL p50"), tr("E2EL p99") };
    m_table->clear();
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(int(m_points.size()));
    for (int r = 0; r < m_points.size(); ++r) {
        const PointSummary &p = m_points.at(r);
        const QString load = p.mode == QLatin1String("rate")
            ? (std::isinf(p.requestRate) ? tr("rate inf") : tr("%1 req/s").arg(p.requestRate))
            : tr("c=%1").arg(p.concurrency);
        const QStringList cells { p.variant, p.label, QString::number(p.repeat), load, QString::number(p.completed),
            QString::number(p.failed), QStringLiteral("%1%").arg(p.successRate * 100, 0, 'f', 1),
            QString::number(p.requestThroughput, 'f', 2), QString::number(p.outputThroughput, 'f', 1), ms(p.ttft.p50),
            ms(p.ttft.p99), ms(p.tpot.p50), ms(p.tpot.p99), ms(p.itl.p50), ms(p.itl.p99), ms(p.e2el.p50),
            ms(p.e2el.p99) };
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells.at(c));
            if (c >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 5 && p.failed > 0)
                item->setForeground(QColor(176, 0, 32));
            m_table->setItem(r, c, item);
        }
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_empty->setVisible(m_points.isEmpty());
    m_tabs->setVisible(!m_points.isEmpty());
}

void ResultsView::rebuildChart()
{
    using namespace Report;
    if (!m_chartView)
        return;
    if (m_points.isEmpty()) {
        m_chartView->setSpec(ChartSpec {});
        return;
    }
    // One run: the variants are the series, named by variant.
    const QList<RunSeriesInput> inputs = inputsPerVariant(QString(), m_points);
    const QString kind = m_chartKind->currentData().toString();
    ChartSpec spec;
    if (kind == QLatin1String("throughput")) {
        spec = throughputVsLoad(inputs, ThroughputKind::OutputTokens);
    } else if (kind == QLatin1String("tradeoff")) {
        spec = latencyVsThroughput(inputs, Metric::Tpot);
    } else {
        Metric m = Metric::Ttft;
        metricFromCode(kind, &m);
        spec = latencyVsLoad(inputs, m);
    }
    m_chartView->setSpec(spec);
}

} // namespace ServeScope
