// SPDX-License-Identifier: MIT
// Importing other benchmark tools' result files (tests/data/other-tools, see its README.md): each
// file's published TTFT, TPOT, E2EL and throughput read back under ServeScope's definitions, the
// figures no ServeScope metric equals left out, unknown layouts refused with nothing stored.
#include "import/resultimport.h"
#include "import/resultverify.h"
#include "import/toolformat.h"
#include "import/yamlsubset.h"
#include "importprojects.h"
#include "io/jsontree.h"
#include "model/runorigin.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace ServeScope;
using Testing::readAll;

namespace {

const QString kDir = QStringLiteral(SERVESCOPE_TEST_DATA "/other-tools/");
const QString kAiperf = kDir + QStringLiteral("aiperf-fixture_qwen_concurrency1__profile_export_aiperf.json");
const QString kAiperfRecords = kDir + QStringLiteral("aiperf-fixture_qwen_concurrency1__profile_export.jsonl");
const QString kGuidellm = kDir + QStringLiteral("llm-d-benchmark__tests_fixtures__guidellm_report_v2.json");
const QString kGenai
    = kDir + QStringLiteral("regression_main_branch__D100_100_text-to-text_num_concurrency_1_time_120s.json");
const QString kGenaiMeta = kDir + QStringLiteral("regression_main_branch__experiment_metadata.json");
const QString kStage = kDir + QStringLiteral("kubecon-na-2025_vllm+eagle__stage_3_lifecycle_metrics.json");
const QString kSummary = kDir + QStringLiteral("kubecon-na-2025_vllm+eagle__summary_lifecycle_metrics.json");
const QString kLlmperf = kDir + QStringLiteral("tgi_c16_01-ai-Yi-1-5-34B-Chat_550_150_summary.json");
const QString kLlmperfRecords
    = kDir + QStringLiteral("tgi_c16_01-ai-Yi-1-5-34B-Chat_550_150_individual_responses.json");
const QString kReport = kDir + QStringLiteral("br_v0_2_example.yaml");
const QString kReportJson = kDir + QStringLiteral("br_v0_2_example.pyyaml.json");

QJsonObject object(const QString &path)
{
    return QJsonDocument::fromJson(readAll(path)).object();
}

QJsonValue at(const QJsonValue &root, const QString &dotted)
{
    QJsonValue v = root;
    for (const QString &part : dotted.split(u'/')) {
        bool index = false;
        const int i = part.toInt(&index);
        v = index ? v.toArray().at(i) : v.toObject().value(part);
    }
    return v;
}

double num(const QJsonValue &root, const QString &dotted)
{
    const QJsonValue v = at(root, dotted);
    return v.isString() ? v.toString().toDouble() : v.toDouble(std::nan(""));
}

QStringList words(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *i : items)
        out << QString::fromUtf8(i);
    return out;
}

bool anyContains(const QStringList &lines, const QString &part)
{
    return std::any_of(lines.cbegin(), lines.cend(), [&](const QString &l) { return l.contains(part); });
}

} // namespace

class TestToolImport final : public QObject, private Testing::ImportProjects {
    Q_OBJECT

    static RunOrigin originOf(const QString &project, qint64 run)
    {
        ProjectStore store;
        if (!store.open(project))
            return {};
        const std::optional<RunRow> row = store.run(run);
        return row ? RunOrigin::fromJson(row->origin) : RunOrigin();
    }

    static qsizetype requestCount(const QString &project, qint64 run)
    {
        ProjectStore store;
        QVector<RequestRecord> records;
        if (!store.open(project) || !store.requests(run, RequestFilter {}, &records))
            return -1;
        return records.size();
    }

    static int runCount(const QString &project)
    {
        ProjectStore store;
        QVector<RunListing> runs;
        if (!store.open(project) || !store.listRuns(&runs))
            return -1;
        return int(runs.size());
    }

