// SPDX-License-Identifier: MIT
#include "metrics/aggregate.h"
#include "recompute.h"
#include "resultfiles/resultfile.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

using namespace ServeScope;
using namespace ServeScope::Test;
using K = EventKind;

namespace {

constexpr qint64 Origin = 5000000000000; // an arbitrary monotonic clock reading

// A deterministic point with irregular timings: streams, a failure, a warmup and a cancelled request.
std::vector<RequestRecord> pointRecords()
{
    std::vector<RequestRecord> v;
    quint64 x = 12345;
    auto next = [&x](qint64 lo, qint64 span) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return lo + qint64((x >> 33) % quint64(span));
    };
    for (int i = 0; i < 40; ++i) {
        RequestRecord r;
        r.index = i;
        r.scheduledNs = Origin + qint64(i) * 37000000 + next(0, 1000);
        r.slotNs = r.scheduledNs + next(0, 2000000);
        r.startNs = r.slotNs + next(1000, 50000);
        r.promptTokens = int(next(120, 20));
        r.targetInputLen = 128;
        r.targetOutputLen = 32;
        r.generatedText = QStringLiteral("tok\u00e9n \"quoted\" %1").arg(i).toUtf8();
        qint64 t = next(20000000, 80000000);
        r.eventNs.append(t);
        r.eventKinds.append(K::RoleOnly);
        const int chunks = int(next(1, 31));
        for (int k = 0; k < chunks; ++k) {
            r.eventNs.append(t += next(5000000, 30000000));
            r.eventKinds.append(K::Content);
        }
        r.eventNs.append(t + 1000);
        r.eventKinds.append(K::Usage);
        r.eventNs.append(t + 2000);
        r.eventKinds.append(K::Done);
        r.endNs = r.startNs + t + 2000;
        r.completionTokens = chunks + 1;
        v.push_back(r);
    }
    v[7].status = RequestStatus::Failed;
    v[7].errorClass = ErrorClass::TimeoutIdle;
    v[7].errorText = QStringLiteral("idle timeout after 60 s");
    v[12].warmup = true;
    v[20].status = RequestStatus::Cancelled;
    return v;
}

QVector<ResultRun> readFixture(const char *name, QString *error)
{
    return readResultFilePath(QStringLiteral(SERVESCOPE_TEST_DATA "/real/") + QLatin1String(name), error);
}

double relErr(double a, double b)
{
    return b == 0 ? std::abs(a) : std::abs(a - b) / std::abs(b);
}

} // namespace

