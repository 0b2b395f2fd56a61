// SPDX-License-Identifier: MIT
#pragma once

#include "httpconnection.h"
#include "receivering.h"
#include "streamtransport.h"

#include <QTimer>

#include <memory>
#include <unordered_map>
#include <vector>

struct epoll_event;

namespace ServeScope {

class EpollDispatcher;

/// HTTP/1.1 on plain non-blocking sockets for http:// endpoints: keep-alive connections reused one
/// request at a time, chunked and Content-Length bodies, no redirects, timing on the worker's own
/// thread. Every socket is edge-triggered in the epoll set the worker's thread blocks in
/// (EpollDispatcher), so a wake-up costs the sockets that are ready, not all of them. Where the
/// thread can have a receive ring (Linux >= 6.0 with liburing), the ring reads the sockets instead
/// and the set only reports connects and room to write.
class LeanTransport final : public StreamTransport, private ReceiveSink {
    Q_OBJECT
public:
    explicit LeanTransport(QObject *parent = nullptr);
    ~LeanTransport() override;

    QString name() const override { return QStringLiteral("lean"); }
    void configure(const EndpointConfig &endpoint) override;
    void warm(int connections, std::function<void(int)> ready) override;
    void start(StreamRequest request) override;
    void cancelAll() override;
    int inFlight() const override { return int(m_active.size()); }
    int reopened() const override;
    /// How the sockets are read: "io_uring", or "epoll (<why not io_uring>)"; empty before configure().
    QString receivePath() const { return m_receivePath; }

private:
    void dispatch(const epoll_event *events, int count);
    void onPiece(const ReceivedPiece &piece) override;
    void onBatchEnd() override;
    void digestRead();
    void setBatch();
    void release(HttpConnection *c);
    HttpConnection *idleConnection();
    HttpConnection *newConnection();
    void onFinished(HttpConnection *c, StreamState *s, const StreamEnd &end);
    void sweep();
    bool tlsBroken() const; ///< https whose TLS settings could not be made
    void complete(std::unique_ptr<StreamState> s, const StreamEnd &end);
    struct Warming;
    void openMore(const std::shared_ptr<Warming> &w);
    void endWarming();

    EpollDispatcher *m_loop = nullptr; ///< the worker thread's loop, whose set holds the sockets
    ReceiveRing *m_ring = nullptr; ///< that loop's receive ring, when it has one
    QString m_receivePath;
    QByteArray m_readBuffer; ///< every read of this worker goes here first
    std::vector<PeerAddress> m_peers; ///< the endpoint's host, resolved once per configure()
    std::shared_ptr<TlsContext> m_tls; ///< https: OpenSSL's settings for every connection
    QString m_tlsError; ///< why m_tls could not be made
    EndpointConfig m_endpoint;
    Api m_api = Api::Chat; ///< m_endpoint.api(), read once
    Redactor m_redactor; ///< endpointRedactor(m_endpoint)
    QByteArray m_head; ///< request line and fixed headers, up to the per-request ones
    std::vector<HttpConnection *> m_connections; ///< index = the connection's epoll key
    std::vector<HttpConnection *> m_idle; ///< not busy, most recently freed last
    std::vector<HttpConnection *> m_unparsed; ///< read from in this dispatch, events to parse
    std::unordered_map<HttpConnection *, std::unique_ptr<StreamState>> m_active;
    QTimer m_sweep { this };
    std::shared_ptr<Warming> m_warming; ///< the warm() under way, if any
    QTimer m_warmWatch { this }; ///< ends a warm() in which no connection opened for the connect timeout
};

} // namespace ServeScope
