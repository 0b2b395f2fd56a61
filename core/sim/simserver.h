// SPDX-License-Identifier: MIT
#pragma once

#include "sim/dcgmexporter.h"
#include "sim/enginemodel.h"
#include "sim/httprequestparser.h"
#include "sim/simconfig.h"
#include "sim/simflavour.h"
#include "sim/simstream.h"
#include "sim/simtls.h"

#include <QHash>
#include <QObject>
#include <QRandomGenerator64>
#include <QTimer>

#include <memory>

class QTcpServer;
class QTcpSocket;

namespace ServeScope::Sim {

/// Step-loop health, exported on /metrics.
struct StepLagStats {
    static constexpr int kBuckets = 11;
    static constexpr double kBounds[kBuckets] = { 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0 };
    quint64 count = 0;
    double sum = 0.0, max = 0.0;
    quint64 buckets[kBuckets] = {};
    void add(double seconds);
};

/// The simulated vLLM-like server: HTTP/1.1 on a QTcpServer in front of an EngineModel whose
/// steps run on absolute deadlines. Single-threaded by design (one core serves ~50k events/s).
class SimServer final : public QObject {
    Q_OBJECT
public:
    explicit SimServer(const SimConfig &config, QObject *parent = nullptr);
    ~SimServer() override;

    /// Starts listening; false fills `error`.
    bool listen(QString *error);
    quint16 port() const;
    /// Stops accepting and closes every connection (clean shutdown).
    void shutdown();
    /// The Prometheus text of GET /metrics.
    QByteArray metricsText() const;
    const EngineModel &engine() const { return m_engine; }
    /// The roofline shares of the latest steps (what --dcgm-port reports).
    const GpuActivity &gpuActivity() const { return m_gpu; }

signals:
    void acceptFailed(const QString &message);

private:
    struct Connection;
    void send(Connection *c, const QByteArray &bytes);
    void transmit(Connection *c, const QByteArray &bytes);
    void closeGracefully(Connection *c);

    void onNewConnections();
    void onReadyRead(Connection *c);
    void onDisconnected(Connection *c);
    void processRequests(Connection *c);
    void route(Connection *c, const HttpRequest &request);
    /// The API key as a bearer token, or (`anthropic`) as x-api-key.
    bool authorized(const HttpRequest &request, bool anthropic) const;
    /// --require-header: false (and a 400 sent) when a required header is missing or differs.
    bool requiredHeadersPresent(Connection *c, const HttpRequest &request);
    bool routeDisabled(const QByteArray &path) const;
    void startGeneration(Connection *c, Endpoint endpoint, const HttpRequest &request);
    int drawOutputTokens(const GenerationRequest &request);
    FaultPlan drawFaults(const GenerationRequest &request, int outputTokens);
    void handleTokenize(Connection *c, const HttpRequest &request);
    void handleModels(Connection *c);
    /// vLLM's series (the vllm flavour's /metrics).
    void vllmMetrics(QByteArray &out, const QByteArray &label) const;

    void sendResponse(Connection *c, int status, const QByteArray &contentType, const QByteArray &body,
        const QByteArray &extraHeaders = QByteArray(), qint64 declaredLength = -1);
    void sendJson(Connection *c, int status, const QByteArray &json, const QByteArray &extraHeaders = QByteArray());
    void sendError(Connection *c, int status, const QByteArray &type, const QString &message);
    void writeChunk(Connection *c, const QByteArray &payload);
    /// A piece of a stream's body: chunked, or raw under --wrong-content-length.
    void writeBody(Connection *c, const QByteArray &payload);
    void writeRaw(Connection *c, const QByteArray &bytes);
    void completeResponse(Connection *c);
    void dropStream(Connection *c);
    void closeStream(Connection *c);
    /// --huge-event-bytes: one content event of that size, written in 1 MiB pieces (never built whole).
    void writeHugeEvent(Connection *c);
    void startStall(Connection *c, int ms);
    void endStall(Connection *c);
    void sweepIdle();

    void kick();
    void onStep();
    void deliver(const StepResult &result);

    SimConfig m_config;
    QByteArray m_modelJson;
    QTcpServer *m_tcp = nullptr;
    std::unique_ptr<SimTlsContext> m_tls; ///< --tls-cert: every connection speaks HTTPS
    QByteArray m_tlsOut; ///< records on their way to a socket
    EngineModel m_engine;
    QRandomGenerator64 m_rng;
    QHash<QTcpSocket *, Connection *> m_connections;
    QHash<quint64, Connection *> m_streams;
    QTimer m_stepTimer, m_sweepTimer;
    qint64 m_deadline = 0;
    bool m_stepPending = false, m_kickQueued = false;
    quint64 m_nextId = 0;
    QByteArray m_out, m_frame;
    StepLagStats m_lag;
    SchedulerLog m_log;
    GpuActivity m_gpu;
    static constexpr int kRouteCount = 13;
    quint64 m_routeRequests[kRouteCount] = {}, m_routeHeaderRejected[kRouteCount] = {};
    quint64 m_events = 0, m_requests = 0, m_rejected = 0, m_disconnects = 0, m_connectionsTotal = 0;
    quint64 m_tlsHandshakes = 0, m_tlsResumed = 0;
    qint64 m_startedNs = 0;
};

} // namespace ServeScope::Sim
