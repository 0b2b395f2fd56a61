// SPDX-License-Identifier: MIT
#include "sim/simstream.h"

#include "model/clock.h"
#include "sim/simtokenizer.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ServeScope::Sim {

void appendNumber(QByteArray &out, qint64 v)
{
    char buf[24];
    int i = 24;
    const bool negative = v < 0;
    quint64 u = negative ? quint64(-(v + 1)) + 1 : quint64(v);
    do {
        buf[--i] = char('0' + u % 10);
        u /= 10;
    } while (u);
    if (negative)
        buf[--i] = '-';
    out.append(buf + i, 24 - i);
}

SimStream::SimStream(quint64 id, const GenerationRequest &request, int outputTokens, qint64 textStart,
    const QByteArray &modelJson, const StreamParams &params, bool stamp, Flavor flavor)
    : m_id(id)
    , m_request(request)
    , m_outputTokens(outputTokens)
    , m_textStart(textStart)
    , m_tokensPerChunk(qMax(1, params.tokensPerChunk))
    , m_chunkChars(qMax(0, params.chunkChars))
    , m_echo(params.echoPrompt ? request.promptText : QByteArray())
    , m_wrongUsage(params.wrongUsage)
    , m_earlyRole(params.earlyRoleChunk)
    , m_usage(request.includeUsage && !params.noUsage)
    , m_stamp(stamp)
{
    m_request.promptIds.clear(); // only the count matters from here on
    m_request.promptIds.resize(size_t(request.promptTokens()));
    const Endpoint endpoint = request.endpoint;
    const bool chat = endpoint == Endpoint::Chat;
    m_hex = QByteArray::number(id, 16).rightJustified(16, '0');
    m_modelJson = modelJson;
    m_created = QDateTime::currentSecsSinceEpoch();
    if (endpoint != Endpoint::Completion && endpoint != Endpoint::Generate)
        m_reasoning = qMin(qMax(0, params.reasoningTokens), outputTokens);
    m_answerIndex = m_reasoning > 0 ? 1 : 0;
    const QByteArray answerIndex = QByteArray::number(m_answerIndex);
    const bool length = outputTokens >= request.maxTokens;
    const QByteArray reason = length ? "\"length\"" : "\"stop\"";
    QByteArray malformedPrefix = "data: ", malformed;
    if (endpoint == Endpoint::Messages) {
        m_objectHead = ",\"message\":{\"id\":\"msg_" + m_hex
            + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":" + modelJson
            + ",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":";
        m_deltaType = m_reasoningDeltaType = "content_block_delta";
        m_reasoningHead = ",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"";
        m_contentHead = ",\"index\":" + answerIndex + ",\"delta\":{\"type\":\"text_delta\",\"text\":\"";
        m_contentTail = "\"}}\n\n";
    } else if (endpoint == Endpoint::Responses) {
        m_objectHead = ",\"response\":{\"id\":\"resp_" + m_hex
            + "\",\"object\":\"response\",\"created_at\":" + QByteArray::number(m_created) + ",\"status\":\"";
        m_objectMid = "\",\"model\":" + modelJson + ",\"output\":[],\"usage\":";
        m_deltaType = "response.output_text.delta";
        m_reasoningDeltaType = "response.reasoning_text.delta";
        m_reasoningRef = ",\"item_id\":\"rs_" + m_hex + "\",\"output_index\":0,\"content_index\":0";
        m_answerRef = ",\"item_id\":\"msg_" + m_hex + "\",\"output_index\":" + answerIndex + ",\"content_index\":0";
        m_reasoningHead = m_reasoningRef + ",\"delta\":\"";
        m_contentHead = m_answerRef + ",\"delta\":\"";
        m_contentTail = "\"}\n\n";
    } else if (endpoint == Endpoint::Generate) {
        m_contentHead = "data: {\"text\":\"";
        m_contentTail = "\",\"meta_info\":{\"id\":\"" + m_hex + "\",\"finish_reason\":";
        m_finalTail = length ? "{\"type\":\"length\",\"length\":" + QByteArray::number(request.maxTokens) + '}'
                             : QByteArray("{\"type\":\"stop\"}");
        malformed = m_contentHead.mid(6) + m_contentTail;
    } else {
        const QByteArray idText = QByteArray(chat ? "chatcmpl-" : "cmpl-") + m_hex;
        m_objectHead = "{\"id\":\"" + idText + "\",\"object\":\""
            + (chat ? QByteArray("chat.completion.chunk") : QByteArray("text_completion"))
            + "\",\"created\":" + QByteArray::number(m_created) + ",\"model\":" + modelJson + ',';
        malformed = m_objectHead;
    }
    if (endpoint == Endpoint::Messages || endpoint == Endpoint::Responses) {
        malformedPrefix = "event: " + QByteArray(m_deltaType) + "\ndata: ";
        malformed = "{\"type\":\"" + QByteArray(m_deltaType) + '"' + m_contentHead;
    }
    m_malformed = malformedPrefix + malformed.left(malformed.size() / 2) + "\n\n"; // truncated JSON
    if (chat) {
        m_contentHead = "data: " + m_objectHead + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"";
        // vLLM renamed reasoning_content to reasoning; SGLang keeps reasoning_content.
        m_reasoningField = flavor == Flavor::Sglang ? "reasoning_content" : "reasoning";
        m_reasoningHead
            = "data: " + m_objectHead + "\"choices\":[{\"index\":0,\"delta\":{\"" + m_reasoningField + "\":\"";
        m_contentTail = "\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n";
        m_finalTail = "\"},\"logprobs\":null,\"finish_reason\":" + reason + ",\"stop_reason\":null}]}\n\n";
    } else if (endpoint == Endpoint::Completion) {
        m_contentHead = "data: " + m_objectHead + "\"choices\":[{\"index\":0,\"text\":\"";
        m_contentTail = "\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}]}\n\n";
        m_finalTail = "\",\"logprobs\":null,\"finish_reason\":" + reason + ",\"stop_reason\":null}]}\n\n";
    }
}

