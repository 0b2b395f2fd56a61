// SPDX-License-Identifier: MIT
#include "run/rollinghistogram.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <vector>

using namespace ServeScope;

namespace {
constexpr qint64 kSecond = 1'000'000'000;

// numpy's linear percentile of a copy of `v`.
double exactPercentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const double h = double(v.size() - 1) * p / 100;
    const size_t i = size_t(h);
    return v[i] + (v[std::min(i + 1, v.size() - 1)] - v[i]) * (h - double(i));
}
} // namespace

class TestRollingHistogram final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void percentilesWithinABin_data()
    {
        QTest::addColumn<QVector<double>>("values");
        QVector<double> uniform, skewed, small;
        for (int i = 1; i <= 1000; ++i)
            uniform << double(i);
        for (int i = 0; i < 999; ++i)
            skewed << 20.0 + (i % 7) * 0.01;
        skewed << 900.0;
        for (int i = 0; i < 100; ++i)
            small << 0.002 * (i + 1);
        QTest::newRow("1..1000 ms") << uniform;
        QTest::newRow("narrow band and one outlier") << skewed;
        QTest::newRow("microseconds") << small;
        QTest::newRow("one value") << QVector<double> { 42.0 };
    }

    void percentilesWithinABin()
    {
        QFETCH(QVector<double>, values);
        RollingHistogram h(5 * kSecond, 20);
        for (double v : values)
            h.add(kSecond, v);
        QCOMPARE(h.count(), qint64(values.size()));
        const std::vector<double> exact(values.begin(), values.end());
        for (double p : { 0.0, 50.0, 90.0, 99.0, 100.0 }) {
            const double want = exactPercentile(exact, p);
            const double got = h.percentile(p);
            QVERIFY2(std::abs(got - want) <= 0.011 * want,
                qPrintable(QStringLiteral("p%1: %2 vs exact %3").arg(p).arg(got).arg(want)));
        }
    }

    void zeroGapsCountAsZero()
    {
        RollingHistogram h(5 * kSecond, 20);
        for (int i = 0; i < 10; ++i)
            h.add(kSecond, 0.0);
        h.add(kSecond, 8.0);
        QCOMPARE(h.percentile(50), 0.0);
        QVERIFY(h.percentile(100) > 7.9 && h.percentile(100) < 8.1);
    }

    void oldSlicesLeaveTheWindow()
    {
        RollingHistogram h(5 * kSecond, 20);
        RollingHistogram sums(5 * kSecond, 20, false);
        h.add(1 * kSecond, 100.0);
        sums.add(1 * kSecond, 7);
        h.add(4 * kSecond, 10.0);
        sums.add(4 * kSecond, 3);
        h.advance(5 * kSecond);
        sums.advance(5 * kSecond);
        QCOMPARE(h.count(), qint64(2));
        QCOMPARE(sums.sum(), 10.0);
        h.advance(6 * kSecond + kSecond / 2); // the slice at 1 s is older than 5 s now
        sums.advance(6 * kSecond + kSecond / 2);
        QCOMPARE(h.count(), qint64(1));
        QCOMPARE(sums.sum(), 3.0);
        QVERIFY(std::abs(h.percentile(50) - 10.0) < 0.1);
        h.add(1 * kSecond, 5.0); // before the window: dropped
        QCOMPARE(h.count(), qint64(1));
        h.advance(20 * kSecond);
        QCOMPARE(h.count(), qint64(0));
        QCOMPARE(h.percentile(99), 0.0);
        // 250 ms slices: 19 full ones and the current partial one are kept.
        QCOMPARE(h.spanNs(20 * kSecond), 4 * kSecond + 3 * kSecond / 4);
        QCOMPARE(h.spanNs(20 * kSecond + kSecond / 8), 4 * kSecond + 7 * kSecond / 8);
    }
};

QTEST_GUILESS_MAIN(TestRollingHistogram)
#include "tst_rollinghistogram.moc"
