// SPDX-License-Identifier: MIT
#include "io/experimentfile.h"
#include "report/conclusiontext.h"
#include "report/reportdocument.h"
#include "report/storeinput.h"
#include "testexperiment.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestStoreInput final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    // A verdict in words, by core's reason: a value missing on a side (a buffered stream's
    // withheld TPOT) is said so, a side without a successful request or with only a file's statistics
    // too, and a change below the noise floor names the floor.
    void verdictWordsFollowTheReason()
    {
        DeltaRow r;
        const auto words = [&r](Verdict v, const char *reason) {
            r.verdict = v;
            r.reason = QLatin1String(reason);
            return Report::verdictText(r);
        };
        QCOMPARE(words(Verdict::Better, "beyond-noise-floor"), QStringLiteral("better"));
        QCOMPARE(words(Verdict::Worse, "repeats-differ"), QStringLiteral("worse"));
        r.b.repeats.median = 0.58; // the candidate's success rate
        QCOMPARE(words(Verdict::Worse, "failures-rose"), QStringLiteral("worse: 42% failed"));
        r.failureClass = QStringLiteral("connect");
        QCOMPARE(words(Verdict::Worse, "failures-rose"),
            QStringLiteral("worse: 42% failed (connection refused or unreachable)"));
        r.floor = 0.25;
        QCOMPARE(words(Verdict::Noise, "below-noise-floor"), QStringLiteral("within noise (<25%)"));
        QCOMPARE(words(Verdict::Noise, "within-repeat-spread"), QStringLiteral("within noise"));
        QCOMPARE(words(Verdict::Undecided, "missing"), QStringLiteral("—: no value on one side"));
        QCOMPARE(words(Verdict::Undecided, "censored"), QStringLiteral("—: no successful request in B"));
        QCOMPARE(words(Verdict::Undecided, "statistics-only"), QStringLiteral("no verdict: statistics only"));
    }

    // Runs of different models or endpoints are said so above their conclusions.
    void differentModelsAreSaidBeforeTheConclusions()
    {
        Report::ReportRun a, b;
        a.model = QStringLiteral("Qwen3-4B");
        b.model = QStringLiteral("GLM-4.6");
        a.baseUrl = b.baseUrl = QStringLiteral("http://gpu:8000");
        DeltaSection section;
        section.title = QStringLiteral("B: glm vs A: qwen");
        DeltaRow r;
        r.variant = QStringLiteral("baseline");
        r.label = QStringLiteral("c1");
        r.metric = QStringLiteral("output_throughput");
        r.a.repeats = RepeatStat { 1, 100, 100, 100, 0 };
        r.b.repeats = RepeatStat { 1, 101, 101, 101, 0 };
        r.verdict = Verdict::Noise;
        r.reason = QStringLiteral("below-noise-floor");
        section.rows << r;
        QList<Report::ConclusionBlock> blocks = Report::conclusionBlocks({ section }, { a, b });
        QCOMPARE(blocks.size(), 1);
        QVERIFY2(blocks[0].caution.contains(QStringLiteral("different models (Qwen3-4B, GLM-4.6)")),
            qPrintable(blocks[0].caution));
        QCOMPARE(blocks[0].sentences,
            QStringList { QStringLiteral("baseline: no change beyond run-to-run noise at any point") });
        b.model = a.model;
        b.baseUrl = QStringLiteral("http://gateway:4000");
        blocks = Report::conclusionBlocks({ section }, { a, b });
        QVERIFY2(blocks[0].caution.contains(QStringLiteral("different endpoints")), qPrintable(blocks[0].caution));
        b.baseUrl = a.baseUrl;
        QVERIFY(Report::conclusionBlocks({ section }, { a, b })[0].caution.isEmpty());
    }

    void storedRunListsWhatEachVariantChanges()
    {
        RunRow row;
        row.resolvedConfig = serializeExperiment(Testing::validExperiment()); // baseline and seqs-64
        const Report::ReportRun run = Report::reportRunFromStore(StoredRun(row), {});
        QCOMPARE(run.variants.size(), 2);
        QCOMPARE(run.variants[0], qMakePair(QStringLiteral("baseline"), QStringLiteral("the baseline")));
        QCOMPARE(run.variants[1].first, QStringLiteral("seqs-64"));
        QVERIFY2(run.variants[1].second.startsWith(QStringLiteral("server.args.max_num_seqs: 256 → 64")),
            qPrintable(run.variants[1].second));
    }

    void unreadableConfigurationListsNoVariants()
    {
        RunRow row;
        row.resolvedConfig = R"({"endpoint":{"base_url":"http://h:8000","model":"m"}})";
        const Report::ReportRun run = Report::reportRunFromStore(StoredRun(row), {});
        QCOMPARE(run.baseUrl, QStringLiteral("http://h:8000"));
        QVERIFY(run.variants.isEmpty());
    }

    // An imported run's report says where it came from and what it lacks; a measured one has no origin row.
    void importedRunShowsItsOrigin()
    {
        RunRow row;
        row.resolvedConfig = serializeExperiment(Testing::validExperiment());
        row.origin = R"({"kind":"import","format":"sglang","file":"/r/x.jsonl","lines":[2,3],"arrays":false,)"
                     R"("note":"no arrays"})";
        Report::ReportInput input;
        input.runs << Report::reportRunFromStore(StoredRun(row), {});
        QCOMPARE(input.runs[0].origin, QStringLiteral("imported from /r/x.jsonl (sglang), lines 2,3; no arrays"));
        QVERIFY(Report::reportBodyHtml(input).contains(
            QStringLiteral("<th nowrap>Origin</th><td>imported from /r/x.jsonl (sglang), lines 2,3; no arrays</td>")));
        row.origin.clear();
        input.runs[0] = Report::reportRunFromStore(StoredRun(row), {});
        QVERIFY(input.runs[0].origin.isEmpty());
        QVERIFY(!Report::reportBodyHtml(input).contains(QStringLiteral("<th>Origin</th>")));
    }

    // A run that did not finish says so in its report; a finished one has no such row.
    void unfinishedRunSaysHowItEnded()
    {
        RunRow row;
        row.resolvedConfig = serializeExperiment(Testing::validExperiment());
        row.status = RunStatus::Interrupted;
        Report::ReportInput input;
        input.runs << Report::reportRunFromStore(StoredRun(row), {});
        QCOMPARE(input.runs[0].ended,
            QStringLiteral("interrupted (its process stopped) before its end: only the points it completed are "
                           "reported"));
        QVERIFY(Report::reportBodyHtml(input).contains(QStringLiteral("<th nowrap>Ended</th><td>interrupted")));
        row.status = RunStatus::Finished;
        input.runs[0] = Report::reportRunFromStore(StoredRun(row), {});
        QVERIFY(input.runs[0].ended.isEmpty());
        QVERIFY(!Report::reportBodyHtml(input).contains(QStringLiteral("<th>Ended</th>")));
    }

    // The headline table puts the server's figures beside the client's, medians across repeats with
    // their range, and only the columns the server answered.
    void headlineHasTheServerSide()
    {
        Report::ReportInput input;
        Report::ReportRun run;
        for (int k = 1; k <= 3; ++k) {
            PointSummary p;
            p.variant = QStringLiteral("base");
            p.label = QStringLiteral("c8");
            p.mode = QStringLiteral("concurrency");
            p.concurrency = 8;
            p.repeat = k;
            p.server = { { QStringLiteral("waiting_max"), double(k) }, { QStringLiteral("kv_usage_max"), 40.0 + k } };
            run.points << p;
        }
        input.runs << run;
        const QString html = Report::reportBodyHtml(input);
        QVERIFY(html.contains(QStringLiteral("<th>Server waiting (max)</th><th>KV cache (max %)</th>")));
        QVERIFY(!html.contains(QStringLiteral("GPU util")));
        QVERIFY2(
            html.contains(QStringLiteral("<td nowrap>2.0\u00a0(1.0–3.0)</td><td nowrap>42.0\u00a0(41.0–43.0)</td>")),
            qPrintable(html));
        input.runs[0].points[0].server.clear();
        input.runs[0].points[1].server.clear();
        input.runs[0].points[2].server.clear();
        QVERIFY(!Report::reportBodyHtml(input).contains(QStringLiteral("Server waiting")));
    }
};

QTEST_GUILESS_MAIN(TestStoreInput)
#include "tst_storeinput.moc"
