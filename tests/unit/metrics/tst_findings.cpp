// SPDX-License-Identifier: MIT
// Constructed runs, each with the findings it must and must not produce.
#include "metrics/findings.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

namespace {

// A concurrency point with medians in ms and the server's summary.
PointSummary point(const QString &variant, int c, double ttft, double tpot, double tput,
    const QMap<QString, double> &server = {}, int repeat = 1)
{
    PointSummary p;
    p.variant = variant;
    p.point = c;
    p.repeat = repeat;
    p.label = QStringLiteral("c%1").arg(c);
    p.mode = QStringLiteral("concurrency");
    p.concurrency = c;
    p.inputLen = 512;
    p.outputLen = 128;
    p.completed = 2000;
    p.ttft.p50 = ttft;
    p.ttft.p99 = ttft * 1.2;
    p.ttft.count = 2000;
    p.tpot.p50 = tpot;
    p.outputThroughput = tput;
    p.server = server;
    return p;
}

QStringList codes(const QList<RunFinding> &f)
{
    QStringList out;
    for (const RunFinding &x : f)
        out << x.code + u'@' + x.variant;
    return out;
}

const RunFinding *find(const QList<RunFinding> &f, const QString &code)
{
    for (const RunFinding &x : f) {
        if (x.code == code)
            return &x;
    }
    return nullptr;
}

} // namespace

