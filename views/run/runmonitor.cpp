// SPDX-License-Identifier: MIT
#include "runmonitor.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include "report/conclusiontext.h"
#include "report/metricnames.h"
#include "report/reportdocument.h"
#include "run/durationestimate.h"

#include <algorithm>

namespace ServeScope {

RunMonitor::RunMonitor(QWidget *parent)
    : QWidget(parent)
    , m_start(new QPushButton(tr("Run")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_overall(new QProgressBar)
    , m_eta(new QLabel)
    , m_where(new QLabel)
    , m_counts(new QLabel)
    , m_state(new QLabel)
    , m_firstError(new QLabel)
    , m_plan(new QLabel)
    , m_errors(new QTableWidget(0, 2))
    , m_baselineRun(new QComboBox)
    , m_reuseLevels(new QCheckBox(tr("Reuse its &levels")))
    , m_verdictTitle(new QLabel)
    , m_verdicts(new QTableWidget(0, 2))
{
    QHBoxLayout *top = buildTopRow();
    m_live.series(LiveCharts::TtftP50)->setName(tr("p50"));
    m_live.series(LiveCharts::TtftP99)->setName(tr("p99"));
    m_live.series(LiveCharts::ItlP50)->setName(tr("p50"));
    m_live.series(LiveCharts::ItlP99)->setName(tr("p99"));
    m_live.series(LiveCharts::OutputTokens)->setName(tr("output"));
    auto *charts = new QHBoxLayout;
    charts->addWidget(buildInfoColumn());
    charts->addWidget(makeChart(tr("TTFT (rolling)"), tr("ms"), { LiveCharts::TtftP50, LiveCharts::TtftP99 }), 1);
    charts->addWidget(makeChart(tr("ITL (rolling)"), tr("ms"), { LiveCharts::ItlP50, LiveCharts::ItlP99 }), 1);
    charts->addWidget(makeChart(tr("Throughput"), tr("tok/s"), { LiveCharts::OutputTokens }), 1);
    m_live.showBaseline(false);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(charts, 1);
    connect(m_start, &QPushButton::clicked, this, &RunMonitor::startRequested);
    connect(m_cancel, &QPushButton::clicked, this, &RunMonitor::cancelRequested);
    m_refresh.setInterval(250);
    connect(&m_refresh, &QTimer::timeout, this, &RunMonitor::refreshCharts);
    m_where->setText(tr("No run in progress."));
}

QHBoxLayout *RunMonitor::buildTopRow()
{
    m_start->setObjectName(QStringLiteral("runButton"));
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_overall->setObjectName(QStringLiteral("overallProgress"));
    m_start->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_cancel->setEnabled(false);
    m_overall->setRange(0, 1000);
    m_overall->setValue(0);
    m_overall->setFormat(tr("%p%"));
    // The live baseline: chosen before a run, fixed while it runs.
    m_baselineRun->setObjectName(QStringLiteral("baselineRun"));
    m_baselineRun->addItem(tr("No earlier run"), qint64(0));
    m_baselineRun->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_baselineRun->setMinimumContentsLength(16);
    m_reuseLevels->setObjectName(QStringLiteral("reuseLevels"));
    m_reuseLevels->setToolTip(tr("The capacity search takes the levels the chosen run measured (same variant and "
                                 "lengths) as known, judged by this experiment's SLOs, and measures only what they "
                                 "leave open."));
    connect(m_baselineRun, &QComboBox::currentIndexChanged, this, &RunMonitor::updateBaselineChoice);
    updateBaselineChoice();
    auto *compareLabel = new QLabel(tr("Compare &with:"));
    compareLabel->setBuddy(m_baselineRun);
    auto *top = new QHBoxLayout;
    top->addWidget(m_start);
    top->addWidget(m_cancel);
    top->addWidget(m_overall, 1);
    top->addWidget(m_eta);
    top->addSpacing(8);
    top->addWidget(compareLabel);
    top->addWidget(m_baselineRun);
    top->addWidget(m_reuseLevels);
    return top;
}

QWidget *RunMonitor::buildInfoColumn()
{
    // The column beside the charts keeps its width; its lines wrap (a 1024-wide screen holds the page
    // beside the project panel).
    for (QLabel *label : { m_where, m_counts, m_state })
        label->setWordWrap(true);
    m_state->setObjectName(QStringLiteral("runState"));
    m_errors->setHorizontalHeaderLabels({ tr("Error"), tr("Requests") });
    m_errors->horizontalHeader()->setStretchLastSection(true);
    m_errors->verticalHeader()->hide();
    m_errors->setMaximumWidth(220);
    m_verdictTitle->setObjectName(QStringLiteral("verdictTitle"));
    m_verdictTitle->setWordWrap(true);
    m_verdicts->setObjectName(QStringLiteral("verdicts"));
    m_verdicts->setHorizontalHeaderLabels({ tr("Point"), tr("Verdict") });
    m_verdicts->horizontalHeader()->setStretchLastSection(true);
    m_verdicts->verticalHeader()->hide();
    m_verdicts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_verdicts->setMinimumHeight(110);
    m_verdictTitle->hide();
    m_verdicts->hide();
    auto *info = new QVBoxLayout;
    info->addWidget(m_where);
    info->addWidget(m_counts);
    info->addWidget(m_state);
    // The failure that ended or spoiled a run, where it cannot be missed.
    m_firstError->setObjectName(QStringLiteral("firstError"));
    m_firstError->setWordWrap(true);
    m_firstError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_firstError->setStyleSheet(QStringLiteral("color: #b00020; font-weight: bold;"));
    m_firstError->hide();
    info->addWidget(m_firstError);
    info->addWidget(m_verdictTitle);
    info->addWidget(m_verdicts, 1);
    info->addWidget(m_errors, 1);
    // What is (or will be) run, so this page needs no trip to Design to be read.
    m_plan->setObjectName(QStringLiteral("runPlan"));
    m_plan->setWordWrap(true);
    m_plan->setTextFormat(Qt::RichText);
    m_plan->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_plan->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    info->addWidget(m_plan);
    auto *infoColumn = new QWidget;
    infoColumn->setLayout(info);
    info->setContentsMargins(0, 0, 0, 0);
    // On a short screen (640 px, or scaled 1.25×) the column scrolls instead of making the page
    // taller than the screen.
    auto *infoScroll = new QScrollArea;
    infoScroll->setWidget(infoColumn);
    infoScroll->setWidgetResizable(true);
    infoScroll->setFrameShape(QFrame::NoFrame);
    infoScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    infoScroll->setFixedWidth(248 + style()->pixelMetric(QStyle::PM_ScrollBarExtent));
    return infoScroll;
}

QChartView *RunMonitor::makeChart(
    const QString &title, const QString &unit, std::initializer_list<LiveCharts::Line> lines)
{
    return m_live.makeChart(tr("%1 (%2)").arg(title, unit), font(), lines);
}

void RunMonitor::setPlan(const Experiment &e, double timeScale)
{
    QStringList variants;
    for (int i = 0; i < e.variants.size(); ++i)
        variants << (i == e.baselineIndex() ? tr("%1 (baseline)").arg(e.variants[i].name) : e.variants[i].name);
    QStringList points;
    for (int i = 0; i < e.load.points.size(); ++i)
        points << e.pointLabel(i);
    const auto esc = [](const QString &s) { return s.toHtmlEscaped(); };
    const QString line = QStringLiteral("<b>%1</b> %2<br>");
    QString plan = QStringLiteral("<p style=\"margin-top:8px\"><b>%1</b><br>").arg(esc(e.name))
        + line.arg(esc(tr("Endpoint:")), esc(e.endpoint.baseUrl + QStringLiteral(" · ") + e.endpoint.model))
        + line.arg(esc(tr("Variants:")), esc(variants.join(QStringLiteral(", "))));
    m_capacitySearch = e.load.capacity.has_value();
    updateBaselineChoice();
    if (const std::optional<CapacitySearch> &c = e.load.capacity) {
        // The levels depend on where the capacity lies: only their bounds are known before the run.
        QStringList bounds;
        for (const Slo &slo : c->slos)
            bounds << QStringLiteral("%1 ≤ %2 ms").arg(slo.key(), formatNumber(slo.maxMs));
        plan += line.arg(esc(tr("Capacity search:")),
                    esc((e.load.mode == LoadMode::Rate ? tr("request rate %1 to %2 req/s") : tr("concurrency %1 to %2"))
                            .arg(formatNumber(c->start), formatNumber(c->max))
                        + QStringLiteral(" · ") + bounds.join(QStringLiteral(", "))))
            + QStringLiteral("<b>%1</b> %2</p>")
                  .arg(esc(tr("Estimated time:")),
                      esc(tr("depends on where the capacity lies: at most %n level(s) per variant", nullptr,
                          c->maxPoints)));
        m_plan->setText(plan);
        return;
    }
    const DurationEstimate est = estimateDuration(e, e.endpoint.isLocalSimulator() ? timeScale : 1.0);
    m_plan->setText(plan + line.arg(esc(tr("Load points:")), esc(points.join(QStringLiteral(", "))))
        + line.arg(esc(tr("Measured requests:")), QLocale().toString(est.requests))
        + QStringLiteral("<b>%1</b> %2</p>").arg(esc(tr("Estimated time:")), esc(formatDuration(est.seconds))));
}

void RunMonitor::updateBaselineChoice()
{
    const QString why = tr("An earlier run of this project to compare with while this one runs: its figures at the "
                           "point under way are drawn dashed on the charts, and each point, once measured, is judged "
                           "against it.");
    m_baselineRun->setToolTip(baselineRun() ? m_baselineRun->currentText() + QStringLiteral("\n\n") + why : why);
    m_baselineRun->setEnabled(!m_running);
    m_reuseLevels->setVisible(m_capacitySearch);
    m_reuseLevels->setEnabled(!m_running && baselineRun() != 0);
}

void RunMonitor::setEarlierRuns(const QVector<RunListing> &runs)
{
    const qint64 chosen = baselineRun();
    QVector<RunListing> newestFirst = runs;
    std::sort(newestFirst.begin(), newestFirst.end(),
        [](const RunListing &a, const RunListing &b) { return a.run.id > b.run.id; });
    m_baselineRun->clear();
    m_baselineRun->addItem(tr("No earlier run"), qint64(0));
    for (const RunListing &r : std::as_const(newestFirst)) {
        if (r.run.status != RunStatus::Running)
            m_baselineRun->addItem(tr("Run %1 · %2").arg(r.run.id).arg(r.run.name), r.run.id);
    }
    m_baselineRun->setCurrentIndex(std::max(0, m_baselineRun->findData(chosen)));
}

qint64 RunMonitor::baselineRun() const
{
    return m_baselineRun->currentData().toLongLong();
}

bool RunMonitor::reuseBaselineLevels() const
{
    return m_capacitySearch && baselineRun() != 0 && m_reuseLevels->isChecked();
}

void RunMonitor::showVerdict(const PointVerdict &v)
{
    static const struct {
        const char *code, *text, *colour;
    } kOutcomes[] = {
        { "better", QT_TR_NOOP("better"), "#1b7f3b" },
        { "worse", QT_TR_NOOP("worse"), "#b00020" },
        { "mixed", QT_TR_NOOP("mixed"), "#a05a00" },
        { "noise", QT_TR_NOOP("no change beyond noise"), nullptr },
        { "missing", QT_TR_NOOP("not in that run"), nullptr },
    };
    auto *point = new QTableWidgetItem(tr("%1 · %2").arg(v.variant, v.label));
    auto *verdict = new QTableWidgetItem(v.outcome);
    for (const auto &o : kOutcomes) {
        if (v.outcome != QLatin1String(o.code))
            continue;
        verdict->setText(tr(o.text));
        if (o.colour)
            verdict->setForeground(QColor(QLatin1String(o.colour)));
    }
    // Failures first: a point whose failures rose reads "worse: 42% failed" before any latency.
    if (!v.rows.isEmpty() && v.rows.first().reason == QLatin1String("failures-rose"))
        verdict->setText(Report::verdictText(v.rows.first()));
    QStringList moved;
    for (const DeltaRow &r : v.rows)
        moved << tr("%1: %2 (%3)").arg(MetricName::of(r.metric).title(), Report::changeText(r), Report::verdictText(r));
    const QString why = !moved.isEmpty()        ? moved.join(QLatin1Char('\n'))
        : v.outcome == QLatin1String("missing") ? tr("The earlier run has no such point.")
        : v.oneRun ? tr("No headline metric changed beyond run-to-run noise: %1.").arg(Report::oneRunLimit(v.floors))
                   : tr("No headline metric changed beyond run-to-run noise and the spread of the repeats.");
    point->setToolTip(why);
    verdict->setToolTip(why);
    // The newest row comes into view unless the user scrolled up to read an earlier one.
    const QScrollBar *bar = m_verdicts->verticalScrollBar();
    const bool following = bar->value() == bar->maximum();
    const int row = m_verdicts->rowCount();
    m_verdicts->insertRow(row);
    m_verdicts->setItem(row, 0, point);
    m_verdicts->setItem(row, 1, verdict);
    if (following)
        m_verdicts->scrollToBottom();
}

void RunMonitor::setRunnable(bool runnable, const QString &why)
{
    m_start->setEnabled(runnable && !m_running);
    m_start->setToolTip(why);
    // The last run's outcome stays in view while nothing stands in the way of the next one.
    if (!m_running)
        m_state->setText(runnable && !m_outcome.isEmpty() ? m_outcome : why);
}

void RunMonitor::forgetLastRun()
{
    m_outcome.clear();
    m_verdicts->setRowCount(0);
    m_verdictTitle->hide();
    m_verdicts->hide();
}

void RunMonitor::runStarted(double estimateSeconds)
{
    m_estimateSeconds = estimateSeconds;
    m_running = true;
    m_live.clear();
    m_last = {};
    m_start->setEnabled(false);
    m_cancel->setEnabled(true);
    m_overall->setValue(0);
    m_errors->setRowCount(0);
    const qint64 vs = baselineRun();
    updateBaselineChoice();
    m_verdicts->setRowCount(0);
    m_verdictTitle->setText(tr("Points against run %1 (dashed on the charts):").arg(vs));
    m_verdictTitle->setToolTip(m_baselineRun->currentText());
    m_verdictTitle->setVisible(vs != 0);
    m_verdicts->setVisible(vs != 0);
    m_live.showBaseline(vs != 0);
    m_outcome.clear();
    m_state->setText(tr("Starting…"));
    m_firstError->hide();
    m_refresh.start();
}

void RunMonitor::runEnded(const RunResult &result)
{
    m_running = false;
    m_refresh.stop();
    refreshCharts();
    m_start->setEnabled(true);
    m_cancel->setEnabled(false);
    updateBaselineChoice();
    if (result.status == RunResult::Status::Finished)
        m_overall->setValue(m_overall->maximum());
    m_eta->clear();
    const QString counts
        = tr("%1 completed, %2 failed, %3 cancelled").arg(result.completed).arg(result.failed).arg(result.cancelled);
    switch (result.status) {
    case RunResult::Status::Finished:
        m_outcome = tr("Run finished: %1.").arg(counts);
        break;
    case RunResult::Status::Cancelled:
        m_outcome = tr("Run cancelled; everything measured so far was kept (%1).").arg(counts);
        break;
    case RunResult::Status::Failed: {
        // The reason's first line in the narrow column; what follows it (a crashed server's last lines) in
        // the tooltip and the log.
        const QStringList lines = result.message.split(u'\n', Qt::SkipEmptyParts);
        m_outcome = tr("Run failed: %1").arg(lines.value(0) + (lines.size() > 1 ? QStringLiteral(" …") : QString()));
        break;
    }
    }
    m_state->setText(m_outcome);
    m_state->setToolTip(result.status == RunResult::Status::Failed ? result.message : QString());
    // The most frequent error class, its count and the first message the server gave for it.
    QString cls;
    int count = 0;
    for (auto it = result.errorsByClass.cbegin(); it != result.errorsByClass.cend(); ++it) {
        if (it.value() > count) {
            cls = it.key();
            count = int(it.value());
        }
    }
    if (count > 0) {
        m_firstError->setText(tr("%n request(s) failed with %1. The first said: %2", nullptr, count)
                                  .arg(cls, result.firstErrorByClass.value(cls, tr("(no message)"))));
        m_firstError->show();
    }
}

QString RunMonitor::phaseText(const QString &phase)
{
    static const struct {
        const char *code, *text;
    } kPhases[] = {
        { "starting server", QT_TR_NOOP("Starting the server…") },
        { "preparing prompts", QT_TR_NOOP("Preparing prompts…") },
        { "warmup", QT_TR_NOOP("Warming up…") },
        { "waiting for start-at", QT_TR_NOOP("Waiting for the shards' common start…") },
        { "measuring", QT_TR_NOOP("Measuring…") },
        { "saving", QT_TR_NOOP("Saving the point…") },
    };
    for (const auto &p : kPhases) {
        if (phase == QLatin1String(p.code))
            return tr(p.text);
    }
    return phase;
}

QString RunMonitor::formatEta(double seconds)
{
    if (seconds < 0)
        return tr("ETA unknown");
    const int s = qRound(seconds);
    if (s < 60)
        return tr("%1 s left").arg(s);
    if (s < 3600)
        return tr("%1 min %2 s left").arg(s / 60).arg(s % 60);
    return tr("%1 h %2 min left").arg(s / 3600).arg((s % 3600) / 60);
}

void RunMonitor::showSnapshot(const RunSnapshot &s)
{
    m_last = s;
    m_live.append(s);
    m_overall->setValue(std::clamp(int(1000.0 * s.fraction), 0, 1000));
    // Early progress extrapolates badly (warmup, prompt sizing, a slow first point): start from the
    // duration estimate and hand over to the measured rate over the first fifth of the run.
    const double done = s.fraction;
    double eta = s.etaSeconds;
    if (m_estimateSeconds > 0 && done < 0.2) {
        const double fromEstimate = std::max(0.0, m_estimateSeconds - s.elapsedNs / 1e9);
        const double w = done / 0.2;
        eta = s.etaSeconds < 0 ? fromEstimate : (1 - w) * fromEstimate + w * s.etaSeconds;
    }
    m_eta->setText(formatEta(eta));
    m_where->setText(tr("Variant %1 (%2/%3) · point %4 (%5/%6) · repeat %7/%8%9")
                         .arg(s.variant)
                         .arg(s.variantIndex + 1)
                         .arg(s.variantCount)
                         .arg(s.pointLabel)
                         .arg(s.point + 1)
                         .arg(s.pointCount)
                         .arg(s.repeat)
                         .arg(s.repeatCount)
                         .arg(s.warmup ? tr(" · warmup") : QString()));
    m_counts->setText(tr("In flight %1 · completed %2 · failed %3 · %4 req/s")
                          .arg(s.inFlight)
                          .arg(s.completed)
                          .arg(s.failed)
                          .arg(s.requestsPerS, 0, 'f', 1));
    m_state->setText(phaseText(s.phase));
    m_errors->setRowCount(int(s.errorsByClass.size()));
    int row = 0;
    for (auto it = s.errorsByClass.cbegin(); it != s.errorsByClass.cend(); ++it, ++row) {
        const QString first = s.firstErrorByClass.value(it.key());
        for (int c = 0; c < 2; ++c) {
            auto *item = new QTableWidgetItem(c == 0 ? it.key() : QString::number(it.value()));
            if (!first.isEmpty())
                item->setToolTip(tr("First: %1").arg(first));
            m_errors->setItem(row, c, item);
        }
    }
}

void RunMonitor::refreshCharts()
{
    if (m_live.refresh())
        ++m_refreshes;
}

} // namespace ServeScope
