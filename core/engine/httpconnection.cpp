// SPDX-License-Identifier: MIT
#include "httpconnection.h"

#include "model/clock.h"
#include "receivering.h"
#include "tlsclient.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <sys/epoll.h>
#include <sys/uio.h>
#include <unistd.h>

namespace ServeScope {

Q_LOGGING_CATEGORY(lcLean, "servescope.engine.lean", QtWarningMsg)

namespace {
constexpr quint32 kEpollEvents = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
// Full reads of one socket per turn: a server that keeps the buffer full must not starve the
// other streams' reads (and timestamps) or the worker's timers.
constexpr int kReadsPerTurn = 16;
} // namespace

HttpConnection::HttpConnection(int epollFd, ReceiveRing *ring, quint32 key, const std::vector<PeerAddress> *peers,
    QByteArray *readBuffer, std::vector<HttpConnection *> *unparsed, QObject *parent)
    : QObject(parent)
    , m_epollFd(epollFd)
    , m_ring(ring)
    , m_key(key)
    , m_peers(peers)
    , m_readBuffer(readBuffer)
    , m_unparsed(unparsed)
{
}

// With a ring, epoll reports only the connect and room to write; the ring reads.
quint32 HttpConnection::epollEvents() const noexcept
{
    return m_ring ? EPOLLOUT | EPOLLET : kEpollEvents;
}

void HttpConnection::digest()
{
    m_queued = false;
    if (m_state)
        m_state->digest();
}

HttpConnection::~HttpConnection()
{
    closeSocket();
}

void HttpConnection::setTls(std::shared_ptr<const TlsContext> context, const QByteArray &host)
{
    m_tlsContext = std::move(context);
    m_tlsHost = host;
}

void HttpConnection::closeSocket()
{
    if (m_fd < 0)
        return;
    // Removed explicitly: a child forked before its exec still holds the descriptor for a moment.
    epoll_ctl(m_epollFd, EPOLL_CTL_DEL, m_fd, nullptr);
    if (m_receiving) {
        m_ring->stop(eventKey()); // the ring holds the socket open until its receive ends
        m_receiving = false;
    }
    m_tls.reset(); // no close_notify: the socket closes at once, as a plain one
    m_tlsOut.clear();
    m_tlsOutSent = 0;
    m_handshaking = false;
    ::close(m_fd);
    m_fd = -1;
    m_connecting = false;
    ++m_generation;
}

void HttpConnection::send(StreamState *state, const QByteArray &request)
{
    m_state = state;
    m_request = request;
    m_retried = false;
    m_decoder.reset();
    m_written = 0;
    state->record.startNs = monotonicNs();
    if (isConnected()) {
        m_reusedSocket = true;
        writePending();
    } else {
        m_reusedSocket = false;
        state->connectStartNs = state->record.startNs;
        if (m_fd < 0)
            connectNow();
        // Else a connect or handshake begun by warm() is under way: the request goes out when it
        // is done, and its wait for it counts from now, not from the connect's start.
    }
}

void HttpConnection::onEvents(quint32 generation, quint32 events)
{
    if (generation != m_generation || m_fd < 0)
        return; // an event for a socket closed earlier in the same batch
    if (m_connecting) {
        if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
            return;
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err != 0 || (events & EPOLLHUP))
            return onConnectFailed(err != 0 ? err : ECONNREFUSED);
        onSocketReady();
        if (generation != m_generation || m_handshaking)
            return;
    } else if (m_handshaking) {
        if (!m_ring && (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
            return readAvailable(events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)); // it continues the handshake
        if (events & EPOLLOUT)
            flushTls();
        return;
    }
    if ((events & EPOLLOUT) && (m_tlsOutSent < m_tlsOut.size() || (m_state && m_written < m_request.size()))) {
        writePending();
        if (generation != m_generation)
            return;
    }
    // With a ring, a hang-up or error reaches the connection as the end of the ring's receive.
    if (!m_ring && (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
        readAvailable(events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR));
}

void HttpConnection::onPiece(quint32 generation, const ReceivedPiece &piece)
{
    if (generation != m_generation || m_fd < 0)
        return; // a piece of a socket closed since: its receive was stopped with it
    if (piece.len > 0) {
        const qint64 now = arrivalNs(piece.stamp);
        if (m_tls) {
            // The session decrypts in place in the shared buffer, as it does after a read.
            const size_t n = std::min(piece.len, size_t(m_readBuffer->size())); // a piece is 2 kB at most
            std::memcpy(m_readBuffer->data(), piece.data, n);
            onTlsBytes(ssize_t(n), now);
        } else {
            onData(QByteArrayView(piece.data, qsizetype(piece.len)), now);
        }
        if (generation != m_generation)
            return; // the request ended with a close
    }
    if (piece.result > 0 && piece.more)
        return;
    if (piece.result > 0 || piece.result == -ENOBUFS) {
        m_ring->receive(m_fd, eventKey()); // stopped for want of buffers: the kernel kept the rest
        return;
    }
    m_receiving = false;
    onClosed(); // the peer closed its side, or the socket failed (reset): for the request a close
}

// Sends `bytes` from `*sent` on as far as the socket takes them; false when the socket failed
// (closed then). What is left goes out on the next EPOLLOUT edge.
bool HttpConnection::sendFrom(const QByteArray &bytes, qsizetype *sent)
{
    while (*sent < bytes.size()) {
        const ssize_t n = ::send(m_fd, bytes.constData() + *sent, size_t(bytes.size() - *sent), MSG_NOSIGNAL);
        if (n > 0) {
            *sent += n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return true;
        } else {
            onClosed();
            return false;
        }
    }
    return true;
}

void HttpConnection::writePending()
{
    if (!m_tls) {
        sendFrom(m_request, &m_written);
        return;
    }
    if (m_written < m_request.size()) {
        // The whole request becomes records at once; they go out as the socket takes them.
        if (!m_tls->write(m_request.constData() + m_written, size_t(m_request.size() - m_written)))
            return onClosed();
        m_written = m_request.size();
    }
    flushTls();
}

// Sends what the TLS session has for the socket; false when the socket failed (closed then).
bool HttpConnection::flushTls()
{
    m_tls->takeOutgoing(&m_tlsOut);
    if (!sendFrom(m_tlsOut, &m_tlsOutSent))
        return false;
    if (m_tlsOutSent == m_tlsOut.size()) {
        m_tlsOut.clear();
        m_tlsOutSent = 0;
    }
    return true;
}

// When the kernel received the newest bytes of a read (its SO_TIMESTAMPNS stamp, on the
// realtime clock, moved to the monotonic one by its age), so a read's time does not depend on how
// soon this thread got to it. Without a stamp, or one that cannot be right, it is the moment the
// read returned; it never goes back before the stream's previous event or its start.
qint64 HttpConnection::arrivalNs(const timespec *stamp) const
{
    const qint64 returned = monotonicNs();
    qint64 at = returned;
    if (stamp) {
        timespec kernel;
        std::memcpy(&kernel, stamp, sizeof kernel); // a control message need not be aligned
        timespec real;
        clock_gettime(CLOCK_REALTIME, &real);
        const qint64 age = (qint64(real.tv_sec) - qint64(kernel.tv_sec)) * 1000000000 + (real.tv_nsec - kernel.tv_nsec);
        if (age >= 0)
            at = returned - age;
    }
    if (m_state) {
        const RequestRecord &r = m_state->record;
        const qint64 floor = r.eventNs.isEmpty() ? r.startNs : r.startNs + r.eventNs.last();
        at = std::max(at, floor);
    }
    return at;
}

// Edge-triggered: reads until the kernel has nothing more. A read shorter than the buffer
// emptied the socket, and anything arriving after it is a new edge, so there is no extra read
// to see EAGAIN, except after a hang-up: its edge is this one, so read on to the end of file.
void HttpConnection::readAvailable(bool hangup)
{
    const quint32 generation = m_generation;
    QByteArray &buffer = *m_readBuffer;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
    for (int reads = 0;;) {
        iovec iov { buffer.data(), size_t(buffer.size()) };
        msghdr msg {};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        const ssize_t n = ::recvmsg(m_fd, &msg, 0);
        if (n > 0) {
            const timespec *stamp = nullptr;
            for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS)
                    stamp = reinterpret_cast<const timespec *>(CMSG_DATA(c));
            }
            const qint64 now = arrivalNs(stamp); // one time per read: its bytes arrived together
            if (m_tls ? !onTlsBytes(n, now) : !onData(QByteArrayView(buffer.constData(), n), now))
                return;
            if (generation != m_generation)
                return;
            if (n < buffer.size() && !hangup)
                return;
            if (++reads == kReadsPerTurn) {
                // Still more: re-arming makes epoll report the socket again in a later batch.
                epoll_event ev {};
                ev.events = kEpollEvents;
                ev.data.u64 = eventKey();
                epoll_ctl(m_epollFd, EPOLL_CTL_MOD, m_fd, &ev);
                return;
            }
            continue;
        }
        if (n == 0)
            return onClosed();
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return;
        return onClosed(); // reset by the peer: the same as a close for the request
    }
}

