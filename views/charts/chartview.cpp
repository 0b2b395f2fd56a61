// SPDX-License-Identifier: MIT
#include "charts/chartview.h"

#include "charts/chartrenderer.h"
#include "report/chartbuilders.h"

#include <QAreaSeries>
#include <QContextMenuEvent>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope::Report {

namespace {

// An axis title wider than the plot loses its parenthetical ("Concurrency (requests in flight)" reads
// "Concurrency") instead of being cut mid-word; exports keep the whole title.
void fitAxisTitles(QChart *chart, const QRectF &plot)
{
    for (QAbstractAxis *axis : chart->axes()) {
        QString full = axis->property("fullTitle").toString();
        if (full.isEmpty()) {
            full = axis->titleText();
            axis->setProperty("fullTitle", full);
        }
        const qreal room = axis->orientation() == Qt::Horizontal ? plot.width() : plot.height();
        qsizetype cut = full.indexOf(QStringLiteral(" ("));
        if (cut < 0)
            cut = full.indexOf(QChar(u'\uFF08')); // a full-width parenthesis
        const bool fits = QFontMetricsF(axis->titleFont()).horizontalAdvance(full) <= room;
        const QString shown = fits || cut <= 0 ? full : full.left(cut);
        if (axis->titleText() != shown)
            axis->setTitleText(shown);
    }
}

} // namespace

ChartView::ChartView(QWidget *parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    m_crosshair = scene()->addLine(QLineF(), QPen(QColor(0x88, 0x88, 0x88), 1, Qt::DashLine));
    m_crosshair->setZValue(1000);
    m_crosshair->hide();
}

QString ChartView::crosshairAt(const QPoint &viewPos)
{
    m_crosshair->hide();
    QChart *c = chart();
    const QPointF scenePos = mapToScene(viewPos);
    if (!c || !c->plotArea().contains(c->mapFromScene(scenePos)))
        return {};
    // The load point nearest to the cursor along x, over every visible marker series.
    double bestX = 0, bestDistance = std::numeric_limits<double>::max();
    QList<QScatterSeries *> markers;
    for (QAbstractSeries *s : c->series()) {
        auto *scatter = qobject_cast<QScatterSeries *>(s);
        if (!scatter || !scatter->isVisible())
            continue;
        markers << scatter;
        for (const QPointF &p : scatter->points()) {
            const double d = std::abs(c->mapToPosition(p, scatter).x() - c->mapFromScene(scenePos).x());
            if (d < bestDistance) {
                bestDistance = d;
                bestX = c->mapToPosition(p, scatter).x();
            }
        }
    }
    if (markers.isEmpty())
        return {};
    QStringList parts;
    for (QScatterSeries *scatter : std::as_const(markers)) {
        const QStringList tips = seriesTooltips(scatter);
        const QList<QPointF> points = scatter->points();
        for (qsizetype i = 0; i < points.size() && i < tips.size(); ++i) {
            if (std::abs(c->mapToPosition(points[i], scatter).x() - bestX) < 0.5)
                parts << tips[i];
        }
    }
    const QRectF plot = c->plotArea();
    const QPointF top = c->mapToScene(QPointF(bestX, plot.top())),
                  bottom = c->mapToScene(QPointF(bestX, plot.bottom()));
    m_crosshair->setLine(QLineF(top, bottom));
    m_crosshair->show();
    return parts.join(QStringLiteral("\n\n"));
}

void ChartView::fitTitles()
{
    if (QChart *c = chart()) {
        c->layout()->activate(); // the plot area as it is now, not as it was before the resize
        fitAxisTitles(c, c->plotArea());
    }
}

void ChartView::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    fitTitles();
}

