// SPDX-License-Identifier: MIT
#include "model/experiment.h"
#include "testexperiment.h"

#include <QRegularExpression>
#include <QTest>

#include <limits>

using namespace ServeScope;

class TestExperiment final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void sanitize_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QStringLiteral("seqs-64") << QStringLiteral("seqs-64");
        QTest::newRow("dots and underscores") << QStringLiteral("v1.2_x") << QStringLiteral("v1.2_x");
        QTest::newRow("spaces and slashes") << QStringLiteral("a b/c") << QStringLiteral("a_b_c");
        QTest::newRow("unicode") << QStringLiteral("vllm\u00e9") << QStringLiteral("vllm_");
        QTest::newRow("empty") << QString() << QStringLiteral("_");
        QTest::newRow("dot") << QStringLiteral(".") << QStringLiteral("_");
        QTest::newRow("dotdot") << QStringLiteral("..") << QStringLiteral("_");
        QTest::newRow("path traversal") << QStringLiteral("../x") << QStringLiteral(".._x");
    }
    void sanitize()
    {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(sanitizeName(input), expected);
    }

    void pointLabel_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<double>("rate");
        QTest::addColumn<QString>("expected");
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("given label") << 0 << QStringLiteral("l1") << 4 << 0.0 << QStringLiteral("l1");
        QTest::newRow("label sanitised") << 0 << QStringLiteral("big load") << 4 << 0.0 << QStringLiteral("big_load");
        QTest::newRow("concurrency") << 0 << QString() << 32 << 0.0 << QStringLiteral("c32");
        QTest::newRow("integer rate") << 1 << QString() << 0 << 8.0 << QStringLiteral("r8");
        QTest::newRow("fractional rate") << 1 << QString() << 0 << 2.5 << QStringLiteral("r2.5");
        QTest::newRow("infinite rate") << 1 << QString() << 0 << inf << QStringLiteral("rinf");
    }
    void pointLabel()
    {
        QFETCH(int, mode);
        QFETCH(QString, label);
        QFETCH(int, concurrency);
        QFETCH(double, rate);
        QFETCH(QString, expected);
        Experiment x;
        x.load.mode = LoadMode(mode);
        LoadPoint p;
        p.label = label;
        p.concurrency = concurrency;
        p.requestRate = rate;
        x.load.points << p;
        QCOMPARE(x.pointLabel(0), expected);
        QCOMPARE(x.pointLabel(1), QString());
    }

    void gradientExpansion()
    {
        ConcurrencyGradient g { { 1, 4, 8, 64 }, 128, 64, 20, 5, 0 };
        const QList<LoadPoint> points = g.expand();
        QCOMPARE(points.size(), 4);
        QCOMPARE(points.at(0).numPrompts, 20);
        QCOMPARE(points.at(1).numPrompts, 20);
        QCOMPARE(points.at(2).numPrompts, 40);
        QCOMPARE(points.at(3).numPrompts, 320);
        QCOMPARE(points.at(3).concurrency, 64);
        QCOMPARE(points.at(3).inputLen, 128);
        LoadMatrix m;
        m.gradient = g;
        m.points = points;
        QVERIFY(m.pointsFromGradient());
        m.points[1].inputLen = 256;
        QVERIFY(!m.pointsFromGradient());
    }

    void equalityIsSemanticForGradients()
    {
        Experiment a = Testing::validExperiment();
        Experiment b = a;
        b.load.gradient.levels = { 1, 8, 16 };
        QVERIFY(a == b); // spelling of points does not matter
        b.load.points[0].outputLen = 65;
        QVERIFY(!(a == b));
    }

    void baselineIndex()
    {
        Experiment x = Testing::validExperiment();
        QCOMPARE(x.baselineIndex(), 0);
        x.variants[1].baseline = true;
        QCOMPARE(x.baselineIndex(), 1);
        x.variants.clear();
        QCOMPARE(x.baselineIndex(), -1);
    }

    void enumNames()
    {
        Dialect d = Dialect::Vllm;
        QVERIFY(parseDialect(u"openai-strict", &d));
        QCOMPARE(d, Dialect::OpenAiStrict);
        QCOMPARE(dialectName(d), QStringLiteral("openai-strict"));
        QVERIFY(!parseDialect(u"tgi", &d));
        LoadMode m = LoadMode::Concurrency;
        QVERIFY(parseLoadMode(u"rate", &m));
        QCOMPARE(m, LoadMode::Rate);
        QVERIFY(!parseLoadMode(u"Rate", &m));
    }

    void metatypes()
    {
        const Experiment x = Testing::validExperiment();
        const QVariant v = QVariant::fromValue(x);
        QVERIFY(v.value<Experiment>() == x);
    }

    void simulatorEndpoint()
    {
        Endpoint e;
        e.baseUrl = QStringLiteral("sim:");
        QVERIFY(e.isLocalSimulator());
        e.baseUrl = QStringLiteral("http://sim:8000");
        QVERIFY(!e.isLocalSimulator());
    }
};

QTEST_GUILESS_MAIN(TestExperiment)
#include "tst_experiment.moc"
