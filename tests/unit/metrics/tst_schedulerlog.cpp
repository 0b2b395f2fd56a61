// SPDX-License-Identifier: MIT
// Scheduler log lines of vLLM and SGLang, as the servers print them, into the fallback series.
#include "metrics/schedulerlog.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>

using namespace ServeScope;

namespace {

QMap<QString, double> byName(const QList<ServerSample> &samples)
{
    QMap<QString, double> out;
    for (const ServerSample &s : samples)
        out.insert(s.name, s.value);
    return out;
}

using Values = QMap<QString, double>;

} // namespace

class TestSchedulerLog final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void readsTheServersLines_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<Values>("expected");
        QTest::newRow("vllm v1 engine line") << QStringLiteral(
            "INFO 05-12 10:00:01 [loggers.py:116] Engine 000: Avg prompt throughput: 1234.5 tokens/s, "
            "Avg generation throughput: 567.8 tokens/s, Running: 12 reqs, Waiting: 3 reqs, GPU KV "
            "cache usage: 45.6%, Prefix cache hit rate: 12.5%")
                                             << Values { { QStringLiteral("vllm:num_requests_running"), 12 },
                                                    { QStringLiteral("vllm:num_requests_waiting"), 3 },
                                                    { QStringLiteral("vllm:kv_cache_usage_perc"), 0.456 },
                                                    { QStringLiteral("vllm:gpu_prefix_cache_hit_rate"), 0.125 } };
        QTest::newRow("vllm v1 behind the API server's process prefix")
            << QStringLiteral("(APIServer pid=4242) INFO 05-12 10:00:01 [loggers.py:123] Engine 001: Avg prompt "
                              "throughput: 0.0 tokens/s, Avg generation throughput: 88.0 tokens/s, Running: 1 reqs, "
                              "Waiting: 0 reqs, GPU KV cache usage: 0.3%, Prefix cache hit rate: 0.0%")
            << Values { { QStringLiteral("vllm:num_requests_running"), 1 },
                   { QStringLiteral("vllm:num_requests_waiting"), 0 },
                   { QStringLiteral("vllm:kv_cache_usage_perc"), 0.003 },
                   { QStringLiteral("vllm:gpu_prefix_cache_hit_rate"), 0 } };
        QTest::newRow("vllm v0 metrics line: Pending is waiting")
            << QStringLiteral("INFO 05-12 10:00:01 metrics.py:455] Avg prompt throughput: 1234.5 tokens/s, Avg "
                              "generation throughput: 567.8 tokens/s, Running: 12 reqs, Swapped: 0 reqs, Pending: 3 "
                              "reqs, GPU KV cache usage: 45.6%, CPU KV cache usage: 0.0%.")
            << Values { { QStringLiteral("vllm:num_requests_running"), 12 },
                   { QStringLiteral("vllm:num_requests_waiting"), 3 },
                   { QStringLiteral("vllm:kv_cache_usage_perc"), 0.456 } };
        QTest::newRow("sglang decode batch")
            << QStringLiteral("[2025-05-12 10:00:01] Decode batch. #running-req: 12, #token: 3456, token usage: 0.42, "
                              "cuda graph: True, gen throughput (token/s): 567.89, #queue-req: 3, ")
            << Values { { QStringLiteral("sglang:num_running_reqs"), 12 },
                   { QStringLiteral("sglang:num_queue_reqs"), 3 }, { QStringLiteral("sglang:token_usage"), 0.42 } };
        QTest::newRow("sglang prefill batch: the cached share of its prompt tokens")
            << QStringLiteral("[2025-05-12 10:00:01 TP0] Prefill batch. #new-seq: 2, #new-token: 768, #cached-token: "
                              "256, token usage: 0.40, #running-req: 10, #queue-req: 3, ")
            << Values { { QStringLiteral("sglang:num_running_reqs"), 10 },
                   { QStringLiteral("sglang:num_queue_reqs"), 3 }, { QStringLiteral("sglang:token_usage"), 0.40 },
                   { QStringLiteral("sglang:cache_hit_rate"), 0.25 } };
        QTest::newRow("sglang hybrid model: the fuller pool")
            << QStringLiteral("[2025-05-12 10:00:01] Decode batch. #running-req: 4, #full token: 100, full token "
                              "usage: 0.10, #swa token: 300, swa token usage: 0.30, gen throughput (token/s): 50.00, "
                              "#queue-req: 0, ")
            << Values { { QStringLiteral("sglang:num_running_reqs"), 4 },
                   { QStringLiteral("sglang:num_queue_reqs"), 0 }, { QStringLiteral("sglang:token_usage"), 0.30 } };
        QTest::newRow("other lines give nothing")
            << QStringLiteral("INFO:     127.0.0.1:5000 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK") << Values {};
        QTest::newRow("vllm line without Running") << QStringLiteral(
            "INFO 05-12 10:00:01 [loggers.py:116] Engine 000: Avg prompt throughput: 1.0 tokens/s, Waiting: 3 reqs")
                                                   << Values {};
        QTest::newRow("vllm line cut off mid-number")
            << QStringLiteral("Avg prompt throughput: 1.0 tokens/s, Running: twelve reqs, Waiting: 3") << Values {};
        QTest::newRow("sglang line without its queue")
            << QStringLiteral("[2025-05-12 10:00:01] Decode batch. #running-req: 12, #token: 3456, token usage: 0.42")
            << Values {};
        QTest::newRow("sglang batch word without fields") << QStringLiteral("Prefill batch") << Values {};
        QTest::newRow("empty") << QString() << Values {};
    }
    void readsTheServersLines()
    {
        QFETCH(QString, line);
        QFETCH(Values, expected);
        const QList<ServerSample> samples = parseSchedulerLogLine(line, 777);
        const Values got = byName(samples);
        QCOMPARE(got.keys(), expected.keys());
        for (auto it = expected.cbegin(); it != expected.cend(); ++it)
            QVERIFY2(qFuzzyCompare(1 + got.value(it.key()), 1 + *it), qPrintable(it.key()));
        for (const ServerSample &s : samples) {
            QCOMPARE(s.timeNs, qint64(777));
            QVERIFY(isServerSeries(s.name)); // summarised like a scrape
            QVERIFY(!s.labels.isNull()); // stored: the column is NOT NULL
        }
    }

    // A line cut anywhere (a server that dies mid-line, a line over 16 KiB stored in parts) gives no
    // series the whole line does not have and never a negative or infinite value; cut after a field's
    // comma, every value it gives is the whole line's.
    void cutLinesGiveNoStrangers()
    {
        const QString lines[] = {
            QStringLiteral("INFO 05-12 10:00:01 [loggers.py:116] Engine 000: Avg prompt throughput: 1234.5 tokens/s, "
                           "Avg generation throughput: 567.8 tokens/s, Running: 12 reqs, Waiting: 3 reqs, GPU KV cache "
                           "usage: 45.6%, Prefix cache hit rate: 12.5%"),
            QStringLiteral("[2025-05-12 10:00:01] Prefill batch. #new-seq: 2, #new-token: 768, #cached-token: 256, "
                           "token usage: 0.40, #running-req: 10, #queue-req: 3, "),
        };
        for (const QString &line : lines) {
            const QMap<QString, double> whole = byName(parseSchedulerLogLine(line, 1));
            for (qsizetype n = 0; n <= line.size(); ++n) {
                const QStringView cut = QStringView(line).first(n);
                for (const ServerSample &s : parseSchedulerLogLine(cut, 1)) {
                    QVERIFY2(whole.contains(s.name), qPrintable(s.name));
                    QVERIFY(std::isfinite(s.value) && s.value >= 0);
                    if (cut.endsWith(QLatin1String(", ")))
                        QCOMPARE(s.value, whole.value(s.name));
                }
            }
        }
    }

    // A point's summary from log samples alone, as from scrapes.
    void summarisesLikeAScrape()
    {
        QList<ServerSample> samples;
        samples << parseSchedulerLogLine(QStringLiteral("Avg prompt throughput: 1.0 tokens/s, Running: 4 reqs, "
                                                        "Waiting: 2 reqs, GPU KV cache usage: 10.0%"),
            100)
                << parseSchedulerLogLine(QStringLiteral("Avg prompt throughput: 1.0 tokens/s, Running: 8 reqs, "
                                                        "Waiting: 6 reqs, GPU KV cache usage: 30.0%"),
                       200);
        const std::vector<ServerSample> v(samples.cbegin(), samples.cend());
        const QMap<QString, double> s = summarizeServerSeries(v, { 0, 300, 0, 300 });
        QCOMPARE(s.value(QStringLiteral("samples")), 2.0);
        QCOMPARE(s.value(QStringLiteral("running_mean")), 6.0);
        QCOMPARE(s.value(QStringLiteral("running_max")), 8.0);
        QCOMPARE(s.value(QStringLiteral("waiting_max")), 6.0);
        QCOMPARE(s.value(QStringLiteral("kv_usage_max")), 30.0);
    }
};

QTEST_GUILESS_MAIN(TestSchedulerLog)
#include "tst_schedulerlog.moc"
