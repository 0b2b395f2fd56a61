// SPDX-License-Identifier: MIT
#pragma once

#include "httpresponse.h"
#include "streamstate.h"

#include <QObject>
#include <QTcpSocket>

#include <functional>

namespace ServeScope {

/// One keep-alive HTTP/1.1 connection carrying one request at a time (lean transport).
/// A reused connection that the server closed before answering is reopened once and the
/// request resent; that is logged and counted, not failed.
class HttpConnection final : public QObject {
    Q_OBJECT
public:
    HttpConnection(const QString &host, quint16 port, QObject *parent = nullptr);

    std::function<void(HttpConnection *, bool ok)> opened; ///< once, after open(): connected or failed
    std::function<void(HttpConnection *, StreamState *, const StreamEnd &)> finished; ///< the request ended
    std::function<void(int events)> eventsFramed;
    const EventTap *tap = nullptr;

    /// Connects without a request (pre-opening before a point's clock starts).
    void open();
    /// Sends `request` bytes for `state` (which must outlive the request).
    void send(StreamState *state, const QByteArray &request);
    /// Ends the request now (timeout, cancel) and drops the socket; `finished` is not called.
    void abortRequest();
    bool isConnected() const { return m_socket.state() == QAbstractSocket::ConnectedState; }
    bool isBusy() const noexcept { return m_state != nullptr; }
    StreamState *state() const noexcept { return m_state; }
    int reopened() const noexcept { return m_reopened; }

private:
    void onConnected();
    void onReadyRead();
    void onDisconnected();
    void onError(QAbstractSocket::SocketError);
    void connectNow();
    void writeRequest();
    void finish(const StreamEnd &end, bool keepSocket);

    QTcpSocket m_socket;
    QString m_host;
    quint16 m_port;
    HttpResponseDecoder m_decoder;
    QByteArray m_body;
    QByteArray m_request;
    StreamState *m_state = nullptr;
    bool m_reusedSocket = false;
    bool m_retried = false;
    bool m_opening = false;
    int m_reopened = 0;
};

} // namespace ServeScope
