// SPDX-License-Identifier: MIT
#include "metrics/repeats.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

namespace {

PointSummary repeatOf(const QString &variant, int point, int repeat, double outTps, double ttftP99)
{
    PointSummary p;
    p.runId = 7;
    p.variant = variant;
    p.point = point;
    p.repeat = repeat;
    p.completed = 100;
    p.failed = repeat == 2 ? 1 : 0;
    p.outputThroughput = outTps;
    p.ttft.p99 = ttftP99;
    p.ttft.count = 100 + repeat;
    return p;
}

} // namespace

class TestRepeats final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void medianPerPointInFirstSeenOrder()
    {
        // Two points of one variant and one of another, repeats interleaved as a run stores them.
        const QList<PointSummary> points { repeatOf(QStringLiteral("b"), 1, 1, 10, 5),
            repeatOf(QStringLiteral("a"), 0, 1, 300, 40), repeatOf(QStringLiteral("b"), 1, 2, 30, 9),
            repeatOf(QStringLiteral("a"), 0, 2, 100, 20), repeatOf(QStringLiteral("a"), 0, 3, 200, 90),
            repeatOf(QStringLiteral("b"), 1, 3, 20, 7) };
        const QList<PointSummary> m = medianAcrossRepeats(points);
        QCOMPARE(m.size(), 2);
        QCOMPARE(m[0].variant, QStringLiteral("b"));
        QCOMPARE(m[0].outputThroughput, 20.0);
        QCOMPARE(m[0].ttft.p99, 7.0);
        QCOMPARE(m[1].variant, QStringLiteral("a"));
        QCOMPARE(m[1].outputThroughput, 200.0);
        QCOMPARE(m[1].ttft.p99, 40.0);
        QCOMPARE(m[1].ttft.count, 102);
        // Counts are totals, and `repeat` says how many repeats the median was taken over.
        QCOMPARE(m[1].completed, 300);
        QCOMPARE(m[1].failed, 1);
        QCOMPARE(m[1].repeat, 3);
    }

    void evenNumberOfRepeatsAveragesTheMiddle()
    {
        const QList<PointSummary> m = medianAcrossRepeats(
            { repeatOf(QStringLiteral("a"), 0, 1, 100, 1), repeatOf(QStringLiteral("a"), 0, 2, 400, 1),
                repeatOf(QStringLiteral("a"), 0, 3, 200, 1), repeatOf(QStringLiteral("a"), 0, 4, 300, 1) });
        QCOMPARE(m.size(), 1);
        QCOMPARE(m[0].outputThroughput, 250.0);
    }

    void unreliable_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("p");
        QTest::addColumn<bool>("unreliable");
        QTest::newRow("p99-999") << 999 << 99.0 << true;
        QTest::newRow("p99-1000") << 1000 << 99.0 << false;
        QTest::newRow("p90-99") << 99 << 90.0 << true;
        QTest::newRow("p90-100") << 100 << 90.0 << false;
        QTest::newRow("p50-20") << 20 << 50.0 << false;
        QTest::newRow("p100") << 100000 << 100.0 << true;
    }

    void unreliable()
    {
        QFETCH(int, n);
        QFETCH(double, p);
        QFETCH(bool, unreliable);
        QCOMPARE(percentileUnreliable(n, p), unreliable);
    }
};

QTEST_GUILESS_MAIN(TestRepeats)
#include "tst_repeats.moc"