void SimStream::appendStamp(QByteArray &out) const
{
    if (!m_stamp)
        return;
    out.append(": t=", 4);
    appendNumber(out, monotonicNs());
    out.append('\n');
}

void SimStream::appendRole(QByteArray &out)
{
    if (m_roleSent || m_request.endpoint != Endpoint::Chat)
        return;
    m_roleSent = true;
    appendStamp(out);
    out.append("data: ", 6);
    out.append(m_objectHead);
    out.append("\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
               "\"finish_reason\":null}]}\n\n");
}

namespace {

void appendJsonEscaped(QByteArray &out, QByteArrayView raw)
{
    static const char hex[] = "0123456789abcdef";
    for (const char ch : raw) {
        const auto u = uchar(ch);
        if (ch == '"' || ch == '\\') {
            out.append('\\');
            out.append(ch);
        } else if (u < 0x20) {
            out.append("\\u00", 4);
            out.append(hex[u >> 4]);
            out.append(hex[u & 15]);
        } else {
            out.append(ch);
        }
    }
}

/// The longest prefix of `text` of at most `chars` bytes that does not end inside a UTF-8 sequence.
qsizetype utf8Cut(const QByteArray &text, qsizetype chars)
{
    qsizetype cut = qMin(chars, text.size());
    while (cut > 0 && cut < text.size() && (uchar(text.at(cut)) & 0xC0) == 0x80)
        --cut;
    return cut > 0 ? cut : qMin(chars, text.size());
}

} // namespace

void SimStream::appendTextEvent(QByteArray &out, QByteArrayView raw, bool last)
{
    appendStamp(out);
    if (m_events++ == faults.malformedAt) {
        out.append(m_malformed);
        return;
    }
    out.append(m_contentHead);
    appendJsonEscaped(out, raw);
    out.append(last ? m_finalTail : m_contentTail);
}

void SimStream::appendCharChunks(QByteArray &out, bool finished)
{
    // Gateways that re-chunk by characters: a token's text lands in whichever event it falls in.
    const SonnetText &text = SonnetText::instance();
    if (m_generated > m_sent)
        m_pending += text.text(m_textStart + m_sent, m_generated - m_sent);
    m_sent = m_generated;
    while (m_pending.size() > m_chunkChars || (m_pending.size() == m_chunkChars && !finished)) {
        appendRole(out);
        const qsizetype cut = utf8Cut(m_pending, m_chunkChars);
        appendTextEvent(out, QByteArrayView(m_pending).first(cut), false);
        m_pending.remove(0, cut);
    }
    if (finished) {
        appendRole(out);
        appendTextEvent(out, m_pending, true);
        m_pending.clear();
    }
}

void SimStream::appendContent(QByteArray &out, int count, bool last)
{
    // The reasoning phase's tokens leave in their own event, never beside answer text.
    const int reasoning = qMin(count, m_reasoning - m_sent);
    if (reasoning > 0) {
        appendTokenEvent(out, m_reasoningHead, reasoning, last && reasoning == count);
        count -= reasoning;
    }
    if (count > 0)
        appendTokenEvent(out, m_contentHead, count, last);
}

void SimStream::appendTokenEvent(QByteArray &out, const QByteArray &head, int count, bool last)
{
    appendStamp(out);
    if (m_events++ == faults.malformedAt) {
        out.append(m_malformed);
        m_sent += count;
        return;
    }
    out.append(head);
    if (!m_echo.isEmpty() && &head == &m_contentHead) {
        appendJsonEscaped(out, m_echo);
        m_echo.clear();
    }
    const SonnetText &text = SonnetText::instance();
    for (int i = 0; i < count; ++i)
        out.append(text.jsonToken(m_textStart + m_sent + i));
    m_sent += count;
    out.append(last ? m_finalTail : m_contentTail);
}