class TestResultFile final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void roundTripRecomputesExactly()
    {
        const auto recs = pointRecords();
        AggregateOptions o;
        o.measuredStartNs = Origin;
        o.percentiles = { 50, 90, 99, 99.9 };
        const PointResult pr = aggregatePoint(recs, o);
        ResultFileSetup setup;
        setup.date = QStringLiteral("20261129-120000");
        setup.modelId = QStringLiteral("sim-7b");
        setup.numPrompts = 38;
        setup.maxConcurrency = 4;
        setup.percentiles = o.percentiles;
        setup.measuredStartNs = Origin;
        setup.extraNumbers = { { QStringLiteral("servescope_steady_output_throughput"), 123.25 },
            { QStringLiteral("mean_ttft_ms"), -1 } };
        QString error;
        const QByteArray bytes = writeVllmResult(setup, recs, pr.summary, &error);
        QVERIFY2(!bytes.isEmpty(), qPrintable(error));
        QVERIFY(bytes.startsWith("{\"date\":\"20261129-120000\",\"backend\":"));
        QVERIFY(bytes.contains("\"request_rate\":\"inf\""));
        QVERIFY(bytes.contains("\"request_goodput\":null"));

        const QVector<ResultRun> runs = readResultFile(bytes, &error);
        QCOMPARE(runs.size(), 1);
        const ResultRun &run = runs.first();
        QVERIFY(run.hasArrays);
        QCOMPARE(run.ttfts.size(), 38); // 40 minus the warmup and the cancelled request
        QCOMPARE(run.errors.at(7), QStringLiteral("idle timeout after 60 s"));
        QCOMPARE(run.itls.at(7).size(), 0);
        QCOMPARE(run.generatedTexts.at(0), QString::fromUtf8(recs[0].generatedText));
        QVERIFY(std::isinf(run.requestRate));
        QCOMPARE(run.number(QStringLiteral("servescope_warmup_requests")), 1.0);
        QCOMPARE(run.number(QStringLiteral("servescope_cancelled_requests")), 1.0);
        QCOMPARE(run.number(QStringLiteral("servescope_steady_output_throughput")), 123.25);
        QCOMPARE(run.number(QStringLiteral("servescope_mean_ttft_ms")), -1.0); // prefixed, not overwriting

        const Recomputed c = recompute(run);
        QCOMPARE(double(c.completed), run.number(QStringLiteral("completed")));
        QCOMPARE(double(c.failed), run.number(QStringLiteral("failed")));
        QCOMPARE(double(c.totalIn), run.number(QStringLiteral("total_input_tokens")));
        QCOMPARE(double(c.totalOut), run.number(QStringLiteral("total_output_tokens")));
        QCOMPARE(c.maxTokensPerS, run.number(QStringLiteral("max_output_tokens_per_s")));
        QCOMPARE(double(c.maxConcurrent), run.number(QStringLiteral("max_concurrent_requests")));
        const std::pair<const char *, const std::vector<double> *> metrics[]
            = { { "ttft", &c.ttft }, { "tpot", &c.tpot }, { "itl", &c.itl }, { "e2el", &c.e2el } };
        int checked = 0;
        for (const auto &[m, values] : metrics) {
            for (const char *stat : { "mean", "median", "std", "p50", "p90", "p99", "p99.9" }) {
                const QString key = QLatin1String(stat) + u'_' + QLatin1String(m) + QLatin1String("_ms");
                QVERIFY2(run.numbers.contains(key), qPrintable(key));
                const double want = run.number(key), got = statMs(*values, QLatin1String(stat));
                QVERIFY2(got == want,
                    qPrintable(QStringLiteral("%1: %2 vs %3").arg(key).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
                ++checked;
            }
        }
        QCOMPARE(checked, 28);
    }

    void savedFileIsTheWrittenBytes_data()
    {
        QTest::addColumn<int>("copies");
        QTest::newRow("one point, below the write buffer") << 1;
        // About 1 MB: the file is streamed in many buffers.
        QTest::newRow("fifty points' requests, many buffers") << 50;
    }

    void savedFileIsTheWrittenBytes()
    {
        QFETCH(int, copies);
        std::vector<RequestRecord> recs;
        for (int c = 0; c < copies; ++c) {
            for (RequestRecord r : pointRecords()) {
                r.index += c * 40;
                recs.push_back(r);
            }
        }
        AggregateOptions o;
        o.measuredStartNs = Origin;
        const PointResult pr = aggregatePoint(recs, o);
        ResultFileSetup setup;
        setup.date = QStringLiteral("20261129-120000");
        setup.measuredStartNs = Origin;
        QString error;
        const QByteArray bytes = writeVllmResult(setup, recs, pr.summary, &error);
        QVERIFY2(!bytes.isEmpty(), qPrintable(error));
        QVERIFY(copies == 1 || bytes.size() > 256 * 1024);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("point.json"));
        QVERIFY2(saveVllmResult(path, setup, recs, pr.summary, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray saved = f.readAll();
        QCOMPARE(saved.size(), bytes.size());
        QVERIFY(saved == bytes);
        // Streamed array by array, yet the bytes a dump of the whole tree writes (parsed back, in order).
        const auto tree = nlohmann::ordered_json::parse(bytes.cbegin(), bytes.cend());
        QCOMPARE(tree.at("itls").size(), size_t(38 * copies));
        const std::string whole = tree.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        QVERIFY(QByteArray::fromStdString(whole) == bytes);

        const QString missing = dir.filePath(QStringLiteral("no/such/dir/point.json"));
        QVERIFY(!saveVllmResult(missing, setup, recs, pr.summary, &error));
        QVERIFY2(error.startsWith(QLatin1String("cannot write ")), qPrintable(error));
        QVERIFY(!QFile::exists(missing));
    }

    void refusesSglangSummary()
    {
        const auto recs = pointRecords();
        AggregateOptions o;
        o.profile = DefinitionsProfile::Sglang;
        QString error;
        QVERIFY(writeVllmResult({}, recs, aggregatePoint(recs, o).summary, &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("vllm")));
    }

    void lambdaLabsRecomputes_data()
    {
        QTest::addColumn<QString>("metric");
        QTest::newRow("ttft") << QStringLiteral("ttft");
        QTest::newRow("itl") << QStringLiteral("itl");
    }

    void lambdaLabsRecomputes()
    {
        QFETCH(QString, metric);
        QString error;
        const auto runs = readFixture("vllm_LambdaLabsML_vllm-benchmark_llama3-8b-1xh100-len2048.json", &error);
        QCOMPARE(runs.size(), 1);
        const ResultRun &run = runs.first();
        QVERIFY(run.hasArrays);
        QVERIFY(!run.hasFailedKey);
        QVERIFY(std::isinf(run.requestRate));
        QVERIFY(run.numbers.contains(QStringLiteral("mean_e2el_ms"))); // from mean_latency_ms
        QCOMPARE(run.ttfts.size(), 10);
        const Recomputed c = recompute(run);
        QCOMPARE(c.completed, 10);
        QCOMPARE(double(c.totalOut), run.number(QStringLiteral("total_output_tokens")) - 0);
        const std::vector<double> &values = metric == QLatin1String("ttft") ? c.ttft : c.itl;
        double worst = 0;
        for (const char *stat : { "mean", "median", "std", "p99" }) {
            const QString key = QLatin1String(stat) + u'_' + metric + QLatin1String("_ms");
            const double err = relErr(statMs(values, QLatin1String(stat)), run.number(key));
            worst = std::max(worst, err);
            QVERIFY2(err <= 1e-9, qPrintable(QStringLiteral("%1 relative error %2").arg(key).arg(err)));
        }
        qInfo("LambdaLabs %s: worst relative error %.3g", qPrintable(metric), worst);
    }

    void nerdalertNineRuns()
    {
        QString error;
        const auto runs = readFixture("vllm_nerdalert_vllm-bench-automation_results.jsonl", &error);
        QCOMPARE(runs.size(), 9);
        const double rates[] = { 10, 30, INFINITY, 10, 30, INFINITY, 10, 30, INFINITY };
        for (int i = 0; i < 9; ++i) {
            QCOMPARE(runs[i].line, i + 1);
            QCOMPARE(runs[i].source, QStringLiteral("vllm"));
            QVERIFY(runs[i].requestRate == rates[i]);
            QVERIFY(runs[i].nullKeys.contains(QStringLiteral("request_goodput"))); // "request_goodput:"
            QVERIFY(!runs[i].hasArrays);
        }
        QCOMPARE(runs[0].number(QStringLiteral("mean_ttft_ms")), 54.59561144333596);
        QCOMPARE(runs[0].number(QStringLiteral("completed")), 300.0);
    }

    void sglangJsonLines()
    {
        QString error;
        const auto runs = readFixture("sglang_TonyLi15_sglang-benchmark_agg-n50-in128-out64-c8.jsonl", &error);
        QCOMPARE(runs.size(), 1);
        const ResultRun &run = runs.first();
        QCOMPARE(run.source, QStringLiteral("sglang"));
        QVERIFY(std::isinf(run.requestRate) && run.requestRate > 0);
        QVERIFY(!run.hasFailedKey);
        QCOMPARE(run.number(QStringLiteral("mean_e2el_ms")), 306.8716875091195); // mean_e2e_latency_ms
        QCOMPARE(run.number(QStringLiteral("concurrency")), 7.784201163950447);
        QCOMPARE(run.number(QStringLiteral("p95_itl_ms")), 21.319825435057282);
        QCOMPARE(run.number(QStringLiteral("total_output_tokens_retokenized")), 1400.0);
    }

    void nonFiniteOnlyOutsideStrings_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("label");
        QTest::addColumn<double>("rate");
        QTest::newRow("bare") << QByteArray("{\"label\":\"x\",\"request_rate\":Infinity}") << QStringLiteral("x")
                              << std::numeric_limits<double>::infinity();
        QTest::newRow("in-string") << QByteArray("{\"label\":\"Infinity \\\"NaN\\\"\",\"request_rate\":2.5}")
                                   << QStringLiteral("Infinity \"NaN\"") << 2.5;
        QTest::newRow("string-inf") << QByteArray("{\"label\":\"\",\"request_rate\":\"inf\"}") << QString()
                                    << std::numeric_limits<double>::infinity();
    }

    void nonFiniteOnlyOutsideStrings()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, label);
        QFETCH(double, rate);
        QString error;
        const auto runs = readResultFile(json, &error);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].strings.value(QStringLiteral("label")), label);
        QVERIFY(runs[0].requestRate == rate);
    }

    // Lengths are counts: one that is NaN, infinite or past 2^63 reads as 0 (like null), never
    // through an undefined double-to-integer conversion (found by fuzz_resultfile); a text among
    // them makes the array one of the wrong type, and the line is refused naming it.
    void lengthsThatAreNoCount()
    {
        QString error;
        const auto runs = readResultFile(
            "{\"input_lens\": [1, NaN, Infinity, -Infinity, 1e300, null, 7], \"output_lens\": [3.0, -1e19]}", &error);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].inputLens, (QVector<qint64> { 1, 0, 0, 0, 0, 0, 7 }));
        QCOMPARE(runs[0].outputLens, (QVector<qint64> { 3, 0 }));
        QVERIFY(readResultFile("{\"input_lens\": [1, \"x\", 7]}", &error).isEmpty());
        QCOMPARE(error,
            QStringLiteral(
                "\"input_lens\" is not an array of per-request values (numbers; for itls, arrays of numbers)"));
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("not an object");
        QTest::newRow("bad-line") << QByteArray("{\"a\":1}\n{oops\n") << QStringLiteral("line 2");
        QTest::newRow("empty") << QByteArray("\n\n") << QStringLiteral("empty");
    }

    void malformed()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QString error;
        QVERIFY(readResultFile(json, &error).isEmpty());
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void summaryCsv()
    {
        PointSummary s;
        s.variant = QStringLiteral("seqs,64");
        s.label = QStringLiteral("c8");
        s.mode = QStringLiteral("concurrency");
        s.concurrency = 8;
        s.repeat = 2;
        s.completed = 100000; // digits, not the shortest "1e+05"
        s.failed = 1;
        s.successRate = 0.995;
        s.requestThroughput = 0.1 + 0.2;
        s.requestRate = INFINITY;
        s.ttft.p50 = 12.5;
        s.e2el.p99 = 1e21;
        const QByteArray header = summaryCsvHeader();
        QVERIFY(header.startsWith(
            "variant,label,mode,concurrency,request_rate,repeat,set,stat,completed,failed,success_rate,"));
        QVERIFY(
            header.endsWith(",p50_e2el_ms,p90_e2el_ms,p99_e2el_ms,output_estimated,input_estimated,reasoning_tokens,"
                            "reasoning_estimated,cached_tokens,cached_prompt_tokens,cost_per_million_output_tokens\n"));
        QCOMPARE(header.count(','), 35);
        s.outputEstimated = 3;
        s.inputEstimated = 2;
        // Without a valid steady window, one row: vLLM's set.
        QCOMPARE(summaryCsvRows(s),
            QByteArray("\"seqs,64\",c8,concurrency,8,inf,2,vllm,value,100000,1,0.995,0.3000000000"
                       "0000004,0,0,12.5,0,0,0,0,0,0,0,0,0,0,0,0,0,1e+21,3,2,0,0,,,\n"));
        // With one, a second row labelled steady: what the set lacks stays empty.
        s.steady = { { QStringLiteral("valid"), 1 }, { QStringLiteral("completed"), 150 },
            { QStringLiteral("output_throughput"), 812.25 }, { QStringLiteral("median_ttft_ms"), 11 },
            { QStringLiteral("p99_e2el_ms"), 900 } };
        const QList<QByteArray> rows = summaryCsvRows(s).split('\n');
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows.at(1),
            QByteArray("\"seqs,64\",c8,concurrency,8,inf,2,steady,value,150,,,,812.25,,11,,,,,,,,,,,,,,900,,,,,,,"));
        // With an hour of the variant's GPUs priced at 8: each row's cost at its own throughput, none at 0 tok/s.
        const QList<QByteArray> priced = summaryCsvRows(s, {}, 8).split('\n');
        QVERIFY2(priced.at(0).endsWith(",3,2,0,0,,,"), priced.at(0).constData());
        const QByteArray steadyCost
            = QByteArray::number(8 / 3600.0 / 812.25 * 1e6, 'g', QLocale::FloatingPointShortest);
        QVERIFY2(priced.at(1).endsWith(QByteArray(",900,,,,,,,").append(steadyCost)), priced.at(1).constData());
    }

    void summaryCsvStatistics()
    {
        PointSummary id;
        id.variant = QStringLiteral("base");
        id.label = QStringLiteral("c4");
        id.mode = QStringLiteral("concurrency");
        id.concurrency = 4;
        PointEstimate ttft;
        ttft.metric = QStringLiteral("median_ttft_ms");
        ttft.repeats = 3;
        ttft.median = 20;
        ttft.min = 19;
        ttft.max = 23;
        ttft.cv = 0.08;
        ttft.ciLow = 18.5;
        ttft.ciHigh = 21.5;
        ttft.ciMethod = QStringLiteral("order-statistic");
        PointEstimate out;
        out.metric = QStringLiteral("output_throughput");
        out.repeats = 3;
        out.median = 1000;
        out.min = 990;
        out.max = 1010;
        out.cv = 0.01; // no interval: the ci rows leave it empty
        const QList<QByteArray> rows = summaryCsvStatRows(id, { ttft, out }).split('\n');
        QCOMPARE(rows.size(), 7);
        QCOMPARE(rows.at(0), QByteArray("base,c4,concurrency,4,0,,vllm,median,,,,,1000,,20,,,,,,,,,,,,,,,,,,,,,"));
        QCOMPARE(rows.at(1), QByteArray("base,c4,concurrency,4,0,,vllm,min,,,,,990,,19,,,,,,,,,,,,,,,,,,,,,"));
        QCOMPARE(rows.at(3), QByteArray("base,c4,concurrency,4,0,,vllm,cv,,,,,0.01,,0.08,,,,,,,,,,,,,,,,,,,,,"));
        QCOMPARE(rows.at(4), QByteArray("base,c4,concurrency,4,0,,vllm,ci_low,,,,,,,18.5,,,,,,,,,,,,,,,,,,,,,"));
        QCOMPARE(rows.at(5), QByteArray("base,c4,concurrency,4,0,,vllm,ci_high,,,,,,,21.5,,,,,,,,,,,,,,,,,,,,,"));
        // Priced: the cost of a statistic is the throughput's mirrored one (the least cost at the most
        // throughput); cv has none, and neither have the ci rows without a throughput interval.
        const auto cost = [](double tokensPerS) {
            return QByteArray::number(36.0 / 3600 / tokensPerS * 1e6, 'g', QLocale::FloatingPointShortest);
        };
        const QList<QByteArray> priced = summaryCsvStatRows(id, { ttft, out }, {}, 36).split('\n');
        QVERIFY2(priced.at(0).endsWith(QByteArray(',' + cost(1000))), priced.at(0).constData());
        QVERIFY2(priced.at(1).endsWith(QByteArray(',' + cost(1010))), priced.at(1).constData());
        QVERIFY2(priced.at(2).endsWith(QByteArray(',' + cost(990))), priced.at(2).constData());
        QVERIFY(priced.at(3).endsWith(",,"));
        QVERIFY(priced.at(4).endsWith(",,"));
        out.ciLow = 980;
        out.ciHigh = 1020;
        out.ciMethod = QStringLiteral("repeat-range");
        const QList<QByteArray> interval = summaryCsvStatRows(id, { ttft, out }, {}, 36).split('\n');
        QVERIFY2(interval.at(4).endsWith(QByteArray(',' + cost(1020))), interval.at(4).constData());
        QVERIFY2(interval.at(5).endsWith(QByteArray(',' + cost(980))), interval.at(5).constData());
    }
};

QTEST_GUILESS_MAIN(TestResultFile)
#include "tst_resultfile.moc"
