// SPDX-License-Identifier: MIT
#include "metrics/servermetrics.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestServerMetrics final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void parsesTheSeriesItReads()
    {
        const QByteArray text = "# HELP vllm:num_requests_running Number of requests.\n"
                                "# TYPE vllm:num_requests_running gauge\n"
                                "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 7.0\n"
                                "vllm:num_requests_waiting{model_name=\"a \\\"quoted\\\" } name\"} 3 1712000000000\n"
                                "vllm:kv_cache_usage_perc 0.25\n"
                                "vllm:time_to_first_token_seconds_bucket{le=\"0.1\"} 4\n"
                                "sglang:num_queue_reqs{model_name=\"m\"} 2e+00\n"
                                "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\"} 93\n"
                                "vllm:num_requests_running{model_name=\"m\"} NaN\n"
                                "garbage line without value\n"
                                "vllm:num_requests_running{unterminated=\"x} 5\n";
        const QList<ServerSample> s = parsePrometheusText(text, 42);
        QCOMPARE(s.size(), 5);
        QCOMPARE(s[0].name, QStringLiteral("vllm:num_requests_running"));
        QCOMPARE(s[0].labels, QStringLiteral("engine=\"0\",model_name=\"m\""));
        QCOMPARE(s[0].value, 7.0);
        QCOMPARE(s[0].timeNs, qint64(42));
        QCOMPARE(s[1].labels, QStringLiteral("model_name=\"a \\\"quoted\\\" } name\""));
        QCOMPARE(s[1].value, 3.0); // the exposition's own timestamp is ignored: ours is the reply time
        QCOMPARE(s[2].labels, QString());
        QCOMPARE(s[3].name, QStringLiteral("sglang:num_queue_reqs"));
        QCOMPARE(s[4].value, 93.0);
        QCOMPARE(parsePrometheusText(text, 0, 2).size(), 2);
    }

    // Two vLLM engines (label sets) and two GPUs over three scrapes inside the window, one before it.
    void summarisesAWindow()
    {
        QList<ServerSample> s;
        const auto add = [&s](qint64 t, const char *name, const char *labels, double v) {
            s.append({ t, QLatin1String(name), QLatin1String(labels), v });
        };
        add(5, "vllm:num_requests_running", "engine=\"0\"", 100); // before the window
        for (qint64 t : { 10, 20, 30 }) {
            add(t, "vllm:num_requests_running", "engine=\"0\"", double(t) / 10);
            add(t, "vllm:num_requests_running", "engine=\"1\"", 1);
            add(t, "vllm:num_requests_waiting", "", t == 20 ? 6 : 0);
            add(t, "vllm:kv_cache_usage_perc", "engine=\"0\"", 0.5);
            add(t, "vllm:kv_cache_usage_perc", "engine=\"1\"", t == 30 ? 0.9 : 0.1);
            add(t, "vllm:num_preemptions_total", "", 10 + double(t) / 10);
            add(t, "vllm:prefix_cache_queries_total", "", 100 + 10 * double(t));
            add(t, "vllm:prefix_cache_hits_total", "", double(t));
            add(t, "DCGM_FI_DEV_GPU_UTIL", "gpu=\"0\"", 80);
            add(t, "DCGM_FI_DEV_GPU_UTIL", "gpu=\"1\"", 100);
        }
        const QMap<QString, double> m = summarizeServerSeries(s, { 10, 30, 10, 30 });
        QCOMPARE(m.value(QStringLiteral("samples")), 3.0);
        QCOMPARE(m.value(QStringLiteral("running_mean")), 3.0); // (2 + 3 + 4) / 3: engines summed
        QCOMPARE(m.value(QStringLiteral("running_max")), 4.0);
        QCOMPARE(m.value(QStringLiteral("waiting_mean")), 2.0);
        QCOMPARE(m.value(QStringLiteral("waiting_max")), 6.0);
        QCOMPARE(m.value(QStringLiteral("kv_usage_max")), 90.0); // the fuller engine, in percent
        QCOMPARE(m.value(QStringLiteral("kv_usage_mean")), (50.0 + 50 + 90) / 3);
        QCOMPARE(m.value(QStringLiteral("preemptions")), 2.0); // a counter: last - first
        QCOMPARE(m.value(QStringLiteral("prefix_cache_hit_rate")), 100.0 * 20 / 200);
        QCOMPARE(m.value(QStringLiteral("gpu_util_mean")), 90.0); // GPUs averaged
        QVERIFY(!m.contains(QStringLiteral("dram_active_mean"))); // never scraped: absent, not 0
        QVERIFY(summarizeServerSeries(s, { 40, 50, 40, 50 }).isEmpty());
        // Gauges only while requests ran (t = 20); counters across the scrapes on either side.
        const QMap<QString, double> inner = summarizeServerSeries(s, { 15, 25, 10, 30 });
        QCOMPARE(inner.value(QStringLiteral("samples")), 1.0);
        QCOMPARE(inner.value(QStringLiteral("running_max")), 3.0);
        QCOMPARE(inner.value(QStringLiteral("waiting_mean")), 6.0);
        QCOMPARE(inner.value(QStringLiteral("preemptions")), 2.0);
    }

    void resetCounterHasNoDelta()
    {
        const QList<ServerSample> s { { 1, QStringLiteral("vllm:num_preemptions_total"), {}, 50 },
            { 2, QStringLiteral("vllm:num_preemptions_total"), {}, 3 } };
        const QMap<QString, double> m = summarizeServerSeries(s, { 0, 10, 0, 10 });
        QCOMPARE(m.value(QStringLiteral("samples")), 2.0);
        QVERIFY(!m.contains(QStringLiteral("preemptions")));
    }

    void sglangHitRateIsAGauge()
    {
        const QList<ServerSample> s { { 1, QStringLiteral("sglang:cache_hit_rate"), {}, 0.25 },
            { 2, QStringLiteral("sglang:cache_hit_rate"), {}, 0.75 },
            { 2, QStringLiteral("sglang:num_running_reqs"), {}, 12 } };
        const QMap<QString, double> m = summarizeServerSeries(s, { 0, 10, 0, 10 });
        QCOMPARE(m.value(QStringLiteral("prefix_cache_hit_rate")), 50.0);
        QCOMPARE(m.value(QStringLiteral("running_max")), 12.0);
        QVERIFY(!m.contains(QStringLiteral("cache_hit_rate_mean")));
    }
};

QTEST_GUILESS_MAIN(TestServerMetrics)
#include "tst_servermetrics.moc"
