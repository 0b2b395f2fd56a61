// SPDX-License-Identifier: MIT
// Engine-model behaviour seen from outside: a real simulator child, measured over raw sockets.
#include "simtestclient.h"

#include "sim/enginemodel.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>

using namespace SimTest;

namespace {

QByteArray completion(int promptTokens, int maxTokens, bool stream = true, int firstId = 1000)
{
    QByteArray ids;
    for (int i = 0; i < promptTokens; ++i)
        ids += (i ? "," : "") + QByteArray::number(firstId + i);
    return httpRequest("POST", "/v1/completions",
        "{\"prompt\":[" + ids + "],\"max_tokens\":" + QByteArray::number(maxTokens) + ",\"ignore_eos\":true,\"stream\":"
            + (stream ? "true,\"stream_options\":{\"include_usage\":true}" : "false") + "}");
}

// Fetches /metrics through the event loop, so streams in flight keep being read meanwhile.
QByteArray metricsAsync(quint16 port)
{
    Streams m;
    m.start(port, { httpRequest("GET", "/metrics") });
    m.wait(3000);
    return m.responses[0].body;
}

int usageOf(const Response &r, const char *field)
{
    for (const Event &e : r.events)
        if (e.data.contains("\"usage\":{"))
            return QJsonDocument::fromJson(e.data)
                .object()
                .value(QLatin1String("usage"))
                .toObject()
                .value(QLatin1String(field))
                .toInt();
    return r.json().value(QLatin1String("usage")).toObject().value(QLatin1String(field)).toInt(-1);
}

double mean(const QList<double> &v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return v.isEmpty() ? 0 : s / double(v.size());
}

} // namespace

