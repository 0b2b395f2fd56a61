// SPDX-License-Identifier: MIT
#include "streamstate.h"

#include "engineconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ServeScope {

namespace {
constexpr qsizetype kBodyHead = 16 * 1024;

QString scrub(QString text, QByteArrayView secret)
{
    if (!secret.isEmpty())
        text.replace(QString::fromUtf8(secret), QStringLiteral("***"));
    if (text.size() > 400)
        text = text.left(400) + QStringLiteral("...");
    return text;
}

QString errorMessage(const QByteArray &payload)
{
    const QJsonObject o = QJsonDocument::fromJson(payload).object();
    const QJsonValue err = o.value(QLatin1String("error"));
    if (err.isObject())
        return err.toObject().value(QLatin1String("message")).toString();
    if (err.isString())
        return err.toString();
    if (o.contains(QLatin1String("message")))
        return o.value(QLatin1String("message")).toString();
    return QString::fromUtf8(payload.left(400));
}

// An error event names a server fault (5xx code or type) or, otherwise, a protocol problem.
ErrorClass classifyErrorEvent(const QByteArray &payload)
{
    const QJsonObject o = QJsonDocument::fromJson(payload).object();
    const QJsonObject err = o.value(QLatin1String("error")).isObject() ? o.value(QLatin1String("error")).toObject() : o;
    const int code = err.value(QLatin1String("code")).toVariant().toInt();
    if (code >= 500 && code < 600)
        return ErrorClass::ServerError;
    const QString type = err.value(QLatin1String("type")).toString().toLower();
    if (type.contains(QLatin1String("server")) || type.contains(QLatin1String("internal")))
        return ErrorClass::ServerError;
    return ErrorClass::Protocol;
}

void fail(RequestRecord &r, ErrorClass c, const QString &text, QByteArrayView secret)
{
    r.status = c == ErrorClass::Cancelled ? RequestStatus::Cancelled : RequestStatus::Failed;
    r.errorClass = c;
    r.errorText = scrub(text, secret);
}

// Parses every data event fully; returns the index of the first one that is not valid JSON, or -1.
// `ended` is set when the stream said it was complete: [DONE] or a finish_reason.
qsizetype parseEvents(StreamState &s, bool *ended)
{
    RequestRecord &r = s.record;
    int contentEvents = 0;
    bool usage = false;
    qsizetype malformed = -1;
    QString text;
    *ended = false;
    for (qsizetype i = 0; i < s.payloads.size(); ++i) {
        const EventKind k = r.eventKinds[i];
        if (k == EventKind::Done)
            *ended = true;
        if (k == EventKind::Usage || isTokenEvent(k) || k == EventKind::Other) {
            QJsonParseError err;
            const QJsonObject o = QJsonDocument::fromJson(s.payloads[i], &err).object();
            if (err.error != QJsonParseError::NoError && malformed < 0)
                malformed = i;
            const QJsonObject u = o.value(QLatin1String("usage")).toObject();
            if (!u.isEmpty()) {
                usage = true;
                r.promptTokens = u.value(QLatin1String("prompt_tokens")).toInt();
                r.completionTokens = u.value(QLatin1String("completion_tokens")).toInt();
            }
            const QJsonObject c = o.value(QLatin1String("choices")).toArray().at(0).toObject();
            if (c.value(QLatin1String("finish_reason")).isString())
                *ended = true;
            if (!isContentEvent(k))
                continue;
            ++contentEvents;
            const QJsonObject d = c.value(QLatin1String("delta")).toObject();
            if (text.size() < kMaxKeptTextChars)
                text += c.value(QLatin1String("text")).toString() + d.value(QLatin1String("content")).toString()
                    + d.value(QLatin1String("reasoning_content")).toString();
        }
    }
    text.truncate(kMaxKeptTextChars);
    r.generatedText = text;
    if (!usage) {
        r.promptTokens = r.targetInputLen;
        r.completionTokens = contentEvents;
        r.outputEstimated = true;
    }
    return malformed;
}

} // namespace

int StreamState::onBody(QByteArrayView bytes, qint64 nowNs, const EventTap &tap)
{
    if (bodyHead.size() < kBodyHead)
        bodyHead.append(bytes.first(std::min(bytes.size(), kBodyHead - bodyHead.size())));
    scratch.clear();
    parser.feed(bytes, scratch);
    for (SseEvent &e : scratch) {
        record.eventNs.append(nowNs - record.startNs);
        record.eventKinds.append(e.kind);
        if (isTokenEvent(e.kind))
            sawToken = true;
        if (tap)
            tap(nowNs, e.kind, e.data);
        payloads.append(std::move(e.data));
    }
    if (!scratch.isEmpty())
        lastEventNs = nowNs;
    return int(scratch.size());
}