int SimStream::saidPrompt() const
{
    return m_wrongUsage == StreamParams::WrongUsage::Zero ? 0 : m_request.promptTokens();
}

int SimStream::saidCached() const
{
    return m_wrongUsage == StreamParams::WrongUsage::Zero ? 0 : m_cached;
}

int SimStream::saidOutput(int generated) const
{
    switch (m_wrongUsage) {
    case StreamParams::WrongUsage::Zero:
        return 0;
    case StreamParams::WrongUsage::Tenth:
        return generated / 10;
    case StreamParams::WrongUsage::None:
        break;
    }
    return generated;
}

void SimStream::appendUsage(QByteArray &out) const
{
    appendStamp(out);
    out.append("data: ", 6);
    out.append(m_objectHead);
    out.append("\"choices\":[],\"usage\":{\"prompt_tokens\":");
    appendNumber(out, saidPrompt());
    out.append(",\"total_tokens\":");
    appendNumber(out, saidPrompt() + saidOutput(m_generated));
    out.append(",\"completion_tokens\":");
    appendNumber(out, saidOutput(m_generated));
    out.append(",\"prompt_tokens_details\":{\"cached_tokens\":");
    appendNumber(out, saidCached());
    out.append('}');
    if (m_reasoning > 0) {
        out.append(",\"completion_tokens_details\":{\"reasoning_tokens\":");
        appendNumber(out, qMin(m_reasoning, m_generated));
        out.append('}');
    }
    out.append("}}\n\n");
}

void SimStream::appendTokens(QByteArray &out, int tokens, bool finished)
{
    m_generated += tokens;
    m_finished = finished;
    if (!m_request.stream)
        return;
    if (dialect()) {
        appendHead(out);
        if (const int due = m_generated - m_sent; due >= m_tokensPerChunk || (finished && due > 0))
            appendParts(out, due, finished);
        if (finished)
            appendEnd(out);
        return;
    }
    if (m_chunkChars > 0) {
        if (!m_echo.isEmpty()) {
            m_pending.prepend(m_echo);
            m_echo.clear();
        }
        appendCharChunks(out, finished);
    } else if (const int due = m_generated - m_sent; due >= m_tokensPerChunk || (finished && due > 0)) {
        appendRole(out); // vLLM: the role delta leaves with the first content, as its own event
        appendContent(out, due, finished);
    }
    if (!finished)
        return;
    if (m_usage)
        appendUsage(out);
    appendStamp(out);
    out.append("data: [DONE]\n\n");
}

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

QByteArray SimStream::fullResponse() const
{
    if (dialect())
        return dialectResponse();
    const bool chat = m_request.endpoint == Endpoint::Chat;
    const int reasoning = qMin(m_reasoning, m_generated);
    const QString text = QString::fromUtf8(
        m_request.promptText + SonnetText::instance().text(m_textStart + reasoning, m_generated - reasoning));
    QJsonObject choice { { QStringLiteral("index"), 0 }, { QStringLiteral("logprobs"), QJsonValue() },
        { QStringLiteral("finish_reason"),
            m_generated >= m_request.maxTokens ? QStringLiteral("length") : QStringLiteral("stop") },
        { QStringLiteral("stop_reason"), QJsonValue() } };
    if (chat) {
        QJsonObject message { { QStringLiteral("role"), QStringLiteral("assistant") },
            { QStringLiteral("content"), text }, { QStringLiteral("tool_calls"), QJsonArray() } };
        if (reasoning > 0)
            message.insert(QString::fromLatin1(m_reasoningField),
                QString::fromUtf8(SonnetText::instance().text(m_textStart, reasoning)));
        choice.insert(QStringLiteral("message"), message);
    } else
        choice.insert(QStringLiteral("text"), text);
    QJsonObject head = QJsonDocument::fromJson(m_objectHead.chopped(1) + '}').object();
    head.insert(QStringLiteral("object"), chat ? QStringLiteral("chat.completion") : QStringLiteral("text_completion"));
    head.insert(QStringLiteral("choices"), QJsonArray { choice });
    QJsonObject usage { { QStringLiteral("prompt_tokens"), saidPrompt() },
        { QStringLiteral("total_tokens"), saidPrompt() + saidOutput(m_generated) },
        { QStringLiteral("completion_tokens"), saidOutput(m_generated) },
        { QStringLiteral("prompt_tokens_details"),
            QJsonObject { { QStringLiteral("cached_tokens"), saidCached() } } } };
    if (reasoning > 0)
        usage.insert(QStringLiteral("completion_tokens_details"),
            QJsonObject { { QStringLiteral("reasoning_tokens"), reasoning } });
    head.insert(QStringLiteral("usage"), usage);
    return QJsonDocument(head).toJson(QJsonDocument::Compact);
}

} // namespace ServeScope::Sim
