// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/records.h"
#include "model/redaction.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QNetworkProxy>
#include <QNetworkRequest>
#include <QPair>
#include <QSslConfiguration>

#include <optional>
#include <QString>
#include <QUrl>
#include <QVector>

namespace ServeScope {

enum class TransportKind : quint8 {
    Auto, ///< lean HTTP/1.1 for http:// and https:// without proxy or HTTP/2, the pool otherwise
    Lean, ///< HTTP/1.1 on the worker's epoll loop, plain or TLS (OpenSSL)
    Pool, ///< QNetworkAccessManager pool (proxies, HTTP/2)
};

/// Where requests go. The key is held by value here only; it is never logged or put in errors.
struct EndpointConfig {
    QUrl url; ///< full request URL, e.g. http://127.0.0.1:8000/v1/chat/completions
    QByteArray apiKey; ///< empty: no Authorization header
    bool http2 = false; ///< opt-in HTTP/2 (pool transport only)
    TransportKind transport = TransportKind::Auto;
    bool useProxy = false;
    QNetworkProxy proxy;
    QList<QPair<QByteArray, QByteArray>> extraHeaders;
    QList<QByteArray> secretValues; ///< extra-header values that are secrets: scrubbed from error texts like the key
    Timeouts timeouts;
    int maxEventBytes = 1 << 20; ///< longest SSE line or event; longer fails the request as protocol
    /// https: PEM certificate authorities to trust instead of the system's (empty: the system's).
    QString caFile;
    bool tlsSkipVerify = false; ///< https without checking the server's certificate or name
    /// The two above for Qt Network's requests (the pool, side calls, scrapes); see applyTls().
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();

    /// The API the URL's path names: its request shape, authentication and stream format.
    Api api() const { return apiForPath(url.path()); }
};

/// The one reading of an experiment's endpoint for requests, by the run, `check` and Test connection
/// alike: the stream URL (`base` with the endpoint's path, the base URL's own path kept), the key,
/// HTTP/2 opt-in, the proxy, the extra headers, the CA file and skip-verify with their `tls`
/// (`tlsError` says why a CA file cannot be used). Timeouts and secret headers are the caller's.
EndpointConfig endpointConfig(const Endpoint &endpoint, const QUrl &base, const QByteArray &key, QString *tlsError);

/// `tls` for an endpoint's CA file and skip-verify setting; false (with the reason) when the CA
/// file holds no PEM certificate.
bool makeTlsConfiguration(EndpointConfig *endpoint, QString *error);
/// Gives an https request the endpoint's TLS settings (nothing for http).
void applyTls(QNetworkRequest *request, const EndpointConfig &endpoint);

/// What a side request carries besides the URL: the endpoint's authentication and extra headers (for `Api`,
/// or for the endpoint's own API), or none (`NoHeaders`: a DCGM exporter is not the endpoint's server).
enum class SideHeaders { Endpoint, NoHeaders };
/// One request beside the streams (`/tokenize`, `/metrics`, `/v1/models`, a readiness probe, the check's
/// probes): the endpoint's TLS settings, its headers as `headers` says, and a transfer timeout. The one
/// place such a request is composed.
QNetworkRequest sideRequest(const EndpointConfig &endpoint, const QUrl &url, int timeoutMs,
    SideHeaders headers = SideHeaders::Endpoint, std::optional<Api> api = std::nullopt);

/// Adds headers whose values are secrets (readSecretHeaders()): sent with every request, scrubbed from
/// everything the server answers like the key.
void addSecretHeaders(EndpointConfig *config, const QList<QPair<QByteArray, QByteArray>> &headers);

/// The transport Auto resolves to for an endpoint.
TransportKind resolveTransport(const EndpointConfig &endpoint);

/// The redaction rule for everything this endpoint's server answers: its key and every secret header value.
Redactor endpointRedactor(const EndpointConfig &endpoint);
/// What every request to the endpoint carries: its API's authentication (apiAuthHeaders) where the extra headers
/// do not set the same header, then the extra headers.
QList<QPair<QByteArray, QByteArray>> endpointHeaders(const EndpointConfig &endpoint);
/// The same for a request in another API than the endpoint's (check asking which API a server speaks).
QList<QPair<QByteArray, QByteArray>> endpointHeaders(const EndpointConfig &endpoint, Api api);

/// One load point as the engine runs it: the experiment's LoadPoint (concurrency or rate, burstiness,
/// cap and stop rule; its lengths are the prompts' business) under the load mode, plus what every
/// record is tagged with. Bounds are the experiment validation's; start() refuses only what it cannot run.
struct LoadSpec {
    LoadMode mode = LoadMode::Concurrency;
    LoadPoint load;
    quint64 seed = 0; ///< arrival gaps
    /// Open loop: the send offsets (ns from the point's start) the workload sets (a trace's schedule); empty: drawn
    /// from the rate, burstiness and seed (arrivalOffsetsNs()).
    QVector<qint64> arrivalsNs;
    /// Closed loop: the turns of one session (multi_turn; 1: every request stands alone). A slot runs a session's
    /// turns in order, each after the previous one's answer and `thinkNs`; num_prompts counts requests, and the
    /// point starts sessions until they hold that many.
    int sessionTurns = 1;
    qint64 thinkNs = 0;

    // Copied into every record.
    qint64 runId = 0;
    QString variant;
    int point = 0;
    int repeat = 1;
    bool warmup = false;

    /// Streams that may be live at once (what connections and descriptors are sized for).
    int peakStreams() const;
};

/// Throttled (<= 10 Hz) state of a running point, for monitors.
struct LoadProgress {
    qint64 elapsedNs = 0;
    int started = 0, inFlight = 0, completed = 0, failed = 0, cancelled = 0;
    qint64 eventsReceived = 0;
    int reopenedConnections = 0;
};

/// How a point ended.
struct LoadOutcome {
    bool ok = true; ///< false: the point could not start (see message)
    bool cancelled = false;
    QString message;
    qint64 clockStartNs = 0; ///< the moment the point's clock started (after connections were opened)
    qint64 endNs = 0;
    int sent = 0, completed = 0, failed = 0, cancelledRequests = 0;
    QString transport; ///< "lean" or "pool"
    QString receive; ///< lean: how its sockets were read, "io_uring" or "epoll (<why>)"
    int workers = 0;
    int connectionsOpened = 0;
};

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::LoadProgress)
Q_DECLARE_METATYPE(ServeScope::LoadOutcome)
