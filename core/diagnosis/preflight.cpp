// SPDX-License-Identifier: MIT
#include "preflight.h"

#include "model/apirequest.h"

#include "engine/engineconfig.h"
#include "engine/loadgenerator.h"
#include "engine/sseparser.h"
#include "model/urls.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QTimer>

namespace ServeScope {

namespace {

/// The server's own message from a vLLM ({"message"}), OpenAI ({"error":{"message"}}) or plain body.
QString serverMessage(const QByteArray &body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (o.value(QLatin1String("error")).isObject())
        return o.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    if (o.value(QLatin1String("error")).isString())
        return o.value(QLatin1String("error")).toString();
    if (o.contains(QLatin1String("message")))
        return o.value(QLatin1String("message")).toString();
    if (o.contains(QLatin1String("detail")))
        return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    return QString::fromUtf8(body.left(300)).simplified();
}

// The APIs to ask when `chosen` is not served, the likeliest first.
QList<Api> otherApis(Api chosen)
{
    QList<Api> out;
    for (Api a : { Api::Chat, Api::Messages, Api::Responses, Api::Completions, Api::SglangGenerate })
        if (a != chosen)
            out << a;
    return out;
}

// The API whose format an answer (an error body or a stream) is in, by the marks only that API uses.
std::optional<Api> apiOfAnswer(const QByteArray &payload)
{
    if (payload.contains("\"chat.completion"))
        return Api::Chat;
    if (payload.contains("\"text_completion\""))
        return Api::Completions;
    if (payload.contains("\"type\":\"response.") || payload.contains("\"object\":\"response\""))
        return Api::Responses;
    if (payload.contains("\"meta_info\""))
        return Api::SglangGenerate;
    if (payload.contains("\"type\":\"message_start\"")
        || (payload.contains("\"type\":\"error\"") && payload.contains("_error\"")))
        return Api::Messages;
    return std::nullopt;
}

// Token events in what a stream sent, as the engine's parser frames them.
int tokenEventsIn(const QByteArray &payload, Api api)
{
    SseParser parser;
    parser.setApi(api);
    QVector<SseEvent> events = parser.feed(payload);
    return int(std::count_if(events.cbegin(), events.cend(), [](const SseEvent &e) { return isTokenEvent(e.kind); }));
}

bool mentionsModel(const QString &message)
{
    static const QRegularExpression re(
        QStringLiteral("model.*(does not exist|not found|unknown)"), QRegularExpression::CaseInsensitiveOption);
    return re.match(message).hasMatch();
}

} // namespace

PreflightRequest PreflightRequest::of(const Endpoint &endpoint, const QByteArray &key)
{
    PreflightRequest r;
    r.baseUrl = QUrl(endpoint.baseUrl);
    r.path = endpoint.path;
    r.model = endpoint.model;
    r.dialect = endpoint.dialect;
    r.endpoint = endpointConfig(endpoint, r.baseUrl, key, &r.tlsError);
    return r;
}

Preflight::Preflight(PreflightRequest request, QObject *parent)
    : QObject(parent)
    , m_request(std::move(request))
    , m_nam(new QNetworkAccessManager(this))
{
    m_nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_nam->setProxy(m_request.endpoint.useProxy ? m_request.endpoint.proxy : QNetworkProxy(QNetworkProxy::NoProxy));
}

Preflight::~Preflight()
{
    if (m_reply)
        m_reply->abort();
}

void Preflight::start()
{
    const QUrl &base = m_request.baseUrl;
    if (!base.isValid() || base.host().isEmpty()
        || (base.scheme() != QLatin1String("http") && base.scheme() != QLatin1String("https"))) {
        finish(Diagnosis::BadUrl,
            QStringLiteral("base URL '%1' is not an http(s) URL with a host").arg(base.toString(QUrl::RemoveUserInfo)));
        return;
    }
    QString basePath = base.path();
    while (basePath.endsWith(QLatin1Char('/')))
        basePath.chop(1);
    if (basePath.endsWith(QLatin1String("/v1")) && m_request.path.startsWith(QLatin1String("/v1"))) {
        finish(Diagnosis::DoubledV1,
            QStringLiteral("requests would go to %1")
                .arg(joinUrlPath(base, m_request.path).toString(QUrl::RemoveUserInfo)));
        return;
    }
    if (!m_request.tlsError.isEmpty() && base.scheme() == QLatin1String("https")) {
        finish(Diagnosis::Tls, m_request.tlsError);
        return;
    }
    getModels();
}

void Preflight::abort()
{
    finish(Diagnosis::Other, QStringLiteral("aborted"));
    if (m_reply)
        m_reply->abort();
    if (m_engine)
        m_engine->cancel();
}

QNetworkReply *Preflight::send(const QString &suffix, const QByteArray &body, std::optional<Api> as)
{
    QNetworkRequest req = sideRequest(
        m_request.endpoint, joinUrlPath(m_request.baseUrl, suffix), m_request.timeoutMs, SideHeaders::Endpoint, as);
    req.setRawHeader("Accept-Encoding", "identity");
    QNetworkReply *reply;
    if (body.isNull()) {
        reply = m_nam->get(req);
    } else {
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        req.setRawHeader("Accept", "text/event-stream");
        reply = m_nam->post(req, body);
    }
    m_reply = reply;
    return reply;
}

QString Preflight::scrub(const QString &text) const
{
    return endpointRedactor(m_request.endpoint).apply(text);
}

bool Preflight::streamCut(QNetworkReply *reply)
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError error = reply->error();
    // Network errors only (a reset, a close mid-body, the transfer timeout): not an HTTP status's own error.
    if (status == 0 || error == QNetworkReply::NoError || error >= QNetworkReply::ProxyConnectionRefusedError)
        return false;
    m_received += reply->readAll();
    const int tokens = tokenEventsIn(m_received, apiForPath(m_request.path));
    const QString seen = QStringLiteral("HTTP %1 headers and %2 token events (%3 bytes) arrived")
                             .arg(status)
                             .arg(tokens)
                             .arg(m_received.size());
    m_result.httpStatus = status;
    if (error == QNetworkReply::TimeoutError || error == QNetworkReply::OperationCanceledError) {
        if (tokens == 0)
            return false; // nothing after the headers: a timeout (failedByTransport)
        finish(Diagnosis::StreamStalled,
            QStringLiteral("%1, then nothing more within %2 ms").arg(seen).arg(m_request.timeoutMs));
    } else {
        finish(Diagnosis::StreamTruncated,
            QStringLiteral("%1, then the connection ended: %2").arg(seen, reply->errorString()));
    }
    return true;
}