    // One run of one point, imported without errors.
    PointSummary onePoint(const QString &file, Imported *imported = nullptr)
    {
        Imported r = importNew(file);
        if (imported)
            *imported = r;
        if (!r.outcome.errors.isEmpty() || r.outcome.runs.size() != 1) {
            qWarning() << r.outcome.errors << r.outcome.runs.size();
            return {};
        }
        const QVector<PointSummary> s = summaries(r.project, r.outcome.runs.first().id);
        return s.size() == 1 ? s.first() : PointSummary();
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void aiperfAggregatesAndRecords()
    {
        const QJsonObject f = object(kAiperf);
        Imported r;
        const PointSummary p = onePoint(kAiperf, &r);
        QCOMPARE(p.completed, 64);
        QCOMPARE(p.failed, 0); // error_request_count is null
        QCOMPARE(p.warmup, 1);
        QCOMPARE(p.ttft.mean, 30.814987671875);
        QCOMPARE(p.ttft.percentile(99), num(f, QStringLiteral("time_to_first_token/p99")));
        QCOMPARE(p.ttft.median, num(f, QStringLiteral("time_to_first_token/p50")));
        QCOMPARE(p.ttft.std, num(f, QStringLiteral("time_to_first_token/std")));
        QCOMPARE(p.ttfc.mean, p.ttft.mean);
        QCOMPARE(p.ttfo.mean, num(f, QStringLiteral("time_to_first_output_token/avg")));
        // TPOT is AIPerf's inter_token_latency, ITL its inter_chunk_latency.
        QCOMPARE(p.tpot.mean, 18.19909533160138);
        QCOMPARE(p.tpot.percentile(95), num(f, QStringLiteral("inter_token_latency/p95")));
        QCOMPARE(p.itl.mean, 18.197640450062813);
        QCOMPARE(p.itl.percentile(99), num(f, QStringLiteral("inter_chunk_latency/p99")));
        QCOMPARE(p.e2el.mean, 3652.1454372343746);
        QCOMPARE(p.e2el.percentile(90), num(f, QStringLiteral("request_latency/p90")));
        QCOMPARE(p.requestThroughput, 0.2504302580624667);
        QCOMPARE(p.outputThroughput, 50.08213863971112);
        QCOMPARE(p.totalOutputTokens, qint64(12799));
        QCOMPARE(p.duration, num(f, QStringLiteral("benchmark_duration/avg")));
        QCOMPARE(p.totalTokenThroughput, (6400.0 + 12799.0) / p.duration);
        // The per-request file beside it: its 10 records (of 64) are stored, and it is said so.
        const ImportedRun &run = r.outcome.runs.first();
        QCOMPARE(requestCount(r.project, run.id), 10);
        QVERIFY(run.arrays);
        QVERIFY(anyContains(r.outcome.warnings, QStringLiteral("holds 10 of the run's 64 requests")));
        const RunOrigin origin = originOf(r.project, run.id);
        QCOMPARE(origin.format, QStringLiteral("aiperf"));
        QCOMPARE(origin.toolVersion, QStringLiteral("layout without schema_version"));
        QVERIFY(origin.describe().contains(QStringLiteral("(aiperf layout without schema_version)")));
        QVERIFY(origin.note.contains(QStringLiteral("time_to_second_token")));
        QCOMPARE(p.concurrency, 1);
    }

    void aiperfFirstLayoutKeepsMetricsUnderRecords()
    {
        const QJsonObject f = object(kAiperf);
        QJsonObject nested, records;
        for (auto it = f.constBegin(); it != f.constEnd(); ++it) {
            if (it.value().toObject().contains(QLatin1String("unit")))
                records.insert(it.key(), it.value());
            else
                nested.insert(it.key(), it.value());
        }
        nested.insert(QStringLiteral("records"), records);
        Imported r;
        const PointSummary p
            = onePoint(write(QStringLiteral("first_profile_export_aiperf.json"), QJsonDocument(nested).toJson()), &r);
        QCOMPARE(p.completed, 64);
        QCOMPARE(p.ttft.mean, 30.814987671875);
        QCOMPARE(p.tpot.mean, 18.19909533160138);
        QCOMPARE(p.e2el.mean, 3652.1454372343746);
        QCOMPARE(originOf(r.project, r.outcome.runs.first().id).toolVersion,
            QStringLiteral("layout with records, without schema_version"));
    }

    void aiperfRecordsAloneAreRecomputed()
    {
        const PointSummary p = onePoint(kAiperfRecords);
        QCOMPARE(p.completed, 10);
        // Line 1's TTFT is 31.742934 ms; the mean of the ten is recomputed from them.
        double sum = 0;
        const QList<QByteArray> lines = readAll(kAiperfRecords).trimmed().split('\n');
        for (const QByteArray &l : lines)
            sum += num(QJsonDocument::fromJson(l).object(), QStringLiteral("metrics/time_to_first_token/value"));
        QVERIFY(std::abs(p.ttft.mean - sum / lines.size()) < 1e-6);
    }

    void guidellmBenchmarksArePoints()
    {
        const QJsonObject f = object(kGuidellm);
        const Imported r = importNew(kGuidellm);
        QVERIFY2(r.outcome.errors.isEmpty(), qPrintable(r.outcome.errors.join(u'\n')));
        QCOMPARE(r.outcome.runs.size(), 1);
        const QVector<PointSummary> s = summaries(r.project, r.outcome.runs.first().id);
        QCOMPARE(s.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const QString m = QStringLiteral("benchmarks/%1/metrics/").arg(i);
            const PointSummary &p = s.at(i);
            QCOMPARE(p.completed, 2);
            QCOMPARE(p.ttft.mean, num(f, m + QStringLiteral("time_to_first_token_ms/successful/mean")));
            QCOMPARE(
                p.ttft.percentile(99), num(f, m + QStringLiteral("time_to_first_token_ms/successful/percentiles/p99")));
            QCOMPARE(p.ttft.percentile(0.1),
                num(f, m + QStringLiteral("time_to_first_token_ms/successful/percentiles/p001")));
            QCOMPARE(p.ttfo.mean, num(f, m + QStringLiteral("time_to_first_output_token_ms/successful/mean")));
            // inter_token_latency_ms is vLLM's TPOT; time_per_output_token_ms (with TTFT) is not stored.
            QCOMPARE(p.tpot.mean, num(f, m + QStringLiteral("inter_token_latency_ms/successful/mean")));
            QVERIFY(p.tpot.mean != num(f, m + QStringLiteral("time_per_output_token_ms/successful/mean")));
            QCOMPARE(p.e2el.mean, num(f, m + QStringLiteral("request_latency/successful/mean")) * 1000);
            QCOMPARE(p.e2el.median, num(f, m + QStringLiteral("request_latency/successful/median")) * 1000);
            // Throughput as vLLM defines it: totals over the benchmark's duration.
            const double duration = num(f, QStringLiteral("benchmarks/%1/duration").arg(i));
            const double out = num(f, m + QStringLiteral("output_token_count/successful/total_sum"));
            const double in = num(f, m + QStringLiteral("prompt_token_count/successful/total_sum"));
            QCOMPARE(p.duration, duration);
            QCOMPARE(p.requestThroughput, 2 / duration);
            QCOMPARE(p.requestThroughput, num(f, m + QStringLiteral("requests_per_second/successful/mean")));
            QCOMPARE(p.outputThroughput, out / duration);
            QCOMPARE(p.totalTokenThroughput, (in + out) / duration);
            QCOMPARE(p.requestRate, i == 0 ? 2.0 : 4.0);
        }
        QCOMPARE(s.at(0).tpot.mean, 1.1508464813232422);
        QCOMPARE(requestCount(r.project, r.outcome.runs.first().id), 0); // requests.successful is []
        const RunOrigin origin = originOf(r.project, r.outcome.runs.first().id);
        QCOMPARE(origin.format, QStringLiteral("guidellm"));
        QCOMPARE(origin.toolVersion, QStringLiteral("0.8.0.dev18, report v2"));
        QVERIFY(anyContains(r.outcome.warnings, QStringLiteral("weights its distribution by output tokens")));
    }

    void guidellmTotalsBesideTheMetrics()
    {
        // Reports before 0.8 keep request_totals beside the metrics and compute duration from the times.
        QJsonObject f = object(kGuidellm);
        QJsonArray benchmarks = f.value(QLatin1String("benchmarks")).toArray();
        for (auto it = benchmarks.begin(); it != benchmarks.end(); ++it) {
            QJsonObject b = it->toObject();
            QJsonObject m = b.value(QLatin1String("metrics")).toObject();
            b.insert(QStringLiteral("request_totals"), m.take(QStringLiteral("request_totals")));
            b.insert(QStringLiteral("metrics"), m);
            b.remove(QStringLiteral("duration"));
            *it = b;
        }
        f.insert(QStringLiteral("benchmarks"), benchmarks);
        const Imported r = importNew(write(QStringLiteral("benchmarks_v1.json"), QJsonDocument(f).toJson()));
        QVERIFY2(r.outcome.errors.isEmpty(), qPrintable(r.outcome.errors.join(u'\n')));
        const QVector<PointSummary> s = summaries(r.project, r.outcome.runs.first().id);
        QCOMPARE(s.size(), 2);
        const QJsonObject b0 = benchmarks.at(0).toObject();
        const double duration = num(b0, QStringLiteral("end_time")) - num(b0, QStringLiteral("start_time"));
        QCOMPARE(s.at(0).completed, 2);
        QCOMPARE(s.at(0).duration, duration);
        QCOMPARE(s.at(0).requestThroughput, 2 / duration);
    }

    void genaiBenchScenarioWithItsMetadata_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("scenario file") << kGenai;
        QTest::newRow("experiment_metadata.json") << kGenaiMeta;
    }
    void genaiBenchScenarioWithItsMetadata()
    {
        QFETCH(QString, file);
        const QJsonObject f = object(kGenai);
        Imported r;
        const PointSummary p = onePoint(file, &r);
        const QString st = QStringLiteral("aggregated_metrics/stats/");
        QCOMPARE(p.completed, 10);
        QCOMPARE(p.ttft.mean, 0.256500058299207 * 1000);
        QCOMPARE(p.ttft.percentile(95), num(f, st + QStringLiteral("ttft/p95")) * 1000);
        QCOMPARE(p.tpot.mean, num(f, st + QStringLiteral("tpot/mean")) * 1000);
        QCOMPARE(p.tpot.percentile(99), num(f, st + QStringLiteral("tpot/p99")) * 1000);
        QCOMPARE(p.e2el.mean, num(f, st + QStringLiteral("e2e_latency/mean")) * 1000);
        QCOMPARE(p.e2el.median, num(f, st + QStringLiteral("e2e_latency/p50")) * 1000);
        QCOMPARE(p.requestThroughput, 0.9440343401932063);
        QCOMPARE(p.outputThroughput, 94.40343401932063);
        QCOMPARE(p.totalTokenThroughput, 194.4710740798005);
        QCOMPARE(p.concurrency, 1);
        QCOMPARE(p.inputLen, 100);
        QCOMPARE(p.outputLen, 100);
        const qint64 run = r.outcome.runs.first().id;
        QCOMPARE(requestCount(r.project, run), 10);
        const RunOrigin origin = originOf(r.project, run);
        QCOMPARE(origin.format, QStringLiteral("genai-bench"));
        QCOMPARE(origin.toolVersion, QStringLiteral("0.0.2"));
        QCOMPARE(r.outcome.runs.first().name, QStringLiteral("regression_main_branch"));
    }