// The `n` bytes just read into the shared buffer belong to the TLS session: they continue the
// handshake, or their plaintext is framed with the read's time. False when reading must stop.
bool HttpConnection::onTlsBytes(ssize_t n, qint64 now)
{
    QByteArray &buffer = *m_readBuffer;
    // Read in place: each record is taken from the buffer before its plaintext is written back
    // over bytes already taken (a record's plaintext is shorter than the record).
    m_tls->feed(buffer.constData(), size_t(n));
    const quint32 generation = m_generation;
    if (m_handshaking) {
        continueHandshake();
        if (generation != m_generation || m_handshaking)
            return false;
    }
    for (;;) {
        // Every record the read completed, decrypted back to back: its events reach the decoder in
        // one call, as a plain read's do, instead of one call per record (a server's SSE event each).
        qsizetype plainBytes = 0;
        ssize_t rc = 0;
        while (plainBytes < buffer.size()) {
            rc = m_tls->read(buffer.data() + plainBytes, size_t(buffer.size() - plainBytes));
            if (rc <= 0)
                break;
            plainBytes += rc;
        }
        if (plainBytes > 0
            && (!onData(QByteArrayView(buffer.constData(), plainBytes), now) || generation != m_generation)) {
            if (m_tls)
                m_tls->keepUnread(); // the response ended before the read's last record: kept for the next
            return false;
        }
        if (rc > 0)
            continue; // the buffer filled up: more plaintext may be waiting
        if (rc == TlsSession::kWouldBlock)
            return flushTls() && generation == m_generation; // e.g. a key update's answer
        onClosed(); // close_notify, or a broken record: for the request the same as a close
        return false;
    }
}

