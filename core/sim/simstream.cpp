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
