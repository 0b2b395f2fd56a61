// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

namespace ServeScope::Sim {

/// One parsed HTTP/1.1 request.
struct HttpRequest {
    QByteArray method, target, version;
    QByteArray authorization, contentType;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers; ///< every header, names in lower case
    bool keepAlive = true;

    /// The value of header `lowerName`; null when absent.
    QByteArray header(const QByteArray &lowerName) const
    {
        for (const auto &h : headers)
            if (h.first == lowerName)
                return h.second;
        return {};
    }
};

/// Incremental HTTP/1.1 request parser for Content-Length bodies. Pure: feed bytes, take requests.
class HttpRequestParser final {
public:
    enum class State { NeedMore, Ready, Error };

    HttpRequestParser(int maxHeaderBytes, qint64 maxBodyBytes);

    /// Appends bytes received from the peer.
    void feed(const QByteArray &bytes) { m_buffer.append(bytes); }
    /// Parses what has been fed: Ready fills `request` and consumes it (pipelined bytes stay);
    /// Error sets errorStatus() (400, 411, 413, 431, 505) and the connection must close.
    State next(HttpRequest *request);
    int errorStatus() const { return m_errorStatus; }
    QByteArray errorMessage() const { return m_errorMessage; }
    bool hasBufferedBytes() const { return !m_buffer.isEmpty(); }

private:
    State fail(int status, const char *message);
    bool parseHead(qsizetype headEnd);

    QByteArray m_buffer;
    HttpRequest m_current;
    qint64 m_contentLength = -1;
    bool m_haveHead = false;
    int m_maxHeaderBytes;
    qint64 m_maxBodyBytes;
    int m_errorStatus = 0;
    QByteArray m_errorMessage;
};

} // namespace ServeScope::Sim