// One read's bytes; false when the request ended with them (the caller stops reading).
bool HttpConnection::onData(QByteArrayView data, qint64 now)
{
    if (!m_state)
        return true; // bytes outside a request: nothing to attribute them to
    m_body.resize(0); // keeps its capacity
    const bool wasHeaders = m_decoder.headersComplete();
    if (!m_decoder.feed(data, m_body)) {
        m_state->record.endNs = now;
        finish({ ErrorClass::Protocol,
                   QStringLiteral("malformed HTTP response: ") + QString::fromLatin1(m_decoder.error()), false },
            false);
        return false;
    }
    if (!wasHeaders && m_decoder.headersComplete()) {
        m_state->record.httpStatus = m_decoder.status();
        m_state->record.protocol = QStringLiteral("http/1.1");
        if (m_decoder.status() >= 300 && m_decoder.status() < 400) {
            m_state->record.endNs = now;
            finish({ ErrorClass::Protocol,
                       QStringLiteral("redirect not followed (HTTP %1) to %2")
                           .arg(m_decoder.status())
                           .arg(QString::fromLatin1(m_decoder.location())),
                       false },
                false);
            return false;
        }
        // Accept-Encoding: identity was sent: a compressed body cannot be read as events.
        if (const QByteArray &coding = m_decoder.contentEncoding();
            !coding.isEmpty() && coding != "identity" && m_decoder.status() < 300) {
            m_state->record.endNs = now;
            finish({ ErrorClass::Protocol,
                       QStringLiteral("compressed: HTTP %1 with Content-Encoding: %2 although Accept-Encoding: "
                                      "identity was sent")
                           .arg(m_decoder.status())
                           .arg(QString::fromLatin1(coding)),
                       false },
                false);
            return false;
        }
    }
    if (!m_body.isEmpty()) {
        const int n = m_state->onBody(m_body, now, tap ? *tap : EventTap());
        if (n && eventsFramed)
            eventsFramed(n);
        if (m_state->overflowed()) {
            m_state->record.endNs = now;
            finish(m_state->overflowEnd(), false);
            return false;
        }
        if (!m_queued && m_state->hasUnparsed()) {
            m_queued = true;
            m_unparsed->push_back(this);
        }
    }
    if (!m_decoder.complete())
        return true;
    m_state->record.endNs = now;
    if (const qint64 extra = m_decoder.trailingBytes(); extra > 0) {
        // Nothing else was asked on this connection: the server sent more than it framed.
        finish({ ErrorClass::Protocol,
                   QStringLiteral("response longer than its framing: %1 bytes after its end (wrong "
                                  "Content-Length?)")
                       .arg(extra),
                   false },
            false);
        return false;
    }
    finish({}, m_decoder.keepAlive());
    return false;
}

void HttpConnection::onClosed()
{
    closeSocket();
    if (!m_state)
        return;
    const qint64 now = monotonicNs();
    if (m_reusedSocket && !m_decoder.sawAnyByte() && !m_retried) {
        // The server closed an idle keep-alive socket as we reused it (uvicorn's 5 s timeout).
        m_retried = true;
        m_reusedSocket = false;
        ++m_reopened;
        qCInfo(lcLean) << "reopening a reused connection the server had closed";
        m_state->connectStartNs = now;
        connectNow();
        return;
    }
    m_state->record.endNs = now;
    if (m_decoder.closeEndsResponse()) {
        finish({}, false);
    } else if (!m_decoder.headersComplete()) {
        finish({ ErrorClass::Protocol, QStringLiteral("connection closed before a response"), true }, false);
    } else if (m_decoder.remainingBytes() > 0) {
        finish({ ErrorClass::None,
                   QStringLiteral("response shorter than its Content-Length: connection closed %1 bytes early")
                       .arg(m_decoder.remainingBytes()),
                   true },
            false);
    } else {
        finish({ ErrorClass::None, QStringLiteral("stream truncated: connection closed mid-body"), true }, false);
    }
}

void HttpConnection::abortRequest()
{
    m_state = nullptr;
    closeSocket();
}

void HttpConnection::finish(const StreamEnd &end, bool keepSocket)
{
    StreamState *s = std::exchange(m_state, nullptr);
    if (!keepSocket)
        closeSocket();
    if (finished && s)
        finished(this, s, end);
}

} // namespace ServeScope
