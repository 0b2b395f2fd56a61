// SPDX-License-Identifier: MIT
// Opening an HttpConnection: each of the host's addresses in turn, the TLS handshake, a connect that failed.
#include "httpconnection.h"

#include "model/clock.h"
#include "receivering.h"
#include "tlsclient.h"

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <utility>

namespace ServeScope {

void HttpConnection::open()
{
    if (m_fd >= 0) {
        if (isConnected()) {
            if (auto cb = std::exchange(opened, nullptr))
                cb(this, true);
            return;
        }
        m_opening = true; // the connect or TLS handshake under way reports to `opened`
        return;
    }
    m_opening = true;
    connectNow();
}

void HttpConnection::connectNow()
{
    closeSocket();
    m_written = 0;
    m_tlsError.clear();
    if (m_epollFd < 0) {
        startConnect(EMFILE); // the transport could not make its epoll set: no descriptor left
        return;
    }
    if (m_peer >= m_peers->size()) {
        startConnect(EHOSTUNREACH);
        return;
    }
    const PeerAddress &peer = (*m_peers)[m_peer];
    m_fd = ::socket(peer.addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
    if (m_fd < 0) {
        startConnect(errno);
        return;
    }
    ++m_generation;
    const int one = 1;
    setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(m_fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one); // arrival times from the kernel
    m_connecting = true;
    const int rc = ::connect(m_fd, reinterpret_cast<const sockaddr *>(&peer.addr), peer.len);
    startConnect(rc == 0 || errno == EINPROGRESS ? 0 : errno);
}

// Registers the socket whose connect is under way; a connect that failed at once is reported
// from the event loop, never from inside send() or open().
bool HttpConnection::startConnect(int err)
{
    if (err == 0) {
        epoll_event ev {};
        ev.events = epollEvents();
        ev.data.u64 = eventKey();
        if (epoll_ctl(m_epollFd, EPOLL_CTL_ADD, m_fd, &ev) == 0)
            return true;
        err = errno;
    }
    closeSocket();
    const quint32 generation = m_generation;
    QMetaObject::invokeMethod(
        this,
        [this, generation, err] {
            if (generation == m_generation && m_fd < 0)
                onConnectFailed(err);
        },
        Qt::QueuedConnection);
    return false;
}

// TCP is up: plain connections are ready, TLS ones start their handshake on this socket.
void HttpConnection::onSocketReady()
{
    if (m_ring) {
        m_ring->receive(m_fd, eventKey());
        m_receiving = true;
    }
    if (!m_tlsContext)
        return onConnected();
    m_connecting = false;
    m_tls = std::make_unique<TlsSession>(*m_tlsContext, m_tlsHost);
    m_handshaking = true;
    m_handshakeStartNs = monotonicNs();
    continueHandshake();
}

void HttpConnection::continueHandshake()
{
    const ssize_t rc = m_tls->handshake();
    const quint32 generation = m_generation;
    if (!flushTls() || generation != m_generation)
        return;
    if (rc == TlsSession::kWouldBlock)
        return;
    m_handshaking = false;
    if (m_state)
        m_state->record.tlsNs += monotonicNs() - std::max(m_handshakeStartNs, m_state->record.startNs);
    if (rc == TlsSession::kFailed) {
        m_tlsError = m_tls->error();
        m_peer = m_peers->size(); // another address of the host would not change the certificate
        return onConnectFailed(0);
    }
    onConnected();
}

void HttpConnection::onConnected()
{
    m_connecting = false;
    if (m_opening) {
        m_opening = false;
        if (auto cb = std::exchange(opened, nullptr))
            cb(this, true);
    }
    if (!m_state)
        return;
    if (m_state->connectStartNs) {
        m_state->record.connectNs += monotonicNs() - m_state->connectStartNs;
        m_state->connectStartNs = 0;
    }
    writePending();
}

void HttpConnection::onConnectFailed(int err)
{
    if (m_peer + 1 < m_peers->size()) {
        ++m_peer; // the next address of the host (e.g. IPv4 after ::1)
        connectNow();
        return;
    }
    m_peer = 0;
    closeSocket();
    if (m_opening) {
        m_opening = false;
        if (auto cb = std::exchange(opened, nullptr))
            cb(this, false);
    }
    if (!m_state || !m_state->connectStartNs)
        return;
    m_state->record.endNs = monotonicNs();
    m_state->record.connectNs += m_state->record.endNs - m_state->connectStartNs;
    m_state->connectStartNs = 0;
    if (!m_tlsError.isEmpty()) {
        finish({ ErrorClass::Tls, std::exchange(m_tlsError, QString()), false }, false);
        return;
    }
    const QString why = m_peers->empty() ? QStringLiteral("host not found") : QString::fromLocal8Bit(strerror(err));
    finish({ ErrorClass::Connect, QStringLiteral("connect failed: ") + why, false }, false);
}

} // namespace ServeScope