void ChartView::mouseMoveEvent(QMouseEvent *event)
{
    QChartView::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return; // zooming with the rubber band
    const QString text = crosshairAt(event->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void ChartView::leaveEvent(QEvent *event)
{
    m_crosshair->hide();
    QChartView::leaveEvent(event);
}

ChartView::~ChartView() = default;

void ChartView::setSpec(const ChartSpec &spec)
{
    m_original = spec;
    m_yScale = spec.y.scale;
    rebuild();
}

void ChartView::setYScale(AxisScale scale)
{
    if (scale == m_yScale)
        return;
    m_yScale = scale;
    rebuild();
    emit yScaleChanged(scale);
}

void ChartView::setGroupVisible(const QString &group, bool visible)
{
    if (visible == !m_hidden.contains(group))
        return;
    if (visible)
        m_hidden.remove(group);
    else
        m_hidden.insert(group);
    applyVisibility();
    emit groupVisibilityChanged(group, visible);
}

void ChartView::resetZoom()
{
    if (chart())
        chart()->zoomReset();
}

ChartSpec ChartView::visibleSpec() const
{
    ChartSpec out = m_shown;
    out.series.removeIf([this](const SeriesSpec &s) { return m_hidden.contains(s.group); });
    if (chart() && chart()->isZoomed()) {
        const auto axes = chart()->axes();
        for (QAbstractAxis *a : axes) {
            AxisSpec *spec = a->alignment() == Qt::AlignBottom ? &out.x
                : a->alignment() == Qt::AlignLeft              ? &out.y
                                                               : &out.y2;
            spec->min = a->property("min").toDouble();
            spec->max = a->property("max").toDouble();
            spec->fixedRange = true;
        }
    }
    return out;
}

void ChartView::rebuild()
{
    m_shown = m_yScale == m_original.y.scale ? m_original : withAxisScale(m_original, 'y', m_yScale);
    RenderOptions options;
    options.footer = false; // the application window shows the run; exports carry the footer
    QChart *old = chart();
    QChart *c = createChart(m_shown, options);
    // In the window vertical room is scarce (a laptop screen): the legend goes to the right, the
    // subtitle into the tooltip, margins shrink. Exports keep the full layout.
    c->setTitle(m_shown.title);
    setToolTip(m_shown.subtitle);
    c->legend()->setAlignment(Qt::AlignRight);
    setBaseMargins(c, QMargins(2, 2, 2, 2));
    c->layout()->setContentsMargins(0, 0, 0, 0);
    setChart(c);
    delete old;
    fitTitles();
    for (QAbstractSeries *s : c->series()) {
        if (auto *xy = qobject_cast<QXYSeries *>(s)) {
            connect(xy, &QXYSeries::hovered, this,
                [this, xy](const QPointF &p, bool entered) { showTooltip(xy, p, entered); });
        } else if (auto *area = qobject_cast<QAreaSeries *>(s)) {
            connect(area, &QAreaSeries::hovered, this,
                [this, area](const QPointF &p, bool entered) { showTooltip(area, p, entered); });
        }
    }
    for (QLegendMarker *m : c->legend()->markers()) {
        connect(m, &QLegendMarker::clicked, this, [this, m]() {
            const QString group = seriesGroup(m->series());
            setGroupVisible(group, m_hidden.contains(group));
        });
    }
    applyVisibility();
}

void ChartView::applyVisibility()
{
    if (!chart())
        return;
    for (QAbstractSeries *s : chart()->series())
        s->setVisible(!m_hidden.contains(seriesGroup(s)));
    // Hiding a series hides its legend entry too; keep named entries visible (faded) so they can be clicked back.
    for (QLegendMarker *m : chart()->legend()->markers()) {
        const bool named = !m->series()->name().isEmpty();
        m->setVisible(named);
        QColor label = palette().color(QPalette::Text);
        label.setAlphaF(m_hidden.contains(seriesGroup(m->series())) ? 0.35f : 1.0f);
        m->setLabelBrush(label);
    }
}

void ChartView::showTooltip(QAbstractSeries *series, const QPointF &value, bool entered)
{
    if (!entered) {
        QToolTip::hideText();
        return;
    }
    const QStringList tips = seriesTooltips(series);
    QList<QPointF> points;
    if (auto *xy = qobject_cast<QXYSeries *>(series))
        points = xy->points();
    else if (auto *area = qobject_cast<QAreaSeries *>(series))
        points = area->upperSeries()->points();
    if (tips.isEmpty() || points.isEmpty())
        return;
    // Nearest point on screen to the hovered position.
    const QPointF at = chart()->mapToPosition(value, series);
    qsizetype best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (qsizetype i = 0; i < points.size() && i < tips.size(); ++i) {
        const QPointF d = chart()->mapToPosition(points[i], series) - at;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance < bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    if (best >= 0)
        QToolTip::showText(QCursor::pos(), tips[best], this);
}

void ChartView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_0) {
        resetZoom();
        return;
    }
    if (event->key() == Qt::Key_L) {
        setYScale(m_yScale == AxisScale::Linear ? AxisScale::Log10 : AxisScale::Linear);
        return;
    }
    QChartView::keyPressEvent(event);
}

void ChartView::mouseDoubleClickEvent(QMouseEvent *event)
{
    resetZoom();
    event->accept();
}

// Right button opens the context menu instead of QChartView's zoom-out step.
void ChartView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::RightButton) {
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void ChartView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::RightButton) {
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void ChartView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *log = menu.addAction(tr("Logarithmic y axis"));
    log->setCheckable(true);
    log->setChecked(m_yScale != AxisScale::Linear);
    connect(log, &QAction::toggled, this, [this](bool on) { setYScale(on ? AxisScale::Log10 : AxisScale::Linear); });
    QAction *reset = menu.addAction(tr("Reset zoom"));
    reset->setEnabled(chart() && chart()->isZoomed());
    connect(reset, &QAction::triggered, this, &ChartView::resetZoom);
    if (!m_extraActions.isEmpty()) {
        menu.addSeparator();
        menu.addActions(m_extraActions);
    }
    menu.exec(event->globalPos());
}

} // namespace ServeScope::Report
