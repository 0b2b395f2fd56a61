// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace ServeScope {

/// Incremental HTTP/1.1 response decoder (pure): status line, headers, then a body framed by
/// Content-Length, chunked transfer coding, or the end of the connection.
class HttpResponseDecoder {
public:
    enum class Framing : quint8 { None, Length, Chunked, UntilClose };

    /// Consumes `in`, appending decoded body bytes to `body`. Returns false on a malformed
    /// response (see error()). Bytes after the end of the response are not decoded but counted
    /// (trailingBytes()): without pipelining they mean the declared length was wrong.
    bool feed(QByteArrayView in, QByteArray &body);
    /// The peer closed the connection: true when that ends the response cleanly.
    bool closeEndsResponse() const noexcept { return m_framing == Framing::UntilClose && m_headersDone; }
    void reset();

    bool headersComplete() const noexcept { return m_headersDone; }
    bool complete() const noexcept { return m_done; }
    bool sawAnyByte() const noexcept { return m_sawByte; }
    qint64 trailingBytes() const noexcept { return m_trailing; }
    /// Body bytes a Content-Length response still expects.
    qint64 remainingBytes() const noexcept { return m_framing == Framing::Length ? m_remaining : 0; }
    int status() const noexcept { return m_status; }
    Framing framing() const noexcept { return m_framing; }
    bool keepAlive() const noexcept { return m_keepAlive; }
    bool isEventStream() const noexcept { return m_eventStream; }
    const QByteArray &location() const noexcept { return m_location; }
    const QByteArray &contentType() const noexcept { return m_contentType; }
    /// Content-Encoding, lower case; empty when none was given.
    const QByteArray &contentEncoding() const noexcept { return m_contentEncoding; }
    const QByteArray &error() const noexcept { return m_error; }

private:
    bool headerLine(QByteArrayView line);
    bool finishHeaders();
    bool bodyBytes(const char *&p, const char *end, QByteArray &body);
    bool chunkLine(QByteArrayView line);
    bool fail(const char *why);

    enum class ChunkState : quint8 { Size, Data, DataEnd, Trailer };
    QByteArray m_line;
    QByteArray m_location, m_contentType, m_contentEncoding, m_error;
    qint64 m_remaining = 0;
    qint64 m_trailing = 0;
    int m_status = 0;
    Framing m_framing = Framing::None;
    ChunkState m_chunk = ChunkState::Size;
    bool m_statusDone = false, m_headersDone = false, m_done = false, m_sawByte = false;
    bool m_keepAlive = true, m_eventStream = false, m_chunkedHeader = false, m_hasLength = false;
};

} // namespace ServeScope
