// SPDX-License-Identifier: MIT
// `servescope-cli import` as a process: real result files, --verify, malformed batches, and the round
// trip of a native run through its result files; result files of a run under the sglang profile.
#include "clirunner.h"
#include "simchild.h"

#include "import/yamlsubset.h"
#include "metrics/estimates.h"
#include "model/runorigin.h"
#include "storage/projectstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

namespace {

const QString kReal = QStringLiteral(SERVESCOPE_TEST_DATA "/real/");
const QString kLambda = kReal + QStringLiteral("vllm_LambdaLabsML_vllm-benchmark_llama3-8b-1xh100-len2048.json");
const QString kNerd = kReal + QStringLiteral("vllm_nerdalert_vllm-bench-automation_results.jsonl");
const QString kSglang = kReal + QStringLiteral("sglang_TonyLi15_sglang-benchmark_agg-n50-in128-out64-c8.jsonl");

CliRun::Outcome cli(const QStringList &args)
{
    QProcess p;
    p.start(SimChild::cli(), args);
    p.waitForFinished(120000);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

QVector<PointSummary> summariesOf(const QString &project, qint64 run)
{
    ProjectStore store;
    QVector<PointSummary> out;
    if (!store.open(project) || !store.pointSummaries(run, &out))
        qWarning() << store.errorString();
    return out;
}

/// Peak resident set (VmHWM) of a live process in bytes; -1 once it is gone.
qint64 peakRss(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return -1;
}

} // namespace

class TestCliImport final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    QString experiment(const QString &name, const QString &definitions)
    {
        CliRun::writeExperiment(QDir(m_dir.path()), name,
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [\n"
                           "  {\"concurrency\": 1, \"input_len\": 32, \"output_len\": 8, \"num_prompts\": 6},\n"
                           "  {\"concurrency\": 4, \"input_len\": 64, \"output_len\": 16, \"num_prompts\": 20}]}"));
        return rewriteDefinitions(name, definitions);
    }

    QString rewriteDefinitions(const QString &name, const QString &definitions)
    {
        const QString file = path(name + QStringLiteral(".json"));
        QByteArray text = CliRun::readAll(file);
        const QByteArray wanted = QByteArray("\"definitions\": \"") + definitions.toUtf8() + QByteArray("\"");
        text.replace("\"definitions\": \"vllm\"", wanted);
        // One variant: the result files of the baseline are enough here.
        text.replace(", {\"name\": \"seqs-2\", \"changes\": {\"server.args.max_num_seqs\": 2}}", "");
        QFile f(file);
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return file;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
    }