StreamEnd StreamState::overflowEnd() const
{
    return { ErrorClass::Protocol,
        QStringLiteral("an SSE line or event exceeded %1 bytes (load.max_event_bytes)").arg(parser.maxEventBytes()),
        false };
}

void finalizeRecord(StreamState &s, const StreamEnd &end, const EndpointConfig &endpoint)
{
    finalizeRecord(s, end, endpoint.apiKey);
    for (const QByteArray &secret : endpoint.secretValues)
        if (!secret.isEmpty())
            s.record.errorText.replace(QString::fromUtf8(secret), QStringLiteral("***"));
}

ErrorClass expiredTimeout(const StreamState &s, const Timeouts &t, qint64 now, QString *text)
{
    auto over
        = [now](qint64 since, double limitS) { return limitS > 0 && since > 0 && now - since > qint64(limitS * 1e9); };
    if (s.connectStartNs && over(s.connectStartNs, t.connectS)) {
        *text = QStringLiteral("connect timed out after %1 s").arg(t.connectS);
        return ErrorClass::TimeoutConnect;
    }
    if (over(s.record.startNs, t.totalS)) {
        *text = QStringLiteral("request exceeded the total timeout of %1 s").arg(t.totalS);
        return ErrorClass::TimeoutTotal;
    }
    if (!s.sawToken && !s.connectStartNs && over(s.record.startNs + s.record.connectNs, t.firstTokenS)) {
        *text = QStringLiteral("no token within %1 s").arg(t.firstTokenS);
        return ErrorClass::TimeoutFirstToken;
    }
    if (s.sawToken && over(s.lastEventNs, t.idleS)) {
        *text = QStringLiteral("no event for %1 s").arg(t.idleS);
        return ErrorClass::TimeoutIdle;
    }
    return ErrorClass::None;
}

ErrorClass classifyHttpStatus(int status)
{
    if (status == 401 || status == 403)
        return ErrorClass::Auth;
    if (status == 404)
        return ErrorClass::NotFound;
    if (status == 429)
        return ErrorClass::RateLimited;
    if (status >= 500)
        return ErrorClass::ServerError;
    return ErrorClass::Protocol;
}

void finalizeRecord(StreamState &s, const StreamEnd &end, QByteArrayView secret)
{
    RequestRecord &r = s.record;
    if (!end.truncated && end.transportError == ErrorClass::None) {
        s.scratch.clear();
        s.parser.finish(s.scratch);
        for (SseEvent &e : s.scratch) {
            r.eventNs.append(r.endNs - r.startNs);
            r.eventKinds.append(e.kind);
            s.sawToken = s.sawToken || isTokenEvent(e.kind);
            s.payloads.append(std::move(e.data));
        }
    }
    bool ended = false;
    const qsizetype malformed = parseEvents(s, &ended);
    r.status = RequestStatus::Ok;
    r.errorClass = ErrorClass::None;
    if (end.transportError != ErrorClass::None)
        return fail(r, end.transportError, end.transportText, secret);
    if (r.httpStatus < 200 || r.httpStatus >= 300) {
        QString text = QStringLiteral("HTTP %1").arg(r.httpStatus);
        if (!s.bodyHead.isEmpty())
            text += QStringLiteral(": ")
                + (looksLikeJsonError(s.bodyHead) ? errorMessage(s.bodyHead) : QString::fromUtf8(s.bodyHead.left(300)));
        return fail(r, classifyHttpStatus(r.httpStatus), text, secret);
    }
    for (qsizetype i = 0; i < s.payloads.size(); ++i) {
        if (r.eventKinds[i] == EventKind::Error)
            return fail(r, classifyErrorEvent(s.payloads[i]),
                QStringLiteral("error event: ") + errorMessage(s.payloads[i]), secret);
    }
    if (malformed >= 0)
        return fail(r, ErrorClass::Protocol,
            QStringLiteral("malformed JSON in event %1: ").arg(malformed)
                + QString::fromUtf8(s.payloads[malformed].left(120)),
            secret);
    if (end.truncated)
        return fail(r, ErrorClass::Protocol,
            end.transportText.isEmpty() ? QStringLiteral("stream truncated: connection closed mid-body")
                                        : end.transportText,
            secret);
    if (!s.sawToken) {
        if (looksLikeJsonError(s.bodyHead))
            return fail(r, ErrorClass::Protocol,
                QStringLiteral("HTTP %1 with a JSON error body: ").arg(r.httpStatus) + errorMessage(s.bodyHead),
                secret);
        return fail(r, ErrorClass::Protocol, QStringLiteral("2xx stream without any token event"), secret);
    }
    // A body that ended by its framing but not by the stream's own word lost its end on the way.
    if (!ended)
        return fail(
            r, ErrorClass::Protocol, QStringLiteral("stream truncated: no [DONE] and no finish_reason"), secret);
}

} // namespace ServeScope
