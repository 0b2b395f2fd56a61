// SPDX-License-Identifier: MIT
#pragma once

#include "streamtransport.h"

#include <QTimer>

#include <memory>
#include <unordered_map>
#include <vector>

namespace ServeScope {

class HttpConnection;

/// HTTP/1.1 over QTcpSocket for http:// endpoints: keep-alive connections reused one request at
/// a time, chunked and Content-Length bodies, no redirects, timing on the worker's own thread.
class LeanTransport final : public StreamTransport {
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

private:
    HttpConnection *idleConnection();
    HttpConnection *newConnection();
    void onFinished(HttpConnection *c, StreamState *s, const StreamEnd &end);
    void sweep();
    void complete(std::unique_ptr<StreamState> s, const StreamEnd &end);

    EndpointConfig m_endpoint;
    QByteArray m_head; ///< request line and fixed headers, up to the per-request ones
    std::vector<HttpConnection *> m_connections;
    std::unordered_map<HttpConnection *, std::unique_ptr<StreamState>> m_active;
    QTimer m_sweep { this };
};

} // namespace ServeScope
