// SPDX-License-Identifier: MIT
#pragma once

#include "streamtransport.h"

#include <QTimer>

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace ServeScope {

/// QNetworkAccessManager pool: TLS, proxies, HTTP/2 (opt-in). A manager runs at most 6 HTTP/1.1
/// connections per host in Qt 6.4 and silently queues the rest, so this transport gives each
/// manager at most 6 live streams, adds managers as needed and queues beyond that itself.
class PoolTransport final : public StreamTransport {
    Q_OBJECT
public:
    static constexpr int kStreamsPerManager = 6;
    static constexpr int kMaxManagers = 256;

    explicit PoolTransport(QObject *parent = nullptr);
    ~PoolTransport() override;

    QString name() const override { return QStringLiteral("pool"); }
    void configure(const EndpointConfig &endpoint) override;
    void warm(int connections, std::function<void(int)> ready) override;
    void start(StreamRequest request) override;
    void cancelAll() override;
    int inFlight() const override { return int(m_active.size() + m_queue.size()); }
    int reopened() const override { return 0; }
    int managers() const { return int(m_managers.size()); }

private:
    struct Manager {
        QNetworkAccessManager *nam = nullptr;
        int live = 0;
    };
    struct Active {
        std::unique_ptr<StreamState> state;
        int manager = 0;
        QByteArray body;
    };
    int freeManager();
    int addManager();
    void send(int manager, std::unique_ptr<StreamState> s, const QByteArray &body);
    void onReadyRead(QNetworkReply *reply);
    void onFinished(QNetworkReply *reply);
    void complete(QNetworkReply *reply, const StreamEnd &end, qint64 endNs);
    void drainQueue();
    void sweep();

    EndpointConfig m_endpoint;
    Api m_api = Api::Chat; ///< m_endpoint.api(), read once
    Redactor m_redactor; ///< endpointRedactor(m_endpoint)
    std::vector<Manager> m_managers;
    std::unordered_map<QNetworkReply *, Active> m_active;
    std::deque<std::pair<std::unique_ptr<StreamState>, QByteArray>> m_queue;
    QTimer m_sweep { this };
};

} // namespace ServeScope