bool Preflight::failedByTransport(QNetworkReply *reply)
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    m_result.httpStatus = status;
    const bool timedOut
        = reply->error() == QNetworkReply::TimeoutError || reply->error() == QNetworkReply::OperationCanceledError;
    if (status != 0 && timedOut && !m_done) {
        finish(Diagnosis::Timeout,
            QStringLiteral("HTTP %1 headers arrived, then nothing more within %2 ms")
                .arg(status)
                .arg(m_request.timeoutMs));
        return true;
    }
    if (status != 0) {
        const QByteArray encoding = reply->rawHeader("Content-Encoding").trimmed().toLower();
        if (!encoding.isEmpty() && encoding != "identity") {
            finish(Diagnosis::Compressed,
                QStringLiteral("HTTP %1 with Content-Encoding: %2 although Accept-Encoding: identity was sent")
                    .arg(status)
                    .arg(QString::fromLatin1(encoding)));
            return true;
        }
        return false;
    }
    switch (reply->error()) {
    case QNetworkReply::ConnectionRefusedError:
        finish(Diagnosis::ConnectionRefused, reply->errorString());
        break;
    case QNetworkReply::HostNotFoundError:
        finish(Diagnosis::HostNotFound, reply->errorString());
        break;
    case QNetworkReply::SslHandshakeFailedError:
        finish(Diagnosis::Tls, reply->errorString());
        break;
    case QNetworkReply::TimeoutError:
    case QNetworkReply::OperationCanceledError:
        finish(Diagnosis::Timeout, QStringLiteral("no answer within %1 ms").arg(m_request.timeoutMs));
        break;
    default:
        finish(Diagnosis::Other, reply->errorString());
        break;
    }
    return true;
}

