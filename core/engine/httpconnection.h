// SPDX-License-Identifier: MIT
#pragma once

#include "httpresponse.h"
#include "streamstate.h"

#include <QByteArray>
#include <QObject>

#include <functional>
#include <memory>
#include <sys/socket.h>
#include <vector>

namespace ServeScope {

class ReceiveRing;
struct ReceivedPiece;
class TlsContext;
class TlsSession;

/// A resolved peer address for connect().
struct PeerAddress {
    sockaddr_storage addr {};
    socklen_t len = 0;
};

/// One keep-alive HTTP/1.1 connection carrying one request at a time (lean transport): a
/// non-blocking socket registered edge-triggered with its transport's epoll set, read in large
/// reads until the kernel has nothing more, or, with a receive ring, read by the ring piece by
/// piece (the epoll set then only reports the connect and room to write). A reused connection
/// that the server closed before answering is reopened once and the request resent; that is
/// logged and counted, not failed. With a TLS context every socket carries a TLS session whose
/// records the connection reads and writes itself (handshake after connect, on the same edges):
/// the reads, their timestamps and the framing after them are a plain connection's, with
/// decryption between read and framing.
class HttpConnection final : public QObject {
    Q_OBJECT
public:
    /// `epollFd` is the transport's set and `ring` its receive ring (nullptr: reads through epoll);
    /// `key` identifies this connection in their events (the connection adds a generation per
    /// socket so a stale event never reaches a newer socket).
    HttpConnection(int epollFd, ReceiveRing *ring, quint32 key, const std::vector<PeerAddress> *peers,
        QByteArray *readBuffer, std::vector<HttpConnection *> *unparsed, QObject *parent = nullptr);
    /// https: every later socket speaks TLS with `context` to `host` (nullptr: plain).
    void setTls(std::shared_ptr<const TlsContext> context, const QByteArray &host);
    ~HttpConnection() override;

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
    bool isConnected() const noexcept { return m_fd >= 0 && !m_connecting && !m_handshaking; }
    bool isBusy() const noexcept { return m_state != nullptr; }
    StreamState *state() const noexcept { return m_state; }
    int reopened() const noexcept { return m_reopened; }

    /// The epoll data word of this connection's current socket.
    quint64 eventKey() const noexcept { return quint64(m_key) << 32 | m_generation; }
    /// Handles the epoll events `events` reported for `generation` (ignored when stale).
    void onEvents(quint32 generation, quint32 events);
    /// Handles a piece the ring received for `generation` (ignored when stale).
    void onPiece(quint32 generation, const ReceivedPiece &piece);
    /// Parses the events of the current request that wait for it (the transport calls this
    /// for every connection it queued in `unparsed`, once a batch of reads is done).
    void digest();

private:
    void connectNow();
    void closeSocket();
    bool startConnect(int err);
    void onConnected();
    void onSocketReady();
    void continueHandshake();
    bool sendFrom(const QByteArray &bytes, qsizetype *sent);
    bool flushTls();
    bool onTlsBytes(ssize_t n, qint64 now);
    qint64 arrivalNs(const timespec *stamp) const;
    quint32 epollEvents() const noexcept;
    void onConnectFailed(int err);
    void readAvailable(bool hangup);
    bool onData(QByteArrayView data, qint64 now);
    void onClosed();
    void writePending();
    void finish(const StreamEnd &end, bool keepSocket);

    int m_epollFd;
    ReceiveRing *m_ring;
    bool m_receiving = false; ///< the ring reads the current socket
    quint32 m_key;
    quint32 m_generation = 0;
    int m_fd = -1;
    size_t m_peer = 0; ///< the address being tried
    const std::vector<PeerAddress> *m_peers;
    QByteArray *m_readBuffer; ///< shared by the transport's connections (one thread)
    std::vector<HttpConnection *> *m_unparsed; ///< the transport's queue for digest()
    bool m_queued = false;
    HttpResponseDecoder m_decoder;
    QByteArray m_body;
    QByteArray m_request;
    qsizetype m_written = 0;
    StreamState *m_state = nullptr;
    bool m_connecting = false;
    bool m_reusedSocket = false;
    bool m_retried = false;
    bool m_opening = false;
    int m_reopened = 0;
    std::shared_ptr<const TlsContext> m_tlsContext;
    QByteArray m_tlsHost;
    std::unique_ptr<TlsSession> m_tls; ///< the current socket's session (https only)
    QByteArray m_tlsOut; ///< records waiting for the socket to take them
    qsizetype m_tlsOutSent = 0;
    bool m_handshaking = false;
    qint64 m_handshakeStartNs = 0;
    QString m_tlsError; ///< why the last handshake failed
};

} // namespace ServeScope
