// SPDX-License-Identifier: MIT
// A thinking model's stream, from a server written here with known timings: 20 reasoning deltas from
// 200 ms, every 20 ms, a 300 ms pause, then 30 answer deltas every 20 ms. TTFT, TTFO, TPOT and the
// reasoning tokens read from the records against the times the server wrote each event (within 5 ms),
// under each field name vLLM and SGLang use, with and without a usage chunk.
#include "enginepoint.h"
#include "metrics/aggregate.h"
#include "metrics/requestmetrics.h"
#include "model/clock.h"

#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

using namespace ServeScope;
using namespace ServeScope::Testing;

namespace {

constexpr int kReasoning = 20, kAnswer = 30;

/// Answers every chat request with the scripted thinking stream (chunked SSE) and keeps, per request,
/// the monotonic time each event was written.
class ThinkingServer final : public QObject {
public:
    ThinkingServer(QByteArray field, bool usage)
        : m_field(std::move(field))
        , m_usage(usage)
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] { read(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    quint16 port() const { return m_server.serverPort(); }
    /// Per request, in the order they arrived: the write time of each token event.
    QVector<QVector<qint64>> written;

private:
    void read(QTcpSocket *s)
    {
        QByteArray &buf = m_buffers[s];
        buf += s->readAll();
        const qsizetype head = buf.indexOf("\r\n\r\n");
        if (head < 0)
            return;
        static const QRegularExpression length(QStringLiteral("(?i)content-length:\\s*(\\d+)"));
        const qsizetype body = length.match(QString::fromLatin1(buf.left(head))).captured(1).toLongLong();
        if (buf.size() < head + 4 + body)
            return;
        buf.remove(0, head + 4 + body);
        s->write("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n");
        const int request = int(written.size());
        written.append(QVector<qint64>());
        for (int i = 0; i < kReasoning + kAnswer; ++i) {
            const int at = 200 + 20 * i + (i >= kReasoning ? 300 - 20 : 0);
            QTimer::singleShot(at, Qt::PreciseTimer, s, [this, s, i, request] { send(s, i, request); });
        }
    }

    void send(QTcpSocket *s, int i, int request)
    {
        const bool answer = i >= kReasoning;
        const bool last = i == kReasoning + kAnswer - 1;
        QByteArray events = "data: {\"id\":\"t\",\"object\":\"chat.completion.chunk\",\"model\":\"thinker\","
                            "\"choices\":[{\"index\":0,\"delta\":{\""
            + (answer ? QByteArray("content") : m_field) + "\":\"w" + QByteArray::number(i)
            + " \"},\"finish_reason\":" + (last ? "\"stop\"" : "null") + "}]}\n\n";
        if (last && m_usage)
            events += "data: {\"id\":\"t\",\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":"
                + QByteArray::number(kReasoning + kAnswer)
                + ",\"completion_tokens_details\":{\"reasoning_tokens\":" + QByteArray::number(kReasoning) + "}}}\n\n";
        if (last)
            events += "data: [DONE]\n\n";
        written[request].append(monotonicNs());
        s->write(QByteArray::number(events.size(), 16) + "\r\n" + events + "\r\n" + (last ? "0\r\n\r\n" : ""));
        s->flush();
    }

    QTcpServer m_server;
    QByteArray m_field;
    bool m_usage;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

QVector<PreparedRequest> chatBodies(int n)
{
    QVector<PreparedRequest> out;
    for (int i = 0; i < n; ++i) {
        PreparedRequest p;
        p.body = R"({"model":"thinker","messages":[{"role":"user","content":"why?"}],"max_tokens":50,"stream":true,)"
                 R"("stream_options":{"include_usage":true}})";
        p.targetInputLen = 5;
        p.targetOutputLen = 50;
        out << p;
    }
    return out;
}

} // namespace

class TestReasoningStreams final : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void timingsAndCounts_data()
    {
        QTest::addColumn<QByteArray>("field");
        QTest::addColumn<bool>("usage");
        for (const char *field : { "reasoning_content", "reasoning" }) {
            QTest::addRow("%s, usage with reasoning_tokens", field) << QByteArray(field) << true;
            QTest::addRow("%s, no usage", field) << QByteArray(field) << false;
        }
    }

    void timingsAndCounts()
    {
        QFETCH(QByteArray, field);
        QFETCH(bool, usage);
        ThinkingServer server(field, usage);
        EndpointConfig ep;
        ep.url = QUrl(QStringLiteral("http://127.0.0.1:%1/v1/chat/completions").arg(server.port()));
        LoadSpec spec;
        spec.load.concurrency = 2;
        spec.load.numPrompts = 2;
        LoadGenerator gen(1);
        const Testing::PointResult res = runPoint(gen, ep, chatBodies(2), spec, -1, 30000);
        QVERIFY(!res.timedOut);
        QCOMPARE(res.records.size(), 2);
        QCOMPARE(server.written.size(), 2);
        for (const RequestRecord &r : res.records) {
            QVERIFY2(r.ok(), qPrintable(r.errorText));
            QCOMPARE(r.completionTokens, kReasoning + kAnswer); // reasoning is output, counted either way
            QCOMPARE(r.outputEstimated, !usage);
            QCOMPARE(r.reasoningTokens, kReasoning);
            QCOMPARE(r.reasoningEstimated, !usage);
            QVERIFY(r.reasoningText.startsWith("w0 w1 ") == !usage);

            const RequestMetrics m = deriveRequest(r, DefinitionsProfile::Vllm);
            QVERIFY(m.hasTtfo);
            // Which request this record is: the one whose first event the server wrote just before it arrived.
            const qint64 firstArrival = r.startNs + qint64(m.ttft * 1e9);
            const QVector<qint64> &sent = server.written.at(
                qAbs(server.written.at(0).first() - firstArrival) < qAbs(server.written.at(1).first() - firstArrival)
                    ? 0
                    : 1);
            // Within 5 ms of the server's own write times: a loaded host delays a read by a millisecond or
            // more now and then, while every mistake this test looks for (a reasoning event taken for the
            // answer, a count without the reasoning tokens) is off by 20 ms, one event, or more.
            const double ms = 5e-3;
            const auto gap = [&](int from, int to) { return nsToSeconds(sent.at(to) - sent.at(from)); };
            // The answer starts 19 x 20 + 300 ms after the first reasoning token; TTFT is that first token.
            QVERIFY2(std::abs((m.ttfo - m.ttft) - gap(0, kReasoning)) < ms,
                qPrintable(
                    QStringLiteral("TTFO - TTFT %1 s, server %2 s").arg(m.ttfo - m.ttft).arg(gap(0, kReasoning))));
            QVERIFY(m.ttfo - m.ttft > 0.6);
            QVERIFY2(std::abs(m.e2el - m.ttft - gap(0, kReasoning + kAnswer - 1)) < ms,
                qPrintable(QStringLiteral("E2EL - TTFT %1 s").arg(m.e2el - m.ttft)));
            // TPOT over every output token, reasoning included, as vLLM defines it.
            QVERIFY(std::abs(m.tpot - gap(0, kReasoning + kAnswer - 1) / (kReasoning + kAnswer - 1)) < ms / 49);
            QCOMPARE(m.reasoningTokens, kReasoning);
            // The answer's TPOT: its 30 tokens over the 29 gaps after the first, the pause left out.
            QVERIFY(m.hasAtpot);
            QVERIFY(std::abs(m.atpot - gap(kReasoning, kReasoning + kAnswer - 1) / (kAnswer - 1)) < ms / 29);
        }
        AggregateOptions o;
        o.ignoreEos = true; // a count that left out the reasoning would look like an early stop
        const ServeScope::PointResult point = aggregatePoint(res.records, o);
        const PointSummary &s = point.summary;
        QCOMPARE(s.ttfo.count, 2);
        QCOMPARE(s.atpot.count, 2);
        QVERIFY(s.atpot.median < s.tpot.median); // TPOT spreads the pause over every token
        QCOMPARE(s.reasoningTokens, qint64(2 * kReasoning));
        QCOMPARE(s.reasoningEstimated, usage ? 0 : 2);
        QVERIFY(s.ttfo.median > s.ttft.median + 600);
        QVERIFY(!point.hasFinding(FindingCode::IgnoreEosNotHonoured));
    }
};

QTEST_GUILESS_MAIN(TestReasoningStreams)
#include "tst_reasoningstreams.moc"
