// SPDX-License-Identifier: MIT
#include "streamstate.h"

#include "chunkscan.h"
#include "engineconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ServeScope {

namespace {
constexpr qsizetype kBodyHead = 16 * 1024;

QString scrub(QString text, const Redactor &redactor)
{
    text = redactor.apply(text);
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
    // vLLM's and OpenAI's types and codes, Anthropic's api_error and overloaded_error.
    for (const char *key : { "type", "code" }) {
        const QString type = err.value(QLatin1String(key)).toString().toLower();
        for (const char *server : { "server", "internal", "overloaded", "api_error" })
            if (type.contains(QLatin1String(server)))
                return ErrorClass::ServerError;
    }
    return ErrorClass::Protocol;
}

void fail(RequestRecord &r, ErrorClass c, const QString &text, const Redactor &redactor)
{
    r.status = c == ErrorClass::Cancelled ? RequestStatus::Cancelled : RequestStatus::Failed;
    r.errorClass = c;
    r.errorText = scrub(text, redactor);
}

} // namespace

int StreamState::onBody(QByteArrayView bytes, qint64 nowNs, const EventTap &tap)
{
    // The head is read only for a non-2xx status or a stream without any token event: once a
    // 2xx stream has a token it is never needed, so it is dropped and no longer copied.
    if (!m_headDropped && sawToken && record.httpStatus >= 200 && record.httpStatus < 300) {
        bodyHead = QByteArray();
        m_headDropped = true;
    }
    if (!m_headDropped && bodyHead.size() < kBodyHead)
        bodyHead.append(bytes.first(std::min(bytes.size(), kBodyHead - bodyHead.size())));
    m_nowNs = nowNs;
    m_tap = tap ? &tap : nullptr;
    m_framed = 0;
    parser.feed(bytes, *this);
    m_tap = nullptr;
    if (m_framed)
        lastEventNs = nowNs;
    return m_framed;
}

void StreamState::onEvent(EventKind kind, QByteArrayView data)
{
    record.eventNs.append(m_nowNs - record.startNs);
    record.eventKinds.append(kind);
    ++m_framed;
    if (isTokenEvent(kind))
        sawToken = true;
    if (m_tap)
        (*m_tap)(m_nowNs, kind, data);
    if (kind == EventKind::Usage || isTokenEvent(kind) || kind == EventKind::Other) {
        m_pendingBytes.append(data.data(), data.size());
        m_pending.emplace_back(record.eventKinds.size() - 1, m_pendingBytes.size());
    } else if (kind == EventKind::Error && !parsed.hasError) {
        parsed.hasError = true;
        parsed.firstError = data.toByteArray();
    }
}