    void inferencePerfStageLeavesOutItsHalvedTpot()
    {
        const QJsonObject f = object(kStage);
        Imported r;
        const PointSummary p = onePoint(kStage, &r);
        const QString lat = QStringLiteral("successes/latency/");
        QCOMPARE(p.completed, 3149);
        QCOMPARE(p.ttft.mean, 0.050572599013848835 * 1000);
        QCOMPARE(p.ttft.median, num(f, lat + QStringLiteral("time_to_first_token/median")) * 1000);
        QCOMPARE(p.ttft.percentile(99.9), num(f, lat + QStringLiteral("time_to_first_token/p99.9")) * 1000);
        QCOMPARE(p.e2el.mean, num(f, lat + QStringLiteral("request_latency/mean")) * 1000);
        QCOMPARE(p.e2el.percentile(99), num(f, lat + QStringLiteral("request_latency/p99")) * 1000);
        QCOMPARE(p.requestThroughput, 51.63746915121225);
        QCOMPARE(p.outputThroughput, 3252.1766733415284);
        QCOMPARE(p.totalTokenThroughput, 13659.21745907859);
        QCOMPARE(p.requestRate, 52.49);
        // time_per_output_token is about half of (latency - TTFT) / (output - 1): not stored.
        QVERIFY(std::isnan(p.tpot.mean));
        QVERIFY(std::isnan(p.itl.mean));
        QVERIFY(anyContains(r.outcome.warnings, QStringLiteral("blank lines between SSE events")));
        QCOMPARE(originOf(r.project, r.outcome.runs.first().id).format, QStringLiteral("inference-perf"));
    }

