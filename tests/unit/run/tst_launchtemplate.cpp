// SPDX-License-Identifier: MIT
// The launch argv rendered from a resolved variant, the launch fields of the experiment file, and
// the read-back of a launched server's settings compared with server.args.
#include "io/experimentfile.h"
#include "run/launchtemplate.h"
#include "run/serverreadback.h"
#include "run/simprocess.h"

#include <QJsonArray>
#include <QJsonValue>
#include <QObject>
#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestLaunchTemplate final : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void render_data()
    {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("base");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QString>("error");
        const QString base = QStringLiteral("http://127.0.0.1:8123");
        QTest::newRow("whole elements") << QStringList { QStringLiteral("vllm"), QStringLiteral("serve"),
            QStringLiteral("{endpoint.model}"), QStringLiteral("--max-num-seqs"),
            QStringLiteral("{server.args.max_num_seqs}"), QStringLiteral("--port"), QStringLiteral("{port}") }
                                        << base
                                        << QStringList { QStringLiteral("vllm"), QStringLiteral("serve"),
                                               QStringLiteral("org/m"), QStringLiteral("--max-num-seqs"),
                                               QStringLiteral("8"), QStringLiteral("--port"), QStringLiteral("8123") }
                                        << QString();
        QTest::newRow("inside an element, no splitting")
            << QStringList { QStringLiteral("p"), QStringLiteral("--x={server.args.ratio} {server.args.name}") } << base
            << QStringList { QStringLiteral("p"), QStringLiteral("--x=0.85 two words") } << QString();
        QTest::newRow("boolean") << QStringList { QStringLiteral("p"), QStringLiteral("{server.args.flag}") } << base
                                 << QStringList { QStringLiteral("p"), QStringLiteral("true") } << QString();
        QTest::newRow("default port") << QStringList { QStringLiteral("p"), QStringLiteral("{port}") }
                                      << QStringLiteral("https://h.example/v1")
                                      << QStringList { QStringLiteral("p"), QStringLiteral("443") } << QString();
        QTest::newRow("missing value") << QStringList { QStringLiteral("p"), QStringLiteral("{server.args.gone}") }
                                       << base << QStringList()
                                       << QStringLiteral("server.launch.argv[1]: placeholder {server.args.gone} names "
                                                         "no server.args value in this variant");
        QTest::newRow("list value") << QStringList { QStringLiteral("p"), QStringLiteral("{server.args.list}") } << base
                                    << QStringList()
                                    << QStringLiteral("server.launch.argv[1]: placeholder {server.args.list} has a "
                                                      "value that is not one string, number or boolean");
        QTest::newRow("unknown placeholder") << QStringList { QStringLiteral("{home}") } << base << QStringList()
                                             << QStringLiteral("server.launch.argv[0]: placeholder {home} is not "
                                                               "server.args.NAME, endpoint.model or port");
    }

    void render()
    {
        QFETCH(QStringList, argv);
        QFETCH(QString, base);
        QFETCH(QStringList, expected);
        QFETCH(QString, error);
        Experiment x;
        x.endpoint.model = QStringLiteral("org/m");
        x.server.args.set(QStringLiteral("max_num_seqs"), 8);
        x.server.args.set(QStringLiteral("ratio"), 0.85);
        x.server.args.set(QStringLiteral("name"), QStringLiteral("two words"));
        x.server.args.set(QStringLiteral("flag"), true);
        x.server.args.set(QStringLiteral("list"), QJsonArray { 1, 2 });
        x.server.launchArgv = argv;
        QStringList out;
        QString message;
        QCOMPARE(renderLaunchArgv(x, QUrl(base), &out, &message), error.isEmpty());
        QCOMPARE(message, error);
        if (error.isEmpty())
            QCOMPARE(out, expected);
    }

    // env, cwd and ready_timeout_s are read and written back; a bad variable name is an error.
    void launchFieldsRoundTrip()
    {
        const QByteArray json
            = "{\"name\": \"x\", \"endpoint\": {\"base_url\": \"http://127.0.0.1:8000\"},"
              " \"server\": {\"engine\": \"vllm\", \"launch\": {\"argv\": [\"vllm\", \"serve\"], \"ready\": "
              "\"/health\","
              " \"env\": {\"CUDA_VISIBLE_DEVICES\": \"1\", \"HF_HOME\": \"/data/hf\"}, \"cwd\": \"/srv\", "
              "\"ready_timeout_s\": 90}},"
              " \"load\": {\"points\": [{\"concurrency\": 1, \"num_prompts\": 1}]}, \"variants\": [{\"name\": \"b\"}]}";
        const ExperimentReadResult read = readExperimentJson(json);
        QVERIFY2(read.ok, qPrintable(read.errors.join(u'\n')));
        const Server &s = read.experiment.server;
        QCOMPARE(s.launchEnv.size(), 2);
        QCOMPARE(s.launchEnv.at(1), (QPair<QString, QString>(QStringLiteral("HF_HOME"), QStringLiteral("/data/hf"))));
        QCOMPARE(s.launchCwd, QStringLiteral("/srv"));
        QCOMPARE(s.readyTimeoutS, 90.0);
        const ExperimentReadResult again = readExperimentJson(writeExperimentJson(read.experiment));
        QVERIFY(again.ok);
        QCOMPARE(again.experiment.server, s);
    }

    void mismatches_data()
    {
        QTest::addColumn<QString>("arg");
        QTest::addColumn<QJsonValue>("wanted");
        QTest::addColumn<QString>("expected");
        QTest::newRow("sglang name, equal") << QStringLiteral("max_running_requests") << QJsonValue(8) << QString();
        QTest::newRow("vllm name, differs") << QStringLiteral("max_num_seqs") << QJsonValue(16)
                                            << QStringLiteral("server.args.max_num_seqs is 16 but the server runs "
                                                              "with 8 (/get_server_info)");
        QTest::newRow("context_length differs") << QStringLiteral("context_length") << QJsonValue(8192)
                                                << QStringLiteral("server.args.context_length is 8192 but the server "
                                                                  "runs with 4096 (/get_server_info)");
        QTest::newRow("float equal") << QStringLiteral("mem_fraction_static") << QJsonValue(0.85) << QString();
        QTest::newRow("radix cache read as prefix caching")
            << QStringLiteral("enable_prefix_caching") << QJsonValue(false)
            << QStringLiteral("server.args.enable_prefix_caching is false but the server runs with true "
                              "(/get_server_info)");
        QTest::newRow("the first source wins")
            << QStringLiteral("block_size") << QJsonValue(32)
            << QStringLiteral("server.args.block_size is 32 but the server runs with 16 "
                              "(/get_server_info)");
        QTest::newRow("not reported") << QStringLiteral("swap_space") << QJsonValue(4) << QString();
    }

    void mismatches()
    {
        QFETCH(QString, arg);
        QFETCH(QJsonValue, wanted);
        QFETCH(QString, expected);
        EffectiveConfig config;
        readServerInfo("{\"max_running_requests\": 8, \"context_length\": 4096, \"mem_fraction_static\": 0.85,"
                       " \"page_size\": 16, \"disable_radix_cache\": false, \"chunked_prefill_size\": null}",
            &config);
        readModelsInfo("{\"data\": [{\"id\": \"m\", \"max_model_len\": 2048}]}", &config);
        readMetricsInfo(
            "vllm:cache_config_info{block_size=\"32\",enable_prefix_caching=\"False\",swap_space=\"4\"} 1\n", &config);
        QCOMPARE(config.values.value(QStringLiteral("max_model_len")), QStringLiteral("4096"));
        QVERIFY(!config.values.contains(QStringLiteral("max_num_batched_tokens")));
        OrderedValues args;
        args.set(arg, wanted);
        const QStringList out = configMismatches(args, config);
        QCOMPARE(out.join(u'|'), expected);
    }

    void simulatorFlags_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<bool>("sglang");
        QTest::addColumn<QStringList>("flags");
        QTest::newRow("vllm name, vllm") << QStringLiteral("max_num_seqs") << QJsonValue(8) << false
                                         << QStringList { QStringLiteral("--max-num-seqs"), QStringLiteral("8") };
        QTest::newRow("sglang name, vllm") << QStringLiteral("context_length") << QJsonValue(2048) << false
                                           << QStringList { QStringLiteral("--max-model-len"), QStringLiteral("2048") };
        QTest::newRow("vllm name, sglang") << QStringLiteral("max_num_seqs") << QJsonValue(8) << true
                                           << QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang"),
                                                  QStringLiteral("--max-running-requests"), QStringLiteral("8") };
        QTest::newRow("memory share, sglang") << QStringLiteral("gpu_memory_utilization") << QJsonValue(0.85) << true
                                              << QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang"),
                                                     QStringLiteral("--mem-fraction-static"), QStringLiteral("0.85") };
        QTest::newRow("no prefix cache, sglang") << QStringLiteral("enable_prefix_caching") << QJsonValue(false) << true
                                                 << QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang"),
                                                        QStringLiteral("--disable-radix-cache") };
        QTest::newRow("prefix cache, sglang") << QStringLiteral("enable_prefix_caching") << QJsonValue(true) << true
                                              << QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang") };
        QTest::newRow("prefix cache, vllm") << QStringLiteral("enable_prefix_caching") << QJsonValue(true) << false
                                            << QStringList { QStringLiteral("--enable-prefix-caching") };
    }

    // server.args of a "sim:" endpoint become the flavour's flags.
    void simulatorFlags()
    {
        QFETCH(QString, name);
        QFETCH(QJsonValue, value);
        QFETCH(bool, sglang);
        QFETCH(QStringList, flags);
        OrderedValues args;
        args.set(name, value);
        QCOMPARE(SimProcess::flagsFor(args, sglang), flags);
    }

    // vLLM alone: /v1/models and the cache info gauge; the first line holds the simulator's gauge.
    void vllmSources()
    {
        EffectiveConfig config;
        readModelsInfo("{\"object\": \"list\", \"data\": [{\"id\": \"m\", \"max_model_len\": 2048}]}", &config);
        readMetricsInfo("# HELP x\nservescope_sim:scheduler_config_info{model_name=\"m\",max_num_seqs=\"4\"} 1\n"
                        "vllm:cache_config_info{block_size=\"16\",enable_prefix_caching=\"True\"} 1\n",
            &config);
        QCOMPARE(config.values.value(QStringLiteral("max_model_len")), QStringLiteral("2048"));
        QCOMPARE(config.sources.value(QStringLiteral("max_model_len")), QStringLiteral("/v1/models"));
        QCOMPARE(config.values.value(QStringLiteral("max_num_seqs")), QStringLiteral("4"));
        QCOMPARE(config.values.value(QStringLiteral("enable_prefix_caching")), QStringLiteral("True"));
        OrderedValues args;
        args.set(QStringLiteral("enable_prefix_caching"), true);
        args.set(QStringLiteral("max_model_len"), 2048);
        QVERIFY(configMismatches(args, config).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLaunchTemplate)
#include "tst_launchtemplate.moc"
