// SPDX-License-Identifier: MIT
// Protocol tests against a real `servescope-cli sim` child process over raw sockets.
#include "simtestclient.h"

#include <QRegularExpression>
#include <QTest>

using namespace SimTest;

namespace {

QByteArray chat(int maxTokens, bool stream, const QByteArray &extra = QByteArray())
{
    return "{\"model\":\"servescope-sim-7b\",\"messages\":[{\"role\":\"user\",\"content\":\"tell me a "
           "story\"}],\"max_tokens\":"
        + QByteArray::number(maxTokens) + ",\"ignore_eos\":true,\"stream\":" + (stream ? "true" : "false")
        + (stream ? ",\"stream_options\":{\"include_usage\":true}" : "") + extra + "}";
}

QByteArray post(const QByteArray &path, const QByteArray &body, const QByteArray &headers = QByteArray())
{
    return httpRequest("POST", path, body, headers);
}

int countTokenEvents(const Response &r)
{
    int n = 0;
    for (const Event &e : r.events)
        n += isTokenEvent(e) ? 1 : 0;
    return n;
}

} // namespace

class TestSimProtocol final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void streamFramingAsVllm()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20") }));
        const Response r = exchange(sim.port, post("/v1/chat/completions", chat(5, true)));
        QVERIFY(r.complete);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("transfer-encoding"), QByteArray("chunked"));
        QVERIFY(r.header("content-type").startsWith("text/event-stream"));
        QCOMPARE(r.events.size(), 1 + 5 + 1 + 1); // role, 5 tokens, usage, [DONE]
        QVERIFY(r.events[0].data.contains("\"delta\":{\"role\":\"assistant\",\"content\":\"\"}"));
        // The role delta leaves with the first token: same transfer chunk, as its own event.
        QCOMPARE(r.events[0].chunk, r.events[1].chunk);
        QVERIFY(r.events[1].data.contains("\"delta\":{\"content\":\" "));
        QVERIFY(r.events[2].chunk > r.events[1].chunk);
        QVERIFY(r.events[5].data.contains("\"finish_reason\":\"length\""));
        const QJsonObject usage = QJsonDocument::fromJson(r.events[6].data).object();
        QCOMPARE(usage.value(QLatin1String("choices")).toArray().size(), 0);
        QCOMPARE(usage.value(QLatin1String("usage")).toObject().value(QLatin1String("completion_tokens")).toInt(), 5);
        QCOMPARE(r.events[7].data, QByteArray("[DONE]"));
        for (const Event &e : r.events.mid(0, 7))
            QVERIFY2(!QJsonDocument::fromJson(e.data).isNull(), e.data.constData());
    }

    void streamSwitches_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<bool>("roleAlone");
        QTest::addColumn<bool>("usage");
        QTest::addColumn<int>("tokenEvents");
        QTest::newRow("default") << QStringList() << false << true << 11;
        QTest::newRow("early role") << QStringList { QStringLiteral("--early-role-chunk") } << true << true << 11;
        QTest::newRow("no usage") << QStringList { QStringLiteral("--no-usage") } << false << false << 11;
        QTest::newRow("4 tokens per chunk")
            << QStringList { QStringLiteral("--tokens-per-chunk"), QStringLiteral("4") } << false << true << 1 + 3;
    }

    void streamSwitches()
    {
        QFETCH(QStringList, flags);
        QFETCH(bool, roleAlone);
        QFETCH(bool, usage);
        QFETCH(int, tokenEvents);
        SimChild sim;
        QVERIFY(sim.start(flags << QStringLiteral("--time-scale") << QStringLiteral("20")));
        const Response r = exchange(sim.port, post("/v1/chat/completions", chat(10, true)));
        QVERIFY(r.complete);
        QCOMPARE(countTokenEvents(r), tokenEvents);
        QCOMPARE(r.events[0].chunk != r.events[1].chunk, roleAlone);
        QCOMPARE(r.body.contains("\"usage\":{"), usage);
        QCOMPARE(r.events.last().data, QByteArray("[DONE]"));
    }

    // --reasoning-tokens: the first tokens of a chat answer leave as reasoning under the flavour's field name,
    // never in the same event as answer text, and usage counts them.
    void reasoningPhase_data()
    {
        QTest::addColumn<QString>("flavor");
        QTest::addColumn<int>("perChunk");
        QTest::addColumn<QByteArray>("field");
        QTest::addColumn<QList<int>>("reasoningEvents"); // tokens per reasoning event
        QTest::addColumn<QList<int>>("answerEvents");
        QTest::newRow("vllm") << QStringLiteral("vllm") << 1 << QByteArray("reasoning") << QList<int>(6, 1)
                              << QList<int>(4, 1);
        QTest::newRow("sglang") << QStringLiteral("sglang") << 1 << QByteArray("reasoning_content") << QList<int>(6, 1)
                                << QList<int>(4, 1);
        QTest::newRow("vllm, 4 tokens per chunk")
            << QStringLiteral("vllm") << 4 << QByteArray("reasoning") << QList<int> { 4, 2 } << QList<int> { 2, 2 };
    }
    void reasoningPhase()
    {
        QFETCH(QString, flavor);
        QFETCH(int, perChunk);
        QFETCH(QByteArray, field);
        QFETCH(QList<int>, reasoningEvents);
        QFETCH(QList<int>, answerEvents);
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--flavor"), flavor,
            QStringLiteral("--reasoning-tokens"), QStringLiteral("6"), QStringLiteral("--tokens-per-chunk"),
            QString::number(perChunk) }));
        const Response r = exchange(sim.port, post("/v1/chat/completions", chat(10, true)));
        QVERIFY(r.complete);
        QList<int> reasoning, answer;
        QJsonObject usage;
        for (const Event &e : r.events) {
            const QJsonObject o = QJsonDocument::fromJson(e.data).object();
            const QJsonObject delta
                = o.value(QLatin1String("choices")).toArray().at(0).toObject().value(QLatin1String("delta")).toObject();
            const QString text = delta.value(QLatin1String("content")).toString();
            const QString thought = delta.value(QString::fromLatin1(field)).toString();
            QVERIFY2(text.isEmpty() || thought.isEmpty(), e.data.constData());
            QVERIFY2(thought.isEmpty() || answer.isEmpty(), "reasoning after the answer began");
            if (!thought.isEmpty())
                reasoning << int(thought.count(u' '));
            if (!text.isEmpty())
                answer << int(text.count(u' '));
            if (o.contains(QLatin1String("usage")))
                usage = o.value(QLatin1String("usage")).toObject();
        }
        QCOMPARE(reasoning, reasoningEvents);
        QCOMPARE(answer, answerEvents);
        QCOMPARE(usage.value(QLatin1String("completion_tokens")).toInt(), 10);
        QCOMPARE(usage.value(QLatin1String("completion_tokens_details"))
                     .toObject()
                     .value(QLatin1String("reasoning_tokens"))
                     .toInt(),
            6);
        // Not streamed: the reasoning beside the answer in the message, counted the same.
        const QJsonObject whole = exchange(sim.port, post("/v1/chat/completions", chat(10, false))).json();
        const QJsonObject message = whole.value(QLatin1String("choices"))
                                        .toArray()
                                        .at(0)
                                        .toObject()
                                        .value(QLatin1String("message"))
                                        .toObject();
        QCOMPARE(message.value(QString::fromLatin1(field)).toString().count(u' '), 6);
        QCOMPARE(message.value(QLatin1String("content")).toString().count(u' '), 4);
    }

    void nonStreamingBodiesAndTokenPrompts()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20") }));
        const Response r = exchange(sim.port, post("/v1/chat/completions", chat(7, false)));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("content-length").toInt(), r.body.size());
        const QJsonObject o = r.json();
        QCOMPARE(o.value(QLatin1String("object")).toString(), QStringLiteral("chat.completion"));
        QCOMPARE(o.value(QLatin1String("usage")).toObject().value(QLatin1String("completion_tokens")).toInt(), 7);
        const Response c = exchange(sim.port,
            post("/v1/completions",
                "{\"prompt\":[1001,1002,1003,1004,1005,1006],\"max_tokens\":3,\"ignore_eos\":true}"));
        QCOMPARE(c.json().value(QLatin1String("usage")).toObject().value(QLatin1String("prompt_tokens")).toInt(), 6);
        QCOMPARE(c.json()
                     .value(QLatin1String("choices"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QLatin1String("text"))
                     .toString()
                     .split(u' ', Qt::SkipEmptyParts)
                     .size(),
            3);
        const Response models = exchange(sim.port, httpRequest("GET", "/v1/models"));
        QCOMPARE(models.json()
                     .value(QLatin1String("data"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QLatin1String("max_model_len"))
                     .toInt(),
            4096);
        QCOMPARE(exchange(sim.port, httpRequest("GET", "/health")).status, 200);
        QVERIFY(exchange(sim.port, httpRequest("GET", "/version")).json().contains(QLatin1String("version")));
        QCOMPARE(exchange(sim.port, post("/reset_prefix_cache", QByteArray())).status, 200);
    }

    void keepAliveReuseAndIdleClose()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"),
            QStringLiteral("--keep-alive-timeout"), QStringLiteral("0.4") }));
        QTcpSocket socket;
        QCOMPARE(exchange(socket, sim.port, post("/v1/chat/completions", chat(3, true))).status, 200);
        QCOMPARE(exchange(socket, sim.port, post("/v1/chat/completions", chat(3, false))).status, 200);
        const Response m = exchange(socket, sim.port, httpRequest("GET", "/metrics"));
        QCOMPARE(metric(m.body, "servescope_sim:connections_total"), 1.0);
        QCOMPARE(socket.state(), QAbstractSocket::ConnectedState);
        QElapsedTimer idle;
        idle.start();
        QTest::qWait(150);
        QCOMPARE(socket.state(), QAbstractSocket::ConnectedState); // not before the timeout
        const auto closedByServer = [](QTcpSocket &s) {
            s.waitForReadyRead(20);
            return s.state() != QAbstractSocket::ConnectedState;
        };
        QTRY_VERIFY_WITH_TIMEOUT(closedByServer(socket), 3000);
        QVERIFY2(idle.elapsed() >= 350, qPrintable(QString::number(idle.elapsed())));
        // Connection: close is honoured right after the response.
        QTcpSocket once;
        const Response closing
            = exchange(once, sim.port, httpRequest("GET", "/health", QByteArray(), "connection: close\r\n"));
        QCOMPARE(closing.header("connection"), QByteArray("close"));
        QTRY_VERIFY_WITH_TIMEOUT(closedByServer(once), 2000);
    }

    void errorStatuses_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("expect");
        const QStringList none;
        QTest::newRow("400 field") << none << post("/v1/chat/completions", chat(0, false)) << 400
                                   << QByteArray("\"param\":\"max_tokens\"");
        QTest::newRow("400 json") << none << post("/v1/completions", "{nope") << 400 << QByteArray("BadRequestError");
        QTest::newRow("400 too long") << none << post("/v1/completions", "{\"prompt\":\"a b c\",\"max_tokens\":4094}")
                                      << 400 << QByteArray("maximum context length is 4096 tokens");
        QTest::newRow("400 min_tokens") << none
                                        << post("/v1/completions",
                                               "{\"prompt\":\"a\",\"max_tokens\":2,\"min_tokens\":5}")
                                        << 400 << QByteArray("\"param\":\"min_tokens\"");
        QTest::newRow("404 route") << none << httpRequest("GET", "/v2/nothing") << 404 << QByteArray("Not Found");
        QTest::newRow("404 model") << none << post("/v1/completions", "{\"model\":\"gpt-9\",\"prompt\":\"a\"}") << 404
                                   << QByteArray("The model `gpt-9` does not exist.");
        QTest::newRow("405 method") << none << httpRequest("GET", "/v1/completions") << 405 << QByteArray("Method");
        QTest::newRow("411 length") << none << QByteArray("POST /v1/completions HTTP/1.1\r\nhost: x\r\n\r\n") << 411
                                    << QByteArray("Length required");
        QTest::newRow("413 body") << QStringList { QStringLiteral("--max-body-bytes"), QStringLiteral("100") }
                                  << post("/v1/completions", QByteArray(200, ' ')) << 413 << QByteArray("too large");
        QTest::newRow("431 headers") << none
                                     << httpRequest(
                                            "GET", "/health", QByteArray(), "x-big: " + QByteArray(20000, 'a') + "\r\n")
                                     << 431 << QByteArray("too large");
        const QStringList key { QStringLiteral("--api-key-env"), QStringLiteral("SIM_TEST_KEY") };
        QTest::newRow("401 missing") << key << post("/v1/completions", "{\"prompt\":\"a\"}") << 401
                                     << QByteArray("Unauthorized");
        QTest::newRow("401 wrong") << key
                                   << post("/v1/completions", "{\"prompt\":\"a\"}", "authorization: Bearer nope\r\n")
                                   << 401 << QByteArray("Unauthorized");
        QTest::newRow("200 right key") << key
                                       << post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":1}",
                                              "authorization: Bearer s3cret\r\n")
                                       << 200 << QByteArray("text_completion");
        QTest::newRow("500 fail-rate") << QStringList { QStringLiteral("--fail-rate"), QStringLiteral("1") }
                                       << post("/v1/completions", "{\"prompt\":\"a\"}") << 500
                                       << QByteArray("InternalServerError");
    }

    void errorStatuses()
    {
        QFETCH(QStringList, flags);
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QByteArray, expect);
        qputenv("SIM_TEST_KEY", " s3cret\n");
        SimChild sim;
        QVERIFY(sim.start(flags << QStringLiteral("--time-scale") << QStringLiteral("50")));
        const Response r = exchange(sim.port, request);
        QCOMPARE(r.status, status);
        QVERIFY2(r.body.contains(expect), r.body.constData());
        if (status >= 400 && status != 404 && status != 405 && status != 401)
            QCOMPARE(r.json().value(QLatin1String("code")).toInt(), status);
    }

    void rateLimitAnswers429WithRetryAfter()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--max-num-seqs"), QStringLiteral("1"), QStringLiteral("--rate-limit"),
            QStringLiteral("0") }));
        Streams busy;
        busy.start(sim.port, { post("/v1/chat/completions", chat(200, true)) });
        QTRY_COMPARE_WITH_TIMEOUT(metric(sim.port, "vllm:num_requests_running"), 1.0, 3000);
        const Response r = exchange(sim.port, post("/v1/chat/completions", chat(3, false)));
        QCOMPARE(r.status, 429);
        QCOMPARE(r.header("retry-after"), QByteArray("1"));
    }

    void disconnectFreesSlotAtOnce()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--max-num-seqs"), QStringLiteral("1") }));
        Streams first;
        first.start(sim.port, { post("/v1/chat/completions", chat(2000, true, ",\"max_tokens\":3000")) });
        QTRY_VERIFY_WITH_TIMEOUT(first.tokenTimes(0).size() >= 2, 3000);
        Streams second;
        second.start(sim.port, { post("/v1/chat/completions", chat(3, true)) });
        QTRY_COMPARE_WITH_TIMEOUT(metric(sim.port, "vllm:num_requests_waiting"), 1.0, 2000);
        first.sockets[0]->abort();
        QVERIFY(second.wait(2000)); // 3 tokens at ~18 ms once the slot is free
        QCOMPARE(countTokenEvents(second.responses[0]), 4);
        QCOMPARE(metric(sim.port, "servescope_sim:disconnects_total"), 1.0);
        QCOMPARE(metric(sim.port, "vllm:num_requests_running"), 0.0);
    }

    void faultsAreInjected()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--disconnect-rate"),
            QStringLiteral("1") }));
        const Response cut = exchange(sim.port, post("/v1/chat/completions", chat(20, true)), 3000);
        QVERIFY(!cut.complete);
        QVERIFY(!cut.body.contains("[DONE]"));
        QVERIFY(countTokenEvents(cut) >= 1);

        SimChild bad;
        QVERIFY(bad.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--malformed-rate"),
            QStringLiteral("1") }));
        const Response m = exchange(bad.port, post("/v1/chat/completions", chat(20, true)));
        int broken = 0;
        for (const Event &e : m.events)
            broken += e.data != "[DONE]" && QJsonDocument::fromJson(e.data).isNull() ? 1 : 0;
        QCOMPARE(broken, 1);

        SimChild slow;
        QVERIFY(slow.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--stall-ms"),
            QStringLiteral("400") }));
        const Response s = exchange(slow.port, post("/v1/chat/completions", chat(20, true)));
        QVERIFY(s.complete);
        qint64 widest = 0;
        for (qsizetype i = 1; i < s.events.size(); ++i)
            widest = std::max(widest, s.events[i].atNs - s.events[i - 1].atNs);
        QVERIFY2(widest >= 390'000'000, qPrintable(QString::number(widest)));
    }

    void stampsBracketArrival()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--stamp"), QStringLiteral("--time-scale"), QStringLiteral("10") }));
        const qint64 before = ServeScope::monotonicNs();
        const Response r = exchange(sim.port, post("/v1/chat/completions", chat(10, true)));
        QVERIFY(r.complete);
        qint64 previous = before;
        for (const Event &e : r.events) {
            QVERIFY2(e.comment.startsWith(": t="), e.comment.constData());
            const qint64 t = e.comment.mid(4).toLongLong();
            QVERIFY(t >= previous);
            QVERIFY(t <= e.atNs);
            previous = t;
        }
    }

    void signalsShutDownCleanly_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("SIGTERM") << int(SIGTERM) << 0;
        QTest::newRow("SIGINT") << int(SIGINT) << 130;
    }

    void signalsShutDownCleanly()
    {
        QFETCH(int, signal);
        QFETCH(int, exitCode);
        SimChild sim;
        QVERIFY(sim.start({}));
        Streams open;
        open.start(sim.port, { post("/v1/chat/completions", chat(500, true)) });
        QTRY_VERIFY_WITH_TIMEOUT(!open.tokenTimes(0).isEmpty(), 3000);
        QCOMPARE(sim.stop(signal), exitCode);
        QCOMPARE(sim.process().exitStatus(), QProcess::NormalExit);
    }
};

QTEST_GUILESS_MAIN(TestSimProtocol)
#include "tst_simprotocol.moc"