    void inferencePerfSummaryPoolsStages()
    {
        Imported r;
        const PointSummary p = onePoint(kSummary, &r);
        const QJsonObject f = object(kSummary);
        QCOMPARE(p.completed, int(num(f, QStringLiteral("successes/count"))));
        QCOMPARE(p.ttft.mean, num(f, QStringLiteral("successes/latency/time_to_first_token/mean")) * 1000);
        QCOMPARE(p.requestThroughput, num(f, QStringLiteral("successes/throughput/requests_per_sec")));
        QVERIFY(anyContains(r.outcome.warnings, QStringLiteral("pools every stage")));
    }

    void llmperfSummaryAndResponses()
    {
        const QJsonObject f = object(kLlmperf);
        Imported r;
        const PointSummary p = onePoint(kLlmperf, &r);
        QCOMPARE(p.completed, 112);
        QCOMPARE(p.ttft.mean, 6.056374991535766 * 1000);
        QCOMPARE(p.ttft.percentile(90), num(f, QStringLiteral("results_ttft_s_quantiles_p90")) * 1000);
        QCOMPARE(p.ttft.median, num(f, QStringLiteral("results_ttft_s_quantiles_p50")) * 1000);
        // pandas' sample standard deviation as numpy's population one.
        QCOMPARE(p.ttft.std, num(f, QStringLiteral("results_ttft_s_stddev")) * std::sqrt(111.0 / 112.0) * 1000);
        QCOMPARE(p.e2el.mean, num(f, QStringLiteral("results_end_to_end_latency_s_mean")) * 1000);
        QCOMPARE(p.e2el.percentile(99), num(f, QStringLiteral("results_end_to_end_latency_s_quantiles_p99")) * 1000);
        QCOMPARE(p.requestThroughput, 47.693122662953904 / 60);
        QCOMPARE(p.outputThroughput, 126.21644247588873);
        QCOMPARE(p.concurrency, 16);
        QCOMPARE(p.totalOutputTokens, qint64(std::llround(158.78571428571428 * 112)));
        // No published TPOT: recomputed from the 112 responses as (e2e - ttft) / (output - 1).
        const QJsonArray responses = QJsonDocument::fromJson(readAll(kLlmperfRecords)).array();
        QCOMPARE(responses.size(), 112);
        double sum = 0;
        for (const QJsonValue &v : responses) {
            const QJsonObject o = v.toObject();
            sum += (o.value(QLatin1String("end_to_end_latency_s")).toDouble()
                       - o.value(QLatin1String("ttft_s")).toDouble())
                / (o.value(QLatin1String("number_output_tokens")).toDouble() - 1);
        }
        QVERIFY2(std::abs(p.tpot.mean - sum / 112 * 1000) < 1e-9 * p.tpot.mean,
            qPrintable(QStringLiteral("%1 vs %2").arg(p.tpot.mean).arg(sum / 112 * 1000)));
        // inter_token_latency_s includes TTFT: neither TPOT nor ITL.
        QVERIFY(std::abs(p.tpot.mean - num(f, QStringLiteral("results_inter_token_latency_s_mean")) * 1000) > 1);
        QVERIFY(std::isnan(p.itl.mean) || p.itl.count == 0);
        QCOMPARE(requestCount(r.project, r.outcome.runs.first().id), 112);
        QVERIFY(anyContains(r.outcome.warnings, QStringLiteral("inter_token_latency_s includes TTFT")));
        QCOMPARE(originOf(r.project, r.outcome.runs.first().id).toolVersion, QStringLiteral("2023-08-31"));
    }

    void llmperfNumbersInStrings()
    {
        QJsonObject f = object(kLlmperf);
        f.insert(QStringLiteral("results_ttft_s_mean"), QStringLiteral("6.5"));
        f.insert(QStringLiteral("results_number_errors"), QJsonValue::Null);
        const QString path = write(QStringLiteral("strings_summary.json"), QJsonDocument(f).toJson());
        const PointSummary p = onePoint(path);
        QCOMPARE(p.ttft.mean, 6500.0);
        QCOMPARE(p.failed, 0);
    }

