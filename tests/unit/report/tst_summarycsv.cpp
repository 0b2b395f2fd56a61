// SPDX-License-Identifier: MIT
#include "report/summarycsv.h"
#include "testpoints.h"

#include <QRegularExpression>
#include <QTest>

#include <limits>

using namespace ServeScope;
using namespace ServeScope::Report;

class TestSummaryCsv final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void columns()
    {
        const QString expected = QStringLiteral(
            "variant,label,mode,concurrency,request_rate,repeat,completed,failed,success_rate,request_throughput,"
            "output_throughput,total_token_throughput,p50_ttft_ms,p90_ttft_ms,p99_ttft_ms,p50_tpot_ms,p90_tpot_ms,"
            "p99_tpot_ms,p50_itl_ms,p90_itl_ms,p99_itl_ms,p50_e2el_ms,p90_e2el_ms,p99_e2el_ms");
        QCOMPARE(summaryCsvColumns().join(QLatin1Char(',')), expected);
    }

    void rows_data()
    {
        QTest::addColumn<PointSummary>("point");
        QTest::addColumn<QString>("prefix");
        PointSummary c = TestPoints::concurrencyPoint(QStringLiteral("baseline"), 0, 8, 1234.5, 2);
        c.failed = 1;
        c.successRate = 0.99;
        QTest::newRow("concurrency")
            << c << QStringLiteral("baseline,c8,concurrency,8,0,2,100,1,0.99,4.822265625,1234.5,3703.5,28,42,70,");
        PointSummary r
            = TestPoints::ratePoint(QStringLiteral("v,\"2\""), 1, std::numeric_limits<double>::infinity(), 100);
        QTest::newRow("infinite rate, quoted variant") << r << QStringLiteral("\"v,\"\"2\"\"\",rinf,rate,0,inf,1,");
    }
    void rows()
    {
        QFETCH(PointSummary, point);
        QFETCH(QString, prefix);
        const QString row = summaryCsvRow(point);
        QVERIFY2(row.startsWith(prefix), qPrintable(row));
        const QByteArray all = summaryCsv({ point, point });
        QCOMPARE(all.count('\n'), 3);
        QVERIFY(all.startsWith("variant,label,"));
    }
};

QTEST_GUILESS_MAIN(TestSummaryCsv)
#include "tst_summarycsv.moc"
