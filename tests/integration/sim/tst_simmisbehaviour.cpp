// SPDX-License-Identifier: MIT
// The simulator's misbehaviour switches (docs/simulator.md, "Misbehaviour"), each against a real
// `servescope-cli sim` child over raw sockets.
#include "simtestclient.h"

#include <QRegularExpression>
#include <QTest>

using namespace SimTest;

namespace {

QByteArray chat(
    int maxTokens, bool stream, const QByteArray &content = "tell me a story", const QByteArray &extra = QByteArray())
{
    return "{\"model\":\"servescope-sim-7b\",\"messages\":[{\"role\":\"user\",\"content\":\"" + content
        + "\"}],\"max_tokens\":" + QByteArray::number(maxTokens) + ",\"ignore_eos\":true,\"temperature\":0"
        + ",\"stream\":" + (stream ? "true" : "false") + (stream ? ",\"stream_options\":{\"include_usage\":true}" : "")
        + extra + "}";
}

QByteArray completion(int maxTokens)
{
    return "{\"model\":\"servescope-sim-7b\",\"prompt\":\"one two three\",\"max_tokens\":"
        + QByteArray::number(maxTokens) + ",\"ignore_eos\":true,\"stream\":false}";
}

QByteArray post(const QByteArray &path, const QByteArray &body, const QByteArray &headers = QByteArray())
{
    return httpRequest("POST", path, body, headers);
}

/// The content strings of a stream's content events, in order (role-only events skipped).
QList<QByteArray> contents(const Response &r)
{
    QList<QByteArray> out;
    for (const Event &e : r.events) {
        const QJsonArray choices = QJsonDocument::fromJson(e.data).object().value(QLatin1String("choices")).toArray();
        if (choices.isEmpty())
            continue;
        const QJsonObject delta = choices.first().toObject().value(QLatin1String("delta")).toObject();
        if (delta.contains(QLatin1String("role")))
            continue;
        out << delta.value(QLatin1String("content")).toString().toUtf8();
    }
    return out;
}

int completionTokens(const Response &r)
{
    for (const Event &e : r.events) {
        const QJsonObject usage = QJsonDocument::fromJson(e.data).object().value(QLatin1String("usage")).toObject();
        if (!usage.isEmpty())
            return usage.value(QLatin1String("completion_tokens")).toInt();
    }
    return r.json().value(QLatin1String("usage")).toObject().value(QLatin1String("completion_tokens")).toInt(-1);
}

/// Everything the server sends until it closes the connection (or `timeoutMs`), unparsed.
struct RawAnswer {
    QByteArray head, body;
    bool closed = false;
};
RawAnswer readUntilClose(quint16 port, const QByteArray &request, int timeoutMs = 10000)
{
    QTcpSocket s;
    s.connectToHost(QStringLiteral("127.0.0.1"), port);
    s.waitForConnected(3000);
    s.write(request);
    s.flush();
    QByteArray all;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (s.waitForReadyRead(50) || s.bytesAvailable())
            all += s.readAll();
        if (s.state() != QAbstractSocket::ConnectedState) {
            all += s.readAll();
            break;
        }
    }
    RawAnswer a;
    a.closed = s.state() != QAbstractSocket::ConnectedState;
    const qsizetype end = all.indexOf("\r\n\r\n");
    a.head = all.left(end).toLower();
    a.body = end < 0 ? QByteArray() : all.mid(end + 4);
    return a;
}

/// A Prometheus value with a route label, e.g. routeMetric(text, "servescope_sim:route_requests_total", "/tokenize").
double routeMetric(const QByteArray &text, const QByteArray &name, const QByteArray &route)
{
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(QByteArray(name + '{')) && line.contains(QByteArray("route=\"" + route + "\"")))
            return line.mid(line.lastIndexOf(' ') + 1).toDouble();
    return -1;
}

} // namespace