    void benchmarkReportYaml()
    {
        Imported r;
        const PointSummary p = onePoint(kReport, &r);
        QCOMPARE(p.completed, 500);
        QCOMPARE(p.ttft.mean, 0.0368578234128654 * 1000);
        QCOMPARE(p.tpot.mean, 0.0368578234128654 * 1000); // s/token
        QCOMPARE(p.e2el.mean, 0.0368578234128654 * 1000);
        QCOMPARE(p.requestThroughput, 2262.448);
        QCOMPARE(p.requestRate, 10.0);
        QCOMPARE(p.duration, 49.97206788184121);
        QVERIFY(std::isnan(p.itl.mean)); // the harness is inference-perf
        const RunOrigin origin = originOf(r.project, r.outcome.runs.first().id);
        QCOMPARE(origin.format, QStringLiteral("llm-d"));
        QCOMPARE(origin.toolVersion, QStringLiteral("v0.2, harness inference-perf 0.3.0"));
    }

    // v0.1 keeps its figures under `metrics` (latency with units, flat throughputs, seconds and epoch
    // time); v0.2.1 is read as v0.2.
    void benchmarkReportOtherVersions()
    {
        Imported r;
        const PointSummary p = onePoint(kDir + QStringLiteral("br_v0_1_example.yaml"), &r);
        QCOMPARE(p.completed, 31); // 32 sent, 0 failed, 1 incomplete
        QCOMPARE(p.failed, 0);
        QCOMPARE(p.ttft.mean, 0.800974442732916); // its units say ms
        QCOMPARE(p.ttft.p90, 2.26959549135063);
        QCOMPARE(p.tpot.mean, 0.0836929455635872);
        QCOMPARE(p.e2el.median, 2.11507539497688);
        QVERIFY(std::isnan(p.itl.mean)); // the harness is inference-perf
        QCOMPARE(p.requestThroughput, 1.0238155253639);
        QCOMPARE(p.outputThroughput, 32.544923821416);
        QCOMPARE(p.duration, 16.531641244888306);
        QCOMPARE(p.totalOutputTokens, qint64(std::round(31.7878787878788 * 31)));
        const RunOrigin origin = originOf(r.project, r.outcome.runs.first().id);
        QCOMPARE(origin.toolVersion, QStringLiteral("v0.1, harness inference-perf"));
        QCOMPARE(r.outcome.runs.first().name,
            QStringLiteral("This is a heterogeneous accelerator setup with two lora adapters"));

        const PointSummary q = onePoint(kDir + QStringLiteral("br_v0_2_1_example.yaml"), &r);
        QVERIFY(q.completed > 0);
        QVERIFY(q.ttft.mean > 0);
        QVERIFY(
            originOf(r.project, r.outcome.runs.first().id).toolVersion.startsWith(QStringLiteral("v0.2.1, harness ")));
    }

