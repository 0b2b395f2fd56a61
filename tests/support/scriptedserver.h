// SPDX-License-Identifier: MIT
// A loopback HTTP/1.1 server on its own threads whose every answer is written by the test, byte for byte:
// the awkward framings no real server sends on purpose (interim 1xx answers, a reset after the headers, a
// stall mid-stream). A test that waits for a child process in a blocking call is still answered.
#pragma once

#include <QByteArray>
#include <QList>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ServeScope::Testing {

class ScriptedServer {
public:
    /// Writes the answer to one request (its request line, e.g. "POST /v1/chat/completions HTTP/1.1");
    /// returns false to close the connection afterwards.
    using Responder = std::function<bool(int fd, const QByteArray &requestLine)>;

    explicit ScriptedServer(Responder responder)
        : m_responder(std::move(responder))
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (::bind(m_listen, reinterpret_cast<sockaddr *>(&a), len) != 0 || ::listen(m_listen, 16) != 0
            || ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len) != 0)
            return;
        m_port = ntohs(a.sin_port);
        m_accept = std::thread([this] { acceptLoop(); });
    }
    ~ScriptedServer()
    {
        m_stopping = true;
        ::shutdown(m_listen, SHUT_RDWR);
        ::close(m_listen);
        if (m_accept.joinable())
            m_accept.join();
        std::vector<std::thread> connections;
        {
            std::lock_guard lock(m_mutex);
            for (int fd : m_open)
                ::shutdown(fd, SHUT_RDWR); // a connection held open wakes and ends
            connections.swap(m_connections);
        }
        for (std::thread &t : connections)
            t.join();
    }
    quint16 port() const { return m_port; }

    /// Writes `bytes`; a peer that has gone is no signal to this process (MSG_NOSIGNAL), only a lost write.
    static void send(int fd, const QByteArray &bytes)
    {
        (void)!::send(fd, bytes.constData(), size_t(bytes.size()), MSG_NOSIGNAL);
    }
    /// One chunk of a chunked body.
    static QByteArray chunk(const QByteArray &data)
    {
        return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
    }
    /// Closes with a TCP reset instead of a FIN.
    static void reset(int fd)
    {
        const linger hard { 1, 0 };
        ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    }
    /// Holds the connection open, sending nothing, until the peer leaves or the server stops.
    static void hang(int fd)
    {
        char byte;
        while (::read(fd, &byte, 1) > 0) { }
    }

private:
    void acceptLoop()
    {
        while (!m_stopping) {
            const int fd = ::accept(m_listen, nullptr, nullptr);
            if (fd < 0)
                return;
            std::lock_guard lock(m_mutex);
            m_open << fd;
            m_connections.emplace_back([this, fd] { serve(fd); });
        }
    }
    void serve(int fd)
    {
        QByteArray buffer;
        char block[65536];
        for (bool open = true; open && !m_stopping;) {
            qsizetype head = buffer.indexOf("\r\n\r\n");
            while (head < 0) {
                const ssize_t n = ::read(fd, block, sizeof block);
                if (n <= 0)
                    return finishConnection(fd);
                buffer.append(block, n);
                head = buffer.indexOf("\r\n\r\n");
            }
            qsizetype length = 0;
            for (const QByteArray &line : buffer.left(head).split('\n'))
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            while (buffer.size() < head + 4 + length) {
                const ssize_t n = ::read(fd, block, sizeof block);
                if (n <= 0)
                    return finishConnection(fd);
                buffer.append(block, n);
            }
            const QByteArray requestLine = buffer.left(buffer.indexOf("\r\n"));
            buffer.remove(0, head + 4 + length);
            open = m_responder(fd, requestLine);
        }
        finishConnection(fd);
    }
    void finishConnection(int fd)
    {
        std::lock_guard lock(m_mutex);
        m_open.removeAll(fd);
        ::close(fd);
    }

    Responder m_responder;
    int m_listen = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stopping { false };
    std::thread m_accept;
    std::mutex m_mutex;
    QList<int> m_open;
    std::vector<std::thread> m_connections;
};

} // namespace ServeScope::Testing
