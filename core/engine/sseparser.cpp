// SPDX-License-Identifier: MIT
#include "sseparser.h"

#include <cstring>
#include <string_view>

namespace ServeScope {

namespace {

std::string_view sv(QByteArrayView v)
{
    return { v.data(), size_t(v.size()) };
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

size_t skipSpace(std::string_view s, size_t i)
{
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
}

// s.find(needle, from) with glibc's memmem: string_view::find compares at every '"' of the
// payload, and this runs for several keys per event.
size_t find(std::string_view s, std::string_view needle, size_t from)
{
    if (from > s.size())
        return std::string_view::npos;
    const void *hit = memmem(s.data() + from, s.size() - from, needle.data(), needle.size());
    return hit ? size_t(static_cast<const char *>(hit) - s.data()) : std::string_view::npos;
}

// Position just after `"key"` followed by ':' (and spaces), or npos. A key preceded by a
// backslash is text inside a string, not a key.
size_t findKeyValue(std::string_view s, std::string_view quotedKey, size_t from = 0)
{
    for (size_t at = find(s, quotedKey, from); at != std::string_view::npos; at = find(s, quotedKey, at + 1)) {
        if (at > 0 && s[at - 1] == '\\')
            continue;
        size_t i = skipSpace(s, at + quotedKey.size());
        if (i < s.size() && s[i] == ':')
            return skipSpace(s, i + 1);
    }
    return std::string_view::npos;
}

// True when some occurrence of the key has a non-empty string value.
bool hasNonEmptyString(std::string_view s, std::string_view quotedKey)
{
    for (size_t i = findKeyValue(s, quotedKey); i != std::string_view::npos; i = findKeyValue(s, quotedKey, i)) {
        if (i + 1 < s.size() && s[i] == '"' && s[i + 1] != '"')
            return true;
    }
    return false;
}

// True when the key's value is an array with at least one element (or, for objects, present and not null).
bool hasNonEmptyArray(std::string_view s, std::string_view quotedKey)
{
    for (size_t i = findKeyValue(s, quotedKey); i != std::string_view::npos; i = findKeyValue(s, quotedKey, i)) {
        if (i < s.size() && s[i] == '[') {
            size_t j = skipSpace(s, i + 1);
            if (j < s.size() && s[j] != ']')
                return true;
        }
    }
    return false;
}

// The payload without the whitespace around it.
std::string_view trimmed(QByteArrayView data)
{
    const std::string_view s = sv(data);
    const size_t b = skipSpace(s, 0);
    size_t e = s.size();
    while (e > b && isSpace(s[e - 1]))
        --e;
    return s.substr(b, e - b);
}

bool hasNonNull(std::string_view s, std::string_view quotedKey)
{
    size_t i = findKeyValue(s, quotedKey);
    return i != std::string_view::npos && i < s.size() && s.substr(i, 4) != "null";
}

// Collects events as values, for callers that keep them (tests, preflight).
class VectorSink final : public SseSink {
public:
    explicit VectorSink(QVector<SseEvent> &out)
        : m_out(out)
    {
    }
    void onEvent(EventKind kind, QByteArrayView data) override { m_out.append(SseEvent { kind, data.toByteArray() }); }

private:
    QVector<SseEvent> &m_out;
};

} // namespace

void SseParser::feed(QByteArrayView chunk, QVector<SseEvent> &out)
{
    VectorSink sink(out);
    feed(chunk, sink);
}

void SseParser::finish(QVector<SseEvent> &out)
{
    VectorSink sink(out);
    finish(sink);
}

void SseParser::overflow()
{
    m_overflowed = true;
    m_line = QByteArray(); // release the buffers, not just empty them
    m_data = QByteArray();
    m_hasData = false;
    m_errorEvent = false;
}

void SseParser::reset()
{
    m_overflowed = false;
    m_line.clear();
    m_data.clear();
    m_hasData = false;
    m_errorEvent = false;
    m_afterCr = false;
    m_started = false;
    m_bomBytes = 0;
}

void SseParser::feed(QByteArrayView chunk, SseSink &out)
{
    if (m_overflowed)
        return;
    const char *p = chunk.data();
    const char *end = p + chunk.size();
    static constexpr char kBom[] = "\xEF\xBB\xBF";
    while (!m_started && p < end) {
        if (*p == kBom[m_bomBytes]) {
            ++p;
            m_started = ++m_bomBytes == 3;
            continue;
        }
        m_line.append(kBom, m_bomBytes); // a start that only looked like a BOM is text
        m_started = true;
    }
    if (m_afterCr && p < end && *p == '\n')
        ++p; // the LF of a CRLF split across chunks
    m_afterCr = false;
    while (p < end) {
        const char *q = p;
        while (q < end && *q != '\n' && *q != '\r')
            ++q;
        if (m_line.size() + (q - p) > m_maxEventBytes)
            return overflow();
        if (q == end) {
            m_line.append(p, q - p);
            break;
        }
        if (m_line.isEmpty()) {
            processLine(QByteArrayView(p, q - p), out);
        } else {
            m_line.append(p, q - p);
            processLine(m_line, out);
            m_line.clear();
        }
        if (m_overflowed)
            return;
        if (*q == '\r') {
            if (q + 1 == end) {
                m_afterCr = true;
                p = end;
                break;
            }
            if (q[1] == '\n')
                ++q;
        }
        p = q + 1;
    }
}

void SseParser::finish(SseSink &out)
{
    if (m_overflowed)
        return;
    if (!m_line.isEmpty()) {
        processLine(m_line, out);
        m_line.clear();
    }
    dispatch(out);
    m_afterCr = false;
}

void SseParser::processLine(QByteArrayView line, SseSink &out)
{
    if (line.isEmpty()) {
        dispatch(out);
        return;
    }
    if (line.front() == ':') {
        QByteArrayView text = line.sliced(1);
        if (!text.isEmpty() && text.front() == ' ')
            text = text.sliced(1);
        out.onEvent(EventKind::Comment, text);
        return;
    }
    const qsizetype colon = line.indexOf(':');
    const QByteArrayView field = colon < 0 ? line : line.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
    if (!value.isEmpty() && value.front() == ' ')
        value = value.sliced(1);
    if (field == "data") {
        if (m_data.size() + value.size() + 1 > m_maxEventBytes)
            return overflow();
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value.data(), value.size());
        m_hasData = true;
    } else if (field == "event") {
        m_errorEvent = value == "error";
    }
    // id:, retry: and unknown fields carry nothing ServeScope measures.
}

void SseParser::dispatch(SseSink &out)
{
    if (!m_hasData && !m_errorEvent)
        return;
    const EventKind kind = m_errorEvent ? EventKind::Error : classifyEventData(m_api, m_data);
    out.onEvent(kind, m_data);
    m_data.resize(0); // keeps its capacity for the next event
    m_hasData = false;
    m_errorEvent = false;
}

EventKind classifySseData(QByteArrayView data)
{
    const std::string_view s = trimmed(data);
    if (s == "[DONE]")
        return EventKind::Done;
    if (s.empty() || s.front() != '{')
        return EventKind::Other;
    const size_t choices = findKeyValue(s, "\"choices\"");
    if (choices == std::string_view::npos || choices >= s.size() || s[choices] != '[') {
        if (findKeyValue(s, "\"error\"") != std::string_view::npos)
            return EventKind::Error;
        size_t obj = findKeyValue(s, "\"object\"");
        if (obj != std::string_view::npos && s.substr(obj, 7) == "\"error\"")
            return EventKind::Error;
        return hasNonNull(s, "\"usage\"") ? EventKind::Usage : EventKind::Other;
    }
    const size_t first = skipSpace(s, choices + 1);
    if (first >= s.size() || s[first] == ']') {
        if (hasNonNull(s, "\"usage\""))
            return EventKind::Usage;
        return findKeyValue(s, "\"error\"") != std::string_view::npos ? EventKind::Error : EventKind::Other;
    }
    if (hasNonEmptyString(s, "\"content\"") || hasNonEmptyString(s, "\"text\""))
        return EventKind::Content;
    if (hasNonEmptyString(s, "\"reasoning_content\"") || hasNonEmptyString(s, "\"reasoning\""))
        return EventKind::Reasoning;
    if (hasNonEmptyArray(s, "\"tool_calls\""))
        return EventKind::ToolCall;
    if (hasNonNull(s, "\"role\""))
        return EventKind::RoleOnly;
    if (hasNonNull(s, "\"finish_reason\""))
        return EventKind::FinishOnly;
    // A token event without text, role or finish (an empty delta): vLLM still counts it.
    return EventKind::RoleOnly;
}

namespace {

// True when some occurrence of `quotedKey` has exactly the string `value`.
bool hasStringValue(std::string_view s, std::string_view quotedKey, std::string_view value)
{
    for (size_t i = findKeyValue(s, quotedKey); i != std::string_view::npos; i = findKeyValue(s, quotedKey, i)) {
        if (i + value.size() + 1 < s.size() && s[i] == '"' && s.substr(i + 1, value.size()) == value
            && s[i + 1 + value.size()] == '"')
            return true;
    }
    return false;
}

EventKind classifyMessagesEvent(std::string_view s)
{
    constexpr std::string_view type = "\"type\"";
    if (hasStringValue(s, type, "content_block_delta")) {
        if (hasStringValue(s, type, "text_delta"))
            return hasNonEmptyString(s, "\"text\"") ? EventKind::Content : EventKind::Other;
        if (hasStringValue(s, type, "thinking_delta"))
            return EventKind::Reasoning;
        if (hasStringValue(s, type, "input_json_delta"))
            return EventKind::ToolCall;
        return EventKind::Other; // signature_delta, citations
    }
    if (hasStringValue(s, type, "message_delta"))
        return EventKind::Usage;
    if (hasStringValue(s, type, "message_stop"))
        return EventKind::Done;
    if (hasStringValue(s, type, "error"))
        return EventKind::Error;
    return EventKind::Other;
}

EventKind classifyResponsesEvent(std::string_view s)
{
    constexpr std::string_view type = "\"type\"";
    if (hasStringValue(s, type, "response.output_text.delta") || hasStringValue(s, type, "response.refusal.delta"))
        return EventKind::Content;
    if (hasStringValue(s, type, "response.reasoning_text.delta")
        || hasStringValue(s, type, "response.reasoning_summary_text.delta"))
        return EventKind::Reasoning;
    if (hasStringValue(s, type, "response.function_call_arguments.delta"))
        return EventKind::ToolCall;
    if (hasStringValue(s, type, "response.completed") || hasStringValue(s, type, "response.incomplete"))
        return EventKind::Usage;
    if (hasStringValue(s, type, "error") || hasStringValue(s, type, "response.failed"))
        return EventKind::Error;
    return EventKind::Other;
}

} // namespace

EventKind classifyEventData(Api api, QByteArrayView data)
{
    if (api == Api::Chat || api == Api::Completions)
        return classifySseData(data);
    const std::string_view s = trimmed(data);
    if (s == "[DONE]")
        return EventKind::Done;
    if (s.empty() || s.front() != '{')
        return EventKind::Other;
    switch (api) {
    case Api::Messages:
        return classifyMessagesEvent(s);
    case Api::Responses:
        return classifyResponsesEvent(s);
    default: // sglang-generate: every event carries the text so far and its counts
        if (hasNonEmptyString(s, "\"text\""))
            return EventKind::Content;
        return findKeyValue(s, "\"error\"") != std::string_view::npos ? EventKind::Error : EventKind::Other;
    }
}

bool looksLikeJsonError(QByteArrayView body)
{
    std::string_view s = sv(body);
    size_t b = skipSpace(s, 0);
    if (b >= s.size() || s[b] != '{')
        return false;
    s = s.substr(b);
    if (findKeyValue(s, "\"error\"") != std::string_view::npos)
        return true;
    size_t obj = findKeyValue(s, "\"object\"");
    return obj != std::string_view::npos && s.substr(obj, 7) == "\"error\"";
}

} // namespace ServeScope