    // As `import --verify`: the published figures against the same figures recomputed from the records.
    void verifyAgainstTheRecords_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("explained");
        QTest::addColumn<QString>("reason");
        QTest::newRow("genai-bench: every figure reproduces") << kGenai << 0 << QString();
        QTest::newRow("llmperf: every figure reproduces (std as population)") << kLlmperf << 0 << QString();
        QTest::newRow("aiperf: a sample of 10 of 64") << kAiperf << -1
                                                      << QStringLiteral("a sample: the per-request records hold 10 of "
                                                                        "the 64 completed requests the aiperf figures "
                                                                        "cover");
    }
    void verifyAgainstTheRecords()
    {
        QFETCH(QString, file);
        QFETCH(int, explained);
        QFETCH(QString, reason);
        const QString project = newProject();
        StoreWriter writer;
        QString error;
        QVERIFY2(writer.open(project, &error), qPrintable(error));
        ResultImporter importer(writer);
        QVector<KeyCheck> checks;
        importer.setLineCallback([&](const ResultRun &run, const QString &) { checks << verifyResultRun(run); });
        QVERIFY(importer.importFile(file).errors.isEmpty());
        writer.close();
        QVERIFY(checks.size() > 20);
        int counts[4] = {};
        for (const KeyCheck &k : std::as_const(checks)) {
            ++counts[int(k.verdict)];
            QVERIFY2(k.verdict != KeyCheck::Verdict::Mismatched, qPrintable(k.key));
            if (k.verdict == KeyCheck::Verdict::Explained)
                QCOMPARE(k.reason, reason);
        }
        if (explained >= 0)
            QCOMPARE(counts[int(KeyCheck::Verdict::Explained)], explained);
        else
            QVERIFY(counts[int(KeyCheck::Verdict::Explained)] > 40);
        QCOMPARE(counts[int(KeyCheck::Verdict::NotReproducible)], 0);
    }

    void vllmSglangAndExperimentFilesAreNoOtherTools_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f : { "/real/vllm_LambdaLabsML_vllm-benchmark_llama3-8b-1xh100-len2048.json",
                 "/real/vllm_nerdalert_vllm-bench-automation_results.jsonl",
                 "/real/sglang_TonyLi15_sglang-benchmark_agg-n50-in128-out64-c8.jsonl", "/experiments/full.json",
                 "/experiments/bench_config.json", "/experiments/bench.toml" })
            QTest::newRow(f) << QStringLiteral(SERVESCOPE_TEST_DATA) + QString::fromUtf8(f);
    }
    void vllmSglangAndExperimentFilesAreNoOtherTools()
    {
        QFETCH(QString, file);
        QVERIFY(QFile::exists(file));
        QCOMPARE(int(readToolFile(file).kind), int(ToolFile::Kind::NotOther));
    }

    void unknownLayoutsAreRefusedAndStoreNothing_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QStringList>("expected");
        QJsonObject guidellm = object(kGuidellm);
        QJsonObject meta = guidellm.value(QLatin1String("metadata")).toObject();
        meta.insert(QStringLiteral("version"), 3);
        guidellm.insert(QStringLiteral("metadata"), meta);
        QTest::newRow("guidellm report v3") << QStringLiteral("benchmarks.json") << QJsonDocument(guidellm).toJson()
                                            << words({ "looks like a result of GuideLLM (0.8.0.dev18, report v3)",
                                                   "key \"metadata.version\" is 3", "nothing was imported" });
        QJsonObject aiperf = object(kAiperf);
        aiperf.insert(QStringLiteral("schema_version"), QStringLiteral("2.0.0"));
        aiperf.insert(QStringLiteral("aiperf_version"), QStringLiteral("0.9.0"));
        QTest::newRow("aiperf schema 2") << QStringLiteral("profile_export_aiperf.json")
                                         << QJsonDocument(aiperf).toJson()
                                         << words({ "result of AIPerf (aiperf 0.9.0, schema 2.0.0)",
                                                "key \"schema_version\"" });
        QJsonObject aiperfNoLatency = object(kAiperf);
        aiperfNoLatency.remove(QStringLiteral("request_latency"));
        QTest::newRow("aiperf without request_latency")
            << QStringLiteral("old_profile_export_aiperf.json") << QJsonDocument(aiperfNoLatency).toJson()
            << words({ "result of AIPerf (layout without schema_version)", "key \"request_latency\" is missing" });
        QJsonObject llmperf = object(kLlmperf);
        llmperf.insert(QStringLiteral("version"), QStringLiteral("2025-01-01"));
        QTest::newRow("llmperf other version") << QStringLiteral("x_summary.json") << QJsonDocument(llmperf).toJson()
                                               << words({ "result of llmperf (2025-01-01)", "key \"version\"" });
        QJsonObject stage = object(kStage);
        QJsonObject successes = stage.value(QLatin1String("successes")).toObject();
        QJsonObject latency = successes.value(QLatin1String("latency")).toObject();
        latency.remove(QStringLiteral("time_to_first_token"));
        successes.insert(QStringLiteral("latency"), latency);
        stage.insert(QStringLiteral("successes"), successes);
        QTest::newRow("inference-perf without ttft")
            << QStringLiteral("stage_0_lifecycle_metrics.json") << QJsonDocument(stage).toJson()
            << words({ "result of inference-perf", "key \"successes.latency.time_to_first_token\" is missing" });
        QByteArray report = readAll(kReport);
        report.replace("version: '0.2'", "version: '0.3'");
        QTest::newRow("benchmark report v0.3") << QStringLiteral(
            "br.yaml") << report << words({ "result of llm-d Benchmark Report (v0.3)", "key \"version\"" });
        QByteArray yamlBlock = readAll(kReport);
        yamlBlock.replace("  user: namasluk\n", "  user: |\n    namasluk\n");
        QTest::newRow("benchmark report with a block scalar")
            << QStringLiteral("br2.yaml") << yamlBlock
            << words({ "llm-d Benchmark Report, but its YAML is not read at line 17: ", "block scalars" });
        QTest::newRow("evalscope summary") << QStringLiteral("benchmark_summary.json")
                                           << QByteArray("{\"Time taken for tests (s)\": 10, \"Total requests\": 5}")
                                           << words({ "result of EvalScope perf" });
        QTest::newRow("no tool's keys") << QStringLiteral("other.json") << QByteArray("{\"hello\": 1}")
                                        << words({ "not a result ServeScope reads" });
    }
    void unknownLayoutsAreRefusedAndStoreNothing()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QStringList, expected);
        const QString project = newProject();
        QVERIFY(importInto(project, kLlmperf).errors.isEmpty());
        QCOMPARE(runCount(project), 1);
        const QString path = write(name, content);
        const ImportOutcome o = importInto(project, path);
        QCOMPARE(o.runs.size(), 0);
        QCOMPARE(o.errors.size(), 1);
        for (const QString &e : expected)
            QVERIFY2(o.errors.first().contains(e), qPrintable(o.errors.first() + QStringLiteral(" lacks ") + e));
        QVERIFY(o.errors.first().startsWith(path + QStringLiteral(": ")));
        QCOMPARE(runCount(project), 1); // the project is as it was
    }

    void yamlSubsetReadsTheReportAsPyYamlDoes()
    {
        QString error;
        int line = 0;
        const QJsonValue v = Yaml::parse(readAll(kReport), &error, &line);
        QVERIFY2(error.isEmpty(), qPrintable(QStringLiteral("line %1: %2").arg(line).arg(error)));
        QCOMPARE(at(v, QStringLiteral("version")).toString(), QStringLiteral("0.2"));
        QCOMPARE(at(v, QStringLiteral("run/time/duration")).toString(), QStringLiteral("PT49.97206788184121S"));
        QCOMPARE(at(v, QStringLiteral("scenario/stack/0/native/args/--kv-transfer-config/kv_role")).toString(),
            QStringLiteral("kv_both"));
        QVERIFY(at(v, QStringLiteral("scenario/stack/0/native/args/--no-enable-log-requests")).isNull());
        QVERIFY(std::isinf(at(v, QStringLiteral("scenario/load/standardized/concurrency")).toDouble()));
        QCOMPARE(at(v, QStringLiteral("scenario/stack/1/standardized/another_thing/2/b")).toDouble(), 3.0);
        // The whole document equals PyYAML's reading of it (timestamps kept as text, inf as "__inf__"),
        // stored beside the fixture.
        const std::function<QJsonValue(const QJsonValue &)> marked = [&](const QJsonValue &x) -> QJsonValue {
            if (x.isDouble() && std::isinf(x.toDouble()))
                return x.toDouble() > 0 ? QStringLiteral("__inf__") : QStringLiteral("__-inf__");
            if (x.isObject()) {
                QJsonObject o = x.toObject();
                for (auto it = o.begin(); it != o.end(); ++it)
                    *it = marked(*it);
                return o;
            }
            if (x.isArray()) {
                QJsonArray a = x.toArray();
                for (auto it = a.begin(); it != a.end(); ++it)
                    *it = marked(*it);
                return a;
            }
            return x;
        };
        const QJsonObject expected = object(kReportJson);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(marked(v).toObject(), expected);
    }

    void yamlSubsetRefusesWhatItDoesNotRead_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::addColumn<int>("line");
        QTest::newRow("block scalar") << QByteArray("a: 1\nb: |\n  text\n")
                                      << QStringLiteral("block scalars (| and >) are not read") << 2;
        QTest::newRow("anchor") << QByteArray("a: &x 1\nb: *x\n") << QStringLiteral("anchors and aliases are not read")
                                << 1;
        QTest::newRow("tag") << QByteArray("a: !!str 1\n") << QStringLiteral("tags are not read") << 1;
        QTest::newRow("tab") << QByteArray("a:\n\tb: 1\n") << QStringLiteral("a tab in the indentation") << 2;
        QTest::newRow("two documents") << QByteArray("a: 1\n---\nb: 2\n")
                                       << QStringLiteral("several documents in one file") << 2;
        QTest::newRow("duplicate key") << QByteArray("a: 1\na: 2\n") << QStringLiteral("key \"a\" appears twice") << 2;
        QTest::newRow("bad indent") << QByteArray("a:\n    b: 1\n  c: 2\n") << QStringLiteral("unexpected indentation")
                                    << 3;
        QTest::newRow("open quote") << QByteArray("a: \"x\n")
                                    << QStringLiteral("a double-quoted scalar that does not end where it should") << 1;
        QTest::newRow("flow not json") << QByteArray("a: {b: 1}\n")
                                       << QStringLiteral("a flow collection that is not JSON is not read") << 1;
    }
    void yamlSubsetRefusesWhatItDoesNotRead()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QFETCH(int, line);
        QString got;
        int gotLine = 0;
        const QJsonValue v = Yaml::parse(text, &got, &gotLine);
        QCOMPARE(got, error);
        QCOMPARE(gotLine, line);
        QVERIFY(v.isNull());
    }

    void yamlSubsetReadsSmallDocuments()
    {
        QString error;
        QCOMPARE(Yaml::parse("- a\n- 'b''c'\n- \"d\\te\"\n- 1_000\n- -2.5e3\n- ~\n- true\n", &error).toArray(),
            (QJsonArray { QStringLiteral("a"), QStringLiteral("b'c"), QStringLiteral("d\te"), 1000.0, -2500.0,
                QJsonValue::Null, true }));
        QVERIFY(error.isEmpty());
        QCOMPARE(Yaml::parse("a:\n- x: 1\n  y: [1, 2]\n-   - 3\n    - 4\nb: c # note\n", &error).toObject(),
            (QJsonObject { { QStringLiteral("a"),
                               QJsonArray { QJsonObject { { QStringLiteral("x"), 1 },
                                                { QStringLiteral("y"), QJsonArray { 1, 2 } } },
                                   QJsonArray { 3, 4 } } },
                { QStringLiteral("b"), QStringLiteral("c") } }));
        QVERIFY(error.isEmpty());
    }

    // What `export --benchmark-report` writes reads back as written: hostile strings and keys, empty
    // containers, lists of objects, infinity.
    void yamlWriterReadsBack()
    {
        JsonNode root = JsonNode::makeObject();
        root.add(QStringLiteral("plain"), JsonNode::makeString(QStringLiteral("a: b # not a comment")));
        root.add(QStringLiteral("--flag-name"), JsonNode::makeNumber(1024));
        root.add(QStringLiteral("true"), JsonNode::makeBool(false));
        root.add(QStringLiteral("quotes"),
            JsonNode::makeString(
                QStringLiteral("\"q\" \\ back\nline\ttab \u0085 \u2028 \u00e9\u6a21\u578b \U0001F600")));
        root.add(QStringLiteral("inf"), JsonNode::makeNumber(std::numeric_limits<double>::infinity()));
        root.add(QStringLiteral("tiny"), JsonNode::makeNumber(0.1 + 0.2));
        root.add(QStringLiteral("empty"), JsonNode::makeObject());
        root.add(QStringLiteral("none"), JsonNode::makeArray());
        JsonNode list = JsonNode::makeArray();
        JsonNode item = JsonNode::makeObject();
        item.add(QStringLiteral("kind"), JsonNode::makeString(QStringLiteral("generic")));
        JsonNode inner = JsonNode::makeObject();
        inner.add(QStringLiteral("x"), JsonNode::makeNumber(-2.5));
        item.add(QStringLiteral("nested"), std::move(inner));
        list.children.push_back(std::move(item));
        list.children.push_back(JsonNode::makeString(QStringLiteral("- dash")));
        root.add(QStringLiteral("list"), std::move(list));
        QString error;
        const QJsonObject back = Yaml::parse(writeYamlTree(root), &error).toObject();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(back.value(QStringLiteral("plain")).toString(), QStringLiteral("a: b # not a comment"));
        QCOMPARE(back.value(QStringLiteral("--flag-name")).toDouble(), 1024.0);
        QCOMPARE(back.value(QStringLiteral("true")).toBool(true), false);
        QCOMPARE(back.value(QStringLiteral("quotes")).toString(),
            QStringLiteral("\"q\" \\ back\nline\ttab \u0085 \u2028 \u00e9\u6a21\u578b \U0001F600"));
        QCOMPARE(back.value(QStringLiteral("inf")).toDouble(), std::numeric_limits<double>::infinity());
        QCOMPARE(back.value(QStringLiteral("tiny")).toDouble(), 0.1 + 0.2);
        QCOMPARE(back.value(QStringLiteral("empty")).toObject(), QJsonObject());
        QCOMPARE(back.value(QStringLiteral("none")).toArray(), QJsonArray());
        QCOMPARE(back.value(QStringLiteral("list")).toArray(),
            (QJsonArray { QJsonObject { { QStringLiteral("kind"), QStringLiteral("generic") },
                              { QStringLiteral("nested"), QJsonObject { { QStringLiteral("x"), -2.5 } } } },
                QStringLiteral("- dash") }));
    }

    // A folder of reports: those of one experiment are one run's points, in stage order (not file
    // name order); the files that are not reports are left out and named.
    void benchmarkReportFolderIsOneRun()
    {
        const QByteArray report = readAll(kReport);
        QVERIFY(report.contains("      stage: 3\n") && report.contains("      rate_qps: 10\n"));
        QTemporaryDir folder;
        const auto put = [&](const char *name, const QByteArray &text) {
            QFile f(folder.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        QByteArray first = report;
        first.replace("      stage: 3\n", "      stage: 1\n").replace("      rate_qps: 10\n", "      rate_qps: 2\n");
        put("b-stage1.yaml", first);
        put("a-stage3.yaml", report);
        put("notes.json", "{\"note\": 1}");
        const Imported r = importNew(folder.path());
        QVERIFY2(r.outcome.errors.isEmpty(), qPrintable(r.outcome.errors.join(u'\n')));
        QCOMPARE(r.outcome.runs.size(), 1);
        QVERIFY(anyContains(r.outcome.warnings, QStringLiteral("not Benchmark Reports were left out: notes.json")));
        const QVector<PointSummary> points = summaries(r.project, r.outcome.runs.first().id);
        QCOMPARE(points.size(), 2);
        QCOMPARE(points.at(0).requestRate, 2.0);
        QCOMPARE(points.at(1).requestRate, 10.0);
        QCOMPARE(points.at(1).ttft.mean, 0.0368578234128654 * 1000);

        QTemporaryDir empty;
        const Imported none = importNew(empty.path());
        QVERIFY(anyContains(none.outcome.errors, QStringLiteral("matches no report in the folder")));
        QCOMPARE(runCount(none.project), 0);
    }

    // Every cut and flipped byte of the report either reads or is refused with a line: never a crash
    // or a hang (run under the sanitizers in the fuzz build).
    void yamlSubsetSurvivesMutations()
    {
        const QByteArray base = readAll(kReport);
        QRandomGenerator rng(38);
        static const char alphabet[] = " -:#'\"{}[]|>&*!\t\n.0aZ";
        for (int i = 0; i < 3000; ++i) {
            QByteArray t = base;
            const int edits = 1 + int(rng.bounded(4));
            for (int k = 0; k < edits && !t.isEmpty(); ++k) {
                const int at = int(rng.bounded(t.size()));
                switch (rng.bounded(3)) {
                case 0:
                    t.remove(at, 1 + int(rng.bounded(20)));
                    break;
                case 1:
                    t.insert(at, alphabet[rng.bounded(int(sizeof(alphabet) - 1))]);
                    break;
                default:
                    t.truncate(at);
                    break;
                }
            }
            QString error;
            int line = -1;
            const QJsonValue v = Yaml::parse(t, &error, &line);
            if (!error.isEmpty()) {
                QVERIFY(v.isNull());
                QVERIFY2(line >= 1, qPrintable(error));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestToolImport)
#include "tst_toolimport.moc"
