// SPDX-License-Identifier: MIT
#include "httpconnection.h"

#include "model/clock.h"

#include <QLoggingCategory>

namespace ServeScope {

Q_LOGGING_CATEGORY(lcLean, "servescope.engine.lean", QtWarningMsg)

HttpConnection::HttpConnection(const QString &host, quint16 port, QObject *parent)
    : QObject(parent)
    , m_host(host)
    , m_port(port)
{
    m_socket.setParent(this);
    connect(&m_socket, &QTcpSocket::connected, this, &HttpConnection::onConnected);
    connect(&m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
    connect(&m_socket, &QTcpSocket::disconnected, this, &HttpConnection::onDisconnected);
    connect(&m_socket, &QTcpSocket::errorOccurred, this, &HttpConnection::onError);
}

void HttpConnection::open()
{
    if (isConnected() || m_socket.state() != QAbstractSocket::UnconnectedState) {
        if (auto cb = std::exchange(opened, nullptr))
            cb(this, isConnected());
        return;
    }
    m_opening = true;
    connectNow();
}

void HttpConnection::connectNow()
{
    m_socket.abort();
    m_socket.connectToHost(m_host, m_port);
}

void HttpConnection::send(StreamState *state, const QByteArray &request)
{
    m_state = state;
    m_request = request;
    m_retried = false;
    m_decoder.reset();
    state->record.startNs = monotonicNs();
    if (isConnected()) {
        m_reusedSocket = true;
        writeRequest();
    } else {
        m_reusedSocket = false;
        state->connectStartNs = state->record.startNs;
        connectNow();
    }
}

void HttpConnection::writeRequest()
{
    m_socket.write(m_request);
}

void HttpConnection::onConnected()
{
    m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    if (m_opening) {
        m_opening = false;
        if (auto cb = std::exchange(opened, nullptr))
            cb(this, true);
    }
    if (!m_state)
        return;
    if (m_state->connectStartNs) {
        m_state->record.connectNs += monotonicNs() - m_state->connectStartNs;
        m_state->connectStartNs = 0;
    }
    writeRequest();
}

void HttpConnection::onReadyRead()
{
    const qint64 now = monotonicNs();
    const QByteArray data = m_socket.readAll();
    if (!m_state)
        return; // bytes outside a request: nothing to attribute them to
    m_body.clear();
    const bool wasHeaders = m_decoder.headersComplete();
    if (!m_decoder.feed(data, m_body)) {
        m_state->record.endNs = now;
        finish({ ErrorClass::Protocol,
                   QStringLiteral("malformed HTTP response: ") + QString::fromLatin1(m_decoder.error()), false },
            false);
        return;
    }
    if (!wasHeaders && m_decoder.headersComplete()) {
        m_state->record.httpStatus = m_decoder.status();
        m_state->record.protocol = QStringLiteral("http/1.1");
        if (m_decoder.status() >= 300 && m_decoder.status() < 400) {
            m_state->record.endNs = now;
            finish({ ErrorClass::Protocol,
                       QStringLiteral("redirect not followed (HTTP %1) to %2")
                           .arg(m_decoder.status())
                           .arg(QString::fromLatin1(m_decoder.location())),
                       false },
                false);
            return;
        }
    }
    if (!m_body.isEmpty()) {
        const int n = m_state->onBody(m_body, now, tap ? *tap : EventTap());
        if (n && eventsFramed)
            eventsFramed(n);
        if (m_state->overflowed()) {
            m_state->record.endNs = now;
            finish(m_state->overflowEnd(), false);
            return;
        }
    }
    if (m_decoder.complete()) {
        m_state->record.endNs = now;
        if (const qint64 extra = m_decoder.trailingBytes(); extra > 0) {
            // Nothing else was asked on this connection: the server sent more than it framed.
            finish({ ErrorClass::Protocol,
                       QStringLiteral("response longer than its framing: %1 bytes after its end (wrong "
                                      "Content-Length?)")
                           .arg(extra),
                       false },
                false);
            return;
        }
        finish({}, m_decoder.keepAlive());
    }
}

void HttpConnection::onDisconnected()
{
    if (!m_state)
        return;
    const qint64 now = monotonicNs();
    if (m_reusedSocket && !m_decoder.sawAnyByte() && !m_retried) {
        // The server closed an idle keep-alive socket as we reused it (uvicorn's 5 s timeout).
        m_retried = true;
        m_reusedSocket = false;
        ++m_reopened;
        qCInfo(lcLean) << "reopening a reused connection the server had closed";
        m_state->connectStartNs = now;
        connectNow();
        return;
    }
    m_state->record.endNs = now;
    if (m_decoder.closeEndsResponse()) {
        finish({}, false);
    } else if (!m_decoder.headersComplete()) {
        finish({ ErrorClass::Protocol, QStringLiteral("connection closed before a response"), true }, false);
    } else if (m_decoder.remainingBytes() > 0) {
        finish({ ErrorClass::None,
                   QStringLiteral("response shorter than its Content-Length: connection closed %1 bytes early")
                       .arg(m_decoder.remainingBytes()),
                   true },
            false);
    } else {
        finish({ ErrorClass::None, QStringLiteral("stream truncated: connection closed mid-body"), true }, false);
    }
}

void HttpConnection::onError(QAbstractSocket::SocketError)
{
    if (m_opening && m_socket.state() != QAbstractSocket::ConnectedState) {
        m_opening = false;
        if (auto cb = std::exchange(opened, nullptr))
            cb(this, false);
    }
    // Errors on an established connection end in disconnected(), handled there.
    if (!m_state || !m_state->connectStartNs)
        return;
    m_state->record.endNs = monotonicNs();
    m_state->record.connectNs += m_state->record.endNs - m_state->connectStartNs;
    m_state->connectStartNs = 0;
    finish({ ErrorClass::Connect, QStringLiteral("connect failed: ") + m_socket.errorString(), false }, false);
}

void HttpConnection::abortRequest()
{
    m_state = nullptr;
    m_socket.abort();
}

void HttpConnection::finish(const StreamEnd &end, bool keepSocket)
{
    StreamState *s = std::exchange(m_state, nullptr);
    if (!keepSocket)
        m_socket.abort();
    if (finished && s)
        finished(this, s, end);
}

} // namespace ServeScope
