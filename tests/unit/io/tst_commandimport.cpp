// SPDX-License-Identifier: MIT
// Shell snippets as engineers paste them (tests/data/seed-configs/*.sh and the tuning flags) read
// as the experiments their README gives; a key value never reaches the experiment.
#include "io/commandimport.h"
#include "io/experimentfile.h"
#include "io/shellwords.h"
#include "requireservice.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

namespace {

QString seedText(const QString &name)
{
    QFile f(QStringLiteral(SERVESCOPE_TEST_DATA "/seed-configs/") + name);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

CommandImportResult importSeed(const QString &name)
{
    return importCommand(seedText(name), name.section(QLatin1Char('.'), 0, 0));
}

} // namespace

class TestCommandImport final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void shellSplitting_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<QStringList>>("commands");
        QTest::newRow("continuations") << QStringLiteral("vllm serve m \\\n  --port 8000 \\\r\n  --x 1\n")
                                       << QList<QStringList> { { QStringLiteral("vllm"), QStringLiteral("serve"),
                                              QStringLiteral("m"), QStringLiteral("--port"), QStringLiteral("8000"),
                                              QStringLiteral("--x"), QStringLiteral("1") } };
        QTest::newRow("nohup, redirections, &, tail")
            << QStringLiteral("nohup a --b c > a.log 2>&1 &\ntail -f a.log")
            << QList<QStringList> { { QStringLiteral("a"), QStringLiteral("--b"), QStringLiteral("c") },
                   { QStringLiteral("tail"), QStringLiteral("-f"), QStringLiteral("a.log") } };
        QTest::newRow("quotes and comments")
            << QStringLiteral("# run it\na 'x y' \"p \\\"q\\\"\" $K ${L} # trailing\nb&&c; d | e &> f")
            << QList<QStringList> { { QStringLiteral("a"), QStringLiteral("x y"), QStringLiteral("p \"q\""),
                                        QStringLiteral("$K"), QStringLiteral("${L}") },
                   { QStringLiteral("b") }, { QStringLiteral("c") }, { QStringLiteral("d") }, { QStringLiteral("e") } };
        QTest::newRow("assignments keep names only")
            << QStringLiteral("export TAOTOKEN_API_KEY=\"sk-secret\"\nCUDA_VISIBLE_DEVICES=0 vllm serve m")
            << QList<QStringList> { {}, { QStringLiteral("vllm"), QStringLiteral("serve"), QStringLiteral("m") } };
    }
    void shellSplitting()
    {
        QFETCH(QString, text);
        QFETCH(QList<QStringList>, commands);
        const QList<ShellCommand> got = splitShellCommands(text);
        QCOMPARE(got.size(), commands.size());
        for (qsizetype i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].words, commands[i]);
            for (const QString &name : got[i].assignedNames)
                QVERIFY(!name.contains(QLatin1String("sk-")));
        }
    }

    void vllmServer()
    {
        const CommandImportResult r = importSeed(QStringLiteral("vllm_server.sh"));
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
        const Server &s = r.experiment.server;
        QCOMPARE(s.engine, QStringLiteral("vllm"));
        QCOMPARE(s.args.value(QStringLiteral("max_num_seqs")).toDouble(), 256.0);
        QCOMPARE(s.args.value(QStringLiteral("max_num_batched_tokens")).toDouble(), 4096.0);
        QCOMPARE(s.args.value(QStringLiteral("gpu_memory_utilization")).toDouble(), 0.9);
        QCOMPARE(s.args.value(QStringLiteral("max_model_len")).toDouble(), 8192.0);
        QCOMPARE(s.args.value(QStringLiteral("block_size")).toDouble(), 16.0);
        QCOMPARE(s.args.value(QStringLiteral("dtype")).toString(), QStringLiteral("float16"));
        QCOMPARE(s.args.value(QStringLiteral("enable_prefix_caching")).toBool(), true);
        QCOMPARE(s.args.value(QStringLiteral("scheduler")).toString(), QStringLiteral("fcfs"));
        QCOMPARE(s.launchArgv.mid(0, 5),
            QStringList(
                { QStringLiteral("python"), QStringLiteral("-m"), QStringLiteral("vllm.entrypoints.openai.api_server"),
                    QStringLiteral("--model"), QStringLiteral("Qwen/Qwen2-7B-Instruct") }));
        QVERIFY(s.launchArgv.contains(QStringLiteral("{server.args.max_num_seqs}")));
        QCOMPARE(r.experiment.endpoint.model, QStringLiteral("Qwen/Qwen2-7B-Instruct"));
        QCOMPARE(r.experiment.endpoint.baseUrl, QStringLiteral("http://127.0.0.1:8000"));
    }

    void sglangServer()
    {
        const CommandImportResult r = importSeed(QStringLiteral("sglang_server.sh"));
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
        const Server &s = r.experiment.server;
        QCOMPARE(s.engine, QStringLiteral("sglang"));
        QCOMPARE(s.args.names(),
            QStringList({ QStringLiteral("tp_size"), QStringLiteral("mem_fraction_static"),
                QStringLiteral("context_length") }));
        QCOMPARE(s.args.value(QStringLiteral("tp_size")).toDouble(), 2.0);
        QCOMPARE(s.args.value(QStringLiteral("mem_fraction_static")).toDouble(), 0.9);
        QCOMPARE(s.args.value(QStringLiteral("context_length")).toDouble(), 32768.0);
        QVERIFY(!s.launchArgv.contains(QStringLiteral("nohup")));
        QVERIFY(!s.launchArgv.contains(QStringLiteral("sglang.log")));
        QCOMPARE(r.experiment.endpoint.dialect, Dialect::Sglang);
        QCOMPARE(r.experiment.endpoint.model, QStringLiteral("/root/Qwen3.5-35B-A3B"));
    }

    void tuningFlags()
    {
        const CommandImportResult r = importSeed(QStringLiteral("sglang_tuning_flags.txt"));
        QVERIFY(r.ok);
        const QList<Variant> &v = r.experiment.variants;
        QCOMPARE(v.size(), 4);
        QCOMPARE(v[0].name, QStringLiteral("baseline"));
        const QStringList expected { QStringLiteral("server.args.cuda_graph_bs"),
            QStringLiteral("server.args.max_running_requests"), QStringLiteral("server.args.max_prefill_tokens") };
        for (int i = 1; i < 4; ++i) {
            QCOMPARE(v[i].changes.names(), QStringList { expected[i - 1] }); // one variable each
        }
        QCOMPARE(v[1].changes.value(expected[0]).toArray(), (QJsonArray { 1, 24, 48 }));
        QCOMPARE(v[2].changes.value(expected[1]).toDouble(), 48.0);
        QCOMPARE(v[3].changes.value(expected[2]).toDouble(), 8196.0);
        QCOMPARE(r.experiment.server.engine, QStringLiteral("sglang"));
    }

    void vllmBenchServe()
    {
        const CommandImportResult r = importSeed(QStringLiteral("vllm_bench_serve.sh"));
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(QLatin1Char('\n'))));
        const Experiment &x = r.experiment;
        QCOMPARE(x.load.mode, LoadMode::Concurrency);
        QCOMPARE(x.load.points.size(), 1);
        QCOMPARE(x.load.points[0].concurrency, 1);
        QCOMPARE(x.load.points[0].numPrompts, 10);
        QCOMPARE(x.load.points[0].inputLen, 256);
        QCOMPARE(x.load.points[0].outputLen, 100);
        QCOMPARE(x.dataset.name, QStringLiteral("sonnet"));
        QCOMPARE(x.dataset.path, QStringLiteral("/workspace/datasets/sonnet.txt"));
        QCOMPARE(x.dataset.seed, 1000);
        QVERIFY(x.dataset.ignoreEos);
        QCOMPARE(x.dataset.tokenizer, QStringLiteral("/root/Qwen3.5-35B-A3B"));
        QCOMPARE(x.metrics.percentileMetrics,
            QStringList(
                { QStringLiteral("ttft"), QStringLiteral("tpot"), QStringLiteral("itl"), QStringLiteral("e2el") }));
        QCOMPARE(x.endpoint.baseUrl, QStringLiteral("https://taotoken.net/api"));
        QCOMPARE(x.endpoint.path, QStringLiteral("/v1/chat/completions"));
        QCOMPARE(x.endpoint.apiKeyEnv, QStringLiteral("TAOTOKEN_API_KEY"));
        const QByteArray json = writeExperimentJson(x);
        QVERIFY(!json.contains("your key"));
        QVERIFY(readExperimentJson(json).ok);
    }

    void legacyBenchmarkServing()
    {
        const CommandImportResult r = importSeed(QStringLiteral("benchmark_serving.sh"));
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        const Experiment &x = r.experiment;
        QCOMPARE(x.load.mode, LoadMode::Rate);
        QCOMPARE(x.load.points.size(), 1);
        QCOMPARE(x.load.points[0].requestRate, 8.0);
        QCOMPARE(x.load.points[0].maxConcurrency, 0);
        QCOMPARE(x.load.points[0].numPrompts, 200);
        QCOMPARE(x.load.points[0].inputLen, 512);
        QCOMPARE(x.load.points[0].outputLen, 256);
        QCOMPARE(x.dataset.name, QStringLiteral("random"));
        QVERIFY(!x.dataset.ignoreEos); // not asked for
        QCOMPARE(x.endpoint.path, QStringLiteral("/v1/completions"));
        QCOMPARE(r.warnings.first(),
            QStringLiteral("line 1: --input-len: no release of benchmark_serving.py has this flag; read as "
                           "--random-input-len"));
    }

    void sglangBenchServing()
    {
        const CommandImportResult r = importCommand(
            QStringLiteral("python3 -m sglang.bench_serving --backend sglang-oai-chat --host 10.0.0.2 --port 30000 "
                           "--dataset-name random --random-input-len 1000 --random-output-len 200 "
                           "--random-range-ratio 0.5 --num-prompts 64 --max-concurrency 16 --goodput ttft:500 "
                           "tpot:50 --api-key $SGL_KEY"),
            QStringLiteral("s"));
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        const Experiment &x = r.experiment;
        QCOMPARE(x.endpoint.baseUrl, QStringLiteral("http://10.0.0.2:30000"));
        QCOMPARE(x.endpoint.path, QStringLiteral("/v1/chat/completions"));
        QCOMPARE(x.endpoint.dialect, Dialect::Sglang);
        QCOMPARE(x.endpoint.apiKeyEnv, QStringLiteral("SGL_KEY"));
        QCOMPARE(x.load.points[0].concurrency, 16);
        // SGLang's [500, 1000] is vLLM's 750 +- 1/3.
        QCOMPARE(x.load.points[0].inputLen, 750);
        QCOMPARE(x.load.points[0].outputLen, 150);
        QCOMPARE(x.dataset.rangeRatio, 1.0 / 3.0);
        QVERIFY(x.dataset.ignoreEos);
        QCOMPARE(*x.metrics.goodput.ttftMs, 500.0);
        QCOMPARE(*x.metrics.goodput.tpotMs, 50.0);
    }

    void keyValuesAreNeverKept()
    {
        const CommandImportResult r = importCommand(
            QStringLiteral("vllm serve m --api-key sk-live-123 --max-num-seqs 8\n"
                           "vllm bench serve --model m --api-key sk-live-456 --max-concurrency 2 --num-prompts 4"),
            QStringLiteral("k"));
        QVERIFY(r.ok);
        const QByteArray json = writeExperimentJson(r.experiment);
        QVERIFY(!json.contains("sk-live"));
        QVERIFY(!r.warnings.join(QLatin1Char(' ')).contains(QLatin1String("sk-live")));
        QVERIFY(!r.experiment.server.launchArgv.contains(QStringLiteral("--api-key")));
        QVERIFY2(readExperimentJson(json).ok, json.constData());
        const CommandImportResult flags
            = importCommand(QStringLiteral("--max-running-requests 8 --api-key sk-live-789"), QStringLiteral("f"));
        QCOMPARE(flags.experiment.variants.size(), 2);
        QVERIFY(!writeExperimentJson(flags.experiment).contains("sk-live"));
        // The server and the client in one snippet make one experiment.
        QCOMPARE(r.experiment.endpoint.baseUrl, QStringLiteral("http://127.0.0.1:8000"));
        QCOMPARE(r.experiment.load.points[0].concurrency, 2);
    }

    // A snippet pasted into an open experiment changes only what it says.
    void mergeKeepsTheRest()
    {
        Experiment current;
        current.name = QStringLiteral("mine");
        current.endpoint.baseUrl = QStringLiteral("https://gw.example/v");
        current.endpoint.headers = { { QStringLiteral("x-route"), QStringLiteral("pool-7") } };
        current.endpoint.keychainEntry = QStringLiteral("profile-1");
        current.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
        current.load.points = { LoadPoint {} };
        const CommandImportResult server = importSeed(QStringLiteral("vllm_server.sh"));
        QVERIFY(server.ok && server.hasServer && !server.hasBench);
        const Experiment a = mergeImportedCommand(current, server);
        QCOMPARE(a.server, server.experiment.server);
        QCOMPARE(a.endpoint, current.endpoint);
        QCOMPARE(a.load, current.load);
        QCOMPARE(a.name, current.name);
        const CommandImportResult bench = importSeed(QStringLiteral("vllm_bench_serve.sh"));
        QVERIFY(bench.ok && bench.hasBench && !bench.hasServer);
        const Experiment b = mergeImportedCommand(a, bench);
        QCOMPARE(b.server, a.server);
        QCOMPARE(b.load, bench.experiment.load);
        QCOMPARE(b.dataset, bench.experiment.dataset);
        QCOMPARE(b.endpoint.baseUrl, bench.experiment.endpoint.baseUrl);
        QCOMPARE(b.endpoint.apiKeyEnv, QStringLiteral("TAOTOKEN_API_KEY"));
        QCOMPARE(b.endpoint.headers, current.endpoint.headers);
        QCOMPARE(b.endpoint.keychainEntry, current.endpoint.keychainEntry);
    }

    // A point written as either tool's command reads back as the same point.
    void commandRoundTrip_data()
    {
        QTest::addColumn<int>("tool");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("rate");
        QTest::newRow("vllm chat, concurrency")
            << int(BenchTool::Vllm) << QStringLiteral("/v1/chat/completions") << false;
        QTest::newRow("vllm completions, rate") << int(BenchTool::Vllm) << QStringLiteral("/v1/completions") << true;
        QTest::newRow("sglang chat, concurrency")
            << int(BenchTool::Sglang) << QStringLiteral("/v1/chat/completions") << false;
        QTest::newRow("sglang completions, rate")
            << int(BenchTool::Sglang) << QStringLiteral("/v1/completions") << true;
    }
    void commandRoundTrip()
    {
        QFETCH(int, tool);
        QFETCH(QString, path);
        QFETCH(bool, rate);
        Experiment x;
        x.name = QStringLiteral("rt");
        x.endpoint.baseUrl = QStringLiteral("http://10.0.0.5:8000");
        x.endpoint.path = path;
        x.endpoint.model = QStringLiteral("Qwen/Qwen2-7B Instruct"); // a space: quoted
        x.endpoint.apiKeyEnv = QStringLiteral("TEAM_KEY");
        x.dataset.seed = 42;
        x.dataset.rangeRatio = 0.25;
        x.dataset.ignoreEos = true;
        x.metrics.percentiles = { 50, 90, 99.9 };
        x.load.mode = rate ? LoadMode::Rate : LoadMode::Concurrency;
        LoadPoint p;
        p.inputLen = 512;
        p.outputLen = 128;
        p.numPrompts = 640;
        p.concurrency = rate ? 0 : 32;
        p.requestRate = rate ? 12.5 : 0;
        p.maxConcurrency = rate ? 64 : 0;
        x.load.points = { LoadPoint {}, p };
        x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
        QStringList warnings;
        const QString text = benchCommandFor(x, 1, BenchTool(tool), &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QVERIFY2(!text.contains(QStringLiteral("sk-")), qPrintable(text));
        const CommandImportResult back = importCommand(text, QStringLiteral("rt"));
        QVERIFY2(back.ok, qPrintable(back.errors.join(u'\n') + u'\n' + text));
        const Experiment &y = back.experiment;
        QCOMPARE(y.endpoint.baseUrl, x.endpoint.baseUrl);
        QCOMPARE(y.endpoint.path, x.endpoint.path);
        QCOMPARE(y.endpoint.model, x.endpoint.model);
        QCOMPARE(y.endpoint.apiKeyEnv, QStringLiteral("TEAM_KEY"));
        QCOMPARE(y.load.mode, x.load.mode);
        QCOMPARE(y.load.points.size(), 1);
        const LoadPoint &q = y.load.points.first();
        QCOMPARE(q.inputLen, p.inputLen);
        QCOMPARE(q.outputLen, p.outputLen);
        QCOMPARE(q.numPrompts, p.numPrompts);
        QCOMPARE(q.concurrency, p.concurrency);
        QCOMPARE(q.requestRate, p.requestRate);
        QCOMPARE(q.maxConcurrency, p.maxConcurrency);
        QCOMPARE(y.dataset.name, x.dataset.name);
        QCOMPARE(y.dataset.seed, x.dataset.seed);
        QVERIFY(std::abs(y.dataset.rangeRatio - x.dataset.rangeRatio) < 1e-9);
        QCOMPARE(y.dataset.ignoreEos, x.dataset.ignoreEos);
        if (BenchTool(tool) == BenchTool::Vllm)
            QCOMPARE(y.metrics.percentiles, x.metrics.percentiles);
    }

    // shared_prefix is vLLM's prefix_repetition and SGLang's generated-shared-prefix: written as either tool's
    // flags and read back to the same groups, prefix, input and output lengths (SGLang: groups x prompts per group).
    void sharedPrefixRoundTrip_data()
    {
        QTest::addColumn<int>("tool");
        QTest::addColumn<QString>("flags");
        QTest::newRow("vllm") << int(BenchTool::Vllm)
                              << QStringLiteral("--dataset-name prefix_repetition --prefix-repetition-prefix-len 512 "
                                                "--prefix-repetition-suffix-len 128 --prefix-repetition-num-prefixes 5 "
                                                "--prefix-repetition-output-len 64");
        QTest::newRow("sglang") << int(BenchTool::Sglang)
                                << QStringLiteral("--dataset-name generated-shared-prefix --gsp-num-groups 5 "
                                                  "--gsp-prompts-per-group 8 --gsp-system-prompt-len 512 "
                                                  "--gsp-question-len 128 --gsp-output-len 64");
    }
    void sharedPrefixRoundTrip()
    {
        QFETCH(int, tool);
        QFETCH(QString, flags);
        Experiment x;
        x.name = QStringLiteral("sp");
        x.endpoint.baseUrl = QStringLiteral("http://10.0.0.5:8000");
        x.endpoint.path = QStringLiteral("/v1/completions");
        x.endpoint.model = QStringLiteral("m");
        x.dataset.name = QStringLiteral("shared_prefix");
        x.dataset.prefixLen = 512;
        x.dataset.groups = 5;
        LoadPoint p;
        p.inputLen = 640;
        p.outputLen = 64;
        p.numPrompts = 40;
        p.concurrency = 8;
        x.load.points = { p };
        x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
        QStringList warnings;
        const QString text = benchCommandFor(x, 0, BenchTool(tool), &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QVERIFY2(
            QString(text).replace(QStringLiteral(" \\\n    "), QStringLiteral(" ")).contains(flags), qPrintable(text));
        const CommandImportResult back = importCommand(text, QStringLiteral("sp"));
        QVERIFY2(back.ok, qPrintable(back.errors.join(u'\n') + u'\n' + text));
        const Experiment &y = back.experiment;
        QCOMPARE(y.dataset.name, QStringLiteral("shared_prefix"));
        QCOMPARE(y.dataset.prefixLen, 512);
        QCOMPARE(y.dataset.groups, 5);
        QCOMPARE(y.load.points.value(0).inputLen, 640);
        QCOMPARE(y.load.points.value(0).outputLen, 64);
        QCOMPARE(y.load.points.value(0).numPrompts, 40);
        // A Zipf exponent has no flag in either tool: said, and the command uses equal groups.
        x.dataset.zipf = 1.1;
        benchCommandFor(x, 0, BenchTool(tool), &warnings);
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings.first().contains(QStringLiteral("Zipf")));
    }

    // Each API as the clients can say it: SGLang's `--backend sglang` is /generate both ways; an API neither client
    // speaks gives the nearest one's command and says so.
    void apiBackends_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("tool");
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("readBack");
        QTest::addColumn<bool>("warned");
        QTest::newRow("sglang generate") << QStringLiteral("/generate") << int(BenchTool::Sglang)
                                         << QStringLiteral("sglang") << QStringLiteral("/generate") << false;
        QTest::newRow("vllm generate") << QStringLiteral("/generate") << int(BenchTool::Vllm)
                                       << QStringLiteral("openai") << QStringLiteral("/v1/completions") << true;
        QTest::newRow("vllm messages") << QStringLiteral("/gw/v1/messages") << int(BenchTool::Vllm)
                                       << QStringLiteral("openai-chat") << QStringLiteral("/gw/v1/chat/completions")
                                       << true;
        QTest::newRow("sglang responses")
            << QStringLiteral("/v1/responses") << int(BenchTool::Sglang) << QStringLiteral("sglang-oai-chat")
            << QStringLiteral("/v1/chat/completions") << true;
    }
    void apiBackends()
    {
        QFETCH(QString, path);
        QFETCH(int, tool);
        QFETCH(QString, backend);
        QFETCH(QString, readBack);
        QFETCH(bool, warned);
        Experiment x;
        x.name = QStringLiteral("api");
        x.endpoint.baseUrl = QStringLiteral("http://10.0.0.5:30000");
        x.endpoint.path = path;
        x.endpoint.model = QStringLiteral("m");
        LoadPoint p;
        p.inputLen = 64;
        p.outputLen = 16;
        p.numPrompts = 8;
        p.concurrency = 2;
        x.load.points = { p };
        x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
        QStringList warnings;
        const QString text = benchCommandFor(x, 0, BenchTool(tool), &warnings);
        QVERIFY2(text.contains(QStringLiteral("--backend ") + backend + u' '), qPrintable(text));
        QCOMPARE(!warnings.isEmpty(), warned);
        const CommandImportResult back = importCommand(text, QStringLiteral("api"));
        QVERIFY2(back.ok, qPrintable(back.errors.join(u'\n') + u'\n' + text));
        // SGLang's client has no --endpoint: its backend alone says the path.
        if (BenchTool(tool) == BenchTool::Vllm || readBack == QLatin1String("/generate"))
            QCOMPARE(back.experiment.endpoint.path, readBack);
        else
            QCOMPARE(back.experiment.endpoint.api(), apiForPath(readBack));
    }

    void nothingToImport()
    {
        const CommandImportResult r = importSeed(QStringLiteral("curl_smoke.sh"));
        QVERIFY(!r.ok);
        QCOMPARE(r.warnings, QStringList { QStringLiteral("line 1: not a server or benchmark command; ignored") });
        QVERIFY(!r.errors.join(QLatin1Char(' ')).contains(QLatin1String("TAOTOKEN")));
    }

    void cli()
    {
        SERVESCOPE_REQUIRE_SERVICE(!qEnvironmentVariable("SERVESCOPE_CLI").isEmpty(),
            QStringLiteral("SERVESCOPE_CLI is not set (run through ctest)"));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("x.json"));
        QProcess p;
        p.start(qEnvironmentVariable("SERVESCOPE_CLI"),
            { QStringLiteral("import-command"), QStringLiteral("-"), QStringLiteral("--out"), out });
        p.write(seedText(QStringLiteral("vllm_bench_serve.sh")).toUtf8());
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(p.readAllStandardOutput(), QByteArray());
        const ExperimentReadResult r = loadExperimentFile(out);
        QVERIFY(r.ok);
        QCOMPARE(r.experiment.name, QStringLiteral("command"));
        QCOMPARE(r.experiment.load.points[0].numPrompts, 10);
        p.start(qEnvironmentVariable("SERVESCOPE_CLI"),
            { QStringLiteral("import-command"), QStringLiteral(SERVESCOPE_TEST_DATA "/seed-configs/curl_smoke.sh") });
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
    }
};

QTEST_GUILESS_MAIN(TestCommandImport)
#include "tst_commandimport.moc"
