// SPDX-License-Identifier: MIT
#include "charts/chartrenderer.h"

#include "report/chartbuilders.h"

#include <QAreaSeries>
#include <QChart>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTextLayout>
#include <QValueAxis>

#include <cmath>

namespace ServeScope::Report {

namespace {

const char *kTooltips = "servescopeTooltips";
const char *kGroup = "servescopeGroup";
const char *kBaseMargins = "servescopeBaseMargins";
const char *kFooterRoom = "servescopeFooterRoom"; ///< pixels the notes and footer take under the plot

QFont font(qreal points, bool bold = false)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

QAbstractAxis *makeAxis(const AxisSpec &a)
{
    QAbstractAxis *axis = nullptr;
    if (a.scale == AxisScale::Linear) {
        auto *v = new QValueAxis;
        v->setRange(a.min, a.max);
        // Ticks on round values anchored at zero, without widening the range the builder chose.
        v->setTickType(QValueAxis::TicksDynamic);
        v->setTickAnchor(0);
        v->setTickInterval(niceTickStep(a.max - a.min));
        v->setLabelFormat(a.labelFormat == QLatin1String("%d") ? QStringLiteral("%.0f") : a.labelFormat);
        v->setMinorTickCount(1);
        axis = v;
    } else {
        auto *l = new QLogValueAxis;
        l->setBase(a.scale == AxisScale::Log2 ? 2.0 : 10.0);
        l->setRange(a.min, a.max);
        l->setLabelFormat(a.labelFormat);
        l->setMinorTickCount(a.scale == AxisScale::Log10 ? 8 : 0);
        axis = l;
    }
    axis->setTitleText(a.title);
    axis->setTitleFont(font(9.5, true));
    axis->setLabelsFont(font(8.5));
    axis->setGridLineColor(QColor(0xDD, 0xDD, 0xDD));
    axis->setMinorGridLineColor(QColor(0xF0, 0xF0, 0xF0));
    axis->setLinePenColor(QColor(0x88, 0x88, 0x88));
    axis->setLabelsColor(QColor(0x33, 0x33, 0x33));
    return axis;
}

QLineSeries *lineFrom(const QList<QPointF> &points, QObject *parent)
{
    auto *s = new QLineSeries(parent);
    s->replace(points);
    return s;
}

QAbstractSeries *makeSeries(const SeriesSpec &s, QChart *chart)
{
    QAbstractSeries *out = nullptr;
    switch (s.kind) {
    case SeriesKind::Band: {
        auto *area = new QAreaSeries(lineFrom(s.points, chart), lineFrom(s.lower, chart));
        QColor fill = s.colour;
        fill.setAlphaF(float(s.opacity));
        area->setBrush(fill);
        area->setPen(Qt::NoPen);
        out = area;
        break;
    }
    case SeriesKind::Line: {
        auto *line = new QLineSeries;
        line->replace(s.points);
        QPen pen(s.colour, s.width, s.dashed ? Qt::DashLine : Qt::SolidLine);
        pen.setCapStyle(Qt::RoundCap);
        pen.setJoinStyle(Qt::RoundJoin);
        line->setPen(pen);
        out = line;
        break;
    }
    case SeriesKind::Scatter: {
        auto *scatter = new QScatterSeries;
        scatter->replace(s.points);
        // The knee's open diamond lets its point show through; a point with failures is a white-filled circle.
        scatter->setMarkerShape(
            s.knee ? QScatterSeries::MarkerShapeRotatedRectangle : QScatterSeries::MarkerShapeCircle);
        scatter->setMarkerSize(s.width);
        scatter->setPen(QPen(s.colour, s.hollow || s.knee ? 2.0 : 1.0));
        scatter->setBrush(s.knee ? QBrush(Qt::NoBrush) : s.hollow ? QBrush(Qt::white) : QBrush(s.colour));
        out = scatter;
        break;
    }
    }
    out->setName(s.name);
    out->setProperty(kTooltips, s.tooltips);
    out->setProperty(kGroup, s.group);
    return out;
}

// `text` broken into lines no wider than `width` (at word boundaries, or anywhere in a word longer
// than a line; the Unicode rules, so Chinese breaks between characters).
QString wrapToWidth(const QString &text, const QFont &f, qreal width)
{
    QStringList out;
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        QTextLayout layout(paragraph, f);
        layout.setTextOption(option);
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            out << paragraph.mid(line.textStart(), line.textLength()).trimmed();
        }
        layout.endLayout();
    }
    return out.join(QLatin1Char('\n'));
}

