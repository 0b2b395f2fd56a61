// SPDX-License-Identifier: MIT
// GPUs per variant from where an experiment says them, per-GPU and per-user throughput and the
// price of a million tokens, the Pareto frontier and the reading of a curve at a per-user speed.
#include "metrics/servingcost.h"

#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

using namespace ServeScope;

class TestServingCost final : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void gpusFromWhereTheExperimentSaysThem_data()
    {
        QTest::addColumn<int>("typed");
        QTest::addColumn<QJsonObject>("args");
        QTest::addColumn<QString>("gpuCount");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("source");
        QTest::newRow("typed wins") << 16 << QJsonObject { { QStringLiteral("tensor_parallel_size"), 8 } }
                                    << QStringLiteral("4") << 16 << QStringLiteral("server.gpus");
        QTest::newRow("vLLM tp x pp x dp") << 0
                                           << QJsonObject { { QStringLiteral("tensor_parallel_size"), 4 },
                                                  { QStringLiteral("pipeline-parallel-size"), 2 },
                                                  { QStringLiteral("data_parallel_size"), QStringLiteral("3") } }
                                           << QString() << 24 << QStringLiteral("server.args");
        QTest::newRow("SGLang tp_size, dp_size")
            << 0 << QJsonObject { { QStringLiteral("tp_size"), 2 }, { QStringLiteral("dp_size"), 2 } } << QString() << 4
            << QStringLiteral("server.args");
        QTest::newRow("environment") << 0 << QJsonObject { { QStringLiteral("max_num_seqs"), 256 } }
                                     << QStringLiteral("8") << 8 << QStringLiteral("environment");
        QTest::newRow("a fraction is no size")
            << 0 << QJsonObject { { QStringLiteral("tp"), 1.5 } } << QString() << 1 << QStringLiteral("assumed");
        QTest::newRow("nothing") << 0 << QJsonObject {} << QString() << 1 << QStringLiteral("assumed");
    }
    void gpusFromWhereTheExperimentSaysThem()
    {
        QFETCH(int, typed);
        QFETCH(QJsonObject, args);
        QFETCH(QString, gpuCount);
        QFETCH(int, count);
        QFETCH(QString, source);
        Experiment x;
        x.server.gpus = typed;
        for (auto it = args.constBegin(); it != args.constEnd(); ++it)
            x.server.args.set(it.key(), it.value());
        if (!gpuCount.isEmpty())
            x.envSnapshot << EnvEntry { QStringLiteral("gpu_count"), gpuCount, EnvSource::Probe };
        const ServingGpus g = servingGpus(x);
        QCOMPARE(g.count, count);
        QCOMPARE(g.source, source);
    }

    void perGpuPerUserAndPrice()
    {
        PointSummary p;
        p.outputThroughput = 4000;
        p.tpot.median = 20; // ms: 50 tokens/s for one user
        const ServingPoint s = servingPoint(p, 8, 2.5);
        QCOMPARE(s.perGpu, 500.0);
        QCOMPARE(s.perUser, 50.0);
        // 8 GPUs at 2.5 an hour make 4000 x 3600 tokens: 20 / 14.4 M tokens.
        QCOMPARE(s.costPerMillion, 2.5 * 8 / 3600.0 / 4000.0 * 1e6);
        QVERIFY(std::abs(s.costPerMillion - 1.388888889) < 1e-9);
        QVERIFY(std::isnan(servingPoint(p, 8, 0).costPerMillion));
        p.tpot.median = 0; // one output token per request: no TPOT
        QVERIFY(std::isnan(servingPoint(p, 8, 2.5).perUser));
    }

    // Points no other beats on both axes, fastest per user last.
    void paretoFrontierKeepsTheUndominated()
    {
        const QList<QPointF> points { { 10, 900 }, { 20, 800 }, { 20, 700 }, { 30, 500 }, { 15, 600 }, { 40, 100 },
            { 35, 90 }, { std::nan(""), 5000 } };
        const QList<QPointF> f = paretoFrontier(points);
        QCOMPARE(f, (QList<QPointF> { { 10, 900 }, { 20, 800 }, { 30, 500 }, { 40, 100 } }));
        QVERIFY(paretoFrontier({}).isEmpty());
    }

    // Linear between the two points around the speed, in any input order; never outside the range.
    void curveReadAtAPerUserSpeed()
    {
        const QList<QPointF> curve { { 50, 200 }, { 10, 1000 }, { 30, 600 } };
        QCOMPARE(*perGpuAt(curve, 20), 800.0);
        QCOMPARE(*perGpuAt(curve, 30), 600.0);
        QCOMPARE(*perGpuAt(curve, 40), 400.0);
        QCOMPARE(*perGpuAt(curve, 10), 1000.0);
        QVERIFY(!perGpuAt(curve, 9.99));
        QVERIFY(!perGpuAt(curve, 50.01));
        QVERIFY(!perGpuAt({}, 20));
    }
};

QTEST_GUILESS_MAIN(TestServingCost)
#include "tst_servingcost.moc"
