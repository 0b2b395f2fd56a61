// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineconfig.h"
#include "model/records.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <optional>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace ServeScope {

class LoadGenerator;
struct LoadOutcome;

/// What "Test connection" (GUI) and `servescope-cli check` (CLI) found. Codes are stable strings
/// for scripts; views turn them into translated words.
enum class Diagnosis {
    Ok,
    BadUrl,
    DoubledV1,
    ConnectionRefused,
    HostNotFound,
    Tls,
    Timeout,
    Auth,
    AuthKeyWhitespace,
    RouteNotFound,
    ModelNotFound,
    Redirect,
    RateLimited,
    ServerError,
    ErrorBody,
    NoChoices,
    NoTokens,
    StreamTruncated, ///< a stream ended before its end (closed or reset after the headers)
    StreamStalled, ///< a stream sent token events, then nothing more within the timeout
    LengthMismatch, ///< a response longer or shorter than its framing (Content-Length)
    StreamFailed, ///< a stream through the run's transport failed another way
    Compressed, ///< the answer came compressed although `Accept-Encoding: identity` was sent
    NotStreamed, ///< a 200 with one JSON completion: the server ignored `stream: true`
    Other,
};

QString diagnosisCode(Diagnosis d);
/// A one-line fix in English for machine output; the GUI shows its own translated text per code.
QString diagnosisFix(Diagnosis d);

struct PreflightRequest {
    QUrl baseUrl; ///< what the models list and the probes are appended to
    QString path = QStringLiteral("/v1/chat/completions"); ///< names the API (apiForPath)
    QString model;
    Dialect dialect = Dialect::Vllm; ///< the request fields, as the run sends them
    /// Every request of the check goes out as the run's would: its URL, key (handed over by value; never
    /// logged or echoed), extra headers (secret values scrubbed from every detail like the key), proxy
    /// and TLS settings — endpointConfig(), the run's own reading of the endpoint.
    EndpointConfig endpoint;
    QString tlsError; ///< the CA file could not be used (endpointConfig's)
    bool keyHadWhitespace = false; ///< the caller trimmed the key; a 401 then says so
    int timeoutMs = 15000;
    bool smoke = false; ///< also probe /tokenize, /metrics, ignore_eos

    /// A check of `endpoint` (its base URL, path and model) with `key`, reaching it as a run does;
    /// secret headers are the caller's to add (readSecretHeaders(), addSecretHeaders()).
    static PreflightRequest of(const Endpoint &endpoint, const QByteArray &key);
};

struct PreflightResult {
    Diagnosis diagnosis = Diagnosis::Other;
    bool usable = false;
    QString detail; ///< evidence (status, server message); never contains the key
    QStringList models; ///< served model ids
    int maxModelLen = 0;
    int httpStatus = 0;
    /// GET /v1/models answered 401 or 403 (this status; 0 otherwise). Not a verdict on the key: that is the
    /// chosen API's own route's, with its own auth headers.
    int modelsRefused = 0;
    // Capabilities seen on the tiny streamed request.
    bool streamed = false;
    bool usageSent = false;
    bool roleChunkFirst = false; ///< first token event was role-only (vLLM's TTFT then counts it)
    int completionTokens = -1;
    int runStreams = 0; ///< streams read to their end through the run's own transport
    // Smoke only (-1 unknown, 0 no, 1 yes).
    int tokenizeAvailable = -1;
    int metricsAvailable = -1;
    int ignoreEosHonoured = -1;
    /// A 32-token stream read as a run reads it arrived in blocks (metrics' bufferedStream rule);
    /// -1 when it had too few token events to tell.
    int streamBuffered = -1;
    double eventsPerRead = 0; ///< of that stream: token events per socket read
    /// When the chosen API failed: an API that answered in its own format on the same server (its path, with
    /// the chosen path's prefix), or the format the failing answer was in. Empty: none found or not asked.
    QString answeringApi, answeringPath;
};

/// Runs the preflight asynchronously on the calling thread's event loop: models list, then one
/// tiny streamed request (and with smoke, capability probes). Emits finished exactly once.
class Preflight final : public QObject {
    Q_OBJECT
public:
    explicit Preflight(PreflightRequest request, QObject *parent = nullptr);
    ~Preflight() override;

    void start();
    void abort();

Q_SIGNALS:
    void finished(const ServeScope::PreflightResult &result);

private:
    void getModels();
    void postStream();
    /// The streamed request's answer judged by its status alone: true when that finished the check or
    /// moved it on, false for a 200 whose stream is still to read.
    bool finishedOnStatus(QNetworkReply *reply, Api api, const QByteArray &payload, const QString &message);
    /// A 200's stream read as events: a diagnosis when it carries no token, else the run's streams next.
    void readStreamAnswer(Api api, const QByteArray &payload, const QString &message);
    /// Two streams one after the other on one connection through the engine, as `run` sends them.
    void readStreamsAsRun();
    void onRunStreamsFinished(const ServeScope::LoadOutcome &outcome);
    QByteArray streamBody(int maxTokens) const;
    void probeTokenize();
    void probeMetrics();
    void probeIgnoreEos();
    void probeStreamArrival();
    /// The endpoint as the engine reaches it for a run (key, headers, TLS, proxy, timeouts).
    EndpointConfig engineEndpoint() const;
    /// Runs `count` streams of `body` (asking `maxTokens`), one at a time, through the run's own
    /// transport into m_runRecords; then `done`.
    void runStreams(const QByteArray &body, int maxTokens, int count, void (Preflight::*done)(const LoadOutcome &));
    void onArrivalStreamFinished(const ServeScope::LoadOutcome &outcome);
    void finish(Diagnosis d, const QString &detail = {});
    /// Finishes with `d`, after asking the other APIs' paths in turn whether one of them answers.
    void finishNamingApi(Diagnosis d, const QString &detail, QList<Api> untried);
    /// A request to the base URL with `suffix`, authenticated as the endpoint's API (or `as`) asks.
    QNetworkReply *send(const QString &suffix, const QByteArray &body, std::optional<Api> as = std::nullopt);
    bool failedByTransport(QNetworkReply *reply);
    /// The streamed request's body was cut after its headers (a reset, a close) or stalled after token
    /// events: finishes with what arrived. False when neither (nothing arrived after the headers of a timeout).
    bool streamCut(QNetworkReply *reply);
    QString scrub(const QString &text) const;

    PreflightRequest m_request;
    PreflightResult m_result;
    QNetworkAccessManager *m_nam;
    QPointer<QNetworkReply> m_reply;
    LoadGenerator *m_engine = nullptr;
    QList<RequestRecord> m_runRecords;
    QByteArray m_received; ///< the streamed request's body as it arrived
    int m_informational = 0; ///< the interim status the streamed request's reader stopped at
    bool m_done = false;
};

/// For the CLI: runs a Preflight on a local event loop and returns its result.
PreflightResult runPreflight(const PreflightRequest &request);

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::PreflightResult)
