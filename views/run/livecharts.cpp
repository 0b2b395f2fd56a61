// SPDX-License-Identifier: MIT
#include "livecharts.h"

#include <QChart>
#include <QChartView>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ServeScope {

static constexpr int kRingSize = 240; // one minute at 4 Hz

LiveCharts::LiveCharts()
{
    for (int l = 0; l < LineCount; ++l) {
        m_series[l] = new QLineSeries;
        m_baseline[l] = new QLineSeries;
    }
    m_ring.reserve(kRingSize);
}

QChartView *LiveCharts::makeChart(const QString &title, const QFont &base, std::initializer_list<Line> lines)
{
    // Small charts on a laptop screen (three side by side at 1024 px, or scaled 1.25×): small fonts,
    // the legend under the plot (none for one series: the title names it), the unit in the title and
    // round y ticks, so the plot keeps the width and no axis label is elided.
    QFont small = base;
    small.setPointSizeF(7.5);
    auto *chart = new QChart;
    chart->setTitle(title);
    QFont titleFont = small;
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setFont(small);
    chart->legend()->setVisible(lines.size() > 1);
    chart->setMargins(QMargins(0, 0, 0, 0));
    auto *x = new QValueAxis;
    x->setLabelFormat(QStringLiteral("%.0f s"));
    x->setLabelsFont(small);
    x->setTickCount(3);
    x->setRange(0, 10);
    auto *y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%.3g"));
    y->setLabelsFont(small);
    y->setTickCount(3);
    y->setRange(0, 1);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    // The live series, then their dashed twins (add order is z-order).
    for (QLineSeries *const *all : { m_series, m_baseline }) {
        for (Line l : lines) {
            chart->addSeries(all[l]);
            all[l]->attachAxis(x);
            all[l]->attachAxis(y);
        }
    }
    for (Line l : lines) {
        QPen pen = m_series[l]->pen();
        pen.setStyle(Qt::DashLine);
        m_baseline[l]->setPen(pen);
    }
    m_charts.append({ chart, *std::prev(lines.end()) });
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(120, 120);
    return view;
}

void LiveCharts::showBaseline(bool shown)
{
    for (QLineSeries *s : m_baseline) {
        s->clear();
        s->setVisible(shown);
    }
    // Each chart holds its live series, then their dashed twins. A small chart's legend has no room
    // for the twins: the verdict table's title says what the dashed lines are.
    for (const Chart &c : std::as_const(m_charts)) {
        const QList<QAbstractSeries *> all = c.chart->series();
        for (qsizetype i = all.size() / 2; i < all.size(); ++i) {
            const QList<QLegendMarker *> markers = c.chart->legend()->markers(all.at(i));
            for (QLegendMarker *m : markers)
                m->setVisible(false);
        }
    }
}

void LiveCharts::clear()
{
    m_ring.clear();
    m_ringHead = 0;
}

void LiveCharts::append(const RunSnapshot &s)
{
    const BaselineFigures &b = s.baseline;
    const Sample sample { s.elapsedNs / 1e9, { s.ttftP50Ms, s.ttftP99Ms, s.itlP50Ms, s.itlP99Ms, s.outputTokensPerS },
        { b.ttftP50Ms, b.ttftP99Ms, b.itlP50Ms, b.itlP99Ms, b.outputTokensPerS } };
    if (m_ring.size() < kRingSize) {
        m_ring.append(sample);
    } else {
        m_ring[m_ringHead] = sample;
        m_ringHead = (m_ringHead + 1) % kRingSize;
    }
    m_dirty = true;
}

bool LiveCharts::refresh()
{
    if (!m_dirty)
        return false;
    m_dirty = false;
    QList<QPointF> live[LineCount], baseline[LineCount];
    double xmin = 1e300, xmax = 0;
    for (int k = 0; k < m_ring.size(); ++k) {
        const Sample &s = m_ring.at((m_ringHead + k) % m_ring.size());
        for (int l = 0; l < LineCount; ++l) {
            live[l].append({ s.t, s.live[l] });
            // The baseline's figure at a point holds while that point runs; a point it lacks leaves a gap.
            if (std::isfinite(s.baseline[l]))
                baseline[l].append({ s.t, s.baseline[l] });
        }
        xmin = std::min(xmin, s.t);
        xmax = std::max(xmax, s.t);
    }
    for (int l = 0; l < LineCount; ++l) {
        m_series[l]->replace(live[l]);
        m_baseline[l]->replace(baseline[l]);
    }
    for (const Chart &c : std::as_const(m_charts)) {
        double ymax = 1;
        for (const QList<QPointF> *line : { &live[c.top], &baseline[c.top] }) {
            for (const QPointF &p : *line)
                ymax = std::max(ymax, p.y());
        }
        const auto axes = c.chart->axes();
        for (QAbstractAxis *a : axes) {
            auto *v = static_cast<QValueAxis *>(a);
            if (a->alignment() == Qt::AlignBottom)
                v->setRange(xmin > xmax ? 0 : xmin, std::max(xmax, xmin + 1));
            else {
                v->setRange(0, ymax * 1.05);
                v->applyNiceNumbers();
                // 20000, not 2e+04; 0.25, not 0.250000.
                v->setLabelFormat(v->max() >= 1000 ? QStringLiteral("%.0f") : QStringLiteral("%.3g"));
            }
        }
    }
    return true;
}

} // namespace ServeScope
