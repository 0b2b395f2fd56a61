// SPDX-License-Identifier: MIT
#include "compare/runsource.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

namespace {

/// A point whose requests all take `ttftMs` to the first token, three repeats.
PointRepeats point(const QString &variant, int concurrency, double ttftMs, double throughput)
{
    PointRepeats p;
    p.variant = variant;
    p.label = QStringLiteral("c%1").arg(concurrency);
    p.mode = QStringLiteral("concurrency");
    p.concurrency = concurrency;
    for (int r = 0; r < 3; ++r) {
        p.repeats << QMap<QString, double> { { QStringLiteral("median_ttft_ms"), ttftMs },
            { QStringLiteral("output_throughput"), throughput * (1 + 0.01 * r) } };
    }
    for (int i = 0; i < 200; ++i) {
        RequestSample s;
        s.ttft = ttftMs / 1000 * (1 + 0.001 * (i % 10));
        p.samples.push_back(s);
    }
    return p;
}

} // namespace

class TestDeltaSections final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void oneRunComparesEachVariantWithTheFirst()
    {
        RunSource run;
        run.name = QStringLiteral("sweep");
        run.points << point(QStringLiteral("baseline"), 8, 10, 1000) << point(QStringLiteral("seqs-2"), 8, 40, 500)
                   << point(QStringLiteral("seqs-4"), 8, 10, 1000);
        const QList<DeltaSection> sections = deltaSections({ run });
        QCOMPARE(sections.size(), 2);
        QCOMPARE(sections[0].title, QStringLiteral("B: seqs-2 vs A: baseline"));
        QCOMPARE(sections[1].title, QStringLiteral("B: seqs-4 vs A: baseline"));
        const auto row = [](const DeltaSection &s, const QString &metric) {
            for (const DeltaRow &r : s.rows) {
                if (r.metric == metric)
                    return r;
            }
            return DeltaRow {};
        };
        const DeltaRow ttft = row(sections[0], QStringLiteral("median_ttft_ms"));
        QCOMPARE(ttft.variant, QStringLiteral("seqs-2"));
        QCOMPARE(ttft.a.repeats.median, 10.0);
        QCOMPARE(ttft.b.repeats.median, 40.0);
        QCOMPARE(ttft.verdict, Verdict::Worse);
        QCOMPARE(row(sections[0], QStringLiteral("output_throughput")).verdict, Verdict::Worse);
        QCOMPARE(row(sections[1], QStringLiteral("median_ttft_ms")).verdict, Verdict::Noise);
    }

    void laterRunsAgainstTheFirst()
    {
        RunSource a, b;
        a.name = QStringLiteral("vllm");
        b.name = QStringLiteral("sglang");
        a.points << point(QStringLiteral("baseline"), 8, 20, 1000);
        b.points << point(QStringLiteral("baseline"), 8, 10, 1500);
        const QList<DeltaSection> sections = deltaSections({ a, b });
        QCOMPARE(sections.size(), 1);
        QCOMPARE(sections[0].title, QStringLiteral("B: sglang vs A: vllm"));
        QCOMPARE(sections[0].rows.size(), headlineMetrics().size());
        QCOMPARE(deltaSections({ a }).size(), 0); // one run with one variant: nothing to compare
    }
};

QTEST_GUILESS_MAIN(TestDeltaSections)
#include "tst_deltasections.moc"