namespace {

// One data event read fully with QJsonDocument: usage, finish_reason, generated text and
// validity. Only for what scanChunk() leaves to it, as its reading is the reference.
void digestWithQt(EventDigest &d, qsizetype index, const QByteArray &payload, bool content)
{
    QJsonParseError err;
    const QJsonObject o = QJsonDocument::fromJson(payload, &err).object();
    if (err.error != QJsonParseError::NoError && d.malformed < 0) {
        d.malformed = index;
        d.malformedHead = QByteArray(payload.constData(), std::min<qsizetype>(payload.size(), 120));
    }
    // What the server says it ran: the model it answered with and its build.
    if (d.model.isEmpty())
        d.model = o.value(QLatin1String("model")).toString().left(256);
    if (d.systemFingerprint.isEmpty())
        d.systemFingerprint = o.value(QLatin1String("system_fingerprint")).toString().left(256);
    const QJsonObject u = o.value(QLatin1String("usage")).toObject();
    if (!u.isEmpty()) {
        d.usage = true;
        d.promptTokens = u.value(QLatin1String("prompt_tokens")).toInt();
        d.completionTokens = u.value(QLatin1String("completion_tokens")).toInt();
        const QJsonValue reasoning
            = u.value(QLatin1String("completion_tokens_details")).toObject().value(QLatin1String("reasoning_tokens"));
        d.reasoningTokens = reasoning.isDouble() ? reasoning.toInt() : -1;
        const QJsonValue cached
            = u.value(QLatin1String("prompt_tokens_details")).toObject().value(QLatin1String("cached_tokens"));
        d.cachedTokens = cached.isDouble() ? cached.toInt() : -1;
    }
    const QJsonObject c = o.value(QLatin1String("choices")).toArray().at(0).toObject();
    if (c.value(QLatin1String("finish_reason")).isString())
        d.ended = true;
    if (!content)
        return;
    ++d.contentEvents;
    const QJsonObject delta = c.value(QLatin1String("delta")).toObject();
    QString reasoning = delta.value(QLatin1String("reasoning_content")).toString();
    if (reasoning.isEmpty())
        reasoning = delta.value(QLatin1String("reasoning")).toString();
    d.reasoningEvents += reasoning.isEmpty() ? 0 : 1;
    if (d.text.size() < kMaxKeptTextChars)
        d.text
            += c.value(QLatin1String("text")).toString() + delta.value(QLatin1String("content")).toString() + reasoning;
    if (d.reasoningText.size() < kMaxKeptTextChars)
        d.reasoningText += reasoning;
}

// The same from a scan that accepted the event (the usual case: no allocation but the text).
void digestScanned(EventDigest &d, const ChunkFields &f, bool content)
{
    auto firstOf = [](QString &kept, QByteArrayView raw) {
        if (!kept.isEmpty() || raw.isEmpty())
            return;
        appendJsonString(kept, raw);
        kept.truncate(256);
    };
    firstOf(d.model, f.model);
    firstOf(d.systemFingerprint, f.systemFingerprint);
    if (f.usage) {
        d.usage = true;
        d.promptTokens = f.promptTokens;
        d.completionTokens = f.completionTokens;
        d.reasoningTokens = f.reasoningTokens;
        d.cachedTokens = f.cachedTokens;
    }
    if (f.finishReason)
        d.ended = true;
    if (!content)
        return;
    ++d.contentEvents;
    // One reasoning text per event: a server that sends both names sends the same text twice.
    const QByteArrayView reasoning = f.reasoningContent.isEmpty() ? f.reasoning : f.reasoningContent;
    d.reasoningEvents += reasoning.isEmpty() ? 0 : 1;
    if (d.text.size() < kMaxKeptTextChars) {
        appendJsonString(d.text, f.text);
        appendJsonString(d.text, f.content);
        appendJsonString(d.text, reasoning);
    }
    if (d.reasoningText.size() < kMaxKeptTextChars)
        appendJsonString(d.reasoningText, reasoning);
}

// A token count the API gives as a number; -1 when it does not.
inline int countOf(const QJsonObject &from, const char *key)
{
    const QJsonValue v = from.value(QLatin1String(key));
    return v.isDouble() ? v.toInt() : -1;
}

// A messages API event: the model and input counts at its start, output and end in its delta, text in its
// content blocks.
void digestMessagesEvent(EventDigest &d, const QJsonObject &o, QString *text, QString *reasoning)
{
    const QString type = o.value(QLatin1String("type")).toString();
    if (type == QLatin1String("message_start")) {
        const QJsonObject m = o.value(QLatin1String("message")).toObject();
        if (d.model.isEmpty())
            d.model = m.value(QLatin1String("model")).toString().left(256);
        const QJsonObject u = m.value(QLatin1String("usage")).toObject();
        // input_tokens leaves out what the cache read or wrote.
        const int cacheRead = countOf(u, "cache_read_input_tokens");
        d.promptTokens = qMax(0, countOf(u, "input_tokens")) + qMax(0, cacheRead)
            + qMax(0, countOf(u, "cache_creation_input_tokens"));
        d.cachedTokens = cacheRead;
    } else if (type == QLatin1String("message_delta")) {
        const QJsonObject u = o.value(QLatin1String("usage")).toObject();
        if (const int output = countOf(u, "output_tokens"); output >= 0) {
            d.usage = true;
            d.completionTokens = output;
        }
        if (const int input = countOf(u, "input_tokens"); input >= 0) // newer servers say it again here
            d.promptTokens = input + qMax(0, countOf(u, "cache_read_input_tokens"))
                + qMax(0, countOf(u, "cache_creation_input_tokens"));
        if (o.value(QLatin1String("delta")).toObject().value(QLatin1String("stop_reason")).isString())
            d.ended = true;
    } else if (type == QLatin1String("content_block_delta")) {
        const QJsonObject delta = o.value(QLatin1String("delta")).toObject();
        *text = delta.value(QLatin1String("text")).toString() + delta.value(QLatin1String("partial_json")).toString();
        *reasoning = delta.value(QLatin1String("thinking")).toString();
    }
}

// A responses API event: the model, the usage and end in the final response, text in its deltas.
void digestResponsesEvent(EventDigest &d, const QJsonObject &o, EventKind kind, QString *text, QString *reasoning)
{
    const QString type = o.value(QLatin1String("type")).toString();
    const QJsonObject r = o.value(QLatin1String("response")).toObject();
    if (d.model.isEmpty())
        d.model = r.value(QLatin1String("model")).toString().left(256);
    if (type == QLatin1String("response.completed") || type == QLatin1String("response.incomplete")) {
        d.ended = true;
        const QJsonObject u = r.value(QLatin1String("usage")).toObject();
        if (!u.isEmpty()) {
            d.usage = true;
            d.promptTokens = qMax(0, countOf(u, "input_tokens"));
            d.completionTokens = qMax(0, countOf(u, "output_tokens"));
            d.reasoningTokens = countOf(u.value(QLatin1String("output_tokens_details")).toObject(), "reasoning_tokens");
            d.cachedTokens = countOf(u.value(QLatin1String("input_tokens_details")).toObject(), "cached_tokens");
        }
    } else if (kind == EventKind::Reasoning) {
        *reasoning = o.value(QLatin1String("delta")).toString();
    } else if (isContentEvent(kind)) {
        *text = o.value(QLatin1String("delta")).toString();
    }
}

// An sglang-generate event: the text so far (or, streamed incrementally, the new text) and the counts so far.
void digestGenerateEvent(EventDigest &d, const QJsonObject &o, QString *text)
{
    const QJsonObject m = o.value(QLatin1String("meta_info")).toObject();
    if (!m.isEmpty()) {
        d.usage = true;
        d.promptTokens = qMax(0, countOf(m, "prompt_tokens"));
        d.completionTokens = qMax(0, countOf(m, "completion_tokens"));
        d.cachedTokens = countOf(m, "cached_tokens");
        if (!m.value(QLatin1String("finish_reason")).isNull() && !m.value(QLatin1String("finish_reason")).isUndefined())
            d.ended = true;
    }
    const QString all = o.value(QLatin1String("text")).toString();
    if (d.text.size() < kMaxKeptTextChars && all.startsWith(d.text))
        *text = all.mid(d.text.size());
    else
        *text = all;
}

// One event of the messages, responses or sglang-generate API, read with QJsonDocument: usage, the end, the
// generated text and validity, where each API says them (docs/metrics.md, "APIs").
void digestApiEvent(EventDigest &d, Api api, qsizetype index, const QByteArray &payload, EventKind kind)
{
    QJsonParseError err;
    const QJsonObject o = QJsonDocument::fromJson(payload, &err).object();
    if (err.error != QJsonParseError::NoError && d.malformed < 0) {
        d.malformed = index;
        d.malformedHead = QByteArray(payload.constData(), std::min<qsizetype>(payload.size(), 120));
    }
    auto keep = [](QString &kept, const QString &more) {
        if (kept.size() < kMaxKeptTextChars)
            kept += more;
    };
    QString text, reasoning;
    if (api == Api::Messages)
        digestMessagesEvent(d, o, &text, &reasoning);
    else if (api == Api::Responses)
        digestResponsesEvent(d, o, kind, &text, &reasoning);
    else
        digestGenerateEvent(d, o, &text);
    if (!isContentEvent(kind))
        return;
    ++d.contentEvents;
    d.reasoningEvents += reasoning.isEmpty() ? 0 : 1;
    keep(d.text, text + reasoning);
    keep(d.reasoningText, reasoning);
}

} // namespace

