// SPDX-License-Identifier: MIT
#include "sim/httprequestparser.h"

#include <QList>

namespace ServeScope::Sim {

HttpRequestParser::HttpRequestParser(int maxHeaderBytes, qint64 maxBodyBytes)
    : m_maxHeaderBytes(maxHeaderBytes)
    , m_maxBodyBytes(maxBodyBytes)
{
}

HttpRequestParser::State HttpRequestParser::fail(int status, const char *message)
{
    m_errorStatus = status;
    m_errorMessage = message;
    return State::Error;
}

bool HttpRequestParser::parseHead(qsizetype headEnd)
{
    const QList<QByteArray> lines = m_buffer.left(headEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine[2].startsWith("HTTP/1."))
        return false;
    m_current = HttpRequest {};
    m_current.method = requestLine[0];
    m_current.target = requestLine[1];
    m_current.version = requestLine[2];
    m_current.keepAlive = m_current.version != "HTTP/1.0";
    m_contentLength = -1;
    bool chunked = false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return false;
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        m_current.headers.append({ name, value });
        if (name == "content-length") {
            bool ok = false;
            const qint64 n = value.toLongLong(&ok);
            if (!ok || n < 0 || (m_contentLength >= 0 && m_contentLength != n))
                return false;
            m_contentLength = n;
        } else if (name == "transfer-encoding") {
            chunked = true;
        } else if (name == "connection") {
            const QByteArray v = value.toLower();
            if (v.contains("close"))
                m_current.keepAlive = false;
            else if (v.contains("keep-alive"))
                m_current.keepAlive = true;
        } else if (name == "authorization") {
            m_current.authorization = value;
        } else if (name == "content-type") {
            m_current.contentType = value;
        }
    }
    // Chunked request bodies are not supported: ask for a length instead.
    if (chunked)
        m_contentLength = -2;
    return true;
}

HttpRequestParser::State HttpRequestParser::next(HttpRequest *request)
{
    if (m_errorStatus)
        return State::Error;
    if (!m_haveHead) {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_buffer.size() > m_maxHeaderBytes)
                return fail(431, "Request header fields too large");
            return State::NeedMore;
        }
        if (end + 4 > m_maxHeaderBytes)
            return fail(431, "Request header fields too large");
        if (!parseHead(end))
            return fail(400, "Malformed request");
        m_buffer.remove(0, end + 4);
        m_haveHead = true;
        const bool bodyMethod = m_current.method == "POST" || m_current.method == "PUT" || m_current.method == "PATCH";
        if (m_contentLength == -2 || (bodyMethod && m_contentLength < 0))
            return fail(411, "Length required");
        if (m_contentLength > m_maxBodyBytes)
            return fail(413, "Request body too large");
    }
    const qint64 length = qMax<qint64>(0, m_contentLength);
    if (m_buffer.size() < length)
        return State::NeedMore;
    m_current.body = m_buffer.left(length);
    m_buffer.remove(0, length);
    m_haveHead = false;
    *request = std::move(m_current);
    m_current = HttpRequest {};
    return State::Ready;
}

} // namespace ServeScope::Sim