// Notes and footer are scene items of the chart, so PNG, SVG and PDF all carry them. They wrap to
// the chart's width whenever it changes, and the bottom margin grows by what they take.
void addFooter(QChart *chart, const ChartSpec &spec, const RenderOptions &o)
{
    const QString noteText = o.notes ? spec.notes.join(QLatin1Char('\n')) : QString();
    const QString footText = o.footer ? spec.footerText() : QString();
    if (noteText.isEmpty() && footText.isEmpty())
        return;
    auto *notes = new QGraphicsSimpleTextItem(chart);
    notes->setFont(font(8));
    notes->setBrush(QColor(0x99, 0x55, 0x00));
    auto *foot = new QGraphicsSimpleTextItem(chart);
    foot->setFont(font(8));
    foot->setBrush(QColor(0x55, 0x55, 0x55));
    auto place = [chart, notes, foot, noteText, footText]() {
        const QRectF r = chart->rect();
        // Before the chart has a size, unwrapped: a guess at a tiny width would make the margin, and
        // with it the chart's minimum height, larger than the size it is then given.
        const qreal width = r.width() < 1 ? qreal(1e6) : std::max<qreal>(120, r.width() - 24);
        notes->setText(wrapToWidth(noteText, notes->font(), width));
        foot->setText(wrapToWidth(footText, foot->font(), width));
        const qreal extra = (noteText.isEmpty() ? 0 : notes->boundingRect().height() + 2)
            + (footText.isEmpty() ? 0 : foot->boundingRect().height() + 4);
        chart->setProperty(kFooterRoom, int(std::ceil(extra)) + 6);
        QMargins m = chart->property(kBaseMargins).value<QMargins>();
        m.setBottom(m.bottom() + chart->property(kFooterRoom).toInt());
        if (chart->margins() != m)
            chart->setMargins(m);
        foot->setPos(r.left() + 12, r.bottom() - foot->boundingRect().height() - 6);
        notes->setPos(r.left() + 12, foot->pos().y() - notes->boundingRect().height() - 2);
    };
    QObject::connect(chart, &QChart::geometryChanged, chart, place);
    place();
}

} // namespace

QChart *createChart(const ChartSpec &spec, const RenderOptions &options)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(options.animations ? QChart::SeriesAnimations : QChart::NoAnimation);
    chart->setTheme(QChart::ChartThemeLight);
    chart->setBackgroundRoundness(0);
    chart->setTitle(spec.subtitle.isEmpty()
            ? spec.title
            : QStringLiteral("<div align=\"center\"><b>%1</b><br><span style=\"font-size:9pt;font-weight:normal;"
                             "color:#555\">%2</span></div>")
                  .arg(spec.title.toHtmlEscaped(), spec.subtitle.toHtmlEscaped()));
    chart->setTitleFont(font(12, true));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setFont(font(9));
    chart->legend()->setShowToolTips(true);
    QAbstractAxis *ax = makeAxis(spec.x);
    QAbstractAxis *ay = makeAxis(spec.y);
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    QAbstractAxis *ay2 = nullptr;
    if (spec.hasY2) {
        ay2 = makeAxis(spec.y2);
        ay2->setGridLineVisible(false);
        chart->addAxis(ay2, Qt::AlignRight);
    }
    for (const SeriesSpec &s : spec.series) {
        QAbstractSeries *series = makeSeries(s, chart);
        chart->addSeries(series);
        series->attachAxis(ax);
        series->attachAxis(s.secondaryY && ay2 ? ay2 : ay);
        for (QLegendMarker *m : chart->legend()->markers(series))
            m->setVisible(!s.name.isEmpty());
    }
    chart->setProperty(kBaseMargins, QVariant::fromValue(chart->margins()));
    addFooter(chart, spec, options);
    return chart;
}

QStringList seriesTooltips(const QAbstractSeries *series)
{
    return series ? series->property(kTooltips).toStringList() : QStringList();
}

void setBaseMargins(QChart *chart, const QMargins &margins)
{
    chart->setProperty(kBaseMargins, QVariant::fromValue(margins));
    chart->setMargins(margins + QMargins(0, 0, 0, chart->property(kFooterRoom).toInt()));
}

QString seriesGroup(const QAbstractSeries *series)
{
    return series ? series->property(kGroup).toString() : QString();
}

} // namespace ServeScope::Report
