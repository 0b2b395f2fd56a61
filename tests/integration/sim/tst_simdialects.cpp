// SPDX-License-Identifier: MIT
// The simulator's other APIs on the same engine, against real `servescope-cli sim` children:
// Anthropic Messages (/v1/messages), OpenAI Responses (/v1/responses) and SGLang's /generate.
// Event order, token counts, the reasoning phase, cached tokens and the APIs' error shapes.
#include "simtestclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>

using namespace SimTest;

namespace {

const QByteArray kWords = "one two three four five six seven eight";
const QByteArray kAnthropic = "anthropic-version: 2023-06-01\r\n";

/// One SSE event: its `event:` name (empty for none) and `data:` payload.
struct Sse {
    QByteArray name, data;
    QJsonObject json() const { return QJsonDocument::fromJson(data).object(); }
};

QList<Sse> events(const Response &r)
{
    QList<Sse> out;
    for (const QByteArray &block : QByteArray(r.body).replace("\n\n", "\x1e").split('\x1e')) {
        Sse e;
        for (const QByteArray &line : block.split('\n')) {
            if (line.startsWith("event: "))
                e.name = line.mid(7);
            else if (line.startsWith("data: "))
                e.data = line.mid(6);
        }
        if (!e.data.isEmpty())
            out << e;
    }
    return out;
}

QByteArray messagesBody(int maxTokens, bool stream, const QByteArray &words = kWords)
{
    return "{\"model\":\"servescope-sim-7b\",\"max_tokens\":" + QByteArray::number(maxTokens)
        + ",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"" + words
        + "\"}]}],\"temperature\":0,\"ignore_eos\":true,\"stream\":" + (stream ? "true" : "false") + '}';
}

QByteArray responsesBody(int maxTokens, bool stream, const QByteArray &words = kWords)
{
    return "{\"model\":\"servescope-sim-7b\",\"max_output_tokens\":" + QByteArray::number(maxTokens)
        + ",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"" + words
        + "\"}]}],\"temperature\":0,\"ignore_eos\":true,\"stream\":" + (stream ? "true" : "false") + '}';
}

QByteArray generateBody(int maxTokens, bool stream, const QByteArray &words = kWords)
{
    return "{\"text\":\"" + words + "\",\"sampling_params\":{\"max_new_tokens\":" + QByteArray::number(maxTokens)
        + ",\"temperature\":0,\"ignore_eos\":true},\"rid\":\"x\",\"stream\":" + (stream ? "true" : "false") + '}';
}

Response post(quint16 port, const QByteArray &path, const QByteArray &body, const QByteArray &headers = kAnthropic)
{
    return exchange(port, httpRequest("POST", path, body, headers));
}

QStringList names(const QList<Sse> &list)
{
    QStringList out;
    for (const Sse &e : list)
        out << QString::fromUtf8(e.name);
    return out;
}

QStringList repeated(const QString &name, int n)
{
    return QStringList(n, name);
}

/// Forty words: with the chat template 47 tokens, two full 16-token blocks to find in the cache.
QByteArray longWords()
{
    QByteArray w;
    for (int i = 0; i < 40; ++i)
        w += (i ? " w" : "w") + QByteArray::number(i);
    return w;
}

} // namespace

