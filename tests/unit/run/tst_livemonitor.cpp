// SPDX-License-Identifier: MIT
// The run's progress fraction: points that stop on a count by their requests, points that stop
// on time by their clock, each (variant, point, repeat) once.
#include "run/livemonitor.h"

#include <QRegularExpression>
#include <QTest>
#include <QThread>

using namespace ServeScope;

class TestLiveMonitor final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void fractionCountsPointsAndTime()
    {
        LiveMonitor m;
        m.begin(1, 1, 2, 2); // four (point, repeat) units
        m.publish({});
        QCOMPARE(m.snapshot().fraction, 0.0);
        QCOMPARE(m.snapshot().etaSeconds, -1.0);
        m.setPointPlan(10, 0);
        LoadProgress p;
        p.completed = 4;
        p.failed = 1;
        m.publish(p);
        QCOMPARE(m.snapshot().fraction, 0.5 / 4);
        QVERIFY(m.snapshot().etaSeconds >= 0);
        m.addFinished(PointSummary {});
        m.publish({}); // between points: the next one has not started measuring
        QCOMPARE(m.snapshot().fraction, 0.25);
        // A point that stops after 0.4 s: its clock, not its (zero) request plan.
        m.setPointPlan(0, 0.4);
        QThread::msleep(200);
        m.publish({});
        QVERIFY2(m.snapshot().fraction > 0.25 + 0.4 * 0.25 && m.snapshot().fraction < 0.25 + 0.75 * 0.25,
            qPrintable(QString::number(m.snapshot().fraction)));
        QThread::msleep(300);
        m.publish({});
        QCOMPARE(m.snapshot().fraction, 0.5); // past its time: the point counts as done, no more
        m.addFinished(PointSummary {});
        m.addFinished(PointSummary {});
        m.addFinished(PointSummary {});
        m.publish({});
        QCOMPARE(m.snapshot().fraction, 1.0);
        QCOMPARE(m.snapshot().etaSeconds, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestLiveMonitor)
#include "tst_livemonitor.moc"
