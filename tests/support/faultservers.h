// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHash>
#include <QTcpServer>
#include <QTcpSocket>

/// A gateway in front of an upstream HTTP server that holds each response back: `Whole` sends it
/// when it is complete, `Blocks` in blocks of `blockBytes` (the rest when complete). Requests pass
/// through as they arrive.
class BufferingProxy final : public QObject {
public:
    enum class Mode { Whole, Blocks };
    BufferingProxy(quint16 upstreamPort, Mode mode, int blockBytes = 4096)
        : m_upstream(upstreamPort)
        , m_mode(mode)
        , m_block(blockBytes)
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *down = m_server.nextPendingConnection())
                attach(down);
        });
    }
    quint16 port() const { return m_server.serverPort(); }

private:
    struct Pending {
        QByteArray response; ///< the response under way, from its head
        qsizetype sent = 0; ///< its bytes already released
    };

    // The end of the response that starts `buffer`, or -1 while it is incomplete.
    static qsizetype responseEnd(const QByteArray &buffer)
    {
        const qsizetype head = buffer.indexOf("\r\n\r\n");
        if (head < 0)
            return -1;
        const QByteArray lower = buffer.left(head).toLower();
        if (lower.contains("transfer-encoding: chunked")) {
            const qsizetype end = buffer.indexOf("\r\n0\r\n\r\n", head);
            return end < 0 ? -1 : end + 7;
        }
        const qsizetype cl = lower.indexOf("content-length:");
        const qsizetype length
            = cl < 0 ? 0 : lower.mid(cl + 15, lower.indexOf("\r\n", cl) - cl - 15).trimmed().toLongLong();
        return buffer.size() >= head + 4 + length ? head + 4 + length : -1;
    }

    void attach(QTcpSocket *down)
    {
        auto *up = new QTcpSocket(down);
        auto *state = new Pending;
        QObject::connect(down, &QObject::destroyed, [state] { delete state; });
        up->connectToHost(QHostAddress::LocalHost, m_upstream);
        QObject::connect(down, &QTcpSocket::readyRead, up, [down, up] {
            if (up->state() == QAbstractSocket::ConnectedState)
                up->write(down->readAll());
        });
        QObject::connect(up, &QTcpSocket::connected, up, [down, up] { up->write(down->readAll()); });
        QObject::connect(up, &QTcpSocket::readyRead, down, [this, down, up, state] {
            state->response.append(up->readAll());
            for (;;) {
                const qsizetype end = responseEnd(state->response);
                if (end >= 0) {
                    down->write(state->response.mid(state->sent, end - state->sent));
                    state->response.remove(0, end);
                    state->sent = 0;
                    continue;
                }
                while (m_mode == Mode::Blocks && state->response.size() - state->sent >= m_block) {
                    down->write(state->response.mid(state->sent, m_block));
                    state->sent += m_block;
                }
                break;
            }
        });
        QObject::connect(up, &QTcpSocket::disconnected, down, [down] { down->disconnectFromHost(); });
        QObject::connect(down, &QTcpSocket::disconnected, down, &QObject::deleteLater);
    }

    QTcpServer m_server;
    quint16 m_upstream;
    Mode m_mode;
    int m_block;
};

/// A server that echoes the API key it is sent back in transformed forms: in plain-text and JSON
/// 401 bodies and in the streamed text of successful answers, in turn.
class KeyEchoServer final : public QObject {
public:
    KeyEchoServer()
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                QObject::connect(s, &QTcpSocket::readyRead, s, [this, s] { serve(s); });
                QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    quint16 port() const { return m_server.serverPort(); }

    /// Every form the server writes for `key`.
    static QList<QByteArray> forms(const QByteArray &key)
    {
        QByteArray slash = key, unicode = key;
        slash.replace("/", "\\/");
        unicode.replace("/", "\\u002f");
        return { key, slash, unicode, key.toPercentEncoding(), key.toBase64(), key.left(key.size() - 4),
            key.right(10) };
    }

private:
    void serve(QTcpSocket *s)
    {
        QByteArray &in = m_buffers[s];
        in.append(s->readAll());
        for (;;) {
            const qsizetype head = in.indexOf("\r\n\r\n");
            if (head < 0)
                return;
            const QByteArray lower = in.left(head).toLower();
            const qsizetype cl = lower.indexOf("content-length:");
            const qsizetype length
                = cl < 0 ? 0 : lower.mid(cl + 15, lower.indexOf("\r\n", cl) - cl - 15).trimmed().toLongLong();
            if (in.size() < head + 4 + length)
                return;
            const QByteArray request = in.left(head);
            in.remove(0, head + 4 + length);
            QByteArray key;
            for (const QByteArray &line : request.split('\n')) {
                if (line.toLower().startsWith("authorization: bearer "))
                    key = line.mid(22).trimmed();
            }
            s->write(answer(request.startsWith("POST") && request.contains("/completions"), key));
        }
    }

    QByteArray answer(bool completion, const QByteArray &key)
    {
        const QList<QByteArray> f = forms(key);
        QByteArray joined;
        for (const QByteArray &form : f)
            joined += form + ' ';
        const auto response = [](const char *status, const QByteArray &type, const QByteArray &body) -> QByteArray {
            return QByteArray("HTTP/1.1 ") + status + "\r\nContent-Type: " + type
                + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        };
        if (!completion)
            return response("404 Not Found", "text/plain", "no such route for key " + joined);
        switch (m_turn++ % 3) {
        case 0:
            return response("401 Unauthorized", "text/plain", "invalid key: " + joined);
        case 1: {
            QByteArray escaped = joined;
            escaped.replace("\\", "\\\\");
            return response("401 Unauthorized", "application/json",
                "{\"error\": {\"message\": \"Incorrect API key provided: " + escaped + "\", \"code\": 401}}");
        }
        default:
            break;
        }
        QByteArray body;
        for (const QByteArray &form : f) {
            QByteArray text = form + ' ';
            text.replace("\\", "\\\\");
            body += "data: {\"choices\":[{\"index\":0,\"text\":\"" + text + "\"}]}\n\n";
        }
        body += "data: {\"choices\":[{\"index\":0,\"text\":\"\",\"finish_reason\":\"length\"}]}\n\n"
                "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":"
            + QByteArray::number(f.size()) + ",\"total_tokens\":" + QByteArray::number(8 + f.size())
            + "}}\n\ndata: [DONE]\n\n";
        return response("200 OK", "text/event-stream", body);
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    int m_turn = 0;
};
