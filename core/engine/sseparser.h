// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/records.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QVector>

namespace ServeScope {

/// One framed server-sent event: its kind (byte scan) and its raw payload (the joined `data:`
/// lines, or the text after ':' for a comment).
struct SseEvent {
    EventKind kind = EventKind::Other;
    QByteArray data;
    friend bool operator==(const SseEvent &a, const SseEvent &b) { return a.kind == b.kind && a.data == b.data; }
};

/// Receives the events a parser frames; `data` is valid only during the call.
class SseSink {
public:
    virtual void onEvent(EventKind kind, QByteArrayView data) = 0;

protected:
    ~SseSink() = default;
};

/// Incremental SSE framer (pure, no I/O). Events end at a blank line (LF, CRLF or CR, also when
/// a CR ends one chunk and its LF starts the next); each comment line is reported as it ends;
/// `data:` with or without a space; multi-line data joined with '\n'; `event: error` marks an error.
class SseParser {
public:
    /// Frames the bytes of `chunk`, handing every event it completes to `sink` (no allocation
    /// per event: the data buffer is reused). A UTF-8 byte order mark that starts the stream is
    /// dropped, as the SSE standard says.
    void feed(QByteArrayView chunk, SseSink &sink);
    /// Frames the bytes of `chunk`, appending every event it completes to `out`.
    void feed(QByteArrayView chunk, QVector<SseEvent> &out);
    QVector<SseEvent> feed(QByteArrayView chunk)
    {
        QVector<SseEvent> out;
        feed(chunk, out);
        return out;
    }
    /// End of stream: dispatches a pending event that was not closed by a blank line.
    void finish(SseSink &sink);
    void finish(QVector<SseEvent> &out);
    void reset();
    /// True when bytes of an unfinished line or event are buffered.
    bool hasPending() const noexcept { return !m_line.isEmpty() || m_hasData || m_errorEvent; }
    /// The longest line or event (joined data) accepted. Past it the parser buffers nothing more,
    /// frames nothing more and reports overflowed(): memory per stream stays near this bound.
    void setMaxEventBytes(qsizetype bytes) noexcept { m_maxEventBytes = bytes; }
    qsizetype maxEventBytes() const noexcept { return m_maxEventBytes; }
    bool overflowed() const noexcept { return m_overflowed; }
    /// The API whose events are framed (classifyEventData); chat unless set.
    void setApi(Api api) noexcept { m_api = api; }
    Api api() const noexcept { return m_api; }
    static constexpr qsizetype kDefaultMaxEventBytes = 1 << 20;

private:
    void processLine(QByteArrayView line, SseSink &sink);
    void dispatch(SseSink &sink);

    QByteArray m_line;
    QByteArray m_data;
    bool m_hasData = false;
    bool m_errorEvent = false;
    bool m_afterCr = false;
    bool m_overflowed = false;
    bool m_started = false; ///< past the stream's first bytes, where a UTF-8 BOM is dropped
    quint8 m_bomBytes = 0; ///< bytes of a BOM matched so far at the start
    qsizetype m_maxEventBytes = kDefaultMaxEventBytes;
    Api m_api = Api::Chat;
    void overflow();
};

/// Classifies one `data:` payload by a byte scan (no JSON parse): [DONE], error, usage with empty
/// choices, or a token event (non-empty choices) with content, reasoning, tool-call text, a role
/// only, or no text at all.
EventKind classifySseData(QByteArrayView data);

/// The same in any API (docs/metrics.md, "APIs"), by the event's `type` where the API names one: a text delta is
/// Content, a reasoning (thinking) delta Reasoning, a tool-input delta ToolCall; the event that carries the final
/// usage is Usage; messages' message_stop is Done; an error event Error; the rest (message_start, block starts
/// and stops, ping, response.created, ...) Other. sglang-generate: an event with text is Content.
EventKind classifyEventData(Api api, QByteArrayView data);

/// True when a response body is a plain JSON error object (a 200 that is not an SSE stream).
bool looksLikeJsonError(QByteArrayView body);

} // namespace ServeScope