    void realFilesImportOneLinePerRun()
    {
        const QString project = path(QStringLiteral("real.servescope"));
        const CliRun::Outcome o = cli({ QStringLiteral("import"), kLambda, kNerd, kSglang, QStringLiteral("--project"),
            project, QStringLiteral("--verify") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QList<QByteArray> lines = o.out.trimmed().split('\n');
        QList<QByteArray> runLines;
        for (const QByteArray &l : lines) {
            if (l.contains("\timported from "))
                runLines << l;
        }
        QCOMPARE(runLines.size(), 5); // 1 + 3 deployments + 1
        QVERIFY(runLines.at(0).startsWith("1\tvllm_LambdaLabsML"));
        QVERIFY(runLines.at(0).endsWith("(vllm), line 1"));
        QVERIFY(runLines.at(1).contains("(deployment=no-features)\timported from "));
        QVERIFY(runLines.at(1).endsWith("(vllm), lines 1,2,3"));
        QVERIFY(runLines.at(4).endsWith("(sglang), line 1"));
        QVERIFY(o.out.contains("len2048.json:1\tmean_ttft_ms\treproduced\tfile 62.426355000934564"));
        QVERIFY(o.out.contains("len2048.json:1\tmean_e2el_ms\tnot-reproducible\tneeds latencies"));
        QVERIFY(o.out.contains("results.jsonl:4\t(all)\tnot-reproducible"));
        QVERIFY(!o.out.contains("mismatched"));
        const CliRun::Outcome runs = cli({ QStringLiteral("runs"), QStringLiteral("--project"), project });
        QCOMPARE(runs.out.count('\n'), 5);
        // Imported runs compare like measured ones, their origin named.
        const CliRun::Outcome c
            = cli({ QStringLiteral("compare"), QStringLiteral("--project"), project, QStringLiteral("--baseline"),
                QStringLiteral("2"), QStringLiteral("--candidate"), QStringLiteral("3"), QStringLiteral("--json") });
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const QJsonObject cmp = QJsonDocument::fromJson(c.out).object();
        QVERIFY(cmp.value(QStringLiteral("baseline"))
                    .toObject()
                    .value(QStringLiteral("origin"))
                    .toString()
                    .endsWith(QStringLiteral("results.jsonl (vllm), lines 1,2,3")));
        QCOMPARE(cmp.value(QStringLiteral("rows")).toArray().size(), 3 * 20); // three points, headline metrics
    }

    void alteredDigitFailsVerify()
    {
        QByteArray text = CliRun::readAll(kLambda);
        text.replace("\"p99_ttft_ms\": 63.362654292432126", "\"p99_ttft_ms\": 63.362654292432136");
        text.replace("\"mean_itl_ms\": 72.39887336495076", "\"mean_itl_ms\": 72.39887336595076");
        const QString altered = path(QStringLiteral("altered.json"));
        QFile f(altered);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        const CliRun::Outcome o = cli({ QStringLiteral("import"), altered, QStringLiteral("--project"),
            path(QStringLiteral("altered.servescope")), QStringLiteral("--verify") });
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.out.contains("altered.json:1\tmean_itl_ms\tmismatched\tfile 72.39887336595076 recomputed "
                                "72.39887336495076 (relative difference "),
            o.out.constData());
        // One unit in the 17th digit is within 1e-12: reproduced.
        QVERIFY(o.out.contains("altered.json:1\tp99_ttft_ms\treproduced"));
    }

    void malformedLineExitsTwoAndTheRestImports()
    {
        QByteArray text = CliRun::readAll(kNerd);
        text.replace("\n{\"date\": \"20250530-194848\"", "\n{\"date\": \"20250530-194848\" oops");
        const QString broken = path(QStringLiteral("broken.jsonl"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        const QString project = path(QStringLiteral("batch.servescope"));
        const CliRun::Outcome o
            = cli({ QStringLiteral("import"), broken, kLambda, QStringLiteral("--project"), project });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains("broken.jsonl: line 2: not valid JSON"), o.err.constData());
        QCOMPARE(o.out.count('\n'), 4); // 3 runs of broken.jsonl (8 points) and the LambdaLabs run
        QVERIFY(o.out.contains("broken.jsonl (vllm), lines 1,3"));
        QVERIFY(o.out.contains("len2048.json (vllm), line 1"));
        const CliRun::Outcome missing = cli({ QStringLiteral("import"), path(QStringLiteral("none.json")), kSglang,
            QStringLiteral("--project"), project });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("none.json: cannot read"));
        QVERIFY(missing.out.contains("(sglang), line 1"));
    }

    // A file of another kind, a count no file can hold and an array of the wrong type: exit 2, one stderr line that
    // says what was expected or names the key, and no run in the project.
    void hostileFilesLeaveTheProjectEmpty_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("error");
        QByteArray binary(1 << 20, Qt::Uninitialized);
        QRandomGenerator rng(11);
        for (char &c : binary)
            c = char(rng.bounded(256));
        QByteArray markdown = "# Results\n";
        for (int i = 0; i < 257; ++i)
            markdown += "- point " + QByteArray::number(i) + ": 3 requests\n";
        const QByteArray notResult = "not a result file: expected a JSON object, or JSON lines, of vLLM or SGLang "
                                     "results (or another benchmark tool's result file); line 1 is no JSON object";
        QTest::newRow("1 MiB of binary") << binary << notResult;
        QTest::newRow("Markdown, 258 lines") << markdown << notResult;
        QTest::newRow("completed -7, 3 ttfts, itls a string")
            << QByteArray(R"({"backend":"vllm","completed":-7,"duration":3,"ttfts":[0.1,0.2,0.3],"itls":"garbage"})"
                          "\n")
            << QByteArray("line 1: \"itls\" is not an array of per-request values (numbers; for itls, arrays of "
                          "numbers)");
        // Once crashed the import (std::length_error): a time that is no time, of a request that completed.
        QTest::newRow("NaN ttft with start times, latencies and itls")
            << QByteArray(R"({"backend":"vllm","completed":3,"duration":3,"ttfts":[0.1,NaN,0.3],"latencies":[1,1,1],)"
                          R"("start_times":[0,0.5,1],"input_lens":[5,5,5],"output_lens":[2,2,2],)"
                          R"("itls":[[0.1],[0.1],[0.1]]})"
                          "\n")
            << QByteArray("line 1: \"ttfts\" of request 1, which completed, is no time (not a finite number of seconds "
                          "from 0): the line is not imported");
        QTest::newRow("negative itl")
            << QByteArray(R"({"backend":"vllm","completed":2,"duration":3,"ttfts":[0.1,0.2],"latencies":[1,1],)"
                          R"("input_lens":[5,5],"output_lens":[2,2],"itls":[[0.1],[-0.1]]})"
                          "\n")
            << QByteArray("line 1: \"itls\" of request 1, which completed, is no time (not a finite number of seconds "
                          "from 0): the line is not imported");
        QTest::newRow("completed 2^62")
            << QByteArray(R"({"backend":"vllm","completed":4611686018427387904,"duration":3})"
                          "\n")
            << QByteArray("line 1: \"completed\" is 4.61168601842739e+18, but a count is a whole number from 0 to "
                          "2147483647: the line is not imported");
    }