// Every waiting data event parsed, the same whether it runs after each batch of reads or once at
// the end.
void StreamState::digest()
{
    qsizetype begin = 0;
    for (const auto &[index, end] : m_pending) {
        const QByteArrayView payload(m_pendingBytes.constData() + begin, end - begin);
        begin = end;
        const bool content = isContentEvent(record.eventKinds[index]);
        ChunkFields fields;
        if (const Api api = parser.api(); api != Api::Chat && api != Api::Completions)
            digestApiEvent(
                parsed, api, index, QByteArray::fromRawData(payload.data(), payload.size()), record.eventKinds[index]);
        else if (scanChunk(payload, &fields))
            digestScanned(parsed, fields, content);
        else
            digestWithQt(parsed, index, QByteArray::fromRawData(payload.data(), payload.size()), content);
    }
    m_pending.clear();
    m_pendingBytes.resize(0);
}

StreamEnd StreamState::overflowEnd() const
{
    return { ErrorClass::Protocol,
        QStringLiteral("an SSE line or event exceeded %1 bytes (load.max_event_bytes)").arg(parser.maxEventBytes()),
        false };
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

bool usageBelowStream(int usageTokens, int contentEvents)
{
    return contentEvents > 0 && qint64(usageTokens) * 2 < contentEvents;
}

namespace {

// The server's counts, or where there are none or they contradict the stream, the prompt's target and the
// content events (the run replaces both with better counts when it has them), marked estimated. A prompt
// always has a token, so a usage that says 0 of them is set aside too.
void takeUsage(RequestRecord &r, const EventDigest &d)
{
    const bool output = d.usage && !usageBelowStream(d.completionTokens, d.contentEvents);
    const bool prompt = d.usage && d.promptTokens > 0;
    r.completionTokens = output ? d.completionTokens : d.contentEvents;
    r.outputEstimated = !output;
    r.promptTokens = prompt ? d.promptTokens : r.targetInputLen;
    // A cache count is part of the prompt count it came with.
    r.cachedTokens = prompt ? d.cachedTokens : -1;
    if (d.usage && !output)
        r.usageOutputSetAside = d.completionTokens;
    if (d.usage && !prompt)
        r.usagePromptSetAside = d.promptTokens;
}

} // namespace

void finalizeRecord(StreamState &s, const StreamEnd &end, const Redactor &redactor)
{
    RequestRecord &r = s.record;
    if (!end.truncated && end.transportError == ErrorClass::None) {
        s.m_nowNs = r.endNs;
        s.m_tap = nullptr;
        s.parser.finish(s);
    }
    s.digest();
    const EventDigest &d = s.parsed;
    bool ended = d.ended;
    for (EventKind k : r.eventKinds)
        ended = ended || k == EventKind::Done;
    r.generatedText = redactor.apply(d.text.left(kMaxKeptTextChars)).toUtf8();
    r.generatedText.squeeze(); // toUtf8 leaves room for 3 bytes a character: the record keeps none spare
    r.servedModel = d.model;
    r.systemFingerprint = d.systemFingerprint;
    takeUsage(r, d);
    // Without the server's count, the reasoning events; the run may replace it with the text's /tokenize count.
    r.reasoningEstimated = d.reasoningTokens < 0 && d.reasoningEvents > 0;
    r.reasoningTokens = d.reasoningTokens >= 0 ? d.reasoningTokens : d.reasoningEvents;
    // Kept for the worker (a session's next turn leaves it out of the answer), which drops it unless estimated.
    if (d.reasoningEvents > 0)
        r.reasoningText = redactor.apply(d.reasoningText.left(kMaxKeptTextChars)).toUtf8();
    r.status = RequestStatus::Ok;
    r.errorClass = ErrorClass::None;
    if (end.transportError != ErrorClass::None)
        return fail(r, end.transportError, end.transportText, redactor);
    if (r.httpStatus < 200 || r.httpStatus >= 300) {
        QString text = QStringLiteral("HTTP %1").arg(r.httpStatus);
        if (!s.bodyHead.isEmpty())
            text += QStringLiteral(": ")
                + (looksLikeJsonError(s.bodyHead) ? errorMessage(s.bodyHead) : QString::fromUtf8(s.bodyHead.left(300)));
        return fail(r, classifyHttpStatus(r.httpStatus), text, redactor);
    }
    if (d.hasError)
        return fail(r, classifyErrorEvent(d.firstError), QStringLiteral("error event: ") + errorMessage(d.firstError),
            redactor);
    if (d.malformed >= 0)
        return fail(r, ErrorClass::Protocol,
            QStringLiteral("malformed JSON in event %1: ").arg(d.malformed) + QString::fromUtf8(d.malformedHead),
            redactor);
    if (end.truncated)
        return fail(r, ErrorClass::Protocol,
            end.transportText.isEmpty() ? QStringLiteral("stream truncated: connection closed mid-body")
                                        : end.transportText,
            redactor);
    if (!s.sawToken) {
        if (looksLikeJsonError(s.bodyHead))
            return fail(r, ErrorClass::Protocol,
                QStringLiteral("HTTP %1 with a JSON error body: ").arg(r.httpStatus) + errorMessage(s.bodyHead),
                redactor);
        // One JSON answer where events were asked for: the server (or a gateway) ignored `stream: true`.
        if (s.bodyHead.trimmed().startsWith('{'))
            return fail(r, ErrorClass::Protocol,
                QStringLiteral("not streamed: HTTP %1 with one JSON answer instead of an event stream")
                    .arg(r.httpStatus),
                redactor);
        return fail(r, ErrorClass::Protocol, QStringLiteral("2xx stream without any token event"), redactor);
    }
    // A body that ended by its framing but not by the stream's own word lost its end on the way.
    if (!ended)
        return fail(
            r, ErrorClass::Protocol, QStringLiteral("stream truncated: no [DONE] and no finish_reason"), redactor);
}

} // namespace ServeScope
