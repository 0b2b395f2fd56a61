// SPDX-License-Identifier: MIT
// The config files of tests/data/seed-configs (copied as engineers publish them) read as their
// README says, and the rules for what an imported file may hold: unknown keys warn, secrets,
// contradictions and meaning-changing values are errors.
#include "io/experimentfile.h"
#include "model/validation.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

namespace {

QString seed(const QString &name)
{
    return QStringLiteral(SERVESCOPE_TEST_DATA "/seed-configs/") + name;
}

QList<int> concurrencies(const Experiment &x)
{
    QList<int> out;
    for (const LoadPoint &p : x.load.points)
        out << p.concurrency;
    return out;
}

QString joined(const QStringList &list)
{
    return list.join(QLatin1Char('\n'));
}

} // namespace

class TestSeedConfigs final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void configs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("format");
        QTest::addColumn<QList<int>>("concurrency");
        QTest::addColumn<QList<int>>("inputLen");
        QTest::addColumn<QList<int>>("outputLen");
        QTest::addColumn<int>("numPrompts");
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<qint64>("seed");
        QTest::addColumn<bool>("ignoreEos");
        QTest::addColumn<QStringList>("percentileMetrics");
        QTest::addColumn<QString>("tokenizer");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("keyEnv");
        QTest::addColumn<QList<double>>("warmupDiscardRepeat");
        const QList<int> gradient { 1, 4, 8, 16, 32, 64 };
        const QStringList four { QStringLiteral("ttft"), QStringLiteral("tpot"), QStringLiteral("itl"),
            QStringLiteral("e2el") };
        QTest::newRow("bench_config.json")
            << QStringLiteral("bench_config.json") << int(ExperimentFormat::BenchConfig) << gradient
            << QList<int>(6, 256) << QList<int>(6, 100) << 200 << QStringLiteral("sonnet") << qint64(1000) << true
            << four << QStringLiteral("/root/Qwen3.5-35B-A3B") << QStringLiteral("/v1/chat/completions") << QString()
            << QList<double> { 0, 0, 1 };
        QTest::newRow("bench.toml") << QStringLiteral("bench.toml") << int(ExperimentFormat::TomlBench) << gradient
                                    << QList<int>(6, 256) << QList<int>(6, 100) << 200 << QStringLiteral("sonnet")
                                    << qint64(1000) << true << QStringList() << QString()
                                    << QStringLiteral("/v1/chat/completions") << QString() << QList<double> { 0, 0, 1 };
        QTest::newRow("load_matrix.toml")
            << QStringLiteral("load_matrix.toml") << int(ExperimentFormat::TomlLoadMatrix) << QList<int> { 1, 8, 32 }
            << QList<int> { 128, 512, 2048 } << QList<int> { 64, 256, 512 } << 200 << QStringLiteral("random")
            << qint64(0) << true << QStringList() << QString() << QStringLiteral("/v1/chat/completions")
            << QStringLiteral("TAOTOKEN_API_KEY") << QList<double> { 30, 0.1, 3 };
    }
    void configs()
    {
        QFETCH(QString, file);
        QFETCH(int, format);
        QFETCH(QList<int>, concurrency);
        QFETCH(QList<int>, inputLen);
        QFETCH(QList<int>, outputLen);
        QFETCH(int, numPrompts);
        QFETCH(QString, dataset);
        QFETCH(qint64, seed);
        QFETCH(bool, ignoreEos);
        QFETCH(QStringList, percentileMetrics);
        QFETCH(QString, tokenizer);
        QFETCH(QString, path);
        QFETCH(QString, keyEnv);
        QFETCH(QList<double>, warmupDiscardRepeat);
        const ExperimentReadResult r = loadExperimentFile(::seed(file));
        QVERIFY2(r.ok, qPrintable(joined(r.errors)));
        QVERIFY2(r.warnings.isEmpty(), qPrintable(joined(r.warnings)));
        QCOMPARE(int(r.format), format);
        const Experiment &x = r.experiment;
        QCOMPARE(x.endpoint.baseUrl, QStringLiteral("https://taotoken.net/api"));
        QCOMPARE(x.endpoint.path, path);
        QCOMPARE(x.endpoint.apiKeyEnv, keyEnv);
        QCOMPARE(x.load.mode, LoadMode::Concurrency);
        QCOMPARE(concurrencies(x), concurrency);
        for (int i = 0; i < x.load.points.size(); ++i) {
            QCOMPARE(x.load.points.at(i).inputLen, inputLen.at(i));
            QCOMPARE(x.load.points.at(i).outputLen, outputLen.at(i));
            QCOMPARE(x.load.points.at(i).numPrompts, numPrompts);
        }
        QCOMPARE(x.dataset.name, dataset);
        QCOMPARE(x.dataset.seed, seed);
        QCOMPARE(x.dataset.ignoreEos, ignoreEos);
        QCOMPARE(x.dataset.tokenizer, tokenizer);
        QCOMPARE(x.metrics.percentileMetrics, percentileMetrics);
        QCOMPARE(double(x.load.warmupRequests), warmupDiscardRepeat.at(0));
        QCOMPARE(x.load.discardRatio, warmupDiscardRepeat.at(1));
        QCOMPARE(double(x.load.repeat), warmupDiscardRepeat.at(2));
        if (dataset == QLatin1String("sonnet"))
            QCOMPARE(x.dataset.path, QStringLiteral("/workspace/datasets/sonnet.txt"));
        QVERIFY(!hasErrors(validate(x)));
        // The native file written from it reads back as the same experiment.
        const ExperimentReadResult again = readExperimentJson(writeExperimentJson(x));
        QVERIFY2(again.ok, qPrintable(joined(again.errors)));
        QVERIFY(again.experiment == x);
    }

    void benchTomlIsTheSameExperiment()
    {
        Experiment flat = loadExperimentFile(seed(QStringLiteral("bench_config.json"))).experiment;
        Experiment toml = loadExperimentFile(seed(QStringLiteral("bench.toml"))).experiment;
        // Only the flat file names its tokenizer and percentile metrics (and files name themselves).
        flat.dataset.tokenizer.clear();
        flat.metrics.percentileMetrics.clear();
        toml.name = flat.name;
        QCOMPARE(QString::fromUtf8(writeExperimentJson(toml)), QString::fromUtf8(writeExperimentJson(flat)));
    }

    void envSnapshot()
    {
        const ExperimentReadResult r = loadExperimentFile(seed(QStringLiteral("env_snapshot.json")));
        QVERIFY2(r.ok, qPrintable(joined(r.errors)));
        QCOMPARE(r.format, ExperimentFormat::EnvSnapshot);
        const EnvSnapshot &env = r.experiment.envSnapshot;
        QCOMPARE(env.size(), 12);
        const QList<QPair<QString, QString>> expected { { QStringLiteral("gpu"), QStringLiteral("NVIDIA A100 80GB") },
            { QStringLiteral("power_cap_w"), QStringLiteral("300") },
            { QStringLiteral("cpu_cores"), QStringLiteral("32") },
            { QStringLiteral("memory_gb"), QStringLiteral("128") },
            { QStringLiteral("cuda_version"), QStringLiteral("12.1") },
            { QStringLiteral("pytorch_version"), QStringLiteral("2.3.0") },
            { QStringLiteral("vllm_version"), QStringLiteral("0.6.3") },
            { QStringLiteral("vllm_commit"), QStringLiteral("4f2b91a") },
            { QStringLiteral("model_id"), QStringLiteral("Qwen2-7B-Instruct") },
            { QStringLiteral("dtype"), QStringLiteral("float16") },
            { QStringLiteral("max_model_len"), QStringLiteral("8192") },
            { QStringLiteral("gpu_memory_utilization"), QStringLiteral("0.9") } };
        for (int i = 0; i < env.size(); ++i) {
            QCOMPARE(env.at(i).key, expected.at(i).first);
            QCOMPARE(env.at(i).value, expected.at(i).second);
            QCOMPARE(env.at(i).source, EnvSource::Probe); // a file holding only the snapshot is probe output
        }
    }

    void envSnapshotInsideConfigs_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("source");
        const QByteArray flat = "{\"base_url\": \"http://h:1\", \"model\": \"m\", \"max_concurrency\": 1, "
                                "\"random_input_len\": 8, \"random_output_len\": 8, \"num_prompts\": 10, ";
        QTest::newRow("flat object") << flat + "\"env_snapshot\": {\"gpu\": \"H100\"}}" << QStringLiteral("gpu")
                                     << int(EnvSource::Typed);
        QTest::newRow("flat nested") << flat + "\"env_snapshot\": {\"gpu\": {\"name\": \"H100\"}}}"
                                     << QStringLiteral("gpu.name") << int(EnvSource::Typed);
        QTest::newRow("flat own source") << flat
                + "\"env_snapshot\": {\"gpu\": {\"value\": \"H100\", \"source\": \"captured\"}}}"
                                         << QStringLiteral("gpu") << int(EnvSource::Captured);
        QTest::newRow("native object") << QByteArray(
            "{\"name\": \"n\", \"env_snapshot\": {\"gpu\": \"H100\"}, \"load\": {\"points\": []}}")
                                       << QStringLiteral("gpu") << int(EnvSource::Typed);
        QTest::newRow("bench toml table") << QByteArray("[bench]\nbase_url = \"http://h:1\"\n[bench.env_snapshot]\n"
                                                        "gpu = \"H100\"\n[bench.load]\nconcurrency = [1]\n")
                                          << QStringLiteral("gpu") << int(EnvSource::Typed);
        QTest::newRow("load matrix table")
            << QByteArray("[env_snapshot]\ngpu = \"H100\"\n[client]\nbase_url = \"http://h:1\"\n"
                          "[load_matrix.a]\nconcurrency = 1\n")
            << QStringLiteral("gpu") << int(EnvSource::Typed);
    }
    void envSnapshotInsideConfigs()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, name);
        QFETCH(int, source);
        const ExperimentReadResult r = importExperiment(text, ExperimentFormat::Auto, QStringLiteral("x"));
        QVERIFY2(r.ok, qPrintable(joined(r.errors)));
        QCOMPARE(r.experiment.envSnapshot.size(), 1);
        QCOMPARE(r.experiment.envSnapshot.first().key, name);
        QCOMPARE(r.experiment.envSnapshot.first().value, QStringLiteral("H100"));
        QCOMPARE(int(r.experiment.envSnapshot.first().source), source);
    }

    void importRules_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("message"); // the one warning, or the first error
        const QByteArray base = "{\"base_url\": \"http://h:1\", \"model\": \"m\", \"num_prompts\": 10";
        QTest::newRow("unknown key warns") << base
                + ", \"max_concurrency\": 2, \"random_input_len\": 8, \"random_output_len\": 8,\n"
                  "\"backend\": \"openai-chat\"}"
                                           << true << QStringLiteral("backend: unknown key; ignored (line 2)");
        QTest::newRow("another dataset's lengths warn")
            << base
                + ", \"dataset_name\": \"sonnet\", \"max_concurrency\": 2, \"sonnet_input_len\": 300, "
                  "\"sonnet_output_len\": 8, \"random_input_len\": 8}"
            << true
            << QStringLiteral(
                   "random_input_len: ignored: it applies to the random dataset, and dataset_name is sonnet (line 1)");
        QTest::newRow("literal key refused") << base + ", \"api_key\": \"sk-123\"}" << false
                                             << QStringLiteral("api_key: a literal API key is not allowed; files may "
                                                               "only name the key (api_key_env or keychain_entry) "
                                                               "(line 1)");
        QTest::newRow("gradient and max_concurrency contradict")
            << base + ", \"concurrency_gradient\": [1, 2], \"max_concurrency\": 4}" << false
            << QStringLiteral("concurrency_gradient: contradicts max_concurrency: give the concurrency levels once "
                              "(line 1)");
        QTest::newRow("gradient and a rate contradict")
            << base + ", \"concurrency_gradient\": [1, 2], \"request_rate\": 4}" << false
            << QStringLiteral("concurrency_gradient: contradicts a finite request_rate: a gradient is closed loop "
                              "(line 1)");
        QTest::newRow("toml seed twice") << QByteArray(
            "[bench]\nseed = 1\n[bench.dataset]\nseed = 2\n[bench.load]\nconcurrency = [1]\n")
                                         << false
                                         << QStringLiteral("bench.seed: contradicts bench.dataset.seed (line 2)");
        QTest::newRow("toml unknown key warns")
            << QByteArray("[bench]\nbase_url = \"http://h:1\"\nbackend = \"vllm\"\n[bench.load]\nconcurrency = [1]\n")
            << true << QStringLiteral("bench.backend: unknown key; ignored (line 3)");
    }
    void importRules()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        QFETCH(QString, message);
        const ExperimentReadResult r = importExperiment(text, ExperimentFormat::Auto, QStringLiteral("x"));
        QCOMPARE(r.ok, ok);
        if (ok) {
            QCOMPARE(r.warnings, QStringList { message });
        } else {
            QVERIFY(!r.errors.isEmpty());
            QCOMPARE(r.errors.first(), message);
        }
    }

    void percentileMetricsMustBeKnown()
    {
        Experiment x = loadExperimentFile(seed(QStringLiteral("bench_config.json"))).experiment;
        x.metrics.percentileMetrics << QStringLiteral("e2e");
        QStringList errors;
        for (const Problem &p : validate(x)) {
            if (p.isError())
                errors << p.toString();
        }
        QCOMPARE(errors,
            QStringList { QStringLiteral("metrics.percentile_metrics[4]: must be one of ttft, tpot, itl, e2el") });
    }

    void sonnetBenchConfigRoundTrips()
    {
        const Experiment x = loadExperimentFile(seed(QStringLiteral("bench_config.json"))).experiment;
        QString error;
        const QByteArray flat = exportBenchConfig(x, 0, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString text = QString::fromUtf8(flat);
        QVERIFY(text.contains(QLatin1String("\"sonnet_input_len\": 256")));
        QVERIFY(text.contains(QLatin1String("\"tokenizer\": \"/root/Qwen3.5-35B-A3B\"")));
        QVERIFY(!text.contains(QLatin1String("random_")));
        const ExperimentReadResult r = importExperiment(flat, ExperimentFormat::Auto, QStringLiteral("x"));
        QVERIFY2(r.ok, qPrintable(joined(r.errors)));
        QVERIFY2(r.warnings.isEmpty(), qPrintable(joined(r.warnings)));
        Experiment expected = x;
        expected.name = r.experiment.name;
        // The flat file spells the levels as max_concurrency: the same points, written out one by one.
        QVERIFY(r.experiment == expected);
    }
};

QTEST_GUILESS_MAIN(TestSeedConfigs)
#include "tst_seedconfigs.moc"
