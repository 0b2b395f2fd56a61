// SPDX-License-Identifier: MIT
// Importing vLLM and SGLang result files: grouping, read-back, verification, malformed lines.
#include "import/resultimport.h"
#include "import/resultverify.h"
#include "importprojects.h"
#include "model/runorigin.h"
#include "resultfiles/resultstream.h"
#include "resultfiles/sglangresult.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"

#include <QFile>
#include <QObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

using namespace ServeScope;
using Testing::readAll;

namespace {

const QString kReal = QStringLiteral(SERVESCOPE_TEST_DATA "/real/");
const QString kLambda = kReal + QStringLiteral("vllm_LambdaLabsML_vllm-benchmark_llama3-8b-1xh100-len2048.json");
const QString kNerd = kReal + QStringLiteral("vllm_nerdalert_vllm-bench-automation_results.jsonl");
const QString kSglang = kReal + QStringLiteral("sglang_TonyLi15_sglang-benchmark_agg-n50-in128-out64-c8.jsonl");

} // namespace

class TestResultImport final : public QObject, private Testing::ImportProjects {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void realFilesImport_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QList<int>>("pointsPerRun");
        QTest::addColumn<bool>("arrays");
        QTest::newRow("vllm single object with arrays") << kLambda << QList<int> { 1 } << true;
        QTest::newRow("vllm json lines, three deployments") << kNerd << QList<int> { 3, 3, 3 } << false;
        QTest::newRow("sglang json lines") << kSglang << QList<int> { 1 } << false;
    }
    void realFilesImport()
    {
        QFETCH(QString, file);
        QFETCH(QList<int>, pointsPerRun);
        QFETCH(bool, arrays);
        const Imported r = importNew(file);
        QVERIFY2(r.outcome.errors.isEmpty(), qPrintable(r.outcome.errors.join(u'\n')));
        QCOMPARE(r.outcome.runs.size(), pointsPerRun.size());
        ProjectStore store;
        QVERIFY(store.open(r.project));
        for (int i = 0; i < pointsPerRun.size(); ++i) {
            const ImportedRun &run = r.outcome.runs.at(i);
            QCOMPARE(run.points, pointsPerRun.at(i));
            QCOMPARE(summaries(r.project, run.id).size(), pointsPerRun.at(i));
            const std::optional<RunRow> row = store.run(run.id);
            QVERIFY(row);
            const RunOrigin origin = RunOrigin::fromJson(row->origin);
            QVERIFY(origin.isImported());
            QCOMPARE(origin.arrays, arrays);
            QCOMPARE(origin.lines.size(), pointsPerRun.at(i));
            QVERIFY(run.source.startsWith(QStringLiteral("imported from ")));
            QCOMPARE(origin.note.isEmpty(), arrays);
            QVector<RequestRecord> records;
            QVERIFY(store.requests(run.id, RequestFilter {}, &records));
            QCOMPARE(records.isEmpty(), !arrays);
        }
    }

    void statisticsReadBackAsTheFileGivesThem_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("run");
        QTest::addColumn<int>("point");
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("expected");
        QTest::newRow("lambda p99 ttft") << kLambda << 0 << 0 << "p99_ttft_ms" << 63.362654292432126;
        QTest::newRow("lambda old latency key") << kLambda << 0 << 0 << "mean_e2el_ms" << 1431.7765221989248;
        QTest::newRow("nerdalert second point throughput")
            << kNerd << 0 << 1 << "output_throughput" << readFileNumber(kNerd, 2, "output_throughput");
        QTest::newRow("nerdalert base, inf point p99 itl")
            << kNerd << 1 << 2 << "p99_itl_ms" << readFileNumber(kNerd, 6, "p99_itl_ms");
        QTest::newRow("sglang e2e latency") << kSglang << 0 << 0 << "mean_e2el_ms" << 306.8716875091195;
        QTest::newRow("sglang p95 itl (extra percentile)") << kSglang << 0 << 0 << "p95_itl_ms" << 21.319825435057282;
        QTest::newRow("sglang concurrency") << kSglang << 0 << 0 << "concurrency" << 7.784201163950447;
    }
    void statisticsReadBackAsTheFileGivesThem()
    {
        QFETCH(QString, file);
        QFETCH(int, run);
        QFETCH(int, point);
        QFETCH(QString, key);
        QFETCH(double, expected);
        const Imported r = importNew(file);
        QVERIFY(run < r.outcome.runs.size());
        const QVector<PointSummary> s = summaries(r.project, r.outcome.runs.at(run).id);
        QVERIFY(point < s.size());
        const PointSummary &p = s.at(point);
        double got = 0;
        if (key == QLatin1String("concurrency"))
            got = p.averageConcurrency;
        else if (key == QLatin1String("output_throughput"))
            got = p.outputThroughput;
        else {
            const Distribution &d = key.contains(QLatin1String("ttft")) ? p.ttft
                : key.contains(QLatin1String("itl"))                    ? p.itl
                                                                        : p.e2el;
            got = key.startsWith(QLatin1String("mean")) ? d.mean
                                                        : d.percentile(key.section(u'_', 0, 0).mid(1).toDouble());
        }
        QCOMPARE(got, expected);
    }

    void pointsFollowTheLoad()
    {
        const Imported nerd = importNew(kNerd);
        const QVector<PointSummary> s = summaries(nerd.project, nerd.outcome.runs.at(0).id);
        QCOMPARE(s.size(), 3);
        QCOMPARE(s.at(0).mode, QStringLiteral("rate"));
        QCOMPARE(s.at(0).requestRate, 10.0);
        QCOMPARE(s.at(1).requestRate, 30.0);
        QVERIFY(std::isinf(s.at(2).requestRate));
        QCOMPARE(s.at(0).inputLen, 1000); // the "input_len" string the file's author added
        QVERIFY(nerd.outcome.runs.at(0).name.contains(QStringLiteral("deployment=no-features")));
        QVERIFY(nerd.outcome.runs.at(2).name.contains(QStringLiteral("deployment=kvcache")));
        const Imported sg = importNew(kSglang);
        const QVector<PointSummary> g = summaries(sg.project, sg.outcome.runs.at(0).id);
        QCOMPARE(g.at(0).mode, QStringLiteral("concurrency"));
        QCOMPARE(g.at(0).concurrency, 8);
        // SGLang's random_range_ratio 0 draws [1, L]: ServeScope's centre L/2 with the widest spread.
        QCOMPARE(g.at(0).inputLen, 64);
        QCOMPARE(g.at(0).outputLen, 32);
        QCOMPARE(g.at(0).definitions, QStringLiteral("sglang"));
        QVERIFY(sg.outcome.warnings.join(u' ').contains(QStringLiteral("random_range_ratio")));
    }

    void arrayFileVerifiesClean()
    {
        QString error;
        const QVector<ResultRun> runs = readResultFilePath(kLambda, &error);
        QCOMPARE(runs.size(), 1);
        const QVector<KeyCheck> checks = verifyResultRun(runs.first());
        int reproduced = 0;
        for (const KeyCheck &k : checks) {
            QVERIFY2(k.verdict != KeyCheck::Verdict::Mismatched, qPrintable(k.key));
            reproduced += k.verdict == KeyCheck::Verdict::Reproduced ? 1 : 0;
            if (k.key == QLatin1String("mean_e2el_ms")) {
                QCOMPARE(k.verdict, KeyCheck::Verdict::NotReproducible);
                QVERIFY(k.reason.contains(QStringLiteral("latencies")));
            }
        }
        QCOMPARE(reproduced, 14); // ttft and itl (8), completed and tokens (3), throughputs (3)
    }

    void alteredDigitIsCaught_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("key");
        QTest::newRow("mean ttft") << QByteArray("62.426355000934564") << QByteArray("62.426356000934564")
                                   << QStringLiteral("mean_ttft_ms");
        QTest::newRow("std itl") << QByteArray("1.3690069670761966") << QByteArray("1.3690069680761966")
                                 << QStringLiteral("std_itl_ms");
    }
    void alteredDigitIsCaught()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, key);
        QByteArray text = readAll(kLambda);
        QCOMPARE(text.count(from), 1);
        text.replace(from, to);
        ResultRun run;
        QVERIFY(readResultObject(text, 0, &run));
        bool found = false;
        for (const KeyCheck &k : verifyResultRun(run)) {
            if (k.key != key)
                continue;
            found = true;
            QCOMPARE(k.verdict, KeyCheck::Verdict::Mismatched);
            QVERIFY2(k.relative > kVerifyTolerance && k.relative < 1e-6, qPrintable(QString::number(k.relative)));
        }
        QVERIFY(found);
    }

    void knownReasonsExplainMismatches()
    {
        // A zero-output success and a summary that re-counted output tokens.
        const QByteArray line = R"({"backend":"vllm","duration":2.0,"completed":2,"total_input_tokens":20,)"
                                R"("total_output_tokens":9,"output_throughput":4.5,"mean_ttft_ms":150.0,)"
                                R"("input_lens":[10,10,10],"output_lens":[4,0,3],"ttfts":[0.1,0.2,0.0],)"
                                R"("itls":[[0.01,0.01,0.01],[],[]],"latencies":[0.13,0.2,0.0],)"
                                R"("errors":["","","boom"]})";
        ResultRun run;
        QVERIFY(readResultObject(line, 1, &run));
        QMap<QString, KeyCheck> byKey;
        for (const KeyCheck &k : verifyResultRun(run))
            byKey.insert(k.key, k);
        QCOMPARE(byKey.value(QStringLiteral("mean_ttft_ms")).verdict, KeyCheck::Verdict::Reproduced);
        QCOMPARE(byKey.value(QStringLiteral("total_output_tokens")).verdict, KeyCheck::Verdict::Explained);
        QVERIFY(
            byKey.value(QStringLiteral("total_output_tokens")).reason.startsWith(QStringLiteral("tokenizer re-count")));
        QCOMPARE(byKey.value(QStringLiteral("completed")).verdict, KeyCheck::Verdict::Reproduced);

        // A tool that failed the zero-output request, and one that counted chunks as tokens (9
        // tokens in 5 chunks, 6 with the empty one: TPOT over chunks).
        const QByteArray other = R"({"backend":"vllm","duration":2.0,"completed":1,"total_output_tokens":6,)"
                                 R"("mean_tpot_ms":15.0,"mean_ttft_ms":999.0,)"
                                 R"("input_lens":[10,10],"output_lens":[9,0],"ttfts":[0.1,0.2],)"
                                 R"("itls":[[0.01,0.01,0.01,0.01],[]],"latencies":[0.16,0.2],"errors":["",""]})";
        QVERIFY(readResultObject(other, 1, &run));
        byKey.clear();
        for (const KeyCheck &k : verifyResultRun(run))
            byKey.insert(k.key, k);
        QCOMPARE(byKey.value(QStringLiteral("completed")).verdict, KeyCheck::Verdict::Explained);
        QVERIFY(byKey.value(QStringLiteral("completed")).reason.startsWith(QStringLiteral("a zero-output request")));
        QCOMPARE(byKey.value(QStringLiteral("total_output_tokens")).verdict, KeyCheck::Verdict::Explained);
        QVERIFY(byKey.value(QStringLiteral("total_output_tokens")).reason.startsWith(QStringLiteral("multi-token")));
        QCOMPARE(byKey.value(QStringLiteral("mean_tpot_ms")).verdict, KeyCheck::Verdict::Explained);
        QCOMPARE(byKey.value(QStringLiteral("mean_ttft_ms")).verdict, KeyCheck::Verdict::Mismatched);
    }

    void everyReleasedKeySetReads()
    {
        // "request_goodput:" with its colon, *_latency_ms, no failed, "inf" as a string; SGLang's
        // bare Infinity and NaN, old (*_e2e_latency_ms) keys.
        const QString path = write(QStringLiteral("keysets.jsonl"),
            R"({"backend":"vllm","model_id":"m","request_rate":"inf","duration":1.5,"completed":3,"request_goodput:":2.0,"mean_latency_ms":12.5,"p99_ttft_ms":4.0})"
            "\n"
            R"({"backend":"vllm","model_id":"m","request_rate":4,"duration":1.5,"completed":3,"failed":0,"request_goodput":null,"mean_e2el_ms":13.5,"p99_ttft_ms":5.0})"
            "\n"
            R"({"backend":"sglang","request_rate":Infinity,"max_concurrency":4,"completed":5,"mean_e2e_latency_ms":20.0,"accept_length":NaN})"
            "\n");
        const Imported r = importNew(path);
        QVERIFY2(r.outcome.errors.isEmpty(), qPrintable(r.outcome.errors.join(u'\n')));
        QCOMPARE(r.outcome.runs.size(), 2); // vLLM rate points together, SGLang apart
        const QVector<PointSummary> v = summaries(r.project, r.outcome.runs.at(0).id);
        QCOMPARE(v.size(), 2);
        QCOMPARE(v.at(0).requestGoodput, 2.0);
        QCOMPARE(v.at(0).e2el.mean, 12.5);
        QCOMPARE(v.at(1).e2el.mean, 13.5);
        QCOMPARE(v.at(0).failed, 0);
        QVERIFY(std::isinf(v.at(0).requestRate));
        const QVector<PointSummary> g = summaries(r.project, r.outcome.runs.at(1).id);
        QCOMPARE(g.at(0).e2el.mean, 20.0);
        QCOMPARE(g.at(0).concurrency, 4);
    }

    void malformedLineIsReportedAndTheRestImports()
    {
        const QByteArray good = readAll(kNerd);
        QList<QByteArray> lines = good.split('\n');
        lines.insert(1, "{\"backend\": \"vllm\", \"completed\": ");
        const QString path = write(QStringLiteral("broken.jsonl"), lines.join('\n'));
        const Imported r = importNew(path);
        QCOMPARE(r.outcome.errors.size(), 1);
        QVERIFY2(r.outcome.errors.first().contains(QStringLiteral("broken.jsonl: line 2: not valid JSON")),
            qPrintable(r.outcome.errors.first()));
        int points = 0;
        for (const ImportedRun &run : r.outcome.runs)
            points += run.points;
        QCOMPARE(points, 9);
        const RunOrigin origin = RunOrigin::fromJson([&] {
            ProjectStore store;
            store.open(r.project);
            return store.run(r.outcome.runs.first().id)->origin;
        }());
        QCOMPARE(origin.lines, (QList<int> { 1, 3, 4 })); // file lines, the broken one skipped
    }

    // Files of another kind and lines whose counts or arrays cannot be true are refused in one line each, naming the
    // key or what was expected; nothing of them is stored.
    void hostileFilesAreRefusedInOneLine_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QByteArray binary(1 << 20, Qt::Uninitialized);
        QRandomGenerator rng(7);
        for (char &c : binary)
            c = char(rng.bounded(256)); // about 4,100 "lines"
        QByteArray markdown;
        for (int i = 0; i < 86; ++i)
            markdown += "## Section " + QByteArray::number(i) + "\n\n| completed | 3 |\n";
        const QString notResult = QStringLiteral(
            "x: not a result file: expected a JSON object, or JSON lines, of vLLM or SGLang results (or another "
            "benchmark tool's result file); line 1 is no JSON object");
        QTest::newRow("1 MiB of binary") << binary << notResult;
        QTest::newRow("Markdown, 258 lines") << markdown << notResult;
        QTest::newRow("a JSON array over lines")
            << QByteArray("[\n  {\n    \"completed\": 1\n  },\n  {\n    \"completed\": 2\n  }\n]\n") << notResult;
        QTest::newRow("a JSON array on one line") << QByteArray("[{\"completed\": 1}]\n") << notResult;
        const QByteArray arrays = R"("ttfts":[0.1,0.2,0.3],"latencies":[1,1,1],"input_lens":[5,5,5],)"
                                  R"("output_lens":[4,4,4],"itls":[[0.1,0.1,0.1],[0.1,0.1,0.1],[0.1,0.1,0.1]])";
        QByteArray garbage = "{\"backend\":\"vllm\",\"completed\":-7,\"duration\":3," + arrays + "}\n";
        garbage.replace(R"("itls":[[0.1,0.1,0.1],[0.1,0.1,0.1],[0.1,0.1,0.1]])", R"("itls":"garbage")");
        QTest::newRow("itls a string")
            << garbage
            << QStringLiteral("x: line 1: \"itls\" is not an array of per-request values (numbers; for itls, arrays "
                              "of numbers)");
        QTest::newRow("ttfts an object") << QByteArray("{\"completed\":1,\"ttfts\":{\"a\":1}}\n")
                                         << QStringLiteral("x: line 1: \"ttfts\" is not an array of per-request values "
                                                           "(numbers; for itls, arrays of numbers)");
        QTest::newRow("a text among the latencies")
            << QByteArray("{\"completed\":1,\"ttfts\":[0.1],\"latencies\":[\"soon\"]}\n")
            << QStringLiteral("x: line 1: \"latencies\" is not an array of per-request values (numbers; for itls, "
                              "arrays of numbers)");
        QTest::newRow("completed 2^62, no arrays")
            << QByteArray("{\"backend\":\"vllm\",\"completed\":4611686018427387904,\"duration\":3}\n")
            << QStringLiteral("x: line 1: \"completed\" is 4.61168601842739e+18, but a count is a whole number from 0 "
                              "to 2147483647: the line is not imported");
        QTest::newRow("completed -7, no arrays")
            << QByteArray("{\"backend\":\"vllm\",\"completed\":-7,\"duration\":3}\n")
            << QStringLiteral("x: line 1: \"completed\" is -7, but a count is a whole number from 0 to 2147483647: "
                              "the line is not imported");
        QTest::newRow("num_prompts negative, no arrays")
            << QByteArray("{\"completed\":2,\"num_prompts\":-1}\n")
            << QStringLiteral("x: line 1: \"num_prompts\" is -1, but a count is a whole number from 0 to "
                              "2147483647: the line is not imported");
        QTest::newRow("total_output_tokens 1e300, no arrays")
            << QByteArray("{\"completed\":2,\"total_output_tokens\":1e300}\n")
            << QStringLiteral("x: line 1: \"total_output_tokens\" is 1e+300, but a count is a whole number from 0 to "
                              "9007199254740992: the line is not imported");
        QTest::newRow("max_concurrency negative")
            << QByteArray("{\"completed\":2,\"max_concurrency\":-4," + arrays + "}\n")
            << QStringLiteral("x: line 1: \"max_concurrency\" is -4, but a count is a whole number from 0 to "
                              "2147483647: the line is not imported");
        QByteArray shortInputs = "{\"completed\":3," + arrays + "}\n";
        shortInputs.replace(R"("input_lens":[5,5,5])", R"("input_lens":[5,5])");
        QTest::newRow("arrays of different lengths")
            << shortInputs
            << QStringLiteral("x: line 1: \"input_lens\" has 2 entries but \"ttfts\" has 3: the per-request arrays "
                              "disagree, the line is not imported");
    }

    void hostileFilesAreRefusedInOneLine()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        const QString path = write(QStringLiteral("x"), text);
        const Imported r = importNew(path);
        QCOMPARE(r.outcome.errors.size(), 1);
        QCOMPARE(r.outcome.errors.first(), error.replace(0, 1, path));
        QVERIFY2(r.outcome.warnings.isEmpty(), qPrintable(r.outcome.warnings.join(u'\n')));
        QVERIFY(r.outcome.runs.isEmpty());
        ProjectStore store;
        QVERIFY(store.open(r.project));
        QVERIFY(!store.run(1)); // nothing stored
    }

    // A count the per-request arrays contradict, or that is no count at all, is stored as the arrays give it, and
    // a warning names the key and both values.
    void impossibleCountsAreRecomputedFromTheArrays_data()
    {
        QTest::addColumn<QByteArray>("counts");
        QTest::addColumn<QString>("warning");
        QTest::addColumn<int>("completed");
        QTest::addColumn<int>("failed");
        QTest::addColumn<qint64>("totalOutput");
        QTest::newRow("completed -7") << QByteArray(R"("completed":-7,"failed":0)")
                                      << QStringLiteral("\"completed\" is -7, which is no count: stored as 3, "
                                                        "recomputed from the per-request arrays")
                                      << 3 << 0 << qint64(12);
        QTest::newRow("completed 2^62") << QByteArray(R"("completed":4611686018427387904)")
                                        << QStringLiteral("\"completed\" is 4.61168601842739e+18, which is no count: "
                                                          "stored as 3, recomputed from the per-request arrays")
                                        << 3 << 0 << qint64(12);
        QTest::newRow("total_output_tokens -1")
            << QByteArray(R"("completed":3,"total_output_tokens":-1)")
            << QStringLiteral("\"total_output_tokens\" is -1, which is no count: stored as 12, recomputed from the "
                              "per-request arrays")
            << 3 << 0 << qint64(12);
        QTest::newRow("more requests than the arrays hold")
            << QByteArray(R"("completed":10,"failed":2)")
            << QStringLiteral("\"completed\" 10 and \"failed\" 2 count more requests than the 3 of the per-request "
                              "arrays: stored as 3 and 0, recomputed from them")
            << 3 << 0 << qint64(12);
    }

    void countsTheArraysCannotRecomputeAreRefused()
    {
        const QString path = write(QStringLiteral("noerrors.jsonl"),
            R"({"completed":10,"failed":2,"ttfts":[0.1,0.2,0.3],"latencies":[1,1,1]})"
            "\n");
        const Imported r = importNew(path);
        QCOMPARE(r.outcome.errors,
            QStringList { path
                + QStringLiteral(": line 1: \"completed\" 10 and \"failed\" 2 count more requests than the 3 of the "
                                 "per-request arrays, which have no \"errors\" to recompute them from: the line is not "
                                 "imported") });
        QVERIFY(r.outcome.runs.isEmpty());
    }

    void impossibleCountsAreRecomputedFromTheArrays()
    {
        QFETCH(QByteArray, counts);
        QFETCH(QString, warning);
        QFETCH(int, completed);
        QFETCH(int, failed);
        QFETCH(qint64, totalOutput);
        const QByteArray text = "{\"backend\":\"vllm\",\"duration\":3," + counts
            + R"(,"ttfts":[0.1,0.2,0.3],"latencies":[1,1,1],"input_lens":[5,5,5],"output_lens":[4,4,4],)"
              R"("itls":[[0.1,0.1,0.1],[0.1,0.1,0.1],[0.1,0.1,0.1]],"errors":["","",""]})"
              "\n";
        const QString path = write(QStringLiteral("counts.jsonl"), text);
        const Imported r = importNew(path);
        QVERIFY2(r.outcome.errors.isEmpty(), qPrintable(r.outcome.errors.join(u'\n')));
        QCOMPARE(r.outcome.warnings, QStringList { path + QStringLiteral(": line 1: ") + warning });
        QCOMPARE(r.outcome.runs.size(), 1);
        const QVector<PointSummary> s = summaries(r.project, r.outcome.runs.first().id);
        QCOMPARE(s.size(), 1);
        QCOMPARE(s.first().completed, completed);
        QCOMPARE(s.first().failed, failed);
        QCOMPARE(s.first().totalOutputTokens, totalOutput);
    }

    void streamReadsLineByLine()
    {
        const QString path
            = write(QStringLiteral("stream.jsonl"), "{\"completed\":1}\n\nnot json\n{\"completed\":2}\n");
        ResultFileStream s;
        QString error;
        QVERIFY(s.open(path, &error));
        ResultRun run;
        QCOMPARE(s.next(&run, &error), ResultFileStream::Item::Run);
        QCOMPARE(run.line, 1);
        QCOMPARE(s.next(&run, &error), ResultFileStream::Item::Error);
        QVERIFY(error.startsWith(QStringLiteral("line 3:")));
        QCOMPARE(s.next(&run, &error), ResultFileStream::Item::Run);
        QCOMPARE(run.line, 4);
        QCOMPARE(run.number(QStringLiteral("completed")), 2.0);
        QCOMPARE(s.next(&run, &error), ResultFileStream::Item::End);
    }

    void prettyPrintedObjectReadsWhole()
    {
        const QString path = write(QStringLiteral("pretty.json"), "{\n  \"completed\": 3,\n  \"duration\": 1.0\n}\n");
        ResultFileStream s;
        QString error;
        QVERIFY(s.open(path, &error));
        ResultRun run;
        QCOMPARE(s.next(&run, &error), ResultFileStream::Item::Run);
        QCOMPARE(run.number(QStringLiteral("completed")), 3.0);
        QCOMPARE(s.next(&run, &error), ResultFileStream::Item::End);
    }

    void sglangLengthsRoundTrip_data()
    {
        QTest::addColumn<double>("spread");
        QTest::addColumn<int>("centre");
        QTest::newRow("fixed lengths") << 0.0 << 128;
        QTest::newRow("a third") << (1.0 / 3.0) << 300;
        QTest::newRow("widest") << 0.999999 << 64;
    }
    // An exported line's [L r, L] reads back as the spread and centre it was written from.
    void sglangLengthsRoundTrip()
    {
        QFETCH(double, spread);
        QFETCH(int, centre);
        SglangLineSetup setup;
        sglangRandomLengths(centre, centre / 2, spread, &setup);
        PointSummary s;
        s.completed = 1;
        const QString path = write(QStringLiteral("lengths.jsonl"), writeSglangResultLine(setup, s));
        const Imported r = importNew(path);
        QVERIFY2(r.outcome.errors.isEmpty(), qPrintable(r.outcome.errors.join(u'\n')));
        const QVector<PointSummary> back = summaries(r.project, r.outcome.runs.first().id);
        QVERIFY(std::abs(back.first().inputLen - centre) <= 1);
        QVERIFY(std::abs(back.first().outputLen - centre / 2) <= 1);
    }

private:
    static double readFileNumber(const QString &path, int line, const char *key)
    {
        const QList<QByteArray> lines = readAll(path).split('\n');
        ResultRun run;
        readResultObject(lines.at(line - 1), line, &run);
        return run.number(QLatin1String(key));
    }
};

QTEST_GUILESS_MAIN(TestResultImport)
#include "tst_resultimport.moc"
