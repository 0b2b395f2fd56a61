// SPDX-License-Identifier: MIT
#pragma once
// Test-side helpers: a `servescope-cli sim --port 0` child process and a raw-socket HTTP/1.1
// client. Deliberately independent of the engine's transports, so a bug cannot pass both sides.

#include "model/clock.h"
#include "simchild.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpSocket>
#include <QTest>

#include <memory>
#include <vector>

#include <csignal>
#include <sys/resource.h>

namespace SimTest {

inline void raiseFdLimit()
{
    rlimit rl {};
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/// The one simulator launcher (tests/support/simchild.h).
using ::SimChild;

inline QByteArray httpRequest(const QByteArray &method, const QByteArray &path, const QByteArray &body = QByteArray(),
    const QByteArray &extraHeaders = QByteArray())
{
    QByteArray r = method + ' ' + path + " HTTP/1.1\r\nhost: 127.0.0.1\r\n" + extraHeaders;
    if (!body.isNull() || method == "POST")
        r += "content-type: application/json\r\ncontent-length: " + QByteArray::number(body.size()) + "\r\n";
    return r + "\r\n" + body;
}

/// One SSE event as received: its arrival time and raw `data:` payload (comments kept apart).
struct Event {
    qint64 atNs = 0;
    QByteArray data;
    QByteArray comment;
    int chunk = 0; ///< index of the transfer chunk it arrived in
};

/// A response read incrementally from a socket: head, de-chunked body, and SSE events.
class Response {
public:
    int status = 0;
    QByteArray head, body;
    QList<Event> events;
    bool complete = false;
    qint64 firstByteNs = 0;

    QByteArray header(const QByteArray &name) const
    {
        for (const QByteArray &line : head.split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().toLower() == name)
                return line.mid(colon + 1).trimmed();
        }
        return {};
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }

    /// Feeds received bytes; returns true once the whole response is in.
    bool feed(const QByteArray &bytes, qint64 now)
    {
        if (firstByteNs == 0 && !bytes.isEmpty())
            firstByteNs = now;
        m_raw += bytes;
        if (status == 0) {
            const qsizetype end = m_raw.indexOf("\r\n\r\n");
            if (end < 0)
                return false;
            head = m_raw.left(end);
            status = head.mid(9, 3).toInt();
            m_raw.remove(0, end + 4);
            m_chunked = header("transfer-encoding") == "chunked";
            m_length = header("content-length").isEmpty() ? -1 : header("content-length").toLongLong();
        }
        if (!m_chunked) {
            body += m_raw;
            m_raw.clear();
            complete = m_length >= 0 && body.size() >= m_length;
            return complete;
        }
        for (;;) {
            const qsizetype eol = m_raw.indexOf("\r\n");
            if (eol < 0)
                return false;
            const qint64 size = m_raw.left(eol).toLongLong(nullptr, 16);
            if (m_raw.size() < eol + 2 + size + 2)
                return false;
            const QByteArray payload = m_raw.mid(eol + 2, size);
            m_raw.remove(0, eol + 2 + size + 2);
            if (size == 0) {
                complete = true;
                return true;
            }
            body += payload;
            splitEvents(now);
            ++m_chunks;
        }
    }

private:
    void splitEvents(qint64 now)
    {
        m_sse += body.mid(m_sseTaken);
        m_sseTaken = body.size();
        for (qsizetype end; (end = m_sse.indexOf("\n\n")) >= 0;) {
            Event e;
            e.atNs = now;
            e.chunk = m_chunks;
            for (const QByteArray &line : m_sse.left(end).split('\n')) {
                if (line.startsWith("data: "))
                    e.data = line.mid(6);
                else if (line.startsWith(':'))
                    e.comment = line;
            }
            events << e;
            m_sse.remove(0, end + 2);
        }
    }
    QByteArray m_raw, m_sse;
    qsizetype m_sseTaken = 0;
    bool m_chunked = false;
    qint64 m_length = -1;
    int m_chunks = 0;
};

/// Sends `request` on `socket` (connecting first if needed) and reads the whole response.
inline Response exchange(QTcpSocket &socket, quint16 port, const QByteArray &request, int timeoutMs = 10000)
{
    if (socket.state() != QAbstractSocket::ConnectedState) {
        socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        socket.waitForConnected(3000);
    }
    Response r;
    socket.write(request);
    socket.flush();
    QElapsedTimer t;
    t.start();
    while (!r.complete && t.elapsed() < timeoutMs) {
        if (socket.bytesAvailable() == 0 && !socket.waitForReadyRead(50)) {
            if (socket.state() != QAbstractSocket::ConnectedState)
                break;
            continue;
        }
        r.feed(socket.readAll(), ServeScope::monotonicNs());
    }
    return r;
}

inline Response exchange(quint16 port, const QByteArray &request, int timeoutMs = 10000)
{
    QTcpSocket socket;
    return exchange(socket, port, request, timeoutMs);
}

/// True for a data event vLLM counts as a token (non-empty choices).
inline bool isTokenEvent(const Event &e)
{
    return e.data.startsWith('{') && !e.data.contains("\"choices\":[]") && e.data.contains("\"choices\":[");
}

/// Parses a Prometheus text value, e.g. metric(text, "vllm:num_requests_running").
inline double metric(const QByteArray &text, const QByteArray &name)
{
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(QByteArray(name + '{')) || line.startsWith(QByteArray(name + ' ')))
            return line.mid(line.lastIndexOf(' ') + 1).toDouble();
    return -1;
}

inline double metric(quint16 port, const QByteArray &name)
{
    return metric(exchange(port, httpRequest("GET", "/metrics")).body, name);
}

/// Many concurrent requests on their own connections, driven by the event loop.
class Streams {
public:
    void start(quint16 port, const QList<QByteArray> &requests)
    {
        const size_t base = sockets.size();
        for (qsizetype i = 0; i < requests.size(); ++i) {
            sockets.push_back(std::make_unique<QTcpSocket>());
            responses.emplace_back();
            sentNs.push_back(0);
        }
        for (qsizetype i = 0; i < requests.size(); ++i) {
            const size_t k = base + size_t(i);
            QTcpSocket *s = sockets[k].get();
            QObject::connect(s, &QTcpSocket::connected, s, [this, s, k, req = requests[i]] {
                sentNs[k] = ServeScope::monotonicNs();
                s->write(req);
                s->flush();
            });
            QObject::connect(s, &QTcpSocket::readyRead, s,
                [this, s, k] { responses[k].feed(s->readAll(), ServeScope::monotonicNs()); });
            s->connectToHost(QStringLiteral("127.0.0.1"), port);
        }
    }
    bool allComplete() const
    {
        for (const Response &r : responses)
            if (!r.complete)
                return false;
        return true;
    }
    bool wait(int timeoutMs)
    {
        QElapsedTimer t;
        t.start();
        while (!allComplete() && t.elapsed() < timeoutMs)
            QTest::qWait(5);
        return allComplete();
    }
    /// Token-event times of stream `k` in seconds after its request was written.
    QList<double> tokenTimes(size_t k) const
    {
        QList<double> out;
        for (const Event &e : responses[k].events)
            if (isTokenEvent(e))
                out << double(e.atNs - sentNs[k]) / 1e9;
        return out;
    }
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    std::vector<Response> responses;
    std::vector<qint64> sentNs;
};

} // namespace SimTest
