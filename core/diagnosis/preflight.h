// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace ServeScope {

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
    Other,
};

QString diagnosisCode(Diagnosis d);
/// A one-line fix in English for machine output; the GUI shows its own translated text per code.
QString diagnosisFix(Diagnosis d);

struct PreflightRequest {
    QUrl baseUrl;
    QString path = QStringLiteral("/v1/chat/completions");
    QString model;
    QByteArray apiKey; ///< handed over by value; never logged or echoed
    bool keyHadWhitespace = false; ///< the caller trimmed it; a 401 then says so
    QString proxy; ///< "host:port", empty for none
    int timeoutMs = 15000;
    bool smoke = false; ///< also probe /tokenize, /metrics, ignore_eos
};

struct PreflightResult {
    Diagnosis diagnosis = Diagnosis::Other;
    bool usable = false;
    QString detail; ///< evidence (status, server message); never contains the key
    QStringList models; ///< served model ids
    int maxModelLen = 0;
    int httpStatus = 0;
    // Capabilities seen on the tiny streamed request.
    bool streamed = false;
    bool usageSent = false;
    bool roleChunkFirst = false; ///< first token event was role-only (vLLM's TTFT then counts it)
    int completionTokens = -1;
    // Smoke only (-1 unknown, 0 no, 1 yes).
    int tokenizeAvailable = -1;
    int metricsAvailable = -1;
    int ignoreEosHonoured = -1;
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

    /// Builds "{base}{suffix}" without doubling slashes.

Q_SIGNALS:
    void finished(const ServeScope::PreflightResult &result);

private:
    void getModels();
    void postStream();
    void probeTokenize();
    void probeMetrics();
    void probeIgnoreEos();
    void finish(Diagnosis d, const QString &detail = {});
    QNetworkReply *send(const QString &suffix, const QByteArray &body);
    bool failedByTransport(QNetworkReply *reply);
    QString scrub(QString text) const;

    PreflightRequest m_request;
    PreflightResult m_result;
    QNetworkAccessManager *m_nam;
    QPointer<QNetworkReply> m_reply;
    bool m_done = false;
};

/// For the CLI: runs a Preflight on a local event loop and returns its result.
PreflightResult runPreflight(const PreflightRequest &request);

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::PreflightResult)