class TestSimDialects final : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase() { QVERIFY(!qEnvironmentVariable("SERVESCOPE_CLI").isEmpty()); }

    void messagesStream_data()
    {
        QTest::addColumn<int>("reasoning");
        QTest::newRow("answer only") << 0;
        QTest::newRow("thinking first") << 5;
    }

    // message_start and ping, (thinking block,) text block, message_delta with every token, message_stop.
    void messagesStream()
    {
        QFETCH(int, reasoning);
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--reasoning-tokens"),
            QString::number(reasoning) }));
        const Response r = post(sim.port, "/v1/messages", messagesBody(16, true));
        QCOMPARE(r.status, 200);
        const QList<Sse> ev = events(r);
        QStringList expect { QStringLiteral("message_start"), QStringLiteral("ping") };
        if (reasoning > 0)
            expect << QStringLiteral("content_block_start")
                   << repeated(QStringLiteral("content_block_delta"), reasoning)
                   << QStringLiteral("content_block_stop");
        expect << QStringLiteral("content_block_start")
               << repeated(QStringLiteral("content_block_delta"), 16 - reasoning)
               << QStringLiteral("content_block_stop") << QStringLiteral("message_delta")
               << QStringLiteral("message_stop");
        QCOMPARE(names(ev), expect);
        for (const Sse &e : ev)
            QCOMPARE(e.json().value(QLatin1String("type")).toString(), QString::fromUtf8(e.name));
        QVERIFY(!r.body.contains("[DONE]"));

        const QJsonObject start = ev[0].json().value(QLatin1String("message")).toObject();
        QVERIFY(start.value(QLatin1String("id")).toString().startsWith(QLatin1String("msg_")));
        QCOMPARE(start.value(QLatin1String("model")).toString(), QStringLiteral("servescope-sim-7b"));
        QCOMPARE(start.value(QLatin1String("role")).toString(), QStringLiteral("assistant"));
        QVERIFY(start.value(QLatin1String("stop_reason")).isNull());
        const QJsonObject startUsage = start.value(QLatin1String("usage")).toObject();
        QCOMPARE(startUsage.value(QLatin1String("input_tokens")).toInt(), 8 + 4 + 3); // words + message + reply
        QCOMPARE(startUsage.value(QLatin1String("cache_read_input_tokens")).toInt(), 0);
        QCOMPARE(startUsage.value(QLatin1String("output_tokens")).toInt(), 0);

        QString thinking, text;
        int deltaTokens = 0;
        const int answerIndex = reasoning > 0 ? 1 : 0;
        for (const Sse &e : ev) {
            const QJsonObject o = e.json();
            const int index = o.value(QLatin1String("index")).toInt(-1);
            if (e.name == "content_block_start") {
                const QString type
                    = o.value(QLatin1String("content_block")).toObject().value(QLatin1String("type")).toString();
                QCOMPARE(type, index == answerIndex ? QStringLiteral("text") : QStringLiteral("thinking"));
            } else if (e.name == "content_block_delta") {
                const QJsonObject d = o.value(QLatin1String("delta")).toObject();
                ++deltaTokens;
                if (d.value(QLatin1String("type")).toString() == QLatin1String("thinking_delta")) {
                    QCOMPARE(index, 0);
                    thinking += d.value(QLatin1String("thinking")).toString();
                } else {
                    QCOMPARE(d.value(QLatin1String("type")).toString(), QStringLiteral("text_delta"));
                    QCOMPARE(index, answerIndex);
                    text += d.value(QLatin1String("text")).toString();
                }
            }
        }
        QCOMPARE(deltaTokens, 16);
        QCOMPARE(thinking.split(QLatin1Char(' '), Qt::SkipEmptyParts).size(), reasoning);
        QCOMPARE(text.split(QLatin1Char(' '), Qt::SkipEmptyParts).size(), 16 - reasoning);
        const QJsonObject end = ev[ev.size() - 2].json();
        QCOMPARE(end.value(QLatin1String("delta")).toObject().value(QLatin1String("stop_reason")).toString(),
            QStringLiteral("max_tokens"));
        QCOMPARE(end.value(QLatin1String("usage")).toObject().value(QLatin1String("output_tokens")).toInt(), 16);

        // Not streamed, the same greedy answer in one message.
        const Response whole = post(sim.port, "/v1/messages", messagesBody(16, false));
        QCOMPARE(whole.status, 200);
        const QJsonObject m = whole.json();
        QCOMPARE(m.value(QLatin1String("type")).toString(), QStringLiteral("message"));
        QCOMPARE(m.value(QLatin1String("stop_reason")).toString(), QStringLiteral("max_tokens"));
        const QJsonArray content = m.value(QLatin1String("content")).toArray();
        QCOMPARE(content.size(), reasoning > 0 ? 2 : 1);
        QCOMPARE(content.last().toObject().value(QLatin1String("text")).toString(), text);
        if (reasoning > 0)
            QCOMPARE(content.first().toObject().value(QLatin1String("thinking")).toString(), thinking);
        const QJsonObject usage = m.value(QLatin1String("usage")).toObject();
        QCOMPARE(usage.value(QLatin1String("output_tokens")).toInt(), 16);
        QCOMPARE(usage.value(QLatin1String("input_tokens")).toInt(), 15);
    }

    void responsesStream_data()
    {
        QTest::addColumn<int>("reasoning");
        QTest::newRow("answer only") << 0;
        QTest::newRow("reasoning first") << 5;
    }

    // response.created and in_progress, (a reasoning item,) the message item, response.completed with
    // usage; sequence numbers count up from 0.
    void responsesStream()
    {
        QFETCH(int, reasoning);
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--reasoning-tokens"),
            QString::number(reasoning) }));
        const Response r = post(sim.port, "/v1/responses", responsesBody(16, true), QByteArray());
        QCOMPARE(r.status, 200);
        const QList<Sse> ev = events(r);
        QStringList expect { QStringLiteral("response.created"), QStringLiteral("response.in_progress") };
        if (reasoning > 0)
            expect << QStringLiteral("response.output_item.added")
                   << repeated(QStringLiteral("response.reasoning_text.delta"), reasoning)
                   << QStringLiteral("response.reasoning_text.done") << QStringLiteral("response.output_item.done");
        expect << QStringLiteral("response.output_item.added") << QStringLiteral("response.content_part.added")
               << repeated(QStringLiteral("response.output_text.delta"), 16 - reasoning)
               << QStringLiteral("response.output_text.done") << QStringLiteral("response.content_part.done")
               << QStringLiteral("response.output_item.done") << QStringLiteral("response.completed");
        QCOMPARE(names(ev), expect);
        QVERIFY(!r.body.contains("[DONE]"));
        QString reasoningText, text, reasoningDone, textDone;
        for (int i = 0; i < ev.size(); ++i) {
            const QJsonObject o = ev[i].json();
            QCOMPARE(o.value(QLatin1String("type")).toString(), QString::fromUtf8(ev[i].name));
            QCOMPARE(o.value(QLatin1String("sequence_number")).toInt(-1), i);
            const QString delta = o.value(QLatin1String("delta")).toString();
            if (ev[i].name == "response.reasoning_text.delta") {
                QCOMPARE(o.value(QLatin1String("output_index")).toInt(), 0);
                QVERIFY(o.value(QLatin1String("item_id")).toString().startsWith(QLatin1String("rs_")));
                reasoningText += delta;
            } else if (ev[i].name == "response.output_text.delta") {
                QCOMPARE(o.value(QLatin1String("output_index")).toInt(), reasoning > 0 ? 1 : 0);
                QVERIFY(o.value(QLatin1String("item_id")).toString().startsWith(QLatin1String("msg_")));
                text += delta;
            } else if (ev[i].name == "response.reasoning_text.done") {
                reasoningDone = o.value(QLatin1String("text")).toString();
            } else if (ev[i].name == "response.output_text.done") {
                textDone = o.value(QLatin1String("text")).toString();
            }
        }
        QCOMPARE(reasoningDone, reasoningText);
        QCOMPARE(textDone, text);
        QCOMPARE(reasoningText.split(QLatin1Char(' '), Qt::SkipEmptyParts).size(), reasoning);
        QCOMPARE(text.split(QLatin1Char(' '), Qt::SkipEmptyParts).size(), 16 - reasoning);
        const QJsonObject created = ev[0].json().value(QLatin1String("response")).toObject();
        QVERIFY(created.value(QLatin1String("id")).toString().startsWith(QLatin1String("resp_")));
        QCOMPARE(created.value(QLatin1String("status")).toString(), QStringLiteral("in_progress"));
        QVERIFY(created.value(QLatin1String("usage")).isNull());
        QVERIFY(created.value(QLatin1String("created_at")).toDouble() > 1.6e9);
        const QJsonObject done = ev.last().json().value(QLatin1String("response")).toObject();
        QCOMPARE(done.value(QLatin1String("status")).toString(), QStringLiteral("completed"));
        const QJsonObject usage = done.value(QLatin1String("usage")).toObject();
        QCOMPARE(usage.value(QLatin1String("input_tokens")).toInt(), 15);
        QCOMPARE(usage.value(QLatin1String("output_tokens")).toInt(), 16);
        QCOMPARE(usage.value(QLatin1String("total_tokens")).toInt(), 31);
        QCOMPARE(usage.value(QLatin1String("output_tokens_details"))
                     .toObject()
                     .value(QLatin1String("reasoning_tokens"))
                     .toInt(-1),
            reasoning);
        QCOMPARE(usage.value(QLatin1String("input_tokens_details"))
                     .toObject()
                     .value(QLatin1String("cached_tokens"))
                     .toInt(-1),
            0);

        const Response whole = post(sim.port, "/v1/responses", responsesBody(16, false), QByteArray());
        QCOMPARE(whole.status, 200);
        const QJsonObject o = whole.json();
        QCOMPARE(o.value(QLatin1String("status")).toString(), QStringLiteral("completed"));
        const QJsonArray output = o.value(QLatin1String("output")).toArray();
        QCOMPARE(output.size(), reasoning > 0 ? 2 : 1);
        const QJsonObject message = output.last().toObject();
        QCOMPARE(message.value(QLatin1String("type")).toString(), QStringLiteral("message"));
        QCOMPARE(
            message.value(QLatin1String("content")).toArray().at(0).toObject().value(QLatin1String("text")).toString(),
            text);
        if (reasoning > 0)
            QCOMPARE(output.first()
                         .toObject()
                         .value(QLatin1String("content"))
                         .toArray()
                         .at(0)
                         .toObject()
                         .value(QLatin1String("text"))
                         .toString(),
                reasoningText);
        QCOMPARE(o.value(QLatin1String("usage")).toObject().value(QLatin1String("output_tokens")).toInt(), 16);
    }

    // /generate: every event repeats the whole text so far; the last one says why it stopped; [DONE].
    void generateStream()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--reasoning-tokens"),
            QStringLiteral("5"), QStringLiteral("--tokens-per-chunk"), QStringLiteral("2") }));
        const Response r = post(sim.port, "/generate", generateBody(16, true), QByteArray());
        QCOMPARE(r.status, 200);
        const QList<Sse> ev = events(r);
        // Two tokens per event; the reasoning phase is plain text here, so no event is split at it.
        QCOMPARE(ev.size(), 8 + 1);
        QCOMPARE(ev.last().data, QByteArray("[DONE]"));
        QString previous;
        for (int i = 0; i < 8; ++i) {
            QVERIFY(ev[i].name.isEmpty());
            const QJsonObject o = ev[i].json();
            const QJsonObject meta = o.value(QLatin1String("meta_info")).toObject();
            const QString text = o.value(QLatin1String("text")).toString();
            QVERIFY(text.startsWith(previous));
            QCOMPARE(text.split(QLatin1Char(' '), Qt::SkipEmptyParts).size(), 2 * (i + 1));
            QCOMPARE(meta.value(QLatin1String("completion_tokens")).toInt(), 2 * (i + 1));
            QCOMPARE(meta.value(QLatin1String("prompt_tokens")).toInt(), 8);
            QCOMPARE(meta.value(QLatin1String("cached_tokens")).toInt(-1), 0);
            QCOMPARE(o.value(QLatin1String("index")).toInt(-1), 0);
            if (i < 7)
                QVERIFY(meta.value(QLatin1String("finish_reason")).isNull());
            else
                QCOMPARE(meta.value(QLatin1String("finish_reason")).toObject(),
                    (QJsonObject {
                        { QStringLiteral("type"), QStringLiteral("length") }, { QStringLiteral("length"), 16 } }));
            previous = text;
        }
        const Response whole = post(sim.port, "/generate", generateBody(16, false), QByteArray());
        QCOMPARE(whole.status, 200);
        QCOMPARE(whole.json().value(QLatin1String("text")).toString(), previous);
        QCOMPARE(
            whole.json().value(QLatin1String("meta_info")).toObject().value(QLatin1String("completion_tokens")).toInt(),
            16);
        // Token IDs count one each.
        const Response ids = post(sim.port, "/generate",
            "{\"input_ids\":[5,6,7],\"sampling_params\":{\"max_new_tokens\":2,\"ignore_eos\":true}}", QByteArray());
        QCOMPARE(ids.status, 200);
        QCOMPARE(
            ids.json().value(QLatin1String("meta_info")).toObject().value(QLatin1String("prompt_tokens")).toInt(), 3);
    }

    // One prefix cache behind every API: Messages and Responses share the chat template, so a prompt
    // sent on one is found on the other.
    void cachedTokensOnEveryApi()
    {
        SimChild sim;
        QVERIFY(sim.start(
            { QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--enable-prefix-caching") }));
        const QByteArray words = longWords();
        QCOMPARE(post(sim.port, "/v1/messages", messagesBody(4, false, words)).status, 200);
        const QList<Sse> m = events(post(sim.port, "/v1/messages", messagesBody(4, true, words)));
        QVERIFY(!m.isEmpty());
        const QJsonObject start
            = m[0].json().value(QLatin1String("message")).toObject().value(QLatin1String("usage")).toObject();
        QCOMPARE(start.value(QLatin1String("cache_read_input_tokens")).toInt(), 32);
        QCOMPARE(start.value(QLatin1String("input_tokens")).toInt(), 47 - 32);

        const QList<Sse> resp = events(post(sim.port, "/v1/responses", responsesBody(4, true, words), QByteArray()));
        QVERIFY(!resp.isEmpty());
        const QJsonObject usage
            = resp.last().json().value(QLatin1String("response")).toObject().value(QLatin1String("usage")).toObject();
        QCOMPARE(usage.value(QLatin1String("input_tokens")).toInt(), 47);
        QCOMPARE(
            usage.value(QLatin1String("input_tokens_details")).toObject().value(QLatin1String("cached_tokens")).toInt(),
            32);

        // /generate's text has no chat template: its first request misses, the second hits.
        auto generateCached = [&] {
            const Response r = post(sim.port, "/generate", generateBody(4, false, words), QByteArray());
            return r.json()
                .value(QLatin1String("meta_info"))
                .toObject()
                .value(QLatin1String("cached_tokens"))
                .toInt(-1);
        };
        QCOMPARE(generateCached(), 0);
        QCOMPARE(generateCached(), 32);
    }

    void anthropicErrors_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("message");
        const QByteArray key = "x-api-key: s3cret\r\n";
        QTest::newRow("no anthropic-version")
            << httpRequest("POST", "/v1/messages", messagesBody(4, false), key) << 400
            << QStringLiteral("invalid_request_error") << QStringLiteral("anthropic-version: header is required");
        QTest::newRow("chat body") << httpRequest("POST", "/v1/messages",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_completion_tokens\":4}", key + kAnthropic)
                                   << 400 << QStringLiteral("invalid_request_error")
                                   << QStringLiteral("max_tokens: Field required");
        QTest::newRow("no messages") << httpRequest("POST", "/v1/messages", "{\"max_tokens\":4,\"messages\":[]}",
            key + kAnthropic) << 400 << QStringLiteral("invalid_request_error")
                                     << QStringLiteral("messages must be a non-empty list of messages.");
        QTest::newRow("wrong key") << httpRequest(
            "POST", "/v1/messages", messagesBody(4, false), "x-api-key: nope\r\n" + kAnthropic)
                                   << 401 << QStringLiteral("authentication_error")
                                   << QStringLiteral("invalid x-api-key");
        QTest::newRow("no key") << httpRequest("POST", "/v1/messages", messagesBody(4, false), kAnthropic) << 401
                                << QStringLiteral("authentication_error") << QStringLiteral("invalid x-api-key");
        QTest::newRow("other model") << httpRequest("POST", "/v1/messages",
            "{\"model\":\"m\",\"max_tokens\":4,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
            key + kAnthropic) << 404 << QStringLiteral("not_found_error")
                                     << QStringLiteral("The model `m` does not exist.");
        QTest::newRow("x-api-key") << httpRequest("POST", "/v1/messages", messagesBody(4, false), key + kAnthropic)
                                   << 200 << QString() << QString();
        QTest::newRow("bearer") << httpRequest(
            "POST", "/v1/messages", messagesBody(4, false), "authorization: Bearer s3cret\r\n" + kAnthropic)
                                << 200 << QString() << QString();
    }

    void anthropicErrors()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QString, type);
        QFETCH(QString, message);
        qputenv("SIM_DIALECT_KEY", "s3cret");
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--api-key-env"),
            QStringLiteral("SIM_DIALECT_KEY") }));
        const Response r = exchange(sim.port, request);
        QCOMPARE(r.status, status);
        const QJsonObject o = r.json();
        if (status == 200) {
            QCOMPARE(o.value(QLatin1String("type")).toString(), QStringLiteral("message"));
            return;
        }
        QCOMPARE(o.value(QLatin1String("type")).toString(), QStringLiteral("error"));
        const QJsonObject error = o.value(QLatin1String("error")).toObject();
        QCOMPARE(error.value(QLatin1String("type")).toString(), type);
        QCOMPARE(error.value(QLatin1String("message")).toString(), message);
    }

    // Each API answers in its own error shape; /generate is outside /v1 and so not behind the key.
    void otherErrorsAndRoutes()
    {
        qputenv("SIM_DIALECT_KEY", "s3cret");
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--api-key-env"),
            QStringLiteral("SIM_DIALECT_KEY") }));
        const QByteArray bearer = "authorization: Bearer s3cret\r\n";
        const Response chatBody = post(sim.port, "/v1/responses",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":4}", bearer);
        QCOMPARE(chatBody.status, 400);
        QCOMPARE(chatBody.json().value(QLatin1String("param")).toString(), QStringLiteral("input"));
        QCOMPARE(chatBody.json().value(QLatin1String("object")).toString(), QStringLiteral("error"));
        QCOMPARE(post(sim.port, "/v1/responses", responsesBody(2, false), QByteArray()).status, 401);
        QCOMPARE(post(sim.port, "/v1/responses", responsesBody(2, false), bearer).status, 200);
        const Response noText = post(sim.port, "/generate", "{\"sampling_params\":{}}", QByteArray());
        QCOMPARE(noText.status, 400);
        QVERIFY(!noText.json()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("message"))
                     .toString()
                     .isEmpty());
        QCOMPARE(post(sim.port, "/generate", generateBody(2, false), QByteArray()).status, 200);
        const QByteArray metrics = exchange(sim.port, httpRequest("GET", "/metrics")).body;
        QVERIFY(metrics.contains("servescope_sim:route_requests_total{model_name=\"servescope-sim-7b\",route=\"/v1/"
                                 "responses\"} 3"));
        QVERIFY(metrics.contains(
            "servescope_sim:route_requests_total{model_name=\"servescope-sim-7b\",route=\"/generate\"} 2"));
    }

    // Injected faults answer in the route's shape.
    void faultShapes()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--fail-rate"), QStringLiteral("1") }));
        const Response m = post(sim.port, "/v1/messages", messagesBody(2, false));
        QCOMPARE(m.status, 500);
        QCOMPARE(m.json().value(QLatin1String("error")).toObject().value(QLatin1String("type")).toString(),
            QStringLiteral("api_error"));
        const Response g = post(sim.port, "/generate", generateBody(2, false), QByteArray());
        QCOMPARE(g.status, 500);
        QCOMPARE(g.json().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString(),
            QStringLiteral("Simulated internal server error."));
        const Response r = post(sim.port, "/v1/responses", responsesBody(2, false), QByteArray());
        QCOMPARE(r.status, 500);
        QCOMPARE(r.json().value(QLatin1String("type")).toString(), QStringLiteral("InternalServerError"));
    }
};

QTEST_GUILESS_MAIN(TestSimDialects)
#include "tst_simdialects.moc"
