// SPDX-License-Identifier: MIT
#include "httpresponse.h"

#include <algorithm>
#include <cstring>

namespace ServeScope {

namespace {
// Longest status or header line, and longest chunk-size or trailer line, counted with its CR.
constexpr qsizetype kMaxHeaderLine = 64 * 1024;
constexpr qsizetype kMaxChunkLine = 4096;

QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r'))
        v.chop(1);
    return v;
}
bool iequals(QByteArrayView a, const char *b)
{
    const qsizetype n = qsizetype(std::strlen(b));
    return a.size() == n && qstrnicmp(a.data(), b, n) == 0;
}
} // namespace

void HttpResponseDecoder::reset()
{
    *this = HttpResponseDecoder();
}

bool HttpResponseDecoder::fail(const char *why)
{
    m_error = why;
    return false;
}

bool HttpResponseDecoder::feed(QByteArrayView in, QByteArray &body)
{
    const char *p = in.data();
    const char *end = p + in.size();
    if (p < end)
        m_sawByte = true;
    if (m_done) {
        m_trailing += end - p;
        return true;
    }
    while (p < end && !m_done) {
        if (m_headersDone) {
            if (!bodyBytes(p, end, body))
                return false;
            continue;
        }
        const char *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        if (!nl) {
            m_line.append(p, end - p);
            if (m_line.size() > kMaxHeaderLine)
                return fail("response header line too long");
            return true;
        }
        m_line.append(p, nl - p);
        p = nl + 1;
        // The same limit whether the line came in one read or in many.
        if (m_line.size() > kMaxHeaderLine)
            return fail("response header line too long");
        if (m_line.endsWith('\r'))
            m_line.chop(1);
        const QByteArray line = std::exchange(m_line, QByteArray());
        if (!m_statusDone) {
            // "HTTP/1.1 200 OK"
            if (!line.startsWith("HTTP/1.") || line.size() < 12)
                return fail("malformed status line");
            bool ok = false;
            m_status = line.mid(9, 3).toInt(&ok);
            if (!ok)
                return fail("malformed status code");
            m_keepAlive = line.at(7) == '1';
            m_statusDone = true;
        } else if (line.isEmpty()) {
            if (m_status >= 100 && m_status < 200) { // interim response: wait for the real one
                m_statusDone = false;
                continue;
            }
            if (!finishHeaders())
                return false;
        } else if (!headerLine(line)) {
            return false;
        }
    }
    if (m_done)
        m_trailing += end - p;
    return true;
}

bool HttpResponseDecoder::headerLine(QByteArrayView line)
{
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return fail("malformed header line");
    const QByteArrayView name = line.first(colon);
    const QByteArrayView value = trimmed(line.sliced(colon + 1));
    if (iequals(name, "content-length")) {
        bool ok = false;
        m_remaining = value.toByteArray().toLongLong(&ok);
        if (!ok || m_remaining < 0)
            return fail("malformed Content-Length");
        m_hasLength = true;
    } else if (iequals(name, "transfer-encoding")) {
        m_chunkedHeader = value.toByteArray().toLower().contains("chunked");
    } else if (iequals(name, "connection")) {
        const QByteArray v = value.toByteArray().toLower();
        if (v.contains("close"))
            m_keepAlive = false;
        else if (v.contains("keep-alive"))
            m_keepAlive = true;
    } else if (iequals(name, "content-type")) {
        m_contentType = value.toByteArray();
        m_eventStream = m_contentType.toLower().contains("text/event-stream");
    } else if (iequals(name, "location")) {
        m_location = value.toByteArray();
    } else if (iequals(name, "content-encoding")) {
        m_contentEncoding = value.toByteArray().toLower();
    }
    return true;
}

bool HttpResponseDecoder::finishHeaders()
{
    m_headersDone = true;
    if (m_status == 204 || m_status == 304) {
        m_done = true;
    } else if (m_chunkedHeader) {
        m_framing = Framing::Chunked;
    } else if (m_hasLength) {
        m_framing = Framing::Length;
        m_done = m_remaining == 0;
    } else {
        m_framing = Framing::UntilClose;
        m_keepAlive = false;
    }
    return true;
}

bool HttpResponseDecoder::bodyBytes(const char *&p, const char *end, QByteArray &body)
{
    if (m_framing == Framing::UntilClose) {
        body.append(p, end - p);
        p = end;
        return true;
    }
    if (m_framing == Framing::Length || m_chunk == ChunkState::Data) {
        const qint64 n = std::min<qint64>(m_remaining, end - p);
        body.append(p, n);
        p += n;
        m_remaining -= n;
        if (m_remaining == 0) {
            if (m_framing == Framing::Length)
                m_done = true;
            else
                m_chunk = ChunkState::DataEnd;
        }
        return true;
    }
    // Chunk size line, the CRLF after a chunk's data, or trailer lines: all line-based. A line
    // that is whole in this read is read where it lies: two such lines come with every event.
    const char *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
    if (!nl) {
        m_line.append(p, end - p);
        p = end;
        return m_line.size() <= kMaxChunkLine || fail("malformed chunk framing");
    }
    QByteArrayView line(p, nl - p);
    p = nl + 1;
    if (!m_line.isEmpty()) {
        m_line.append(line);
        line = m_line;
    }
    const bool ok = line.size() <= kMaxChunkLine ? chunkLine(line) : fail("malformed chunk framing");
    m_line.resize(0); // keeps its capacity
    return ok;
}

bool HttpResponseDecoder::chunkLine(QByteArrayView line)
{
    if (line.endsWith('\r'))
        line.chop(1);
    switch (m_chunk) {
    case ChunkState::Size: {
        const qsizetype semi = line.indexOf(';');
        bool ok = false;
        const qint64 size = trimmed(semi < 0 ? line : line.first(semi)).toLongLong(&ok, 16);
        if (!ok || size < 0)
            return fail("malformed chunk size");
        m_remaining = size;
        m_chunk = size == 0 ? ChunkState::Trailer : ChunkState::Data;
        return true;
    }
    case ChunkState::DataEnd:
        if (!line.isEmpty())
            return fail("missing CRLF after chunk data");
        m_chunk = ChunkState::Size;
        return true;
    case ChunkState::Trailer:
        if (line.isEmpty())
            m_done = true;
        return true;
    case ChunkState::Data:
        break;
    }
    return true;
}

} // namespace ServeScope