class TestFindings final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void findingsOfConstructedRuns_data()
    {
        QTest::addColumn<QList<PointSummary>>("points");
        QTest::addColumn<QStringList>("must");
        QTest::addColumn<QStringList>("mustNot");
        const QMap<QString, double> queue { { QStringLiteral("waiting_max"), 40 },
            { QStringLiteral("running_max"), 8 } };
        const QMap<QString, double> idle { { QStringLiteral("waiting_max"), 0 },
            { QStringLiteral("running_max"), 64 } };
        QTest::newRow("healthy: throughput rises, TTFT with the load")
            << QList<PointSummary> { point(QStringLiteral("a"), 1, 10, 5, 200),
                   point(QStringLiteral("a"), 8, 40, 6, 1500), point(QStringLiteral("a"), 64, 300, 8, 9000) }
            << QStringList { QStringLiteral("healthy@a") }
            << QStringList { QStringLiteral("queueing@a"), QStringLiteral("capacity-knee@a") };
        QTest::newRow("queueing confirmed by the waiting queue")
            << QList<PointSummary> { point(QStringLiteral("q"), 1, 10, 5, 200),
                   point(QStringLiteral("q"), 8, 12, 5, 1500), point(QStringLiteral("q"), 16, 200, 5.2, 1520, queue),
                   point(QStringLiteral("q"), 32, 600, 5.1, 1530, queue) }
            << QStringList { QStringLiteral("queueing@q"), QStringLiteral("capacity-knee@q") }
            << QStringList { QStringLiteral("healthy@q"), QStringLiteral("bandwidth-bound-decode@q") };
        QTest::newRow("the pattern with an empty waiting queue is refuted") << QList<PointSummary> {
            point(QStringLiteral("r"), 1, 10, 5, 200), point(QStringLiteral("r"), 16, 400, 5.5, 3000, idle)
        } << QStringList { QStringLiteral("healthy@r") } << QStringList { QStringLiteral("queueing@r") };
        QTest::newRow("bandwidth: TPOT doubles while throughput falls")
            << QList<PointSummary> { point(QStringLiteral("b"), 1, 10, 5, 200),
                   point(QStringLiteral("b"), 8, 30, 7, 1400), point(QStringLiteral("b"), 16, 60, 14, 1100) }
            << QStringList { QStringLiteral("bandwidth-bound-decode@b") }
            << QStringList { QStringLiteral("healthy@b") };
        QTest::newRow("one point: no curve, no curve finding")
            << QList<PointSummary> { point(QStringLiteral("one"), 8, 10, 5, 1000) } << QStringList {}
            << QStringList { QStringLiteral("healthy@one"), QStringLiteral("queueing@one") };
        PointSummary late = point(QStringLiteral("l"), 64, 100, 6, 8000);
        late.client = { { QStringLiteral("dispatch_lag_p99_ms"), 12.5 }, { QStringLiteral("cpu_percent"), 40 },
            { QStringLiteral("cores"), 2 } };
        PointSummary busy = point(QStringLiteral("l"), 128, 150, 7, 9000);
        busy.client = { { QStringLiteral("dispatch_lag_p99_ms"), 0.2 }, { QStringLiteral("cpu_percent"), 185 },
            { QStringLiteral("cores"), 2 } };
        QTest::newRow("client-limited: requests sent late, or every core busy")
            << QList<PointSummary> { point(QStringLiteral("l"), 1, 10, 5, 200), late, busy }
            << QStringList { QStringLiteral("client-limited@l") } << QStringList {};
        PointSummary calm = point(QStringLiteral("m"), 64, 100, 6, 8000);
        calm.client = { { QStringLiteral("dispatch_lag_p99_ms"), 0.05 }, { QStringLiteral("cpu_percent"), 30 },
            { QStringLiteral("cores"), 2 } };
        QTest::newRow("a calm client limits nothing")
            << QList<PointSummary> { point(QStringLiteral("m"), 1, 10, 5, 200), calm } << QStringList {}
            << QStringList { QStringLiteral("client-limited@m") };
        QTest::newRow("KV-cache pressure: preemptions with a full cache")
            << QList<PointSummary> { point(QStringLiteral("k"), 1, 10, 5, 200),
                   point(QStringLiteral("k"), 64, 100, 6, 8000,
                       { { QStringLiteral("preemptions"), 12 }, { QStringLiteral("kv_usage_max"), 97 } }) }
            << QStringList { QStringLiteral("kv-cache-pressure@k") } << QStringList { QStringLiteral("healthy@k") };
    }
    void findingsOfConstructedRuns()
    {
        QFETCH(QList<PointSummary>, points);
        QFETCH(QStringList, must);
        QFETCH(QStringList, mustNot);
        const QStringList got = codes(runFindings(points, {}, true));
        for (const QString &m : must)
            QVERIFY2(got.contains(m), qPrintable(got.join(u' ')));
        for (const QString &m : mustNot)
            QVERIFY2(!got.contains(m), qPrintable(got.join(u' ')));
    }

    void queueingCarriesItsNumbers()
    {
        const QList<RunFinding> f = runFindings(
            { point(QStringLiteral("q"), 1, 10, 5, 200),
                point(QStringLiteral("q"), 16, 200, 5.5, 1500, { { QStringLiteral("waiting_max"), 9 } }) },
            {}, true);
        const RunFinding *q = find(f, QStringLiteral("queueing"));
        QVERIFY(q);
        QCOMPARE(q->kind, RunFinding::Kind::Problem);
        QCOMPARE(q->points, QStringList { QStringLiteral("c16") });
        QCOMPARE(q->value(QStringLiteral("ttft_ratio")), 20.0);
        QCOMPARE(q->value(QStringLiteral("tpot_ratio")), 1.1);
        QCOMPARE(q->confirmation, RunFinding::Confirmation::Confirmed);
        QCOMPARE(findingLine(*q),
            QStringLiteral("queueing\tq\tc16\tttft_ratio=20\ttpot_ratio=1.1\twaiting_max=9\tconfirmed"));
        // Without the server's series it is a hypothesis that says so.
        const QList<RunFinding> bare = runFindings(
            { point(QStringLiteral("q"), 1, 10, 5, 200), point(QStringLiteral("q"), 16, 200, 5.5, 1500) }, {}, true);
        QCOMPARE(find(bare, QStringLiteral("queueing"))->confirmation, RunFinding::Confirmation::NoEvidence);
    }

    // Caveats of whole runs: grouped, one per variant (unreliable percentiles one per run).
    void caveatsAreGrouped()
    {
        PointSummary a = point(QStringLiteral("a"), 1, 10, 5, 200), b = point(QStringLiteral("b"), 1, 10, 5, 200);
        a.ttft.count = b.ttft.count = 40;
        a.failed = 30; // 1.5% of finished requests
        b.outputEstimated = 20;
        b.server = { { QStringLiteral("prefix_cache_hit_rate"), 12.5 } };
        PointEstimate noisy;
        noisy.variant = QStringLiteral("a");
        noisy.point = 1;
        noisy.metric = QStringLiteral("p90_ttft_ms");
        noisy.repeats = 3;
        noisy.median = 10;
        noisy.min = 9;
        noisy.max = 12;
        const QList<RunFinding> f = runFindings({ a, b }, { noisy }, true);
        QStringList got = codes(f);
        got.sort();
        QCOMPARE(got,
            QStringList({ QStringLiteral("cache-contaminated@b"), QStringLiteral("censored@a"),
                QStringLiteral("noisy-repeats@a"), QStringLiteral("output-estimated@b"),
                QStringLiteral("unreliable-percentiles@") }));
        QCOMPARE(find(f, QStringLiteral("noisy-repeats"))->value(QStringLiteral("spread")), 0.3);
        QCOMPARE(find(f, QStringLiteral("unreliable-percentiles"))->value(QStringLiteral("fewest_requests")), 40.0);
        // A workload that shares prefixes on purpose is not contaminated by its hits.
        QVERIFY(!codes(runFindings({ a, b }, {}, false)).contains(QStringLiteral("cache-contaminated@b")));
    }
};

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
