// SPDX-License-Identifier: MIT
// SimStream in the Messages, Responses and SGLang /generate APIs: their streamed events and whole bodies.
#include "sim/simstream.h"

#include "sim/simtokenizer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ServeScope::Sim {

void SimStream::appendHead(QByteArray &out)
{
    const Endpoint endpoint = m_request.endpoint;
    if (m_headSent || (endpoint != Endpoint::Messages && endpoint != Endpoint::Responses))
        return;
    m_headSent = true;
    if (endpoint == Endpoint::Messages) {
        beginEvent(out, "message_start");
        out.append(m_objectHead);
        appendNumber(out, saidPrompt() - saidCached());
        out.append(",\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":");
        appendNumber(out, saidCached());
        out.append(",\"output_tokens\":0}}}\n\n");
        beginEvent(out, "ping");
        out.append("}\n\n");
        return;
    }
    for (const char *type : { "response.created", "response.in_progress" }) {
        beginEvent(out, type);
        out.append(m_objectHead);
        out.append("in_progress");
        out.append(m_objectMid);
        out.append("null}}\n\n");
    }
}

void SimStream::beginEvent(QByteArray &out, const char *type)
{
    appendStamp(out);
    out.append("event: ");
    out.append(type);
    out.append("\ndata: {\"type\":\"");
    out.append(type);
    out.append('"');
    if (m_request.endpoint == Endpoint::Responses) {
        out.append(",\"sequence_number\":");
        appendNumber(out, m_sequence++);
    }
}

void SimStream::appendText(QByteArray &out, int from, int count) const
{
    const SonnetText &text = SonnetText::instance();
    for (int i = 0; i < count; ++i)
        out.append(text.jsonToken(m_textStart + from + i));
}

void SimStream::appendParts(QByteArray &out, int due, bool finished)
{
    while (due > 0) {
        // As on chat, reasoning tokens never share an event with answer tokens.
        const bool reasoning = m_sent < m_reasoning;
        const int count = reasoning ? qMin(due, m_reasoning - m_sent) : due;
        if (reasoning && m_sent == 0)
            appendPartStart(out, true);
        else if (!reasoning && !m_answerStarted)
            appendPartStart(out, false);
        due -= count;
        appendDelta(out, reasoning, count, finished && due == 0);
        if (reasoning && m_sent == m_reasoning)
            appendPartEnd(out, true);
    }
}

void SimStream::appendDelta(QByteArray &out, bool reasoning, int count, bool last)
{
    if (m_events++ == faults.malformedAt) {
        appendStamp(out);
        out.append(m_malformed);
        m_sent += count;
        return;
    }
    if (m_request.endpoint != Endpoint::Generate) {
        beginEvent(out, reasoning ? m_reasoningDeltaType : m_deltaType);
        out.append(reasoning ? m_reasoningHead : m_contentHead);
        appendText(out, m_sent, count);
        m_sent += count;
        out.append(m_contentTail);
        return;
    }
    // SGLang sends the whole text generated so far in every event.
    appendStamp(out);
    out.append(m_contentHead);
    m_sent += count;
    appendText(out, 0, m_sent);
    out.append(m_contentTail);
    if (last)
        out.append(m_finalTail);
    else
        out.append("null");
    out.append(",\"prompt_tokens\":");
    appendNumber(out, saidPrompt());
    out.append(",\"completion_tokens\":");
    appendNumber(out, saidOutput(m_sent));
    out.append(",\"cached_tokens\":");
    appendNumber(out, saidCached());
    out.append("},\"index\":0}\n\n");
}

void SimStream::appendPartStart(QByteArray &out, bool reasoning)
{
    m_answerStarted = m_answerStarted || !reasoning;
    if (m_request.endpoint == Endpoint::Messages) {
        beginEvent(out, "content_block_start");
        out.append(",\"index\":");
        appendNumber(out, reasoning ? 0 : m_answerIndex);
        out.append(reasoning ? ",\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n"
                             : ",\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n");
    } else if (m_request.endpoint == Endpoint::Responses) {
        beginEvent(out, "response.output_item.added");
        appendItem(out, reasoning, false);
        if (reasoning)
            return;
        beginEvent(out, "response.content_part.added");
        out.append(m_answerRef);
        out.append(",\"part\":{\"type\":\"output_text\",\"text\":\"\",\"annotations\":[]}}\n\n");
    }
}

void SimStream::appendPartEnd(QByteArray &out, bool reasoning)
{
    if (m_request.endpoint == Endpoint::Messages) {
        beginEvent(out, "content_block_stop");
        out.append(",\"index\":");
        appendNumber(out, reasoning ? 0 : m_answerIndex);
        out.append("}\n\n");
    } else if (m_request.endpoint == Endpoint::Responses) {
        const int from = reasoning ? 0 : m_reasoning;
        const int count = reasoning ? m_reasoning : m_generated - m_reasoning;
        beginEvent(out, reasoning ? "response.reasoning_text.done" : "response.output_text.done");
        out.append(reasoning ? m_reasoningRef : m_answerRef);
        out.append(",\"text\":\"");
        appendText(out, from, count);
        out.append("\"}\n\n");
        if (!reasoning) {
            beginEvent(out, "response.content_part.done");
            out.append(m_answerRef);
            out.append(",\"part\":{\"type\":\"output_text\",\"text\":\"");
            appendText(out, from, count);
            out.append("\",\"annotations\":[]}}\n\n");
        }
        beginEvent(out, "response.output_item.done");
        appendItem(out, reasoning, true);
    }
}

void SimStream::appendItem(QByteArray &out, bool reasoning, bool done)
{
    out.append(",\"output_index\":");
    appendNumber(out, reasoning ? 0 : m_answerIndex);
    out.append(reasoning ? ",\"item\":{\"id\":\"rs_" : ",\"item\":{\"id\":\"msg_");
    out.append(m_hex);
    if (reasoning) {
        out.append("\",\"type\":\"reasoning\",\"summary\":[],\"content\":[");
        if (done) {
            out.append("{\"type\":\"reasoning_text\",\"text\":\"");
            appendText(out, 0, m_reasoning);
            out.append("\"}");
        }
    } else if (done) {
        out.append("\",\"type\":\"message\",\"status\":\"completed\",\"role\":\"assistant\",\"content\":[{\"type\":"
                   "\"output_text\",\"text\":\"");
        appendText(out, m_reasoning, m_generated - m_reasoning);
        out.append("\",\"annotations\":[]}");
    } else {
        out.append("\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[");
    }
    out.append("]}}\n\n");
}

void SimStream::appendEnd(QByteArray &out)
{
    const Endpoint endpoint = m_request.endpoint;
    if (endpoint == Endpoint::Generate) {
        appendStamp(out);
        out.append("data: [DONE]\n\n");
        return;
    }
    if (!m_answerStarted) // every token was reasoning: an empty answer
        appendPartStart(out, false);
    appendPartEnd(out, false);
    if (endpoint == Endpoint::Messages) {
        beginEvent(out, "message_delta");
        out.append(m_generated >= m_request.maxTokens ? ",\"delta\":{\"stop_reason\":\"max_tokens\""
                                                      : ",\"delta\":{\"stop_reason\":\"end_turn\"");
        out.append(",\"stop_sequence\":null},\"usage\":{\"output_tokens\":");
        appendNumber(out, saidOutput(m_generated));
        out.append("}}\n\n");
        beginEvent(out, "message_stop");
        out.append("}\n\n");
        return;
    }
    beginEvent(out, "response.completed");
    out.append(m_objectHead);
    out.append("completed");
    out.append(m_objectMid);
    out.append("{\"input_tokens\":");
    appendNumber(out, saidPrompt());
    out.append(",\"input_tokens_details\":{\"cached_tokens\":");
    appendNumber(out, saidCached());
    out.append("},\"output_tokens\":");
    appendNumber(out, saidOutput(m_generated));
    out.append(",\"output_tokens_details\":{\"reasoning_tokens\":");
    appendNumber(out, m_reasoning);
    out.append("},\"total_tokens\":");
    appendNumber(out, saidPrompt() + saidOutput(m_generated));
    out.append("}}}\n\n");
}

QByteArray SimStream::dialectResponse() const
{
    const SonnetText &sonnet = SonnetText::instance();
    const QString model = QJsonDocument::fromJson('[' + m_modelJson + ']').array().at(0).toString();
    const QString reasoningText = QString::fromUtf8(sonnet.text(m_textStart, m_reasoning));
    const QString answer = QString::fromUtf8(sonnet.text(m_textStart + m_reasoning, m_generated - m_reasoning));
    const bool length = m_generated >= m_request.maxTokens;
    const int prompt = saidPrompt(), said = saidOutput(m_generated), cached = saidCached();
    QJsonObject o;
    if (m_request.endpoint == Endpoint::Generate) {
        const QJsonObject finish = length ? QJsonObject { { QStringLiteral("type"), QStringLiteral("length") },
            { QStringLiteral("length"), m_request.maxTokens } }
                                          : QJsonObject { { QStringLiteral("type"), QStringLiteral("stop") } };
        o = QJsonObject { { QStringLiteral("text"), answer },
            { QStringLiteral("meta_info"),
                QJsonObject { { QStringLiteral("id"), QString::fromLatin1(m_hex) },
                    { QStringLiteral("finish_reason"), finish }, { QStringLiteral("prompt_tokens"), prompt },
                    { QStringLiteral("completion_tokens"), said }, { QStringLiteral("cached_tokens"), cached } } },
            { QStringLiteral("index"), 0 } };
    } else if (m_request.endpoint == Endpoint::Messages) {
        QJsonArray content;
        if (m_reasoning > 0)
            content.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("thinking") },
                { QStringLiteral("thinking"), reasoningText } });
        content.append(
            QJsonObject { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("text"), answer } });
        o = QJsonObject { { QStringLiteral("id"), QString::fromLatin1("msg_" + m_hex) },
            { QStringLiteral("type"), QStringLiteral("message") },
            { QStringLiteral("role"), QStringLiteral("assistant") }, { QStringLiteral("model"), model },
            { QStringLiteral("content"), content },
            { QStringLiteral("stop_reason"), length ? QStringLiteral("max_tokens") : QStringLiteral("end_turn") },
            { QStringLiteral("stop_sequence"), QJsonValue() },
            { QStringLiteral("usage"),
                QJsonObject { { QStringLiteral("input_tokens"), prompt - cached },
                    { QStringLiteral("cache_creation_input_tokens"), 0 },
                    { QStringLiteral("cache_read_input_tokens"), cached },
                    { QStringLiteral("output_tokens"), said } } } };
    } else {
        QJsonArray output;
        if (m_reasoning > 0)
            output.append(QJsonObject { { QStringLiteral("id"), QString::fromLatin1("rs_" + m_hex) },
                { QStringLiteral("type"), QStringLiteral("reasoning") }, { QStringLiteral("summary"), QJsonArray() },
                { QStringLiteral("content"),
                    QJsonArray { QJsonObject { { QStringLiteral("type"), QStringLiteral("reasoning_text") },
                        { QStringLiteral("text"), reasoningText } } } } });
        output.append(QJsonObject { { QStringLiteral("id"), QString::fromLatin1("msg_" + m_hex) },
            { QStringLiteral("type"), QStringLiteral("message") },
            { QStringLiteral("status"), QStringLiteral("completed") },
            { QStringLiteral("role"), QStringLiteral("assistant") },
            { QStringLiteral("content"),
                QJsonArray { QJsonObject { { QStringLiteral("type"), QStringLiteral("output_text") },
                    { QStringLiteral("text"), answer }, { QStringLiteral("annotations"), QJsonArray() } } } } });
        o = QJsonObject { { QStringLiteral("id"), QString::fromLatin1("resp_" + m_hex) },
            { QStringLiteral("object"), QStringLiteral("response") }, { QStringLiteral("created_at"), m_created },
            { QStringLiteral("status"), QStringLiteral("completed") }, { QStringLiteral("model"), model },
            { QStringLiteral("output"), output },
            { QStringLiteral("usage"),
                QJsonObject { { QStringLiteral("input_tokens"), prompt },
                    { QStringLiteral("input_tokens_details"),
                        QJsonObject { { QStringLiteral("cached_tokens"), cached } } },
                    { QStringLiteral("output_tokens"), said },
                    { QStringLiteral("output_tokens_details"),
                        QJsonObject { { QStringLiteral("reasoning_tokens"), m_reasoning } } },
                    { QStringLiteral("total_tokens"), prompt + said } } } };
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace ServeScope::Sim