void Preflight::getModels()
{
    QNetworkReply *reply = send(QStringLiteral("/v1/models"), QByteArray());
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        if (m_done || failedByTransport(reply))
            return;
        const int status = m_result.httpStatus;
        const QByteArray body = reply->readAll();
        // The models list is not the API's route, and a gateway may guard it otherwise (an Anthropic one takes the
        // key as x-api-key on /v1/messages only): the key is judged on the chosen API's own route, below.
        if (status == 401 || status == 403) {
            m_result.modelsRefused = status;
            return postStream();
        }
        if (status >= 300 && status < 400) {
            finish(Diagnosis::Redirect,
                QStringLiteral("HTTP %1 to %2").arg(status).arg(QString::fromUtf8(reply->rawHeader("Location"))));
            return;
        }
        if (status == 200) {
            const QJsonArray data = QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toArray();
            for (const QJsonValue &v : data) {
                const QJsonObject m = v.toObject();
                m_result.models << m.value(QLatin1String("id")).toString();
                if (m.value(QLatin1String("id")).toString() == m_request.model)
                    m_result.maxModelLen = m.value(QLatin1String("max_model_len")).toInt();
            }
            if (!m_result.models.isEmpty() && !m_request.model.isEmpty()
                && !m_result.models.contains(m_request.model)) {
                finish(Diagnosis::ModelNotFound,
                    QStringLiteral("'%1' is not served; the server lists: %2")
                        .arg(m_request.model, m_result.models.join(QLatin1String(", "))));
                return;
            }
        }
        // A gateway may not list models (404 or 5xx here); the streamed request decides.
        postStream();
    });
}

void Preflight::postStream()
{
    const Api api = apiForPath(m_request.path);
    QNetworkReply *reply = send(m_request.path, streamBody(4));
    m_received.clear();
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { m_received += reply->readAll(); });
    connect(reply, &QNetworkReply::finished, this, [this, reply, api] {
        reply->deleteLater();
        if (m_done || streamCut(reply) || failedByTransport(reply))
            return;
        const QByteArray payload = m_received + reply->readAll();
        const QString message = serverMessage(payload);
        if (!finishedOnStatus(reply, api, payload, message))
            readStreamAnswer(api, payload, message);
    });
}

bool Preflight::finishedOnStatus(QNetworkReply *reply, Api api, const QByteArray &payload, const QString &message)
{
    const int status = m_result.httpStatus;
    const QString evidence = QStringLiteral("HTTP %1 on %2: %3").arg(status).arg(m_request.path, message);
    const auto done = [this](Diagnosis d, const QString &detail) {
        finish(d, detail);
        return true;
    };
    if (status == 401 || status == 403)
        return done(m_request.keyHadWhitespace ? Diagnosis::AuthKeyWhitespace : Diagnosis::Auth, evidence);
    if (status == 404 && mentionsModel(message))
        return done(Diagnosis::ModelNotFound, evidence);
    if (status == 404 || status == 405) {
        finishNamingApi(Diagnosis::RouteNotFound, evidence, otherApis(api));
        return true;
    }
    if (const std::optional<Api> spoken = apiOfAnswer(payload); status == 400 && spoken && *spoken != api) {
        m_result.answeringApi = apiName(*spoken);
        return done(Diagnosis::Other, evidence);
    }
    if (status == 429)
        return done(Diagnosis::RateLimited, evidence);
    if (status >= 500)
        return done(Diagnosis::ServerError, evidence);
    if (status >= 300 && status < 400)
        return done(Diagnosis::Redirect,
            QStringLiteral("HTTP %1 on %2 to %3")
                .arg(status)
                .arg(m_request.path, QString::fromUtf8(reply->rawHeader("Location"))));
    // An interim answer (100 Continue, 103 Early Hints) that this reader took for the last one: the run's own
    // transport reads past it, as a run does, and decides.
    if (status >= 100 && status < 200) {
        m_informational = status;
        readStreamsAsRun();
        return true;
    }
    if (status != 200)
        return done(mentionsModel(message) ? Diagnosis::ModelNotFound : Diagnosis::Other, evidence);
    return false;
}

