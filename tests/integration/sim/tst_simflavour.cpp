// SPDX-License-Identifier: MIT
// The simulator's flavours (vllm, sglang) and its DCGM-exporter-style endpoint, against real
// `servescope-cli sim` children: flag names, routes, metric names and values, log lines, GPU telemetry.
#include "simtestclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>

using namespace SimTest;

namespace {

QByteArray chat(int maxTokens)
{
    return httpRequest("POST", "/v1/chat/completions",
        "{\"model\":\"servescope-sim-7b\",\"messages\":[{\"role\":\"user\",\"content\":\"one two three four five six "
        "seven eight\"}],\"max_tokens\":"
            + QByteArray::number(maxTokens) + ",\"ignore_eos\":true,\"stream\":true}");
}

QByteArray get(quint16 port, const QByteArray &path)
{
    return exchange(port, httpRequest("GET", path)).body;
}

int status(quint16 port, const QByteArray &method, const QByteArray &path)
{
    const Response r = exchange(port, httpRequest(method, path, method == "POST" ? QByteArray("") : QByteArray()));
    return r.status;
}

/// Reads the child's stderr until it holds `text` (at most `ms`).
bool stderrHas(SimChild &sim, QByteArray *seen, const QByteArray &text, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!seen->contains(text) && t.elapsed() < ms) {
        QTest::qWait(20);
        *seen += sim.process().readAllStandardError();
    }
    return seen->contains(text);
}

} // namespace