    void hostileFilesLeaveTheProjectEmpty()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, error);
        const QString file = path(
            QStringLiteral("hostile-%1.txt").arg(QString::fromLatin1(QTest::currentDataTag())).replace(u' ', u'_'));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        const QString project = path(QStringLiteral("hostile.servescope"));
        QFile::remove(project);
        const CliRun::Outcome o = cli({ QStringLiteral("import"), file, QStringLiteral("--project"), project });
        QCOMPARE(o.exitCode, 2);
        QCOMPARE(o.err, "error: " + file.toUtf8() + ": " + error + '\n');
        QCOMPARE(o.out, QByteArray());
        const CliRun::Outcome runs
            = cli({ QStringLiteral("runs"), QStringLiteral("--project"), project, QStringLiteral("--json") });
        QVERIFY2(runs.exitCode == 0, runs.err.constData());
        QCOMPARE(QJsonDocument::fromJson(runs.out).array().size(), 0);
    }

    // A count the arrays contradict is stored as they give it, with one warning; runs --json shows the stored count.
    void impossibleCountIsRecomputedWithAWarning()
    {
        const QString file = path(QStringLiteral("negative.jsonl"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"backend":"vllm","completed":-7,"duration":3,"ttfts":[0.1,0.2,0.3],"latencies":[1,1,1],)"
                R"("input_lens":[5,5,5],"output_lens":[4,4,4],"itls":[[0.1,0.1,0.1],[0.1,0.1,0.1],[0.1,0.1,0.1]]})"
                "\n");
        f.close();
        const QString project = path(QStringLiteral("negative.servescope"));
        const CliRun::Outcome o = cli({ QStringLiteral("import"), file, QStringLiteral("--project"), project });
        QCOMPARE(o.exitCode, 0);
        QCOMPARE(o.err,
            "warning: " + file.toUtf8()
                + ": line 1: \"completed\" is -7, which is no count: stored as 3, recomputed from the per-request "
                  "arrays\n");
        const CliRun::Outcome runs
            = cli({ QStringLiteral("runs"), QStringLiteral("--project"), project, QStringLiteral("--json") });
        QVERIFY2(runs.exitCode == 0, runs.err.constData());
        QVERIFY2(runs.out.contains("\"completed\": 3") || runs.out.contains("\"completed\":3"), runs.out.constData());
        QVERIFY(!runs.out.contains("-7"));
    }

    // A JSON-lines file larger than the importer's whole peak memory: lines are streamed, not the file read.
    void largeFileIsStreamed()
    {
        const QString big = path(QStringLiteral("big.jsonl"));
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray arrays = "\"input_lens\":[";
        QByteArray tail = "],\"ttfts\":[";
        QByteArray itls, outs, texts, errors;
        for (int i = 0; i < 1000; ++i) {
            const char *sep = i ? "," : "";
            arrays += sep + QByteArray("100");
            outs += sep + QByteArray("16");
            tail += sep + QByteArray("0.05");
            itls += sep + QByteArray("[0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01]");
            texts += sep + QByteArray("\"") + QByteArray(1000, 'x') + '"';
            errors += sep + QByteArray("\"\"");
        }
        const QByteArray rest = arrays + "],\"output_lens\":[" + outs + tail + "],\"itls\":[" + itls
            + "],\"generated_texts\":[" + texts + "],\"errors\":[" + errors + "]}\n";
        for (int line = 0; line < 160; ++line)
            f.write("{\"backend\":\"vllm\",\"model_id\":\"m\",\"request_rate\":" + QByteArray::number(line + 1)
                + ",\"duration\":10,\"completed\":1000,\"mean_ttft_ms\":50.0," + rest);
        f.close();
        const qint64 size = QFileInfo(big).size();
        QVERIFY(size > 150LL * 1000 * 1000);
        QProcess p;
        p.start(SimChild::cli(),
            { QStringLiteral("import"), big, QStringLiteral("--project"), path(QStringLiteral("big.servescope")),
                QStringLiteral("--verify") });
        QVERIFY(p.waitForStarted(10000));
        const qint64 pid = p.processId();
        qint64 peak = -1;
        while (!p.waitForFinished(10))
            peak = std::max(peak, peakRss(pid));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY(out.startsWith("1\tbig\timported from "));
        QVERIFY(out.contains("big.jsonl:160\tmean_ttft_ms\treproduced"));
        qInfo("import of %.0f MB (160 lines of 1,000 requests): peak RSS %.1f MB", size / 1e6, peak / 1e6);
        QVERIFY(peak > 0);
        QVERIFY2(peak < size / 2, qPrintable(QString::number(peak)));
        QCOMPARE(summariesOf(path(QStringLiteral("big.servescope")), 1).size(), 160);
    }

    void nativeRunRoundTripsThroughItsResultFiles()
    {
        const QString exp = experiment(QStringLiteral("native"), QStringLiteral("vllm"));
        const QString project = path(QStringLiteral("native.servescope"));
        const QString out = path(QStringLiteral("native-results"));
        const CliRun::Outcome o
            = CliRun::run({ exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QVector<PointSummary> native = summariesOf(project, 1);
        QCOMPARE(native.size(), 2);
        const QString imported = path(QStringLiteral("reimported.servescope"));
        const CliRun::Outcome i = cli({ QStringLiteral("import"), out + QStringLiteral("/baseline/c1-r1.json"),
            out + QStringLiteral("/baseline/c4-r1.json"), QStringLiteral("--project"), imported,
            QStringLiteral("--verify") });
        QVERIFY2(i.exitCode == 0, i.err.constData());
        QVERIFY(!i.out.contains("mismatched") && !i.out.contains("explained"));
        for (int p = 0; p < 2; ++p) {
            const QVector<PointSummary> back = summariesOf(imported, p + 1);
            QCOMPARE(back.size(), 1);
            QCOMPARE(back.first().label, native.at(p).label);
            QCOMPARE(back.first().concurrency, native.at(p).concurrency);
            const QMap<QString, double> a = summaryValues(native.at(p));
            const QMap<QString, double> b = summaryValues(back.first());
            int compared = 0;
            for (auto it = a.cbegin(); it != a.cend(); ++it) {
                // ServeScope's own distributions travel as mean, median and the requested percentiles only.
                bool vllmKey = true;
                for (const DistributionField &f : distributionFields())
                    vllmKey = vllmKey && (f.vllmKey || !it.key().contains(u'_' + QLatin1String(f.code) + u'_'));
                const bool carried = vllmKey
                    || QStringList { QStringLiteral("mean"), QStringLiteral("median"), QStringLiteral("p50"),
                           QStringLiteral("p90"), QStringLiteral("p99") }
                           .contains(it.key().section(u'_', 0, 0));
                if (!carried)
                    continue;
                QVERIFY2(b.contains(it.key()), qPrintable(it.key()));
                QVERIFY2(b.value(it.key()) == it.value(),
                    qPrintable(QStringLiteral("%1: native %2, imported %3")
                                   .arg(it.key())
                                   .arg(it.value(), 0, 'g', 17)
                                   .arg(b.value(it.key()), 0, 'g', 17)));
                ++compared;
            }
            QVERIFY(compared > 60);
            QCOMPARE(back.first().completed, native.at(p).completed);
            QCOMPARE(back.first().warmup, native.at(p).warmup);
            QCOMPARE(back.first().outputEstimated, native.at(p).outputEstimated);
            QCOMPARE(back.first().inputEstimated, native.at(p).inputEstimated);
        }
        ProjectStore store;
        QVERIFY(store.open(imported));
        QVector<RequestRecord> records;
        QVERIFY(store.requests(1, RequestFilter {}, &records));
        QCOMPARE(records.size(), native.at(0).completed + native.at(0).failed);
    }

    void sglangProfileRunWritesResultFiles()
    {
        const QString exp = experiment(QStringLiteral("sgprofile"), QStringLiteral("sglang"));
        const QString project = path(QStringLiteral("sgprofile.servescope"));
        const QString out = path(QStringLiteral("sgprofile-results"));
        const CliRun::Outcome o
            = CliRun::run({ exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY2(!o.err.contains("needs a summary computed"), o.err.constData());
        const QJsonObject r
            = QJsonDocument::fromJson(CliRun::readAll(out + QStringLiteral("/baseline/c4-r1.json"))).object();
        QCOMPARE(r.value(QStringLiteral("servescope_definitions")).toString(), QStringLiteral("vllm"));
        QCOMPARE(r.value(QStringLiteral("servescope_profile")).toString(), QStringLiteral("sglang"));
        QCOMPARE(r.value(QStringLiteral("completed")).toInt(), 20);
        QVERIFY(r.contains(QStringLiteral("servescope_sglang_mean_tpot_ms")));
        QVERIFY(r.value(QStringLiteral("ttfts")).toArray().size() == 20);
        const QVector<PointSummary> stored = summariesOf(project, 1);
        QCOMPARE(stored.size(), 2);
        QCOMPARE(stored.at(1).definitions, QStringLiteral("sglang"));
        QCOMPARE(r.value(QStringLiteral("servescope_sglang_mean_tpot_ms")).toDouble(), stored.at(1).tpot.mean);
        const QByteArray csv = CliRun::readAll(out + QStringLiteral("/summary.csv"));
        QVERIFY(csv.contains("baseline,c4,concurrency,4,0,1,vllm,value,20,0,"));
        QVERIFY(csv.contains("baseline,c4,concurrency,4,0,1,sglang,value,20,0,"));

        // SGLang's own JSON lines: one per point, its figures those of the sglang profile; they
        // import back as one SGLang run with the same statistics.
        const QString jsonl = path(QStringLiteral("sgprofile.jsonl"));
        const CliRun::Outcome e = cli({ QStringLiteral("export"), QStringLiteral("--project"), project,
            QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--sglang-jsonl"), jsonl });
        QVERIFY2(e.exitCode == 0, e.err.constData());
        const QByteArray lines = CliRun::readAll(jsonl);
        QCOMPARE(lines.count('\n'), 2);
        QVERIFY(lines.contains("\"request_rate\":Infinity,\"max_concurrency\":4"));
        QVERIFY(lines.contains("\"p95_itl_ms\":"));
        const QString back = path(QStringLiteral("sgback.servescope"));
        const CliRun::Outcome i = cli({ QStringLiteral("import"), jsonl, QStringLiteral("--project"), back });
        QVERIFY2(i.exitCode == 0, i.err.constData());
        // The two points differ in their lengths, so they are two SGLang runs of one point each.
        QVERIFY(i.out.contains("(sglang), line 1\n"));
        QVERIFY(i.out.contains("(sglang), line 2\n"));
        for (int p = 0; p < 2; ++p) {
            const QVector<PointSummary> imported = summariesOf(back, p + 1);
            QCOMPARE(imported.size(), 1);
            const PointSummary &b = imported.first();
            const PointSummary &a = stored.at(p);
            QCOMPARE(b.label, a.label);
            QCOMPARE(b.definitions, QStringLiteral("sglang"));
            QCOMPARE(b.completed, a.completed);
            QCOMPARE(b.outputThroughput, a.outputThroughput);
            QCOMPARE(b.averageConcurrency, a.averageConcurrency);
            QCOMPARE(b.ttft.mean, a.ttft.mean);
            QCOMPARE(b.tpot.median, a.tpot.median);
            QCOMPARE(b.itl.p99, a.itl.p99);
            QCOMPARE(b.e2el.std, a.e2el.std);
        }
        const CliRun::Outcome none = cli({ QStringLiteral("export"), QStringLiteral("--project"), back,
            QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--sglang-jsonl"), jsonl + u'2' });
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.err.contains("no stored requests"));
    }

    // `export --benchmark-report`: one llm-d Benchmark Report v0.2 per point, laid out as the schema's
    // example, in YAML and JSON; the folder imports back as one run whose points equal the stored ones.
    void benchmarkReportExportImportsBackEqual()
    {
        const QString exp = experiment(QStringLiteral("brtrip"), QStringLiteral("vllm"));
        const QString project = path(QStringLiteral("brtrip.servescope"));
        const CliRun::Outcome o = CliRun::run({ exp, QStringLiteral("--project"), project });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QVector<PointSummary> native = summariesOf(project, 1);
        QCOMPARE(native.size(), 2);

        const QString folder = path(QStringLiteral("brtrip-reports"));
        QVERIFY(QDir().mkpath(folder));
        const CliRun::Outcome e
            = cli({ QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--run"),
                QStringLiteral("1"), QStringLiteral("--benchmark-report"), folder + QStringLiteral("/brtrip.yaml") });
        QVERIFY2(e.exitCode == 0, e.err.constData());
        const QStringList written = QString::fromUtf8(e.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(written,
            QStringList({ QFileInfo(folder + QStringLiteral("/brtrip-baseline-c1.yaml")).absoluteFilePath(),
                QFileInfo(folder + QStringLiteral("/brtrip-baseline-c4.yaml")).absoluteFilePath() }));

        // The layout: every key under the aggregate is one the schema's own example uses, or its
        // `incomplete` count; the units are the schema's.
        QString error;
        const QJsonValue example = Yaml::parse(
            CliRun::readAll(QStringLiteral(SERVESCOPE_TEST_DATA "/other-tools/br_v0_2_example.yaml")), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonValue mine = Yaml::parse(CliRun::readAll(written.at(1)), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(mine[QStringLiteral("version")].toString(), QStringLiteral("0.2"));
        QCOMPARE(mine[QStringLiteral("scenario")][QStringLiteral("load")][QStringLiteral("standardized")]
                     [QStringLiteral("concurrency")]
                         .toDouble(),
            4.0);
        const QJsonObject aggregate
            = mine[QStringLiteral("results")][QStringLiteral("request_performance")][QStringLiteral("aggregate")]
                  .toObject();
        const QJsonObject exampleAggregate
            = example[QStringLiteral("results")][QStringLiteral("request_performance")][QStringLiteral("aggregate")]
                  .toObject();
        int keys = 0;
        for (const QString &group : aggregate.keys()) {
            QVERIFY2(exampleAggregate.contains(group), qPrintable(group));
            const QJsonObject items = aggregate.value(group).toObject();
            for (const QString &item : items.keys()) {
                if (item == QLatin1String("incomplete"))
                    continue;
                QVERIFY2(exampleAggregate.value(group).toObject().contains(item), qPrintable(group + u'.' + item));
                const QJsonObject stats = items.value(item).toObject();
                for (const QString &stat : stats.keys()) {
                    // Every statistic the example writes somewhere (its ITL stops at p99p9), or stddev.
                    QVERIFY2(exampleAggregate[QStringLiteral("latency")][QStringLiteral("time_to_first_token")]
                                 .toObject()
                                 .contains(stat)
                            || stat == u"stddev",
                        qPrintable(group + u'.' + item + u'.' + stat));
                    ++keys;
                }
                if (group == QLatin1String("latency"))
                    QVERIFY(QStringList({ QStringLiteral("ms"), QStringLiteral("ms/token") })
                                .contains(stats.value(QStringLiteral("units")).toString()));
            }
        }
        QVERIFY2(keys > 80, qPrintable(QString::number(keys)));
        const QJsonObject ttft = aggregate[QStringLiteral("latency")][QStringLiteral("time_to_first_token")].toObject();
        QCOMPARE(ttft.value(QStringLiteral("mean")).toDouble(), native.at(1).ttft.mean);
        QVERIFY(ttft.value(QStringLiteral("min")).toDouble() <= ttft.value(QStringLiteral("p1")).toDouble());
        QVERIFY(ttft.value(QStringLiteral("max")).toDouble() >= ttft.value(QStringLiteral("p99")).toDouble());

        // JSON too: the same figures.
        const QString json = path(QStringLiteral("brtrip.json"));
        const CliRun::Outcome j = cli({ QStringLiteral("export"), QStringLiteral("--project"), project,
            QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--benchmark-report"), json });
        QVERIFY2(j.exitCode == 0, j.err.constData());
        const QJsonObject asJson
            = QJsonDocument::fromJson(CliRun::readAll(path(QStringLiteral("brtrip-baseline-c4.json")))).object();
        QCOMPARE(asJson.value(QStringLiteral("results")).toObject(), mine[QStringLiteral("results")].toObject());

        const QString back = path(QStringLiteral("brback.servescope"));
        const CliRun::Outcome i = cli({ QStringLiteral("import"), folder, QStringLiteral("--project"), back });
        QVERIFY2(i.exitCode == 0, i.err.constData());
        // The two points differ in their lengths, so they are two runs of one point each (points
        // that differ only in load become one run's: tst_toolimport benchmarkReportFolderIsOneRun).
        QCOMPARE(i.out.count('\n'), 2);
        for (int p = 0; p < 2; ++p) {
            const QVector<PointSummary> imported = summariesOf(back, p + 1);
            QCOMPARE(imported.size(), 1);
            const PointSummary &a = native.at(p);
            const PointSummary &b = imported.first();
            QCOMPARE(b.label, a.label);
            QCOMPARE(b.mode, QStringLiteral("concurrency"));
            QCOMPARE(b.concurrency, a.concurrency);
            QCOMPARE(b.completed, a.completed);
            QCOMPARE(b.failed, a.failed);
            QCOMPARE(b.totalInputTokens, a.totalInputTokens);
            QCOMPARE(b.totalOutputTokens, a.totalOutputTokens);
            QCOMPARE(b.duration, a.duration);
            QCOMPARE(b.requestThroughput, a.requestThroughput);
            QCOMPARE(b.outputThroughput, a.outputThroughput);
            QCOMPARE(b.totalTokenThroughput, a.totalTokenThroughput);
            for (Distribution PointSummary::*d :
                { &PointSummary::ttft, &PointSummary::tpot, &PointSummary::itl, &PointSummary::e2el }) {
                QCOMPARE((b.*d).mean, (a.*d).mean);
                QCOMPARE((b.*d).std, (a.*d).std);
                QCOMPARE((b.*d).median, (a.*d).median);
                for (double q : { 1.0, 10.0, 25.0, 75.0, 90.0, 99.0 })
                    QCOMPARE((b.*d).percentile(q), (a.*d).percentile(q));
            }
        }
        const RunOrigin origin = [&] {
            ProjectStore store;
            return store.open(back) ? RunOrigin::fromJson(store.run(1)->origin) : RunOrigin();
        }();
        QCOMPARE(origin.format, QStringLiteral("llm-d"));
        QVERIFY2(
            origin.toolVersion.startsWith(QStringLiteral("v0.2, harness servescope ")), qPrintable(origin.toolVersion));

        const CliRun::Outcome bad
            = cli({ QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--run"),
                QStringLiteral("1"), QStringLiteral("--benchmark-report"), path(QStringLiteral("brtrip.txt")) });
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--benchmark-report file must end in .yaml, .yml or .json"));
    }

    // A ServeScope run against AIPerf's published file: compare keeps the verdicts of the metrics
    // both define alike, withholds the others with the reason, names both conventions, and refuses
    // to gate on a metric the two define differently.
    void comparingWithAnotherToolsFileJudgesOnlyComparablePairs()
    {
        CliRun::writeExperiment(QDir(m_dir.path()), QStringLiteral("vsaiperf"),
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
                { QStringLiteral("model"), QStringLiteral("Qwen/Qwen3-0.6B") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [\n"
                           "  {\"concurrency\": 1, \"input_len\": 100, \"output_len\": 200, \"num_prompts\": 8}]}"));
        const QString project = path(QStringLiteral("vsaiperf.servescope"));
        const CliRun::Outcome o = CliRun::run({ path(QStringLiteral("vsaiperf.json")), QStringLiteral("--project"),
            project, QStringLiteral("--sim-time-scale"), QStringLiteral("10") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const CliRun::Outcome i = cli({ QStringLiteral("import"),
            QStringLiteral(
                SERVESCOPE_TEST_DATA "/other-tools/aiperf-fixture_qwen_concurrency1__profile_export_aiperf.json"),
            QStringLiteral("--project"), project });
        QVERIFY2(i.exitCode == 0, i.err.constData());
        const QStringList sides { QStringLiteral("compare"), QStringLiteral("--project"), project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--baseline-variant"),
            QStringLiteral("baseline"), QStringLiteral("--candidate"), QStringLiteral("2") };
        const CliRun::Outcome c = cli(sides + QStringList { QStringLiteral("--json") });
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(c.out).object();
        QCOMPARE(doc[QStringLiteral("baseline")][QStringLiteral("convention")].toString(), QStringLiteral("vllm"));
        QCOMPARE(doc[QStringLiteral("candidate")][QStringLiteral("convention")].toString(), QStringLiteral("aiperf"));
        QMap<QString, QString> comparability;
        for (const QJsonValue &d : doc[QStringLiteral("definitions")].toArray())
            comparability.insert(d[QStringLiteral("family")].toString(), d[QStringLiteral("comparability")].toString());
        QCOMPARE(comparability.value(QStringLiteral("ttft")), QStringLiteral("after-recompute"));
        QCOMPARE(comparability.value(QStringLiteral("tpot")), QStringLiteral("not-comparable"));
        QCOMPARE(comparability.value(QStringLiteral("request_throughput")), QStringLiteral("as-published"));
        int withheld = 0, judged = 0;
        for (const QJsonValue &r : doc[QStringLiteral("rows")].toArray()) {
            const QString metric = r[QStringLiteral("metric")].toString();
            const QString verdict = r[QStringLiteral("verdict")].toString();
            if (metric.contains(QLatin1String("_ttft_")) || metric.contains(QLatin1String("_tpot_"))) {
                QCOMPARE(verdict, QStringLiteral("not-comparable"));
                ++withheld;
            } else if (metric == QLatin1String("request_throughput")) {
                QVERIFY(verdict != QLatin1String("not-comparable"));
                ++judged;
            }
        }
        QCOMPARE(withheld, 8);
        QCOMPARE(judged, 1);
        QVERIFY(c.err.contains("definitions\ttpot\tnot-comparable\tclock,tokens\n"));

        const CliRun::Outcome gate
            = cli(sides + QStringList { QStringLiteral("--fail-if"), QStringLiteral("median_tpot_ms > +5%") });
        QCOMPARE(gate.exitCode, 2);
        QVERIFY2(gate.err.contains("define it differently (not-comparable: clock, tokens), so it cannot gate"),
            gate.err.constData());
        const CliRun::Outcome allowed
            = cli(sides + QStringList { QStringLiteral("--fail-if"), QStringLiteral("request_throughput < -99.9%") });
        QVERIFY2(allowed.exitCode == 0, allowed.err.constData());
    }

    void unwritableResultsFolderFailsTheRun()
    {
        const QString exp = experiment(QStringLiteral("blocked"), QStringLiteral("vllm"));
        const QString project = path(QStringLiteral("blocked.servescope"));
        const QString out = path(QStringLiteral("blocked-results"));
        QVERIFY(QDir().mkpath(out));
        QFile blocker(out + QStringLiteral("/baseline")); // a file where the variant's folder goes
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const CliRun::Outcome o
            = CliRun::run({ exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out });
        QCOMPARE(o.exitCode, 1);
        QVERIFY(o.out.contains("\tfailed\t"));
        QVERIFY2(o.err.contains("the results folder is incomplete: cannot create"), o.err.constData());
        ProjectStore store;
        QVERIFY(store.open(project));
        QCOMPARE(store.run(1)->status, RunStatus::Failed);
    }
};

QTEST_GUILESS_MAIN(TestCliImport)
#include "tst_cliimport.moc"
