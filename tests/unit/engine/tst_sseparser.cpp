// SPDX-License-Identifier: MIT
#include "engine/sseparser.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

using KindList = QVector<EventKind>;
Q_DECLARE_METATYPE(KindList)

class TestSseParser final : public QObject {
    Q_OBJECT

private:
    static QByteArray fixture(const QString &name)
    {
        QFile f(QStringLiteral(SERVESCOPE_TEST_DATA "/sse/") + name);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("missing fixture");
        return f.readAll();
    }
    static QVector<SseEvent> parseWhole(const QByteArray &bytes)
    {
        SseParser p;
        QVector<SseEvent> out = p.feed(bytes);
        p.finish(out);
        return out;
    }
    static KindList kinds(const QVector<SseEvent> &events)
    {
        KindList k;
        for (const SseEvent &e : events)
            k.append(e.kind);
        return k;
    }

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void eventCap_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<int>("chunk"); ///< bytes per feed
        QTest::addColumn<bool>("overflow");
        QTest::addColumn<int>("events"); ///< framed before the overflow (or in all)
        const QByteArray ok = "data: {\"choices\":[{\"text\":\"a\"}]}\n\n";
        const QByteArray longLine = "data: {\"x\":\"" + QByteArray(200, 'x') + "\"}\n\n";
        const QByteArray longData = "data: " + QByteArray(60, 'y') + "\ndata: " + QByteArray(60, 'y') + "\n\n";
        QTest::newRow("under the cap") << QByteArray(ok + ok) << 7 << false << 2;
        QTest::newRow("a line over the cap, one feed") << QByteArray(ok + longLine + ok) << 4096 << true << 1;
        QTest::newRow("a line over the cap, byte by byte") << QByteArray(ok + longLine + ok) << 1 << true << 1;
        QTest::newRow("an event's joined data over the cap") << QByteArray(ok + longData) << 5 << true << 1;
        QTest::newRow("an unterminated line over the cap") << QByteArray(ok + QByteArray(300, 'z')) << 64 << true << 1;
    }

    void eventCap()
    {
        QFETCH(QByteArray, stream);
        QFETCH(int, chunk);
        QFETCH(bool, overflow);
        QFETCH(int, events);
        SseParser p;
        p.setMaxEventBytes(100);
        QVector<SseEvent> out;
        for (qsizetype at = 0; at < stream.size(); at += chunk)
            p.feed(QByteArrayView(stream).sliced(at, std::min<qsizetype>(chunk, stream.size() - at)), out);
        p.finish(out);
        QCOMPARE(p.overflowed(), overflow);
        QCOMPARE(int(out.size()), events);
        QVERIFY(!overflow || !p.hasPending()); // nothing kept once over the cap
    }

    void fixtures_data()
    {
        using K = EventKind;
        QTest::addColumn<QString>("file");
        QTest::addColumn<KindList>("expected");
        QTest::newRow("vllm chat") << QStringLiteral("vllm_chat.sse")
                                   << KindList { K::Content, K::Content, K::Content, K::FinishOnly, K::Usage, K::Done };
        QTest::newRow("vllm chat crlf") << QStringLiteral(
            "vllm_chat_crlf.sse") << KindList { K::Content, K::Content, K::Content, K::FinishOnly, K::Usage, K::Done };
        QTest::newRow("vllm completions")
            << QStringLiteral("vllm_completions.sse") << KindList { K::Content, K::Content, K::Usage, K::Done };
        QTest::newRow("vllm completions cr")
            << QStringLiteral("vllm_completions_cr.sse") << KindList { K::Content, K::Content, K::Usage, K::Done };
        QTest::newRow("sglang chat") << QStringLiteral("sglang_chat.sse")
                                     << KindList { K::Content, K::Content, K::FinishOnly, K::Usage, K::Done };
        QTest::newRow("gateway early role") << QStringLiteral("gateway_early_role.sse")
                                            << KindList { K::RoleOnly, K::Content, K::Content, K::FinishOnly, K::Done };
        QTest::newRow("reasoning") << QStringLiteral(
            "reasoning.sse") << KindList { K::RoleOnly, K::Reasoning, K::Reasoning, K::Content, K::Usage, K::Done };
        QTest::newRow("tool call") << QStringLiteral("tool_call.sse")
                                   << KindList { K::RoleOnly, K::ToolCall, K::ToolCall, K::FinishOnly, K::Done };
        QTest::newRow("error event") << QStringLiteral("error_event.sse")
                                     << KindList { K::Content, K::Error, K::Error, K::Done };
        QTest::newRow("no space, multi-line, comments")
            << QStringLiteral("nospace_multiline_comments.sse")
            << KindList { K::Comment, K::Comment, K::Content, K::Content, K::Comment, K::Usage, K::Done };
        QTest::newRow("mixed endings") << QStringLiteral("mixed_endings.sse")
                                       << KindList { K::Comment, K::Content, K::Comment, K::Content, K::Done };
    }

    void fixtures()
    {
        QFETCH(QString, file);
        QFETCH(KindList, expected);
        const QByteArray bytes = fixture(file);
        const QVector<SseEvent> whole = parseWhole(bytes);
        QCOMPARE(kinds(whole), expected);

        // Every split point gives the same events as one feed.
        for (qsizetype cut = 0; cut <= bytes.size(); ++cut) {
            SseParser p;
            QVector<SseEvent> out = p.feed(QByteArrayView(bytes).first(cut));
            p.feed(QByteArrayView(bytes).sliced(cut), out);
            p.finish(out);
            if (out != whole)
                QFAIL(qPrintable(QStringLiteral("split at %1 differs").arg(cut)));
        }
        // Two cuts (three pieces) at a stride, so CRs and LFs land on both sides of boundaries.
        for (qsizetype a = 0; a <= bytes.size(); a += 7) {
            for (qsizetype b = a; b <= bytes.size(); b += 3) {
                SseParser p;
                QVector<SseEvent> out = p.feed(QByteArrayView(bytes).first(a));
                p.feed(QByteArrayView(bytes).sliced(a, b - a), out);
                p.feed(QByteArrayView(bytes).sliced(b), out);
                p.finish(out);
                if (out != whole)
                    QFAIL(qPrintable(QStringLiteral("split at %1/%2 differs").arg(a).arg(b)));
            }
        }
        // One byte at a time.
        SseParser p;
        QVector<SseEvent> out;
        for (char c : bytes)
            p.feed(QByteArrayView(&c, 1), out);
        p.finish(out);
        QCOMPARE(out, whole);
        QVERIFY(!p.hasPending());
    }

    void payloads()
    {
        const QVector<SseEvent> ev = parseWhole(fixture(QStringLiteral("nospace_multiline_comments.sse")));
        QCOMPARE(ev.size(), 7);
        QCOMPARE(ev[0].data, QByteArray("keep-alive comment"));
        QCOMPARE(ev[1].data, QByteArray("no-space comment"));
        QCOMPARE(
            ev[2].data, QByteArray("{\"id\":\"n\",\"choices\":[{\"index\":0,\"text\":\"a\",\"finish_reason\":null}]}"));
        QCOMPARE(ev[3].data,
            QByteArray("{\"id\":\"n\",\"choices\":[{\"index\":0,\n\"text\":\"b\",\"finish_reason\":null}]}"));
        QCOMPARE(ev[4].data, QByteArray("t=123456789"));
        QCOMPARE(ev[6].data, QByteArray("[DONE]"));
        const QVector<SseEvent> err = parseWhole(fixture(QStringLiteral("error_event.sse")));
        QCOMPARE(err[2].data, QByteArray("upstream disconnected"));
    }

    // The SSE standard: a UTF-8 BOM that starts the stream is ignored, also when it is split across
    // reads; a start that only resembles one is kept as text.
    void leadingBomIsDropped_data()
    {
        QTest::addColumn<QList<QByteArray>>("pieces");
        QTest::addColumn<int>("events");
        QTest::addColumn<QByteArray>("firstData");
        const QByteArray bom = "\xEF\xBB\xBF";
        const QByteArray body = "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: [DONE]\n\n";
        QTest::newRow("whole") << QList<QByteArray> { bom + body } << 2 << body.mid(6, body.indexOf('\n') - 6);
        QTest::newRow("split BOM") << QList<QByteArray> { bom.left(1), bom.mid(1, 1), bom.mid(2) + body } << 2
                                   << body.mid(6, body.indexOf('\n') - 6);
        QTest::newRow("no BOM") << QList<QByteArray> { body } << 2 << body.mid(6, body.indexOf('\n') - 6);
        // Not a BOM: the bytes stay part of the first line, which is then not a data line.
        QTest::newRow("BOM-like start") << QList<QByteArray> { "\xEF\xBB" + body } << 1 << QByteArray("[DONE]");
        QTest::newRow("BOM later") << QList<QByteArray> { body + bom + "data: x\n\n" } << 2
                                   << body.mid(6, body.indexOf('\n') - 6);
    }
    void leadingBomIsDropped()
    {
        QFETCH(QList<QByteArray>, pieces);
        QFETCH(int, events);
        QFETCH(QByteArray, firstData);
        SseParser p;
        QVector<SseEvent> out;
        for (const QByteArray &piece : pieces)
            p.feed(piece, out);
        p.finish(out);
        QVector<SseEvent> data;
        for (const SseEvent &e : out)
            if (e.kind != EventKind::Comment && e.kind != EventKind::Other)
                data << e;
        QCOMPARE(data.size(), events);
        QCOMPARE(data.first().data, firstData);
    }

    void unterminatedEventIsFlushedAtFinish()
    {
        SseParser p;
        QVector<SseEvent> out = p.feed("data: [DONE]");
        QVERIFY(out.isEmpty());
        QVERIFY(p.hasPending());
        p.finish(out);
        QCOMPARE(out.size(), 1);
        QCOMPARE(out[0].kind, EventKind::Done);
    }

    void classify_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<EventKind>("kind");
        QTest::newRow("done padded") << QByteArray(" [DONE] ") << EventKind::Done;
        QTest::newRow("not json") << QByteArray("hello") << EventKind::Other;
        QTest::newRow("empty choices no usage") << QByteArray("{\"choices\":[]}") << EventKind::Other;
        QTest::newRow("empty choices usage null") << QByteArray("{\"choices\":[ ],\"usage\":null}") << EventKind::Other;
        QTest::newRow("usage no choices") << QByteArray("{\"usage\":{\"prompt_tokens\":1}}") << EventKind::Usage;
        QTest::newRow("openai error") << QByteArray("{\"error\":{\"message\":\"x\"}}") << EventKind::Error;
        QTest::newRow("vllm error object")
            << QByteArray("{\"object\":\"error\",\"message\":\"m\",\"code\":400}") << EventKind::Error;
        QTest::newRow("role only") << QByteArray("{\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}")
                                   << EventKind::RoleOnly;
        QTest::newRow("empty delta") << QByteArray("{\"choices\":[{\"delta\":{}}]}") << EventKind::RoleOnly;
        QTest::newRow("spaces") << QByteArray("{ \"choices\" : [ { \"delta\" : { \"content\" : \"x\" } } ] }")
                                << EventKind::Content;
        QTest::newRow("escaped key in text is text")
            << QByteArray("{\"choices\":[{\"delta\":{\"content\":\"\\\"role\\\":\\\"x\\\"\"}}]}") << EventKind::Content;
        QTest::newRow("reasoning field") << QByteArray("{\"choices\":[{\"delta\":{\"reasoning\":\"hm\"}}]}")
                                         << EventKind::Reasoning;
        QTest::newRow("finish only") << QByteArray(
            "{\"choices\":[{\"delta\":{\"content\":null},\"finish_reason\":\"stop\"}]}")
                                     << EventKind::FinishOnly;
    }

    void classify()
    {
        QFETCH(QByteArray, data);
        QFETCH(EventKind, kind);
        QCOMPARE(classifySseData(data), kind);
    }

    void jsonErrorBody()
    {
        QVERIFY(looksLikeJsonError(fixture(QStringLiteral("plain_json_error.json"))));
        QVERIFY(looksLikeJsonError("  {\"error\":{\"message\":\"bad key\"}}"));
        QVERIFY(!looksLikeJsonError(fixture(QStringLiteral("vllm_chat.sse"))));
        QVERIFY(!looksLikeJsonError("{\"choices\":[]}"));
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
