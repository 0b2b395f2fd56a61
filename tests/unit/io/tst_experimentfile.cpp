// SPDX-License-Identifier: MIT
#include "io/experimentfile.h"
#include "model/validation.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace ServeScope;

namespace {

QString data(const char *name)
{
    return QStringLiteral(SERVESCOPE_TEST_DATA "/experiments/") + QLatin1String(name);
}

QString demoPath()
{
    return QStringLiteral(SERVESCOPE_TEST_DATA "/../../resources/demo/demo-experiment.json");
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

LoadPoint point(const char *label, int c, int in, int out, int n)
{
    LoadPoint p;
    p.label = QString::fromLatin1(label);
    p.concurrency = c;
    p.inputLen = in;
    p.outputLen = out;
    p.numPrompts = n;
    return p;
}

Variant baselineOnly()
{
    return Variant { QStringLiteral("baseline"), {}, QString(), false };
}

Experiment expectedLoadMatrixToml()
{
    Experiment x;
    x.name = QStringLiteral("load_matrix");
    x.endpoint.baseUrl = QStringLiteral("https://gateway.example.com");
    x.endpoint.apiKeyEnv = QStringLiteral("TAOTOKEN_API_KEY");
    x.endpoint.model = QStringLiteral("Qwen2-7B-Instruct");
    x.load.timeouts.totalS = 300;
    x.load.warmupRequests = 30;
    x.load.discardRatio = 0.1;
    x.load.repeat = 3;
    x.load.points = { point("l1", 1, 128, 64, 200), point("l2", 8, 512, 256, 200), point("a0", 64, 2048, 128, 640) };
    x.variants = { baselineOnly() };
    return x;
}

Experiment expectedBenchToml()
{
    Experiment x;
    x.name = QStringLiteral("sglang rate sweep");
    x.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:30000");
    x.endpoint.model = QStringLiteral("Qwen/Qwen2.5-7B-Instruct");
    x.endpoint.dialect = Dialect::Sglang;
    x.endpoint.apiKeyEnv = QStringLiteral("SGLANG_KEY");
    x.load.warmupRequests = 16;
    x.load.repeat = 2;
    x.metrics.definitions = Definitions::Sglang;
    x.metrics.percentiles = { 50, 95, 99 };
    x.dataset.seed = 7;
    x.dataset.rangeRatio = 0.5;
    x.load.mode = LoadMode::Rate;
    for (double rate : { 2.0, 8.0, std::numeric_limits<double>::infinity() }) {
        LoadPoint p = point("", 0, 1024, 256, 400);
        p.requestRate = rate;
        p.maxConcurrency = 128;
        x.load.points << p;
    }
    x.sampling.set(QStringLiteral("temperature"), 0.0);
    x.sampling.set(QStringLiteral("top_k"), -1);
    x.variants = { baselineOnly() };
    return x;
}

Experiment expectedBenchConfig()
{
    Experiment x;
    x.name = QStringLiteral("flat sweep");
    x.endpoint.baseUrl = QStringLiteral("http://10.0.0.5:8000");
    x.endpoint.path = QStringLiteral("/v1/completions");
    x.endpoint.model = QStringLiteral("meta-llama/Llama-3.1-8B-Instruct");
    x.endpoint.apiKeyEnv = QStringLiteral("BENCH_API_KEY");
    x.dataset.seed = 42;
    x.load.points = { point("", 1, 512, 128, 50), point("", 8, 512, 128, 80), point("", 32, 512, 128, 200) };
    x.load.warmupRequests = 10;
    x.load.discardRatio = 0.05;
    x.load.repeat = 3;
    x.load.timeouts.totalS = 600;
    x.metrics.percentiles = { 50, 90, 99, 99.9 };
    x.metrics.goodput.ttftMs = 500;
    x.metrics.goodput.tpotMs = 50;
    x.sampling.set(QStringLiteral("temperature"), 0.0);
    x.sampling.set(QStringLiteral("top_p"), 1.0);
    x.variants = { baselineOnly() };
    return x;
}

// Every field away from its default, including the awkward ones.
Experiment everything()
{
    Experiment x = expectedBenchToml();
    x.endpoint.protocol = HttpProtocol::Http2;
    x.endpoint.apiKeyEnv.clear();
    x.endpoint.keychainEntry = QStringLiteral("servescope/prod");
    x.endpoint.proxy = QStringLiteral("socks5://127.0.0.1:1080");
    x.endpoint.headers
        = { { QStringLiteral("X-B"), QStringLiteral("2") }, { QStringLiteral("X-A"), QStringLiteral("\"q\"\n") } };
    x.endpoint.headerEnv = { { QStringLiteral("X-Gateway-Token"), QStringLiteral("GATEWAY_TOKEN") } };
    x.envSnapshot = { { QStringLiteral("gpu"), QStringLiteral("H100 \u00e9\u4e2d"), EnvSource::Typed },
        { QStringLiteral("cuda"), QStringLiteral("12.4"), EnvSource::Probe },
        { QStringLiteral("vllm"), QStringLiteral("0.6.3"), EnvSource::Captured } };
    x.server.engine = QStringLiteral("sglang");
    x.server.args.set(QStringLiteral("zeta"), QJsonArray { 1, QStringLiteral("two") });
    x.server.args.set(QStringLiteral("alpha"), QJsonObject { { QStringLiteral("k"), true } });
    x.server.launchArgv = { QStringLiteral("python3"), QStringLiteral("{server.args.zeta}") };
    x.server.readyPath = QStringLiteral("/health");
    x.server.gpus = 8;
    x.server.gpuHourPrice = 2.75;
    x.dataset.name = QStringLiteral("sharegpt");
    x.dataset.path = QStringLiteral("/data/sharegpt.json");
    x.dataset.ignoreEos = false;
    x.dataset.seed = 9007199254740991LL;
    x.dataset.groups = 5; // shared_prefix's, kept whatever the dataset
    x.dataset.zipf = 1.25;
    x.dataset.turns = 6; // multi_turn's, kept whatever the dataset
    x.dataset.thinkTimeS = 0.75;
    x.load.points[0].burstiness = std::numeric_limits<double>::infinity();
    x.load.points[1].maxSeconds = 12.5;
    x.load.points[1].label = QStringLiteral("mid");
    x.load.resetPrefixCache = true;
    x.load.maxEventBytes = 2 << 20;
    x.load.timeouts = Timeouts { 1.5, 2, 3, 4 };
    x.metrics.goodput.e2elMs = 1234.5;
    x.variants = { Variant { QStringLiteral("a"), {}, QString(), false },
        Variant { QStringLiteral("b"),
            { { QStringLiteral("server.args.zeta"), 3 }, { QStringLiteral("load.repeat"), 5 },
                { QStringLiteral("server.gpus"), 4 } },
            QStringLiteral("three at once"), true } };
    return x;
}

} // namespace

class TestExperimentFile final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void roundTripFiles_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("byteIdentical");
        QTest::newRow("full") << data("full.json") << false;
        QTest::newRow("demo") << demoPath() << true;
    }
    void roundTripFiles()
    {
        QFETCH(QString, path);
        QFETCH(bool, byteIdentical);
        const QByteArray original = readAll(path);
        QVERIFY(!original.isEmpty());
        const ExperimentReadResult first = readExperimentJson(original);
        QVERIFY2(first.ok, qPrintable(first.errors.join(QLatin1Char('\n'))));
        const QByteArray written = writeExperimentJson(first.experiment);
        const ExperimentReadResult second = readExperimentJson(written);
        QVERIFY2(second.ok, qPrintable(second.errors.join(QLatin1Char('\n'))));
        QVERIFY(second.experiment == first.experiment);
        QCOMPARE(writeExperimentJson(second.experiment), written); // our writer is a fixed point
        if (byteIdentical)
            QCOMPARE(QString::fromUtf8(written), QString::fromUtf8(original));
        QVERIFY(!hasErrors(validate(first.experiment)));
    }

    void roundTripEverything()
    {
        const Experiment x = everything();
        const QByteArray bytes = serializeExperiment(x);
        const ExperimentReadResult r = deserializeExperiment(bytes);
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(QString::fromUtf8(writeExperimentJson(r.experiment)), QString::fromUtf8(bytes));
        QVERIFY(r.experiment == x);
        QCOMPARE(r.experiment.server.args.names(), QStringList({ QStringLiteral("zeta"), QStringLiteral("alpha") }));
        QCOMPARE(r.experiment.endpoint.headers.first().first, QStringLiteral("X-B"));
    }

    void writerUsesSchemaOrder()
    {
        const QString text = QString::fromUtf8(writeExperimentJson(everything()));
        const char *order[] = { "\"name\"", "\"endpoint\"", "\"env_snapshot\"", "\"server\"", "\"dataset\"",
            "\"sampling\"", "\"load\"", "\"metrics\"", "\"variants\"" };
        qsizetype last = -1;
        for (const char *key : order) {
            const qsizetype at = text.indexOf(QLatin1String("\n  ") + QLatin1String(key));
            QVERIFY2(at > last, key);
            last = at;
        }
        QVERIFY(text.contains(QLatin1String("\"burstiness\": \"inf\"")));
        QVERIFY(text.contains(QLatin1String("[\"cuda\", \"12.4\", \"probe\"]")));
        QVERIFY(text.contains(QStringLiteral("[\"gpu\", \"H100 \u00e9\u4e2d\"]")));
        QVERIFY(text.contains(QLatin1String("\"seed\": 9007199254740991")));
    }

    void gradientWritesBack()
    {
        const ExperimentReadResult r = loadExperimentFile(demoPath());
        QVERIFY(r.ok);
        QCOMPARE(r.experiment.load.points.size(), 6);
        QCOMPARE(r.experiment.load.points.at(5).numPrompts, 320);
        QCOMPARE(r.experiment.load.points.at(0).numPrompts, 20);
        Experiment edited = r.experiment;
        edited.load.points[0].outputLen = 32; // no longer the gradient: written as points
        const QString text = QString::fromUtf8(writeExperimentJson(edited));
        QVERIFY(!text.contains(QLatin1String("concurrency_gradient")));
        QVERIFY(readExperimentJson(text.toUtf8()).experiment == edited);
    }

    // load.mode capacity: the search's settings, and the levels a run measured, read back; its
    // mistakes are refused by path.
    // The settle rule and the trace dataset's settings: written when set, read back equal, refused by path when wrong.
    void settleAndTraceRoundTrip()
    {
        const ExperimentReadResult demo = loadExperimentFile(demoPath());
        QVERIFY(demo.ok);
        Experiment x = demo.experiment;
        QVERIFY(!writeExperimentJson(x).contains("stop_when_settled"));
        x.load.settle.width = 0.05;
        x.load.settle.minRequests = 300;
        x.dataset.traceFormat = QStringLiteral("azure");
        x.dataset.blockSize = 64;
        const QByteArray written = writeExperimentJson(x);
        QVERIFY(written.contains("\"stop_when_settled\": {"));
        QVERIFY(written.contains("\"min_requests\": 300"));
        QVERIFY(written.contains("\"trace_format\": \"azure\""));
        QVERIFY(written.contains("\"block_size\": 64"));
        const ExperimentReadResult r = readExperimentJson(written);
        QVERIFY2(r.ok, qPrintable(r.errors.join(u'\n')));
        QVERIFY(r.experiment == x);
        QCOMPARE(r.experiment.load.settle, x.load.settle);
        QByteArray wrong = written;
        wrong.replace("\"min_requests\": 300", "\"min_request\": 300");
        const ExperimentReadResult bad = readExperimentJson(wrong);
        QVERIFY2((bad.warnings + bad.errors).join(u'\n').contains(QStringLiteral("load.stop_when_settled.min_request")),
            qPrintable((bad.warnings + bad.errors).join(u'\n')));
        x.load.settle.width = 1.5;
        QVERIFY(
            validate(x).first().toString().startsWith(QStringLiteral("load.stop_when_settled.width: must be at most")));
    }

    void capacityRoundTrip()
    {
        const ExperimentReadResult demo = loadExperimentFile(demoPath());
        QVERIFY(demo.ok);
        QString text = QString::fromUtf8(writeExperimentJson(demo.experiment));
        const qsizetype from = text.indexOf(QLatin1String("\"load\": {"));
        const qsizetype to = text.indexOf(QLatin1String("\"warmup_requests\""), from);
        text.replace(from, to - from,
            QStringLiteral("\"load\": {\"mode\": \"capacity\", \"capacity\": {\"over\": \"rate\", \"slo\": "
                           "{\"p90_ttft_ms\": 500, \"p99.9_itl_ms\": 80}, \"attainment\": 0.95, \"start\": 0.5, "
                           "\"max\": 64, \"resolution\": 0.05, \"max_points\": 10, \"max_repeats\": 3, "
                           "\"max_total_s\": 600, \"input_len\": 512, \"output_len\": 128, \"num_prompts\": 300, "
                           "\"max_seconds\": 60, \"burstiness\": 1}, "));
        const ExperimentReadResult r = readExperimentJson(text.toUtf8());
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        const LoadMatrix &load = r.experiment.load;
        QVERIFY(load.capacity);
        QCOMPARE(load.mode, LoadMode::Rate);
        QCOMPARE(load.capacity->slos.size(), 2);
        QCOMPARE(load.capacity->slos[1].key(), QStringLiteral("p99.9_itl_ms"));
        QCOMPARE(load.capacity->slos[1].maxMs, 80.0);
        QCOMPARE(load.capacity->at(LoadMode::Rate, 2.5).requestRate, 2.5);
        QCOMPARE(load.capacity->at(LoadMode::Rate, 2.5).numPrompts, 300);
        QVERIFY(load.points.isEmpty());
        QVERIFY2(!hasErrors(validate(r.experiment)), qPrintable(r.errors.join(u'\n')));
        Experiment measured = r.experiment;
        measured.load.points << load.capacity->at(LoadMode::Rate, 0.5) << load.capacity->at(LoadMode::Rate, 1);
        const QByteArray written = writeExperimentJson(measured);
        QVERIFY(written.contains("\"mode\": \"capacity\""));
        QVERIFY(readExperimentJson(written).experiment == measured);

        const auto errorsOf = [&text](const QString &from, const QString &to) {
            QString bad = text;
            bad.replace(from, to);
            const ExperimentReadResult read = readExperimentJson(bad.toUtf8());
            QStringList out = read.errors;
            if (read.ok)
                for (const Problem &p : validate(read.experiment))
                    out << p.path;
            return out.join(u'\n');
        };
        QVERIFY(errorsOf(QStringLiteral("p90_ttft_ms"), QStringLiteral("p90_ttft"))
                    .contains(QLatin1String("load.capacity.slo.p90_ttft: is not an SLO")));
        QVERIFY(errorsOf(QStringLiteral("\"attainment\": 0.95"), QStringLiteral("\"attainment\": 95"))
                    .contains(QLatin1String("load.capacity.attainment")));
        QVERIFY(errorsOf(
            QStringLiteral("\"mode\": \"capacity\", \"capacity\""), QStringLiteral("\"mode\": \"rate\", \"capacity\""))
                    .contains(QLatin1String("load.capacity: is only allowed with load.mode capacity")));
        QVERIFY(errorsOf(QStringLiteral("\"max\": 64"), QStringLiteral("\"max\": 0.1"))
                    .contains(QLatin1String("load.capacity.max")));
    }

    void imports_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("format");
        QTest::addColumn<Experiment>("expected");
        QTest::newRow("load_matrix toml")
            << data("load_matrix.toml") << int(ExperimentFormat::TomlLoadMatrix) << expectedLoadMatrixToml();
        QTest::newRow("bench toml") << data("bench.toml") << int(ExperimentFormat::TomlBench) << expectedBenchToml();
        QTest::newRow("bench_config json")
            << data("bench_config.json") << int(ExperimentFormat::BenchConfig) << expectedBenchConfig();
    }
    void imports()
    {
        QFETCH(QString, path);
        QFETCH(int, format);
        QFETCH(Experiment, expected);
        const ExperimentReadResult r = loadExperimentFile(path);
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(int(r.format), format);
        // Compare the written form first: a mismatch then shows as readable text.
        QCOMPARE(
            QString::fromUtf8(writeExperimentJson(r.experiment)), QString::fromUtf8(writeExperimentJson(expected)));
        QVERIFY(r.experiment == expected);
        QVERIFY(!hasErrors(validate(r.experiment)));
        // Forcing the right format gives the same; the native reader refuses the layout.
        QVERIFY(importExperiment(readAll(path), ExperimentFormat(format), r.experiment.name).experiment == expected);
    }

    void benchConfigExportRoundTrip_data()
    {
        QTest::addColumn<Experiment>("experiment");
        QTest::newRow("flat fixture") << expectedBenchConfig();
        Experiment rate = expectedBenchToml();
        rate.load.points[1].label = QStringLiteral("eight");
        QTest::newRow("rate points") << rate;
        QTest::newRow("toml matrix") << expectedLoadMatrixToml();
    }
    void benchConfigExportRoundTrip()
    {
        QFETCH(Experiment, experiment);
        QString error;
        const QByteArray flat = exportBenchConfig(experiment, 0, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const ExperimentReadResult r = importExperiment(flat, ExperimentFormat::Auto, QStringLiteral("ignored"));
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.format, ExperimentFormat::BenchConfig);
        QCOMPARE(
            QString::fromUtf8(writeExperimentJson(r.experiment)), QString::fromUtf8(writeExperimentJson(experiment)));
        QVERIFY(r.experiment == experiment);
    }

    void benchConfigExportResolvesVariant()
    {
        const ExperimentReadResult demo = loadExperimentFile(demoPath());
        QString error;
        const QByteArray flat = exportBenchConfig(demo.experiment, 1, &error);
        QVERIFY(error.isEmpty());
        const QString text = QString::fromUtf8(flat);
        QVERIFY(text.contains(QLatin1String("\"max_concurrency\": [1, 4, 8, 16, 32, 64]")));
        QVERIFY(text.contains(QLatin1String("\"num_prompts\": [20, 20, 40, 80, 160, 320]")));
        QVERIFY(text.contains(QLatin1String("\"random_input_len\": 128,")));
        Experiment odd = demo.experiment;
        odd.sampling.set(QStringLiteral("logit_bias"), QJsonObject());
        QVERIFY(exportBenchConfig(odd, 0, &error).isEmpty());
        QCOMPARE(error, QStringLiteral("sampling.logit_bias: bench_config.json has no field for it"));
    }

    void saveAndLoad()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("e.json"));
        QCOMPARE(saveExperimentFile(path, everything()), QString());
        const ExperimentReadResult r = loadExperimentFile(path);
        QVERIFY(r.ok);
        QVERIFY(r.experiment == everything());
        QCOMPARE(saveExperimentFile(dir.filePath(QStringLiteral("missing/e.json")), everything()).isEmpty(), false);
    }

    // U+FEFF inside a string value is text, not a byte-order mark: it survives at the start of
    // a value and after an escape (found by fuzz_experiment_toml's write and re-read check).
    void feffInStringsIsKept()
    {
        const QString feff(QChar(0xFEFF));
        const ExperimentReadResult json
            = readExperimentJson("{\"name\": \"\xEF\xBB\xBFn\", \"endpoint\": {\"model\": \"a\\t\xEF\xBB\xBF"
                                 "b\"}, \"load\": {\"points\": "
                                 "[{\"concurrency\": 1, \"input_len\": 1, \"output_len\": 1, \"num_prompts\": 5}]}}");
        QVERIFY2(json.ok, qPrintable(json.errors.join(u'\n')));
        QCOMPARE(json.experiment.name, feff + u'n');
        QCOMPARE(json.experiment.endpoint.model, QStringLiteral("a\t") + feff + u'b');
        const ExperimentReadResult again = readExperimentJson(writeExperimentJson(json.experiment));
        QVERIFY(again.ok);
        QVERIFY(again.experiment == json.experiment);

        const ExperimentReadResult toml
            = importExperiment("[bench]\nname = \"\xEF\xBB\xBFn\"\nmodel = \"a\\t\xEF\xBB\xBF"
                               "b\"\n[bench.load]\nconcurrency = [1]\n"
                               "num_prompts = 5\n",
                ExperimentFormat::TomlBench, QStringLiteral("t"));
        QVERIFY2(toml.ok, qPrintable(toml.errors.join(u'\n')));
        QCOMPARE(toml.experiment.name, feff + u'n');
        QCOMPARE(toml.experiment.endpoint.model, QStringLiteral("a\t") + feff + u'b');
    }

    void missingVariantsMeansBaseline()
    {
        const ExperimentReadResult r
            = readExperimentJson("{\"name\": \"n\", \"load\": {\"points\": [{\"concurrency\": 2, \"input_len\": 1, "
                                 "\"output_len\": 1, \"num_prompts\": 10}]}}");
        QVERIFY(r.ok);
        QCOMPARE(r.experiment.variants.size(), 1);
        QCOMPARE(r.experiment.variants.first().name, QStringLiteral("baseline"));
    }
};

QTEST_GUILESS_MAIN(TestExperimentFile)
#include "tst_experimentfile.moc"