void Preflight::readStreamAnswer(Api api, const QByteArray &payload, const QString &message)
{
    const int status = m_result.httpStatus;
    // Full framing via the engine's parser; the payloads are parsed as JSON here (not a hot path).
    SseParser parser;
    parser.setApi(api);
    QVector<SseEvent> events = parser.feed(payload);
    parser.finish(events);
    int tokenEvents = 0;
    bool sawData = false;
    for (const SseEvent &e : std::as_const(events)) {
        if (e.kind == EventKind::Comment)
            continue;
        sawData = true;
        if (e.kind == EventKind::Done)
            continue;
        if (e.kind == EventKind::Error)
            return finish(Diagnosis::ErrorBody, QStringLiteral("error event: %1").arg(serverMessage(e.data)));
        const QJsonObject o = QJsonDocument::fromJson(e.data).object();
        if (isTokenEvent(e.kind)) {
            if (tokenEvents == 0)
                m_result.roleChunkFirst = e.kind == EventKind::RoleOnly;
            ++tokenEvents;
        }
        // Where the API says its counts: the usage event, responses' final response, every generate event.
        const AnswerUsage usage
            = answerUsage(api, api == Api::Responses ? o.value(QLatin1String("response")).toObject() : o);
        if ((e.kind == EventKind::Usage || api == Api::SglangGenerate) && usage.outputTokens >= 0) {
            m_result.usageSent = true;
            m_result.completionTokens = usage.outputTokens;
        }
    }
    if (!sawData && payload.isEmpty()) // a 200 ends with no byte of its body: cut after the headers
        return finish(Diagnosis::StreamTruncated,
            QStringLiteral("HTTP %1 headers and 0 token events (0 bytes) arrived, then the connection ended")
                .arg(status));
    if (!sawData) {
        const QJsonObject whole = QJsonDocument::fromJson(payload).object();
        if (whole.value(QLatin1String("choices")).isArray())
            return finish(Diagnosis::NotStreamed,
                QStringLiteral("HTTP 200 with one JSON completion (%1 bytes) instead of an event stream")
                    .arg(payload.size()));
        if (payload.trimmed().startsWith('{') && !message.isEmpty())
            return finish(Diagnosis::ErrorBody, QStringLiteral("HTTP 200 with a JSON body: %1").arg(message));
        return finish(
            Diagnosis::NoChoices, QStringLiteral("no SSE data events in a %1-byte answer").arg(payload.size()));
    }
    m_result.streamed = true;
    if (tokenEvents == 0) {
        if (const std::optional<Api> spoken = apiOfAnswer(payload); spoken && *spoken != api)
            m_result.answeringApi = apiName(*spoken);
        return finish(Diagnosis::NoChoices,
            QStringLiteral("data events arrived but none carried a token in the %1 API's format").arg(apiName(api)));
    }
    readStreamsAsRun();
}

void Preflight::finishNamingApi(Diagnosis d, const QString &detail, QList<Api> untried)
{
    if (untried.isEmpty())
        return finish(d, detail);
    // The chosen path's prefix (a gateway's /anthropic, /openai) with the next API's usual path.
    const Api next = untried.takeFirst();
    const QString path = pathWithApi(m_request.path, next);
    QJsonObject body = generationBody(next, m_request.dialect, m_request.model, QStringLiteral("Say hello."), 1, false);
    QNetworkReply *reply = send(path, QJsonDocument(body).toJson(QJsonDocument::Compact), next);
    connect(reply, &QNetworkReply::finished, this, [this, reply, d, detail, untried, next, path] {
        reply->deleteLater();
        if (m_done)
            return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QJsonObject answer = QJsonDocument::fromJson(reply->readAll()).object();
        if (status == 200 && answerUsage(next, answer).outputTokens >= 0) {
            m_result.answeringApi = apiName(next);
            m_result.answeringPath = path;
            return finish(d, detail);
        }
        finishNamingApi(d, detail, untried);
    });
}

void Preflight::finish(Diagnosis d, const QString &detail)
{
    if (m_done)
        return;
    m_done = true;
    m_result.diagnosis = d;
    m_result.usable = d == Diagnosis::Ok;
    m_result.detail = scrub(detail);
    if (m_informational && m_result.detail.isEmpty())
        m_result.detail = QStringLiteral("an interim HTTP %1 came before the answer; read past, as a run does")
                              .arg(m_informational);
    Q_EMIT finished(m_result);
}

PreflightResult runPreflight(const PreflightRequest &request)
{
    PreflightResult result;
    QEventLoop loop;
    Preflight preflight(request);
    QObject::connect(&preflight, &Preflight::finished, &loop, [&](const PreflightResult &r) {
        result = r;
        loop.quit();
    });
    QTimer::singleShot(0, &preflight, &Preflight::start);
    loop.exec();
    return result;
}

} // namespace ServeScope
