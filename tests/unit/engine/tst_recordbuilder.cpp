// SPDX-License-Identifier: MIT
#include "engine/streamstate.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestRecordBuilder final : public QObject {
    Q_OBJECT

private:
    static QByteArray fixture(const QString &name)
    {
        QFile f(QStringLiteral(SERVESCOPE_TEST_DATA "/sse/") + name);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("missing fixture");
        return f.readAll();
    }
    static RequestRecord build(
        int status, const QByteArray &body, const StreamEnd &end = {}, QByteArrayView secret = {}, Api api = Api::Chat)
    {
        StreamState s;
        s.parser.setApi(api);
        s.record.startNs = 1000;
        s.record.httpStatus = status;
        s.record.targetInputLen = 77;
        // Two pieces, at different times, so event offsets are checked too.
        s.onBody(QByteArrayView(body).first(body.size() / 2), 1500, {});
        s.onBody(QByteArrayView(body).sliced(body.size() / 2), 2500, {});
        s.record.endNs = 3000;
        finalizeRecord(s, end, Redactor({ secret.toByteArray() }));
        return s.record;
    }

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void outcomes_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("error");
        QTest::addColumn<int>("prompt");
        QTest::addColumn<int>("completion");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("estimated");
        const int none = int(ErrorClass::None);
        QTest::newRow("vllm chat") << 200 << fixture(QStringLiteral("vllm_chat.sse")) << none << 12 << 3
                                   << QStringLiteral("Hello world\n\"content\":\"\"") << false;
        QTest::newRow("completions") << 200 << fixture(QStringLiteral("vllm_completions.sse")) << none << 5 << 2
                                     << QStringLiteral(" The end") << false;
        QTest::newRow("reasoning") << 200 << fixture(QStringLiteral("reasoning.sse")) << none << 20 << 4
                                   << QStringLiteral("Let me think.42") << false;
        // vLLM's newer name for the reasoning text, without usage: the reasoning is part of the output.
        QTest::newRow("reasoning field, no usage") << 200 << fixture(QStringLiteral("reasoning_field.sse")) << none
                                                   << 77 << 3 << QStringLiteral("Let me think.42") << true;
        // Both names with the same text (vLLM while it renames the field): counted once.
        QTest::newRow("reasoning under both names") << 200 << fixture(QStringLiteral("reasoning_both.sse")) << none
                                                    << 20 << 4 << QStringLiteral("Let me think.42") << false;
        QTest::newRow("no usage: estimated") << 200 << fixture(QStringLiteral("gateway_early_role.sse")) << none << 77
                                             << 2 << QStringLiteral("AB") << true;
        QTest::newRow("error event 500") << 200 << fixture(QStringLiteral("error_event.sse"))
                                         << int(ErrorClass::ServerError) << 77 << 1 << QStringLiteral("x") << true;
        QTest::newRow("200 json error body") << 200 << fixture(QStringLiteral("plain_json_error.json"))
                                             << int(ErrorClass::Protocol) << 77 << 0 << QString() << true;
        QTest::newRow("no token event") << 200 << QByteArray("data: {\"choices\":[]}\n\ndata: [DONE]\n\n")
                                        << int(ErrorClass::Protocol) << 77 << 0 << QString() << true;
        QTest::newRow("malformed sse") << 200 << QByteArray("data: {not json\n\nxx\n\n") << int(ErrorClass::Protocol)
                                       << 77 << 0 << QString() << true;
        QTest::newRow("cut at an event boundary: no [DONE], no finish_reason")
            << 200
            << QByteArray(
                   "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"A\"},\"finish_reason\":null}]}\n\n")
            << int(ErrorClass::Protocol) << 77 << 1 << QStringLiteral("A") << true;
        QTest::newRow("finish_reason without [DONE] is complete")
            << 200
            << QByteArray(
                   "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"A\"},\"finish_reason\":null}]}\n\n"
                   "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"B\"},\"finish_reason\":\"stop\"}]}\n\n")
            << none << 77 << 2 << QStringLiteral("AB") << true;
        QTest::newRow("401") << 401 << QByteArray("{\"error\":{\"message\":\"bad key\"}}") << int(ErrorClass::Auth)
                             << 77 << 0 << QString() << true;
        QTest::newRow("403") << 403 << QByteArray() << int(ErrorClass::Auth) << 77 << 0 << QString() << true;
        QTest::newRow("404") << 404 << fixture(QStringLiteral("plain_json_error.json")) << int(ErrorClass::NotFound)
                             << 77 << 0 << QString() << true;
        QTest::newRow("429") << 429 << QByteArray("slow down") << int(ErrorClass::RateLimited) << 77 << 0 << QString()
                             << true;
        QTest::newRow("503") << 503 << QByteArray() << int(ErrorClass::ServerError) << 77 << 0 << QString() << true;
        QTest::newRow("400") << 400 << QByteArray() << int(ErrorClass::Protocol) << 77 << 0 << QString() << true;
    }

    void outcomes()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(int, error);
        QFETCH(int, prompt);
        QFETCH(int, completion);
        QFETCH(QString, text);
        QFETCH(bool, estimated);
        const RequestRecord r = build(status, body);
        QCOMPARE(int(r.errorClass), error);
        QCOMPARE(r.status, error == int(ErrorClass::None) ? RequestStatus::Ok : RequestStatus::Failed);
        QCOMPARE(r.promptTokens, prompt);
        QCOMPARE(r.completionTokens, completion);
        QCOMPARE(QString::fromUtf8(r.generatedText), text);
        QCOMPARE(r.outputEstimated, estimated);
        QCOMPARE(r.eventNs.size(), r.eventKinds.size());
        for (qint64 t : r.eventNs)
            QVERIFY(t == 500 || t == 1500 || t == 2000);
        if (error != int(ErrorClass::None))
            QVERIFY(!r.errorText.isEmpty());
    }

    // Reasoning tokens: the server's count when usage has it, else the reasoning events, marked estimated,
    // with the reasoning text kept for a /tokenize count (and scrubbed like the rest).
    void reasoningCounts_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("reasoning");
        QTest::addColumn<bool>("estimated");
        QTest::addColumn<QString>("text");
        QTest::newRow("no reasoning") << fixture(QStringLiteral("vllm_chat.sse")) << 0 << false << QString();
        QTest::newRow("reasoning_content, usage without details")
            << fixture(QStringLiteral("reasoning.sse")) << 2 << true << QStringLiteral("Let me think.");
        QTest::newRow("reasoning, no usage")
            << fixture(QStringLiteral("reasoning_field.sse")) << 2 << true << QStringLiteral("Let me think.");
        QTest::newRow("both names") << fixture(QStringLiteral("reasoning_both.sse")) << 2 << true
                                    << QStringLiteral("Let me think.");
        QByteArray counted = fixture(QStringLiteral("reasoning.sse"));
        counted.replace(
            "\"total_tokens\":24}", "\"total_tokens\":24,\"completion_tokens_details\":{\"reasoning_tokens\":3}}");
        // The text stays on the built record even when counted (a session's next turn leaves it out of the
        // answer); the engine worker drops it before the record goes on.
        QTest::newRow("usage with reasoning_tokens") << counted << 3 << false << QStringLiteral("Let me think.");
        QTest::newRow("scrubbed") << QByteArray(
            "data: {\"choices\":[{\"delta\":{\"reasoning\":\"key sk-SECRET-123\"}}]}\n\n"
            "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\n")
                                  << 1 << true << QStringLiteral("key ***");
    }
    // Each API's stream as its servers send it: which events are tokens (TTFT's clock), where the counts and the
    // end come from, what the kept text is, and which errors are the server's.
    void apiStreams_data()
    {
        QTest::addColumn<int>("api");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("error");
        QTest::addColumn<QList<int>>("kinds");
        QTest::addColumn<int>("prompt");
        QTest::addColumn<int>("completion");
        QTest::addColumn<int>("reasoning");
        QTest::addColumn<int>("cached");
        QTest::addColumn<QString>("text");
        const int none = int(ErrorClass::None);
        const int other = int(EventKind::Other), content = int(EventKind::Content),
                  thinking = int(EventKind::Reasoning), usage = int(EventKind::Usage), done = int(EventKind::Done),
                  tool = int(EventKind::ToolCall);
        const QByteArray messagesHead
            = "event: message_start\ndata: "
              "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude\","
              "\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":32,\"cache_creation_input_tokens\":0,"
              "\"output_tokens\":1}}}\n\n"
              "event: ping\ndata: {\"type\": \"ping\"}\n\n"
              "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
              "\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n"
              "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
              "\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Hm.\"}}\n\n"
              "event: content_block_delta\ndata: {\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"},"
              "\"type\":\"content_block_delta\"}\n\n"
              "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":2,"
              "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\n";
        QTest::newRow("messages") << int(Api::Messages)
                                  << messagesHead
                + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":2}\n\n"
                  "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},"
                  "\"usage\":{\"output_tokens\":5}}\n\n"
                  "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
                                  << none
                                  << QList<int> { other, other, other, thinking, content, tool, other, usage, done }
                                  << 42 << 5 << 1 << 32 << QStringLiteral("Hm.Hi{}");
        QTest::newRow("messages overloaded mid-stream")
            << int(Api::Messages)
            << messagesHead
                + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                  "\"message\":\"Overloaded\"}}\n\n"
            << int(ErrorClass::ServerError)
            << QList<int> { other, other, other, thinking, content, tool, int(EventKind::Error) } << 77 << 3 << 1 << -1
            << QStringLiteral("Hm.Hi{}");
        QTest::newRow("messages without its end") << int(Api::Messages) << messagesHead << int(ErrorClass::Protocol)
                                                  << QList<int> { other, other, other, thinking, content, tool } << 77
                                                  << 3 << 1 << -1 << QStringLiteral("Hm.Hi{}");
        QTest::newRow("responses")
            << int(Api::Responses)
            << QByteArray(
                   "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,"
                   "\"response\":{\"id\":\"resp_1\",\"model\":\"m\",\"status\":\"in_progress\",\"usage\":null}}\n\n"
                   "event: response.reasoning_text.delta\ndata: {\"type\":\"response.reasoning_text.delta\","
                   "\"sequence_number\":1,\"delta\":\"Hm.\"}\n\n"
                   "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                   "\"sequence_number\":2,\"delta\":\"Hi\"}\n\n"
                   "event: response.output_text.done\ndata: {\"type\":\"response.output_text.done\","
                   "\"sequence_number\":3,\"text\":\"Hi\"}\n\n"
                   "event: response.incomplete\ndata: {\"type\":\"response.incomplete\",\"sequence_number\":4,"
                   "\"response\":{\"status\":\"incomplete\",\"usage\":{\"input_tokens\":9,"
                   "\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":2,"
                   "\"output_tokens_details\":{\"reasoning_tokens\":1}}}}\n\n")
            << none << QList<int> { other, thinking, content, other, usage } << 9 << 2 << 1 << 0
            << QStringLiteral("Hm.Hi");
        QTest::newRow("responses error event")
            << int(Api::Responses)
            << QByteArray("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                          "\"delta\":\"Hi\"}\n\n"
                          "event: error\ndata: {\"type\":\"error\",\"code\":\"server_error\",\"message\":\"boom\"}\n\n")
            << int(ErrorClass::ServerError) << QList<int> { content, int(EventKind::Error) } << 77 << 1 << 0 << -1
            << QStringLiteral("Hi");
        // SGLang's /generate repeats the text so far; with incremental output on, it sends only the new text.
        QTest::newRow("generate, cumulative")
            << int(Api::SglangGenerate)
            << QByteArray("data: {\"text\":\"He\",\"meta_info\":{\"finish_reason\":null,\"prompt_tokens\":6,"
                          "\"completion_tokens\":1,\"cached_tokens\":4}}\n\n"
                          "data: {\"text\":\"Hello\",\"meta_info\":{\"finish_reason\":null,\"prompt_tokens\":6,"
                          "\"completion_tokens\":2,\"cached_tokens\":4}}\n\n"
                          "data: {\"text\":\"Hello!\",\"meta_info\":{\"finish_reason\":{\"type\":\"length\","
                          "\"length\":3},\"prompt_tokens\":6,\"completion_tokens\":3,\"cached_tokens\":4}}\n\n"
                          "data: [DONE]\n\n")
            << none << QList<int> { content, content, content, done } << 6 << 3 << 0 << 4 << QStringLiteral("Hello!");
        QTest::newRow("generate, incremental")
            << int(Api::SglangGenerate)
            << QByteArray("data: {\"text\":\"He\",\"meta_info\":{\"finish_reason\":null,\"prompt_tokens\":6,"
                          "\"completion_tokens\":1}}\n\n"
                          "data: {\"text\":\"llo\",\"meta_info\":{\"finish_reason\":{\"type\":\"stop\"},"
                          "\"prompt_tokens\":6,\"completion_tokens\":2}}\n\n")
            << none << QList<int> { content, content } << 6 << 2 << 0 << -1 << QStringLiteral("Hello");
    }
    void apiStreams()
    {
        QFETCH(int, api);
        QFETCH(QByteArray, body);
        QFETCH(int, error);
        QFETCH(QList<int>, kinds);
        QFETCH(int, prompt);
        QFETCH(int, completion);
        QFETCH(int, reasoning);
        QFETCH(int, cached);
        QFETCH(QString, text);
        const RequestRecord r = build(200, body, {}, {}, Api(api));
        QCOMPARE(int(r.errorClass), error);
        QList<int> seen;
        for (EventKind k : r.eventKinds)
            seen << int(k);
        QCOMPARE(seen, kinds);
        QCOMPARE(r.promptTokens, prompt);
        QCOMPARE(r.completionTokens, completion);
        QCOMPARE(r.reasoningTokens, reasoning);
        QCOMPARE(r.cachedTokens, cached);
        QCOMPARE(QString::fromUtf8(r.generatedText), text);
    }

    void reasoningCounts()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, reasoning);
        QFETCH(bool, estimated);
        QFETCH(QString, text);
        const RequestRecord r = build(200, body, {}, QByteArrayView("sk-SECRET-123"));
        QVERIFY2(r.ok(), qPrintable(r.errorText));
        QCOMPARE(r.reasoningTokens, reasoning);
        QCOMPARE(r.reasoningEstimated, estimated);
        QCOMPARE(QString::fromUtf8(r.reasoningText), text);
        QVERIFY(!r.generatedText.contains("SECRET"));
    }

    void cachedTokensFromUsage()
    {
        const QByteArray token = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\n";
        QCOMPARE(build(200, token + "data: [DONE]\n\n").cachedTokens, -1);
        QCOMPARE(
            build(200, token + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1}}\n\n")
                .cachedTokens,
            -1);
        const RequestRecord r = build(200,
            token
                + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1,"
                  "\"prompt_tokens_details\":{\"cached_tokens\":8}}}\n\n");
        QCOMPARE(r.cachedTokens, 8);
        QCOMPARE(r.promptTokens, 9);
    }

    // Usage beside 8 content events: kept down to half their number, set aside below it (the events' count
    // then, marked estimated, with what usage said kept); a prompt of 0 tokens is set aside for the target.
    void usageAgainstTheStream_data()
    {
        QTest::addColumn<int>("prompt");
        QTest::addColumn<int>("completion");
        QTest::addColumn<int>("expectedOutput");
        QTest::addColumn<int>("outputSetAside");
        QTest::addColumn<int>("expectedPrompt");
        QTest::addColumn<int>("promptSetAside");
        QTest::newRow("truthful") << 9 << 8 << 8 << -1 << 9 << -1;
        QTest::newRow("several tokens per event") << 9 << 32 << 32 << -1 << 9 << -1;
        QTest::newRow("half the events") << 9 << 4 << 4 << -1 << 9 << -1;
        QTest::newRow("under half") << 9 << 3 << 8 << 3 << 9 << -1;
        QTest::newRow("zero output") << 9 << 0 << 8 << 0 << 9 << -1;
        QTest::newRow("zero prompt and output") << 0 << 0 << 8 << 0 << 77 << 0;
    }
    void usageAgainstTheStream()
    {
        QFETCH(int, prompt);
        QFETCH(int, completion);
        QFETCH(int, expectedOutput);
        QFETCH(int, outputSetAside);
        QFETCH(int, expectedPrompt);
        QFETCH(int, promptSetAside);
        QByteArray body;
        for (int i = 0; i < 8; ++i)
            body += QByteArray("data: {\"choices\":[{\"delta\":{\"content\":\" w\"},\"finish_reason\":")
                + (i == 7 ? "\"length\"" : "null") + "}]}\n\n";
        body += "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":" + QByteArray::number(prompt)
            + ",\"completion_tokens\":" + QByteArray::number(completion)
            + ",\"prompt_tokens_details\":{\"cached_tokens\":0}}}\n\ndata: [DONE]\n\n";
        const RequestRecord r = build(200, body);
        QVERIFY2(r.ok(), qPrintable(r.errorText));
        QCOMPARE(r.completionTokens, expectedOutput);
        QCOMPARE(r.outputEstimated, outputSetAside >= 0);
        QCOMPARE(r.usageOutputSetAside, outputSetAside);
        QCOMPARE(r.promptTokens, expectedPrompt);
        QCOMPARE(r.usagePromptSetAside, promptSetAside);
        QCOMPARE(r.cachedTokens, promptSetAside >= 0 ? -1 : 0); // a cache count goes with its prompt count
        QVERIFY(!usageBelowStream(0, 0)); // nothing streamed: nothing to contradict
    }

    void messagesNameTheCause()
    {
        QVERIFY(build(200, fixture(QStringLiteral("plain_json_error.json")))
                    .errorText.contains(QStringLiteral("does not exist")));
        QVERIFY(build(401, "{\"error\":{\"message\":\"bad key\"}}")
                    .errorText.startsWith(QStringLiteral("HTTP 401: bad key")));
    }

    void secretIsScrubbed()
    {
        const RequestRecord r = build(
            401, "{\"error\":{\"message\":\"key sk-SECRET-123 rejected\"}}", {}, QByteArrayView("sk-SECRET-123"));
        QVERIFY(!r.errorText.contains(QStringLiteral("SECRET")));
        QVERIFY(r.errorText.contains(QStringLiteral("***")));
    }

    void transportErrorsWin_data()
    {
        QTest::addColumn<int>("error");
        QTest::newRow("connect") << int(ErrorClass::Connect);
        QTest::newRow("timeout idle") << int(ErrorClass::TimeoutIdle);
        QTest::newRow("cancelled") << int(ErrorClass::Cancelled);
    }

    void transportErrorsWin()
    {
        QFETCH(int, error);
        const RequestRecord r = build(
            200, fixture(QStringLiteral("vllm_chat.sse")), StreamEnd { ErrorClass(error), QStringLiteral("x"), false });
        QCOMPARE(int(r.errorClass), error);
        QCOMPARE(
            r.status, ErrorClass(error) == ErrorClass::Cancelled ? RequestStatus::Cancelled : RequestStatus::Failed);
        QCOMPARE(r.eventKinds.size(), 6); // what was measured stays
    }

    void truncatedStreamFails()
    {
        const QByteArray body = fixture(QStringLiteral("vllm_chat.sse")).left(300);
        const RequestRecord r = build(200, body, StreamEnd { ErrorClass::None, QString(), true });
        QCOMPARE(r.errorClass, ErrorClass::Protocol);
        QVERIFY(r.errorText.contains(QStringLiteral("truncated")));
    }

    void timeouts()
    {
        Timeouts t;
        t.connectS = 1;
        t.firstTokenS = 2;
        t.idleS = 0.5;
        t.totalS = 10;
        StreamState s;
        s.record.startNs = 1'000'000'000;
        QString text;
        s.connectStartNs = s.record.startNs;
        QCOMPARE(expiredTimeout(s, t, 2'100'000'000, &text), ErrorClass::TimeoutConnect);
        s.connectStartNs = 0;
        QCOMPARE(expiredTimeout(s, t, 2'100'000'000, &text), ErrorClass::None);
        QCOMPARE(expiredTimeout(s, t, 3'100'000'000, &text), ErrorClass::TimeoutFirstToken);
        s.sawToken = true;
        s.lastEventNs = 3'000'000'000;
        QCOMPARE(expiredTimeout(s, t, 3'400'000'000, &text), ErrorClass::None);
        QCOMPARE(expiredTimeout(s, t, 3'600'000'000, &text), ErrorClass::TimeoutIdle);
        s.lastEventNs = 11'000'000'000;
        QCOMPARE(expiredTimeout(s, t, 11'100'000'000, &text), ErrorClass::TimeoutTotal);
        QVERIFY(text.contains(QStringLiteral("total")));
    }
};

QTEST_GUILESS_MAIN(TestRecordBuilder)
#include "tst_recordbuilder.moc"
