// SPDX-License-Identifier: MIT
#include "compare/conclusion.h"
#include "compare/rerunnoise.h"
#include "compare/runsource.h"
#include "metrics/servingcost.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>

#include <optional>

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

    // Which convention a stored run's figures follow: its profile, or the tool (and, for a Benchmark
    // Report, the harness) its file came from.
    void conventionsFromTheOrigin_data()
    {
        QTest::addColumn<QString>("definitions");
        QTest::addColumn<QByteArray>("origin");
        QTest::addColumn<QString>("convention");
        QTest::newRow("measured, vllm") << QStringLiteral("vllm") << QByteArray() << QStringLiteral("vllm");
        QTest::newRow("measured, sglang") << QStringLiteral("sglang") << QByteArray() << QStringLiteral("sglang");
        QTest::newRow("vLLM's file") << QStringLiteral("vllm") << QByteArray(R"({"format":"vllm"})")
                                     << QStringLiteral("vllm");
        QTest::newRow("AIPerf summary") << QStringLiteral("vllm")
                                        << QByteArray(R"({"format":"aiperf","file":"/x/profile_export_aiperf.json"})")
                                        << QStringLiteral("aiperf");
        QTest::newRow("AIPerf records alone")
            << QStringLiteral("vllm") << QByteArray(R"({"format":"aiperf","file":"/x/profile_export.jsonl"})")
            << QStringLiteral("aiperf-records");
        QTest::newRow("llmperf with responses")
            << QStringLiteral("vllm") << QByteArray(R"({"format":"llmperf","arrays":true})")
            << QStringLiteral("llmperf+records");
        QTest::newRow("report of vLLM's bench")
            << QStringLiteral("vllm") << QByteArray(R"({"format":"llm-d","tool_version":"v0.2, harness vllm 0.11"})")
            << QStringLiteral("vllm");
        QTest::newRow("report of ServeScope, sglang")
            << QStringLiteral("sglang")
            << QByteArray(R"({"format":"llm-d","tool_version":"v0.2, harness servescope 0.1.0"})")
            << QStringLiteral("sglang");
        QTest::newRow("report of inference-perf")
            << QStringLiteral("vllm")
            << QByteArray(R"({"format":"llm-d","tool_version":"v0.2, harness inference-perf 0.3.0"})")
            << QStringLiteral("inference-perf");
        QTest::newRow("report of another harness")
            << QStringLiteral("vllm") << QByteArray(R"({"format":"llm-d","tool_version":"v0.2, harness fmperf 1"})")
            << QStringLiteral("llm-d");
    }
    void conventionsFromTheOrigin()
    {
        QFETCH(QString, definitions);
        QFETCH(QByteArray, origin);
        QFETCH(QString, convention);
        QCOMPARE(conventionOf(definitions, origin), convention);
    }

    // ServeScope against AIPerf: request throughput and success rate keep their verdicts; TTFT, ITL
    // and E2EL stop their clocks elsewhere (ServeScope's events could give AIPerf's clocks); TPOT and
    // token throughput also count tokens differently.
    void otherToolsDefinitionsWithholdVerdicts()
    {
        RunSource a, b;
        a.name = QStringLiteral("servescope");
        b.name = QStringLiteral("aiperf");
        b.convention = QStringLiteral("aiperf");
        b.measured = false;
        a.points << point(QStringLiteral("baseline"), 8, 20, 1000);
        b.points << point(QStringLiteral("baseline"), 8, 10, 1500);
        const QList<DeltaSection> sections = deltaSections({ a, b });
        QCOMPARE(sections.size(), 1);
        QMap<QString, DefinitionRow> byFamily;
        for (const DefinitionRow &d : sections[0].definitions)
            byFamily.insert(d.family, d);
        QCOMPARE(byFamily.value(QStringLiteral("ttft")).comparability, Comparability::AfterRecompute);
        QCOMPARE(byFamily.value(QStringLiteral("ttft")).differences, QStringList { QStringLiteral("clock") });
        QCOMPARE(byFamily.value(QStringLiteral("itl")).comparability, Comparability::AfterRecompute);
        QCOMPARE(byFamily.value(QStringLiteral("e2el")).comparability, Comparability::AfterRecompute);
        QCOMPARE(byFamily.value(QStringLiteral("tpot")).comparability, Comparability::NotComparable);
        QCOMPARE(byFamily.value(QStringLiteral("tpot")).differences,
            (QStringList { QStringLiteral("clock"), QStringLiteral("tokens") }));
        QCOMPARE(
            byFamily.value(QStringLiteral("output_throughput")).differences, QStringList { QStringLiteral("tokens") });
        QCOMPARE(byFamily.value(QStringLiteral("request_throughput")).comparability, Comparability::AsPublished);
        QCOMPARE(byFamily.value(QStringLiteral("success_rate")).comparability, Comparability::AsPublished);
        for (const DeltaRow &r : sections[0].rows) {
            const bool kept
                = r.metric == QLatin1String("request_throughput") || r.metric == QLatin1String("success_rate");
            QVERIFY2(kept == (r.verdict != Verdict::NotComparable), qPrintable(r.metric + u' ' + r.reason));
        }
        // The TTFT rows that had a verdict before say why they have none now.
        QCOMPARE(std::find_if(sections[0].rows.cbegin(), sections[0].rows.cend(),
                     [](const DeltaRow &r) { return r.metric == QLatin1String("median_ttft_ms"); })
                     ->reason,
            QStringLiteral("after-recompute: clock"));

        // Two imported files: nothing holds the events to recompute a clock from.
        QCOMPARE(
            compareDefinitions(QStringLiteral("vllm"), false, QStringLiteral("aiperf"), false).first().comparability,
            Comparability::NotComparable);
        // One convention: nothing to reconcile, every verdict stands.
        QVERIFY(compareDefinitions(QStringLiteral("aiperf"), false, QStringLiteral("aiperf"), false).isEmpty());
    }

    // SGLang's profile against genai-bench: the same clocks; TPOT differs only in its token count
    // (SGLang counts the requested max_tokens), GuideLLM's ITL is not stored at all.
    void sameClocksDifferentTokens()
    {
        QMap<QString, DefinitionRow> byFamily;
        for (const DefinitionRow &d :
            compareDefinitions(QStringLiteral("sglang"), true, QStringLiteral("genai-bench"), false))
            byFamily.insert(d.family, d);
        QCOMPARE(byFamily.value(QStringLiteral("ttft")).comparability, Comparability::AsPublished);
        QCOMPARE(byFamily.value(QStringLiteral("e2el")).comparability, Comparability::AsPublished);
        QCOMPARE(byFamily.value(QStringLiteral("tpot")).differences, QStringList { QStringLiteral("tokens") });
        QCOMPARE(byFamily.value(QStringLiteral("tpot")).comparability, Comparability::NotComparable);
        QCOMPARE(byFamily.value(QStringLiteral("itl")).differences, QStringList { QStringLiteral("absent") });
        QVERIFY(!byFamily.contains(QStringLiteral("ttfo"))
            || byFamily.value(QStringLiteral("ttfo")).b.how == MetricDefinition::How::Absent);

        byFamily.clear();
        for (const DefinitionRow &d :
            compareDefinitions(QStringLiteral("vllm"), true, QStringLiteral("guidellm"), false))
            byFamily.insert(d.family, d);
        QCOMPARE(byFamily.value(QStringLiteral("tpot")).differences,
            (QStringList { QStringLiteral("clock"), QStringLiteral("weighting") }));
        QCOMPARE(byFamily.value(QStringLiteral("ttfo")).comparability, Comparability::AsPublished);
        QCOMPARE(byFamily.value(QStringLiteral("itl")).comparability, Comparability::NotComparable);
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

    // With a GPU-hour price on both sides, each point has a cost row beside its throughput: lower is
    // better, and a cheaper GPU can make up for less throughput.
    void costRowsFollowThroughputAndPrice()
    {
        RunSource a, b;
        a.points << point(QStringLiteral("baseline"), 8, 20, 800);
        b.points << point(QStringLiteral("baseline"), 8, 20, 400);
        const auto costRow = [](const QList<DeltaSection> &sections) -> std::optional<DeltaRow> {
            for (const DeltaRow &r : sections.value(0).rows) {
                if (r.metric == QLatin1String(kCostKey))
                    return r;
            }
            return std::nullopt;
        };
        QVERIFY(!costRow(deltaSections({ a, b }))); // no price, no cost
        a.hourPrice.insert(QStringLiteral("baseline"), 8); // e.g. 4 GPUs at 2 an hour
        QVERIFY(!costRow(deltaSections({ a, b }))); // one side priced is not a comparison
        b.hourPrice.insert(QStringLiteral("baseline"), 8);
        std::optional<DeltaRow> r = costRow(deltaSections({ a, b }));
        QVERIFY(r);
        QCOMPARE(r->label, QStringLiteral("c8"));
        // The median throughput is 808 and 404 tok/s: 8 / 3600 / 808 x 10^6 against twice that.
        QCOMPARE(r->a.repeats.median, 8 / 3600.0 / 808 * 1e6);
        QCOMPARE(r->relative, 1.0);
        QCOMPARE(r->verdict, Verdict::Worse);
        QVERIFY(r->a.ci.valid && r->a.ci.low < r->a.repeats.median && r->a.repeats.median < r->a.ci.high);
        b.hourPrice.insert(QStringLiteral("baseline"), 4); // half the throughput on GPUs half the price
        r = costRow(deltaSections({ a, b }));
        QVERIFY(r);
        QVERIFY2(std::abs(r->relative) < 1e-12, qPrintable(QString::number(r->relative)));
        QCOMPARE(r->verdict, Verdict::Noise);
    }

    // One sentence per variant: failures first, then the families in order, each metric's largest change.
    void conclusionsNameWhatMattersMost()
    {
        RunSource run;
        run.points << point(QStringLiteral("baseline"), 8, 10, 1000) << point(QStringLiteral("baseline"), 16, 10, 1000)
                   << point(QStringLiteral("slow"), 8, 40, 900) << point(QStringLiteral("slow"), 16, 80, 400)
                   << point(QStringLiteral("same"), 8, 10, 1000) << point(QStringLiteral("same"), 16, 10, 1000);
        QList<DeltaRow> rows;
        for (const DeltaSection &s : deltaSections({ run }))
            rows << s.rows;
        const QList<Conclusion> c = concludeVariants(rows);
        QCOMPARE(c.size(), 2);
        QCOMPARE(c[0].variant, QStringLiteral("slow"));
        QCOMPARE(c[0].outcome, QStringLiteral("worse"));
        QCOMPARE(c[0].changes.size(), 2);
        QCOMPARE(c[0].changes[0].metric, QStringLiteral("output_throughput"));
        QCOMPARE(c[0].changes[0].at, QStringLiteral("c16")); // 1010 → 404 tok/s, −60%: the largest
        QCOMPARE(c[0].changes[0].points, (QStringList { QStringLiteral("c8"), QStringLiteral("c16") }));
        QCOMPARE(c[0].changes[1].metric, QStringLiteral("median_ttft_ms"));
        QCOMPARE(c[0].changes[1].ratio, 8.0);
        QCOMPARE(c[1].outcome, QStringLiteral("noise"));
        QVERIFY(c[1].changes.isEmpty());
        QCOMPARE(conclusionChanges(c[0]),
            QStringLiteral("worse\toutput_throughput -60.0% at c16 (c8,c16); median_ttft_ms +700.0% at c16 (c8,c16)"));
    }

    // A project's reruns of one configuration refine the floors: one pair may only raise them, three
    // pairs set them (never under the practical threshold); a family no pair measured keeps its default.
    void rerunsRefineTheNoiseFloors()
    {
        const NoiseFloors &d = defaultNoiseFloors();
        const auto runOf = [](double ttftMs) {
            RunSource r;
            PointRepeats p = point(QStringLiteral("baseline"), 8, ttftMs, 1000);
            p.repeats = { p.repeats.first() }; // one repeat
            r.points << p;
            return r;
        };
        // One pair, TTFT 40% apart: the TTFT floor rises to 1.25 x 40%; throughput, equal, keeps its default.
        RerunNoise n = rerunNoise({ runOf(1000), runOf(1400) });
        QCOMPARE(n.pairs, 1);
        QCOMPARE(n.floors.ttft, kRerunMargin * 0.4);
        QCOMPARE(n.floors.throughput, d.throughput);
        QCOMPARE(n.floors.decode, d.decode); // no TPOT, ITL or E2EL measured
        // A change that timing jitter explains (under 2 ms) is no evidence.
        n = rerunNoise({ runOf(4), runOf(5.5) }); // +37.5%, 1.5 ms
        QCOMPARE(n.floors.ttft, d.ttft);
        // One pair 2% apart: a single pair never lowers a floor.
        n = rerunNoise({ runOf(1000), runOf(1020) });
        QCOMPARE(n.floors.ttft, d.ttft);
        // Three pairs within 4%: the TTFT floor falls to 1.25 x 4%, no lower than 5%.
        n = rerunNoise({ runOf(1000), runOf(1040), runOf(1000), runOf(1030) });
        QCOMPARE(n.pairs, 3);
        QCOMPARE(n.floors.ttft, kRerunMargin * 0.04);
        n = rerunNoise({ runOf(1000), runOf(1010), runOf(1000), runOf(1010) });
        QCOMPARE(n.floors.ttft, 0.05);
        // The refined floor decides: +30% TTFT is beyond the default 25%, not beyond the reruns' 50%.
        const RunSource a = runOf(1000), b = runOf(1300);
        const QList<DeltaRow> rows
            = deltaTable(a.points, b.points, matchPoints(a.points, b.points), { QStringLiteral("median_ttft_ms") });
        QCOMPARE(rows.value(0).verdict, Verdict::Worse);
        const QList<DeltaRow> refined = deltaTable(a.points, b.points, matchPoints(a.points, b.points),
            { QStringLiteral("median_ttft_ms") }, 0.05, rerunNoise({ runOf(1000), runOf(1400) }).floors);
        QCOMPARE(refined.value(0).verdict, Verdict::Noise);
        QCOMPARE(refined.value(0).floor, kRerunMargin * 0.4);
    }

    // The live baseline (the Run page, `run --vs`): one point just measured against an earlier run.
    void pointVerdictJudgesOnePoint()
    {
        RunSource earlier;
        earlier.points << point(QStringLiteral("baseline"), 1, 10, 1000)
                       << point(QStringLiteral("baseline"), 8, 20, 800);
        const QString vllm = QStringLiteral("vllm");

        PointVerdict v = pointVerdict(earlier, point(QStringLiteral("baseline"), 8, 30, 800), vllm);
        QCOMPARE(v.variant, QStringLiteral("baseline"));
        QCOMPARE(v.label, QStringLiteral("c8"));
        QCOMPARE(v.outcome, QStringLiteral("worse"));
        QCOMPARE(v.changes(), QStringList { QStringLiteral("median_ttft_ms +50.0% worse") });

        v = pointVerdict(earlier, point(QStringLiteral("baseline"), 8, 10, 800), vllm);
        QCOMPARE(v.outcome, QStringLiteral("better"));
        QCOMPARE(v.changes(), QStringList { QStringLiteral("median_ttft_ms -50.0% better") });

        // Faster to the first token but less throughput: both named, in the headline order.
        v = pointVerdict(earlier, point(QStringLiteral("baseline"), 8, 10, 400), vllm);
        QCOMPARE(v.outcome, QStringLiteral("mixed"));
        QCOMPARE(v.changes(),
            (QStringList {
                QStringLiteral("output_throughput -50.0% worse"), QStringLiteral("median_ttft_ms -50.0% better") }));

        // Within 5%: no verdict on any metric.
        v = pointVerdict(earlier, point(QStringLiteral("baseline"), 8, 20.5, 810), vllm);
        QCOMPARE(v.outcome, QStringLiteral("noise"));
        QVERIFY(v.changes().isEmpty());

        v = pointVerdict(earlier, point(QStringLiteral("baseline"), 16, 20, 800), vllm);
        QCOMPARE(v.outcome, QStringLiteral("missing"));
        QCOMPARE(v.label, QStringLiteral("c16"));

        // One variant on each side: matched by label whatever the names, as compare matches them.
        v = pointVerdict(earlier, point(QStringLiteral("seqs-8"), 8, 30, 800), vllm);
        QCOMPARE(v.outcome, QStringLiteral("worse"));
        // With several variants in the earlier run, only the same variant's point.
        earlier.points << point(QStringLiteral("other"), 8, 20, 800);
        QCOMPARE(pointVerdict(earlier, point(QStringLiteral("seqs-8"), 8, 30, 800), vllm).outcome,
            QStringLiteral("missing"));

        PointKey key = point(QStringLiteral("baseline"), 8, 0, 0).key();
        QCOMPARE(matchingPoint(earlier, key), &earlier.points[1]);
        key.label = QStringLiteral("c64");
        key.concurrency = 64;
        QCOMPARE(matchingPoint(earlier, key), nullptr);
    }
};

QTEST_GUILESS_MAIN(TestDeltaSections)
#include "tst_deltasections.moc"
