// SPDX-License-Identifier: MIT
#include "charts/chartrenderer.h"
#include "charts/chartview.h"
#include "report/chartbuilders.h"
#include "testpoints.h"

#include <QAbstractAxis>
#include <QAreaSeries>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QValueAxis>

using namespace ServeScope;
using namespace ServeScope::Report;

namespace {

ChartSpec abChart()
{
    QList<PointSummary> a, b;
    for (int i = 0; i < 5; ++i) {
        a << TestPoints::concurrencyPoint(QStringLiteral("a"), i, 1 << i, 100.0 * (1 << i));
        b << TestPoints::concurrencyPoint(QStringLiteral("b"), i, 1 << i, 90.0 * (1 << i));
    }
    return latencyVsLoad({ { QStringLiteral("A"), defaultRunColour(0), a, {}, {} },
                             { QStringLiteral("B"), defaultRunColour(1), b, {}, {} } },
        Metric::Tpot);
}

} // namespace

class TestChartView final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*")));
    }

    void rendersSpecInOrder()
    {
        const ChartSpec spec = abChart();
        QChart *chart = createChart(spec);
        const QList<QAbstractSeries *> series = chart->series();
        QCOMPARE(series.size(), spec.series.size());
        // Bands first (z-order), each with an explicit lower series.
        auto *firstArea = qobject_cast<QAreaSeries *>(series.first());
        QVERIFY(firstArea);
        QVERIFY(firstArea->lowerSeries());
        QCOMPARE(firstArea->lowerSeries()->count(), 5);
        QCOMPARE(chart->animationOptions(), QChart::NoAnimation);
        QVERIFY(qobject_cast<QLogValueAxis *>(chart->axes(Qt::Horizontal).first()));
        delete chart;
    }

    // Notes and the footer wrap to the chart's width, again when it is resized, and the plot gives up
    // the room they take: a narrow chart keeps every word inside it, Chinese broken between characters.
    void notesAndFooterWrapToTheWidth()
    {
        ChartSpec spec = abChart();
        const QString english = QStringLiteral("3 point(s) with an infinite or zero load value not shown: the "
                                               "burst points of run B, variant baseline, at every load level");
        const QString chinese
            = QStringLiteral("有三个负载值为无穷大或零的点未显示这些点来自运行乙的基线变体在每一个负载级别上都是如此");
        spec.notes = { english, chinese };
        ChartFooter f;
        f.label = QStringLiteral("A");
        f.runName = QStringLiteral("a run with a long name");
        f.baseUrl = QStringLiteral("https://gateway.example.com/v1");
        f.model = QStringLiteral("Qwen/Qwen3.5-35B-A3B");
        f.runTime = QStringLiteral("2026-12-04T12:16:52Z");
        f.definitions = QStringLiteral("vllm");
        ChartFooter g = f;
        g.label = QStringLiteral("B");
        spec.footers = { f, g };
        QChart *chart = createChart(spec);
        const auto items = [chart] {
            QList<QGraphicsSimpleTextItem *> out;
            for (QGraphicsItem *i : chart->childItems()) {
                if (auto *t = dynamic_cast<QGraphicsSimpleTextItem *>(i); t && !t->text().isEmpty())
                    out << t;
            }
            return out;
        };
        chart->resize(1400, 700);
        const int wideBottom = chart->margins().bottom();
        chart->resize(420, 700);
        QCOMPARE(items().size(), 2);
        QString all;
        for (QGraphicsSimpleTextItem *t : items()) {
            QVERIFY2(t->pos().x() + t->boundingRect().width() <= 420, qPrintable(t->text()));
            QVERIFY(t->pos().y() + t->boundingRect().height() <= 700);
            all += t->text() + u'\n';
        }
        QVERIFY(chart->margins().bottom() > wideBottom);
        QVERIFY(chart->plotArea().bottom() < items().constFirst()->pos().y());
        // Nothing lost: the wrapped English reads the same with its breaks as spaces, the Chinese
        // without them.
        QVERIFY2(all.simplified().contains(english), qPrintable(all));
        QString joined = all;
        QVERIFY2(joined.remove(u'\n').contains(chinese), qPrintable(all));
        chart->resize(1400, 700);
        QCOMPARE(chart->margins().bottom(), wideBottom);
        delete chart;
        // A new chart given a small size gets that size: its footer room is not guessed before it
        // has a width (which made its minimum height larger than what an export then gave it).
        QGraphicsScene scene; // as an export lays it out
        QChart *small = createChart(spec);
        scene.addItem(small);
        small->setGeometry(QRectF(0, 0, 520, 420));
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        QCOMPARE(small->size(), QSizeF(520, 420));
    }

    // A narrow chart shortens an axis title to the words before its parenthetical rather than cutting it;
    // a wide one shows it whole.
    void axisTitleFitsThePlot()
    {
        ChartSpec spec = abChart();
        spec.x.title = QStringLiteral("Concurrency (requests in flight, the load of each point)");
        ChartView view;
        view.resize(260, 300);
        view.setSpec(spec);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto bottomTitle = [&view] {
            for (QAbstractAxis *a : view.chart()->axes(Qt::Horizontal))
                return a->titleText();
            return QString();
        };
        QTRY_COMPARE(bottomTitle(), QStringLiteral("Concurrency"));
        view.resize(1400, 600);
        QTRY_COMPARE(bottomTitle(), spec.x.title);
    }

    void legendToggleHidesGroup()
    {
        ChartView view;
        view.resize(800, 500);
        view.setSpec(abChart());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy spy(&view, &ChartView::groupVisibilityChanged);
        QLegendMarker *markerB = nullptr;
        for (QLegendMarker *m : view.chart()->legend()->markers())
            if (m->label() == QLatin1String("B"))
                markerB = m;
        QVERIFY(markerB);
        emit markerB->clicked();
        QCOMPARE(spy.count(), 1);
        QVERIFY(!view.isGroupVisible(QStringLiteral("B")));
        int visibleB = 0, hiddenB = 0;
        for (QAbstractSeries *s : view.chart()->series())
            if (seriesGroup(s) == QLatin1String("B"))
                (s->isVisible() ? visibleB : hiddenB)++;
        QCOMPARE(visibleB, 0);
        QVERIFY(hiddenB >= 3); // two bands, line, markers
        QVERIFY(markerB->isVisible()); // still clickable
        for (const SeriesSpec &s : view.visibleSpec().series)
            QCOMPARE(s.group, QStringLiteral("A"));
    }

    void logSwitch()
    {
        ChartView view;
        view.setSpec(abChart());
        QVERIFY(qobject_cast<QValueAxis *>(view.chart()->axes(Qt::Vertical).first()));
        QSignalSpy spy(&view, &ChartView::yScaleChanged);
        QTest::keyClick(&view, Qt::Key_L);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(view.yScale(), AxisScale::Log10);
        auto *log = qobject_cast<QLogValueAxis *>(view.chart()->axes(Qt::Vertical).first());
        QVERIFY(log);
        QVERIFY(log->min() > 0);
        QCOMPARE(view.visibleSpec().y.scale, AxisScale::Log10);
        view.setYScale(AxisScale::Linear);
        QVERIFY(qobject_cast<QValueAxis *>(view.chart()->axes(Qt::Vertical).first()));
    }

    void zoomAndReset()
    {
        ChartView view;
        view.resize(800, 500);
        view.setSpec(abChart());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const double fullMax = qobject_cast<QValueAxis *>(view.chart()->axes(Qt::Vertical).first())->max();
        view.chart()->zoomIn(QRectF(200, 100, 200, 150));
        QVERIFY(view.chart()->isZoomed());
        const ChartSpec zoomed = view.visibleSpec();
        QVERIFY(zoomed.y.fixedRange);
        QVERIFY2(zoomed.y.max < fullMax, qPrintable(QStringLiteral("%1 < %2").arg(zoomed.y.max).arg(fullMax)));
        QVERIFY(zoomed.y.min > 0);
        QTest::keyClick(&view, Qt::Key_Escape);
        QVERIFY(!view.chart()->isZoomed());
    }

    void hoverShowsExactValues()
    {
        ChartView view;
        view.resize(800, 500);
        view.setSpec(abChart());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QScatterSeries *markers = nullptr;
        for (QAbstractSeries *s : view.chart()->series())
            if (!markers && seriesGroup(s) == QLatin1String("A"))
                markers = qobject_cast<QScatterSeries *>(s);
        QVERIFY(markers);
        emit markers->hovered(QPointF(4.1, 19.9), true);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("concurrency 4")), qPrintable(QToolTip::text()));
        QVERIFY(QToolTip::text().contains(QStringLiteral("p50 20 ms")));
    }

    void crosshairShowsEverySeriesAtTheNearestPoint()
    {
        ChartView view;
        view.resize(800, 500);
        view.setSpec(abChart());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QScatterSeries *markers = nullptr;
        for (QAbstractSeries *s : view.chart()->series())
            if (!markers && seriesGroup(s) == QLatin1String("A"))
                markers = qobject_cast<QScatterSeries *>(s);
        QVERIFY(markers);
        // A few pixels beside the c=4 marker and well above the lines: anywhere over the plot works.
        const QPointF marker = view.chart()->mapToPosition(QPointF(4, 20), markers);
        const QPoint at
            = view.mapFromScene(view.chart()->mapToScene(QPointF(marker.x() + 6, view.chart()->plotArea().top() + 5)));
        const QString text = view.crosshairAt(at);
        QCOMPARE(text.count(QStringLiteral("concurrency 4")), 2); // A and B
        QVERIFY(text.startsWith(QStringLiteral("A")));
        QVERIFY(text.contains(QStringLiteral("\n\nB")));
        QVERIFY(view.crosshairAt(QPoint(2, 2)).isEmpty()); // outside the plot
        // Hidden series are left out.
        view.setGroupVisible(QStringLiteral("B"), false);
        QCOMPARE(view.crosshairAt(at).count(QStringLiteral("concurrency 4")), 1);
    }
};

QTEST_MAIN(TestChartView)
#include "tst_chartview.moc"
