// SPDX-License-Identifier: MIT
#include "compare/runsource.h"

#include <QJsonArray>
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

    // The rerun check the CLI's --check-against and the window's Rerun to check both state.
    void rerunCheckStatesEachPoint()
    {
        RunSource earlier, now;
        earlier.points << point(QStringLiteral("baseline"), 1, 10, 1000)
                       << point(QStringLiteral("baseline"), 8, 20, 800)
                       << point(QStringLiteral("baseline"), 16, 30, 700);
        now.points << point(QStringLiteral("baseline"), 1, 10, 1000) << point(QStringLiteral("baseline"), 8, 30, 800);
        earlier.envSnapshot = QJsonArray { QJsonArray { QStringLiteral("engine"), QStringLiteral("vllm 0.11") } };
        now.envSnapshot = QJsonArray { QJsonArray { QStringLiteral("engine"), QStringLiteral("vllm 0.12") } };
        RerunCheck check = checkRerun(earlier, now);
        QCOMPARE(check.points.size(), 3);
        QCOMPARE(check.points[0].label, QStringLiteral("c1"));
        QCOMPARE(check.points[0].outcome, QStringLiteral("agree"));
        QVERIFY(check.points[0].differing.isEmpty());
        QCOMPARE(check.points[1].outcome, QStringLiteral("differ"));
        QVERIFY2(check.points[1].differing.contains(QStringLiteral("median_ttft_ms +50.0%")),
            qPrintable(check.points[1].differing.join(u',')));
        QCOMPARE(check.points[2].label, QStringLiteral("c16"));
        QCOMPARE(check.points[2].outcome, QStringLiteral("missing"));
        QCOMPARE(check.environment.size(), 1);
        QVERIFY2(check.environment[0].contains(QStringLiteral("vllm 0.11")), qPrintable(check.environment[0]));
        QVERIFY(!check.allAgree());

        // The same points again agree; a point only the rerun has makes it not agree.
        check = checkRerun(now, now);
        QCOMPARE(check.points.size(), 2);
        QVERIFY(check.allAgree());
        RunSource more = now;
        more.points << point(QStringLiteral("baseline"), 32, 40, 600);
        check = checkRerun(now, more);
        QCOMPARE(check.extraPoints, 1);
        QVERIFY(!check.allAgree());
    }
};

QTEST_GUILESS_MAIN(TestDeltaSections)
#include "tst_deltasections.moc"