class TestSimModel final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void fullSlotsQueueAndDelayFirstTokens()
    {
        const double scale = 5;
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--max-num-seqs"), QStringLiteral("8"), QStringLiteral("--time-scale"),
            QString::number(scale) }));
        Streams s;
        QList<QByteArray> requests;
        for (int i = 0; i < 32; ++i)
            requests << completion(64, 32, true, 1000 + 100 * i);
        s.start(sim.port, requests);
        double maxWaiting = 0;
        QElapsedTimer t;
        t.start();
        while (!s.allComplete() && t.elapsed() < 20000) {
            maxWaiting = std::max(maxWaiting, metric(metricsAsync(sim.port), "vllm:num_requests_waiting"));
            QTest::qWait(20);
        }
        QVERIFY(s.allComplete());
        QVERIFY2(maxWaiting >= 16, qPrintable(QString::number(maxWaiting)));
        QList<double> ttft;
        for (size_t k = 0; k < 32; ++k)
            ttft << s.tokenTimes(k).value(0);
        std::sort(ttft.begin(), ttft.end());
        // Three waves of 32 decode steps at batch 8 sit between the first and the last wave.
        const double step8 = ServeScope::Sim::EngineModel::stepSeconds({}, 8 * (64 + 16), 8) / scale;
        const double gap = mean(ttft.mid(24)) - mean(ttft.mid(0, 8));
        QVERIFY2(gap > 0.8 * 3 * 32 * step8, qPrintable(QStringLiteral("%1 vs %2").arg(gap).arg(3 * 32 * step8)));
    }

    void tpotGrowsWithBatchByRooflineAmount()
    {
        const double scale = 4;
        const int prompt = 1000, out = 48;
        auto meanTpot = [&](int streams) {
            SimChild sim;
            if (!sim.start({ QStringLiteral("--time-scale"), QString::number(scale), QStringLiteral("--peak-flops"),
                    QStringLiteral("1e20"), QStringLiteral("--max-num-batched-tokens"), QStringLiteral("65536") }))
                return -1.0;
            Streams s;
            QList<QByteArray> requests;
            for (int i = 0; i < streams; ++i)
                requests << completion(prompt, out, true, 1000 + 7 * i);
            s.start(sim.port, requests);
            if (!s.wait(30000))
                return -1.0;
            QList<double> tpot;
            for (size_t k = 0; k < size_t(streams); ++k) {
                const QList<double> times = s.tokenTimes(k);
                tpot << (times.last() - times.first()) / double(times.size() - 1);
            }
            return mean(tpot);
        };
        const double one = meanTpot(1), many = meanTpot(32);
        QVERIFY(one > 0 && many > 0);
        ServeScope::Sim::ModelParams m;
        m.peakFlops = 1e20;
        const double ctx = prompt + out / 2.0;
        const double expected = (ServeScope::Sim::EngineModel::stepSeconds(m, 32 * ctx, 32)
                                    - ServeScope::Sim::EngineModel::stepSeconds(m, ctx, 1))
            / scale;
        QVERIFY2(std::abs((many - one) - expected) < 0.25 * expected,
            qPrintable(QStringLiteral("measured %1 ms, roofline %2 ms").arg((many - one) * 1e3).arg(expected * 1e3)));
    }

    void smallKvCachePreempts()
    {
        SimChild sim;
        QVERIFY(
            sim.start({ QStringLiteral("--kv-cache-tokens"), QStringLiteral("2048"), QStringLiteral("--max-model-len"),
                QStringLiteral("1024"), QStringLiteral("--time-scale"), QStringLiteral("20") }));
        Streams s;
        QList<QByteArray> requests;
        for (int i = 0; i < 16; ++i)
            requests << completion(100, 150, true, 2000 + 200 * i);
        s.start(sim.port, requests);
        QVERIFY(s.wait(30000));
        for (const Response &r : s.responses)
            QCOMPARE(usageOf(r, "completion_tokens"), 150);
        QVERIFY(metric(sim.port, "vllm:num_preemptions_total") > 0);
    }

    void repeatedPromptHitsPrefixCache()
    {
        SimChild sim;
        QVERIFY(sim.start(
            { QStringLiteral("--enable-prefix-caching"), QStringLiteral("--time-scale"), QStringLiteral("20") }));
        // Each answer's usage says what its prompt found, as vLLM's prompt_tokens_details.cached_tokens.
        const auto cached = [](const Response &r) {
            return r.json()
                .value(QLatin1String("usage"))
                .toObject()
                .value(QLatin1String("prompt_tokens_details"))
                .toObject()
                .value(QLatin1String("cached_tokens"))
                .toInt(-1);
        };
        const Response first = exchange(sim.port, completion(200, 2, false));
        QCOMPARE(first.status, 200);
        QCOMPARE(cached(first), 0);
        QCOMPARE(metric(sim.port, "vllm:prefix_cache_hits_total"), 0.0);
        const Response second = exchange(sim.port, completion(200, 2, false));
        QCOMPARE(second.status, 200);
        QCOMPARE(cached(second), 192);
        QCOMPARE(metric(sim.port, "vllm:prefix_cache_hits_total"), 192.0); // 12 full blocks of 16
        QCOMPARE(metric(sim.port, "vllm:prefix_cache_queries_total"), 400.0);
        QCOMPARE(exchange(sim.port, httpRequest("POST", "/reset_prefix_cache", QByteArray())).status, 200);
        QCOMPARE(exchange(sim.port, completion(200, 2, false)).status, 200);
        QCOMPARE(metric(sim.port, "vllm:prefix_cache_hits_total"), 192.0);
    }

    void usageMatchesTokenizeAndMaxTokens()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20") }));
        const QByteArray messages = "[{\"role\":\"user\",\"content\":\"Shall I compare thee to a summer's day?\"}]";
        const Response tok = exchange(sim.port, httpRequest("POST", "/tokenize", "{\"messages\":" + messages + "}"));
        const int count = tok.json().value(QLatin1String("count")).toInt();
        QCOMPARE(count, 8 + 4 + 3); // eight words, one message, the reply turn
        const Response r = exchange(sim.port,
            httpRequest("POST", "/v1/chat/completions",
                "{\"messages\":" + messages
                    + ",\"max_completion_tokens\":20,\"ignore_eos\":true,\"stream\":true,"
                      "\"stream_options\":{\"include_usage\":true}}"));
        QCOMPARE(usageOf(r, "prompt_tokens"), count);
        QCOMPARE(usageOf(r, "completion_tokens"), 20);
        QString text;
        for (const Event &e : r.events) {
            const QJsonArray choices
                = QJsonDocument::fromJson(e.data).object().value(QLatin1String("choices")).toArray();
            text += choices.at(0)
                        .toObject()
                        .value(QLatin1String("delta"))
                        .toObject()
                        .value(QLatin1String("content"))
                        .toString();
        }
        QJsonObject body { { QStringLiteral("prompt"), text } };
        const Response back
            = exchange(sim.port, httpRequest("POST", "/tokenize", QJsonDocument(body).toJson(QJsonDocument::Compact)));
        QCOMPARE(back.json().value(QLatin1String("count")).toInt(), 20);
    }

    void eosStopsEarlyUnlessIgnored_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<bool>("ignoreEos");
        QTest::addColumn<bool>("allFull");
        QTest::newRow("ignore_eos honoured") << QStringList() << true << true;
        QTest::newRow("no ignore_eos") << QStringList() << false << false;
        QTest::newRow("ignore_eos ignored") << QStringList { QStringLiteral("--ignore-ignore-eos") } << true << false;
    }

    void eosStopsEarlyUnlessIgnored()
    {
        QFETCH(QStringList, flags);
        QFETCH(bool, ignoreEos);
        QFETCH(bool, allFull);
        SimChild sim;
        QVERIFY(sim.start(flags << QStringLiteral("--eos-mean-tokens") << QStringLiteral("8")
                                << QStringLiteral("--time-scale") << QStringLiteral("20")));
        int full = 0;
        for (int i = 0; i < 10; ++i) {
            const Response r = exchange(sim.port,
                httpRequest("POST", "/v1/completions",
                    QByteArray("{\"prompt\":\"a b c\",\"max_tokens\":60,\"min_tokens\":2,\"ignore_eos\":")
                        + (ignoreEos ? "true" : "false") + "}"));
            const int n = usageOf(r, "completion_tokens");
            QVERIFY(n >= 2 && n <= 60);
            full += n == 60 ? 1 : 0;
        }
        if (allFull)
            QCOMPARE(full, 10);
        else
            QVERIFY2(full <= 2, qPrintable(QString::number(full)));
    }
};

QTEST_GUILESS_MAIN(TestSimModel)
#include "tst_simmodel.moc"