class TestSimMisbehaviour final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void disabledRoutes_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<int>("tokenize");
        QTest::addColumn<int>("metrics");
        QTest::addColumn<int>("completions");
        QTest::newRow("none") << QString() << 200 << 200 << 200;
        QTest::newRow("no tokenize") << QStringLiteral("--no-tokenize") << 404 << 200 << 200;
        QTest::newRow("no metrics") << QStringLiteral("--no-metrics") << 200 << 404 << 200;
        QTest::newRow("no completions") << QStringLiteral("--no-completions") << 200 << 200 << 404;
    }

    void disabledRoutes()
    {
        QFETCH(QString, flag);
        QFETCH(int, tokenize);
        QFETCH(int, metrics);
        QFETCH(int, completions);
        SimChild sim;
        QVERIFY(sim.start(QStringList { QStringLiteral("--time-scale"), QStringLiteral("50") }
            + (flag.isEmpty() ? QStringList() : QStringList { flag })));
        QCOMPARE(exchange(sim.port, post("/tokenize", "{\"prompt\":\"a b c\"}")).status, tokenize);
        QCOMPARE(exchange(sim.port, httpRequest("GET", "/metrics")).status, metrics);
        QCOMPARE(exchange(sim.port, post("/v1/completions", completion(2))).status, completions);
        QCOMPARE(exchange(sim.port, post("/v1/chat/completions", chat(2, false))).status, 200);
    }

    void rootPath()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--root-path"),
            QStringLiteral("/gw/") }));
        QCOMPARE(exchange(sim.port, httpRequest("GET", "/gw/v1/models")).status, 200);
        QCOMPARE(exchange(sim.port, httpRequest("GET", "/gw/metrics")).status, 200);
        QCOMPARE(exchange(sim.port, post("/gw/tokenize", "{\"prompt\":\"a b\"}")).status, 200);
        QCOMPARE(exchange(sim.port, post("/gw/v1/chat/completions", chat(2, false))).status, 200);
        QCOMPARE(exchange(sim.port, httpRequest("GET", "/v1/models")).status, 404);
        QCOMPARE(exchange(sim.port, httpRequest("GET", "/gwx/v1/models")).status, 404);
        QCOMPARE(exchange(sim.port, httpRequest("GET", "/gw")).status, 404);
    }

    void chunkCharsSplitsWords()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--chunk-chars"),
            QStringLiteral("7") }));
        const Response r = exchange(sim.port, post("/v1/chat/completions", chat(24, true)));
        QVERIFY(r.complete);
        const QList<QByteArray> parts = contents(r);
        QVERIFY(parts.size() > 2);
        for (qsizetype i = 0; i + 1 < parts.size(); ++i)
            QCOMPARE(parts[i].size(), 7);
        QVERIFY(parts.last().size() <= 7);
        // Text intact: re-joined it has the words the usage counts, while the events do not match tokens.
        const QByteArray text = parts.join();
        QCOMPARE(int(text.simplified().split(' ').size()), 24);
        QCOMPARE(completionTokens(r), 24);
        QVERIFY(parts.size() != 24);
        QVERIFY(r.events.last().data == "[DONE]");
        QVERIFY(r.events.at(r.events.size() - 3).data.contains("\"finish_reason\":\"length\""));
    }

    void echoPrompt()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--echo-prompt") }));
        const Response r = exchange(sim.port, post("/v1/chat/completions", chat(6, true, "alpha beta gamma")));
        const QList<QByteArray> parts = contents(r);
        QVERIFY(!parts.isEmpty());
        QVERIFY2(parts.first().startsWith("alpha beta gamma "), parts.first().constData());
        QCOMPARE(completionTokens(r), 6); // usage stays honest; the text has 3 words more
        QCOMPARE(int(parts.join().simplified().split(' ').size()), 9);
        const Response plain = exchange(sim.port, post("/v1/completions", completion(4)));
        const QString text = plain.json()
                                 .value(QLatin1String("choices"))
                                 .toArray()
                                 .first()
                                 .toObject()
                                 .value(QLatin1String("text"))
                                 .toString();
        QVERIFY2(text.startsWith(QLatin1String("one two three ")), qPrintable(text));
    }

    void requiredHeader()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--require-header"),
            QStringLiteral("X-Route: pool-7") }));
        const QByteArray good = "x-route: pool-7\r\n", wrong = "X-Route: pool-8\r\n";
        for (const QByteArray &path : { QByteArray("/tokenize"), QByteArray("/v1/chat/completions") }) {
            const QByteArray body = path == "/tokenize" ? QByteArray("{\"prompt\":\"a\"}") : chat(2, false);
            const Response missing = exchange(sim.port, post(path, body));
            QCOMPARE(missing.status, 400);
            QVERIFY2(missing.body.contains("x-route"), missing.body.constData());
            QVERIFY2(!missing.body.contains("pool-7"), "the expected value was echoed");
            QCOMPARE(exchange(sim.port, post(path, body, wrong)).status, 400);
            QCOMPARE(exchange(sim.port, post(path, body, good)).status, 200);
        }
        QCOMPARE(exchange(sim.port, httpRequest("GET", "/metrics")).status, 400);
        const QByteArray m = exchange(sim.port, httpRequest("GET", "/metrics", QByteArray(), good)).body;
        QCOMPARE(routeMetric(m, "servescope_sim:route_requests_total", "/tokenize"), 3.0);
        QCOMPARE(routeMetric(m, "servescope_sim:header_rejected_total", "/tokenize"), 2.0);
        QCOMPARE(routeMetric(m, "servescope_sim:header_rejected_total", "/v1/chat/completions"), 2.0);
        QCOMPARE(routeMetric(m, "servescope_sim:header_rejected_total", "/metrics"), 1.0);
        QCOMPARE(routeMetric(m, "servescope_sim:route_requests_total", "/metrics"), 2.0);
    }

    void firstEventDelay()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("100"),
            QStringLiteral("--first-event-delay-ms"), QStringLiteral("400") }));
        const qint64 sent = ServeScope::monotonicNs();
        const Response r = exchange(sim.port, post("/v1/chat/completions", chat(3, true)));
        QVERIFY(r.complete);
        QCOMPARE(completionTokens(r), 3);
        qint64 firstToken = 0;
        for (const Event &e : r.events)
            if (isTokenEvent(e) && !firstToken)
                firstToken = e.atNs;
        // A lower bound only: the hold is wall-clock, so the first token cannot come earlier.
        QVERIFY2(firstToken - sent >= 395'000'000, qPrintable(QString::number((firstToken - sent) / 1e6)));
    }

    void dropIgnoreEos()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("100"), QStringLiteral("--drop-ignore-eos"),
            QStringLiteral("--eos-mean-tokens"), QStringLiteral("3") }));
        int shorter = 0;
        for (int i = 0; i < 6; ++i) {
            const Response r
                = exchange(sim.port, post("/v1/chat/completions", chat(64, false, "x", ",\"min_tokens\":60")));
            QCOMPARE(r.status, 200);
            const int n = completionTokens(r);
            QVERIFY(n >= 1 && n <= 64);
            shorter += n < 60 ? 1 : 0;
        }
        // With ignore_eos and min_tokens honoured every answer would have 64 tokens.
        QVERIFY2(shorter >= 5, qPrintable(QString::number(shorter)));
    }

    void closeStreamsMidway()
    {
        SimChild sim;
        QVERIFY(sim.start(
            { QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--close-streams-midway") }));
        QTcpSocket socket;
        const Response r = exchange(socket, sim.port, post("/v1/chat/completions", chat(10, true)), 5000);
        QCOMPARE(r.status, 200);
        QVERIFY(!r.complete);
        QCOMPARE(contents(r).size(), 5);
        QVERIFY(r.events.isEmpty() || r.events.last().data != "[DONE]");
        QVERIFY(socket.state() != QAbstractSocket::ConnectedState);
        QCOMPARE(exchange(sim.port, post("/v1/chat/completions", chat(10, false))).status, 200); // not streams
    }

    void wrongContentLength_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("stream");
        QTest::newRow("stream, longer than declared") << chat(16, true) << true;
        QTest::newRow("stream, shorter than declared") << completion(1).replace("false", "true") << true;
        QTest::newRow("not streamed") << chat(16, false) << false;
    }

    void wrongContentLength()
    {
        QFETCH(QByteArray, body);
        QFETCH(bool, stream);
        SimChild sim;
        QVERIFY(sim.start(
            { QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--wrong-content-length") }));
        const QByteArray path = body.contains("messages") ? "/v1/chat/completions" : "/v1/completions";
        const RawAnswer a = readUntilClose(sim.port, post(path, body));
        QVERIFY2(a.head.startsWith("http/1.1 200"), a.head.constData());
        QVERIFY(QByteArray(a.head + "\r\n").contains("\r\ncontent-length: 256\r\n"));
        QVERIFY(!a.head.contains("transfer-encoding"));
        QVERIFY(a.closed);
        QVERIFY2(a.body.size() != 256, qPrintable(QString::number(a.body.size())));
        QCOMPARE(a.body.contains("data: [DONE]"), stream);
    }
};

QTEST_GUILESS_MAIN(TestSimMisbehaviour)
#include "tst_simmisbehaviour.moc"