class TestSimFlavour final : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase() { QVERIFY(!qEnvironmentVariable("SERVESCOPE_CLI").isEmpty()); }

    void serverInfoFollowsTheFlags_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("field");
        QTest::addColumn<double>("value");
        QTest::newRow("max-running-requests")
            << QStringList { QStringLiteral("--max-running-requests"), QStringLiteral("7") }
            << QStringLiteral("max_running_requests") << 7.0;
        QTest::newRow("context-length") << QStringList { QStringLiteral("--context-length"), QStringLiteral("2048") }
                                        << QStringLiteral("context_length") << 2048.0;
        QTest::newRow("chunked-prefill-size")
            << QStringList { QStringLiteral("--chunked-prefill-size"), QStringLiteral("1024") }
            << QStringLiteral("chunked_prefill_size") << 1024.0;
        QTest::newRow("max-prefill-tokens default") << QStringList() << QStringLiteral("max_prefill_tokens") << 16384.0;
        QTest::newRow("max-prefill-tokens")
            << QStringList { QStringLiteral("--max-prefill-tokens"), QStringLiteral("4096") }
            << QStringLiteral("max_prefill_tokens") << 4096.0;
        QTest::newRow("mem-fraction-static")
            << QStringList { QStringLiteral("--mem-fraction-static"), QStringLiteral("0.5") }
            << QStringLiteral("mem_fraction_static") << 0.5;
        // (80e9 x 0.5 - 13.5e9) / 524288 bytes per token = 50544.9, whole 16-token pages: 50544.
        QTest::newRow("mem-fraction-static sizes the cache")
            << QStringList { QStringLiteral("--mem-fraction-static"), QStringLiteral("0.5") }
            << QStringLiteral("internal_states.max_total_num_tokens") << 50544.0;
        QTest::newRow("radix cache on") << QStringList() << QStringLiteral("disable_radix_cache") << 0.0;
        QTest::newRow("radix cache off") << QStringList { QStringLiteral("--disable-radix-cache") }
                                         << QStringLiteral("disable_radix_cache") << 1.0;
    }

    // `/get_server_info` reports what the flags (SGLang's names) set.
    void serverInfoFollowsTheFlags()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, field);
        QFETCH(double, value);
        SimChild sim;
        QVERIFY(sim.start(QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang") } + flags));
        const QJsonObject info = QJsonDocument::fromJson(get(sim.port, "/get_server_info")).object();
        QJsonValue v = info.value(field);
        if (field.startsWith(QLatin1String("internal_states.")))
            v = info.value(QLatin1String("internal_states")).toArray().at(0).toObject().value(field.mid(16));
        QCOMPARE(v.isBool() ? double(v.toBool()) : v.toDouble(), value);
    }

    void otherFlavourNamesAreRefused_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("vLLM name in sglang") << QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang"),
            QStringLiteral("--max-num-seqs"), QStringLiteral("3") }
                                             << QByteArray("--max-num-seqs is vLLM's name; the sglang flavour takes "
                                                           "--max-running-requests");
        QTest::newRow("SGLang name in vllm") << QStringList { QStringLiteral("--context-length"), QStringLiteral("9") }
                                             << QByteArray("--context-length is SGLang's name; the vllm flavour takes "
                                                           "--max-model-len");
        QTest::newRow("sglang-only flag") << QStringList { QStringLiteral("--max-prefill-tokens"), QStringLiteral("9") }
                                          << QByteArray("--max-prefill-tokens needs --flavor sglang");
        QTest::newRow("unknown flavour") << QStringList { QStringLiteral("--flavor"), QStringLiteral("tgi") }
                                         << QByteArray("--flavor must be vllm or sglang, got 'tgi'");
        QTest::newRow("no memory left") << QStringList { QStringLiteral("--gpu-memory-utilization"),
            QStringLiteral("0.1") } << QByteArray("--gpu-memory-utilization 0.1 leaves no memory for the KV cache");
    }

    void otherFlavourNamesAreRefused()
    {
        QFETCH(QStringList, flags);
        QFETCH(QByteArray, message);
        QProcess p;
        p.start(qEnvironmentVariable("SERVESCOPE_CLI"),
            QStringList { QStringLiteral("sim"), QStringLiteral("--port"), QStringLiteral("0") } + flags);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(p.readAllStandardError().contains(message), message.constData());
    }

    // Each flavour has its own server's side routes only.
    void routesFollowTheFlavour()
    {
        SimChild vllm, sglang;
        QVERIFY(vllm.start({}));
        QVERIFY(sglang.start({ QStringLiteral("--flavor"), QStringLiteral("sglang") }));
        QCOMPARE(status(vllm.port, "POST", "/reset_prefix_cache"), 200);
        QCOMPARE(status(vllm.port, "GET", "/get_server_info"), 404);
        QCOMPARE(status(vllm.port, "POST", "/flush_cache"), 404);
        QCOMPARE(status(sglang.port, "POST", "/reset_prefix_cache"), 404);
        QCOMPARE(status(sglang.port, "GET", "/get_server_info"), 200);
        QCOMPARE(status(sglang.port, "POST", "/flush_cache"), 200);
        const QByteArray vllmMetrics = get(vllm.port, "/metrics");
        QVERIFY(vllmMetrics.contains("vllm:cache_config_info{model_name=\"servescope-sim-7b\",block_size=\"16\","
                                     "enable_prefix_caching=\"False\",gpu_memory_utilization=\"0.9\","
                                     "num_gpu_blocks=\"6976\"} 1"));
        QVERIFY(vllmMetrics.contains("max_num_seqs=\"256\""));
        QVERIFY(!vllmMetrics.contains("sglang:"));
        QVERIFY(!get(sglang.port, "/metrics").contains("vllm:"));
    }

    // Under load, SGLang's series say what the scheduler holds: 2 running of 5, 3 queued; afterwards
    // the token counters hold every token.
    void sglangMetricsUnderLoad()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--flavor"), QStringLiteral("sglang"),
            QStringLiteral("--max-running-requests"), QStringLiteral("2") }));
        Streams streams;
        streams.start(sim.port, QList<QByteArray>(5, chat(150)));
        QTest::qWait(500);
        const QByteArray busy = get(sim.port, "/metrics");
        QCOMPARE(metric(busy, "sglang:num_running_reqs"), 2.0);
        QCOMPARE(metric(busy, "sglang:num_queue_reqs"), 3.0);
        QVERIFY(metric(busy, "sglang:token_usage") > 0);
        QVERIFY(metric(busy, "sglang:num_used_tokens") >= 32);
        QVERIFY(streams.wait(60000));
        const QByteArray done = get(sim.port, "/metrics");
        QCOMPARE(metric(done, "sglang:generation_tokens_total"), 750.0);
        QVERIFY(metric(done, "sglang:prompt_tokens_total") > 0);
        QCOMPARE(metric(done, "sglang:num_running_reqs"), 0.0);
        QVERIFY(metric(done, "sglang:gen_throughput") > 0);
    }

    void logLinesFollowTheFlavour_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("sglang prefill") << QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang"),
            QStringLiteral("--max-running-requests"), QStringLiteral("2") }
                                        << QByteArray("] Prefill batch. #new-seq: ");
        QTest::newRow("sglang decode") << QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang"),
            QStringLiteral("--max-running-requests"), QStringLiteral("2") }
                                       << QByteArray("] Decode batch. #running-req: 2, #token: ");
        // 10 s of model time at --time-scale 20 is half a second.
        QTest::newRow("vllm engine line") << QStringList { QStringLiteral("--max-num-seqs"), QStringLiteral("2"),
            QStringLiteral("--time-scale"), QStringLiteral("20") }
                                          << QByteArray("Engine 000: Avg prompt throughput: ");
        QTest::newRow("vllm engine line counts") << QStringList {
            QStringLiteral("--max-num-seqs"), QStringLiteral("2"), QStringLiteral("--time-scale"), QStringLiteral("20")
        } << QByteArray(" tokens/s, Running: 2 reqs, Waiting: 3 reqs, GPU KV cache usage: ");
    }

    void logLinesFollowTheFlavour()
    {
        QFETCH(QStringList, flags);
        QFETCH(QByteArray, line);
        SimChild sim;
        QVERIFY(sim.start(flags));
        Streams streams;
        streams.start(sim.port, QList<QByteArray>(5, chat(1200)));
        QByteArray seen;
        QVERIFY2(stderrHas(sim, &seen, line, 8000), seen.constData());
    }

    // The DCGM-style endpoint follows the roofline: idle reads 0; decode of 4 short sequences on the
    // a100-7b preset keeps the GPU busy with memory time (13.5 GB / 1.2 TB/s = 11.25 ms of a ~17.9 ms
    // step) and next to no FLOP time.
    void dcgmFollowsTheRoofline()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--dcgm-port"), QStringLiteral("0") }));
        QVERIFY(sim.process().waitForReadyRead(3000) || sim.process().canReadLine());
        const QByteArray line = sim.process().readLine().trimmed();
        QVERIFY2(line.startsWith("dcgm listening http://127.0.0.1:"), line.constData());
        const quint16 dcgm = quint16(line.mid(line.lastIndexOf(':') + 1).toUInt());
        const QByteArray idle = get(dcgm, "/metrics");
        QCOMPARE(metric(idle, "DCGM_FI_DEV_GPU_UTIL"), 0.0);
        QCOMPARE(metric(idle, "DCGM_FI_PROF_DRAM_ACTIVE"), 0.0);
        QCOMPARE(metric(idle, "DCGM_FI_DEV_POWER_USAGE"), 60.0);
        QVERIFY(idle.contains("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\""));
        QCOMPARE(status(dcgm, "GET", "/other"), 404);

        Streams streams;
        streams.start(sim.port, QList<QByteArray>(4, chat(250)));
        QTest::qWait(1800);
        const QByteArray busy = get(dcgm, "/metrics");
        const double util = metric(busy, "DCGM_FI_DEV_GPU_UTIL"), dram = metric(busy, "DCGM_FI_PROF_DRAM_ACTIVE");
        const double sm = metric(busy, "DCGM_FI_PROF_SM_ACTIVE"), power = metric(busy, "DCGM_FI_DEV_POWER_USAGE");
        QVERIFY2(util >= 90, busy.constData());
        QVERIFY2(dram > 0.55 && dram < 0.70, busy.constData());
        QVERIFY2(sm > 0 && sm < 0.05, busy.constData());
        QVERIFY(qAbs(power - (60 + 340 * dram)) < 0.01);
        QVERIFY(streams.wait(30000));
    }
};

QTEST_GUILESS_MAIN(TestSimFlavour)
#include "tst_simflavour.moc"
