// SPDX-License-Identifier: MIT
#include "floorreader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "engine/receivering.h"

namespace ServeScope::Testing {

namespace {

constexpr char kData[] = "data: ";
constexpr char kDone[] = "data: [DONE]";
constexpr size_t kDataLen = sizeof(kData) - 1, kDoneLen = sizeof(kDone) - 1;
constexpr size_t kCarry = kDoneLen - 1; // the longest pattern can straddle two pieces by this much

double nowS(clockid_t clock)
{
    timespec ts {};
    clock_gettime(clock, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// Counts a stream's "data: " events as its bytes arrive in pieces, and sees its "data: [DONE]". The
// piece is searched in place; a pattern that straddles two pieces is found in a joint of the
// previous piece's carried tail and this piece's head.
struct EventCounter {
    char carry[kCarry] = {};
    size_t carryLen = 0;

    /// Adds this piece's data events ([DONE] left out) to `events`; true once [DONE] is seen.
    bool feed(const char *piece, size_t len, qint64 &events)
    {
        char joint[2 * kCarry];
        const size_t head = std::min(len, kCarry);
        std::memcpy(joint, carry, carryLen);
        std::memcpy(joint + carryLen, piece, head);
        const size_t jointLen = carryLen + head;
        const qint64 done = startingInCarry(joint, jointLen, kDone, kDoneLen) + count(piece, len, kDone, kDoneLen);
        events += startingInCarry(joint, jointLen, kData, kDataLen) + count(piece, len, kData, kDataLen) - done;
        const size_t keep = std::min(jointLen, kCarry); // the newest bytes of carry + piece
        if (len >= kCarry)
            std::memcpy(carry, piece + len - kCarry, kCarry);
        else
            std::memmove(carry, joint + jointLen - keep, keep);
        carryLen = keep;
        return done > 0;
    }

private:
    static qint64 count(const char *buf, size_t len, const char *pattern, size_t patternLen)
    {
        qint64 n = 0;
        for (const char *at = buf, *end = buf + len;; ++n) {
            const void *hit = memmem(at, size_t(end - at), pattern, patternLen);
            if (!hit)
                return n;
            at = static_cast<const char *>(hit) + patternLen;
        }
    }
    // Matches that start in the carried tail and end in this piece (those wholly in the tail were
    // counted with the piece they came in).
    qint64 startingInCarry(const char *joint, size_t len, const char *pattern, size_t patternLen) const
    {
        qint64 n = 0;
        for (size_t i = carryLen > patternLen ? carryLen - patternLen + 1 : 0; i < carryLen && i + patternLen <= len;
             ++i)
            n += std::memcmp(joint + i, pattern, patternLen) == 0 ? 1 : 0;
        return n;
    }
};

struct Conn {
    int fd = -1;
    QByteArray request;
    qsizetype sent = 0;
    EventCounter counter;
    bool finished = false;
};

// What both readers share: the streams, their counting and their end.
struct ReaderBase {
    std::vector<Conn> conns;
    FloorFigures out;
    int failed = 0;
    double t0 = 0;

    void fail(Conn &c, const QByteArray &why)
    {
        if (out.error.isEmpty())
            out.error = why;
        ::close(c.fd);
        c.fd = -1;
        c.finished = true;
        ++failed;
    }

    // Counts a piece of c's stream; at its [DONE] the stream is done and its socket closed.
    bool take(Conn &c, const char *piece, size_t len)
    {
        ++out.reads;
        if (!c.counter.feed(piece, len, out.dataEvents))
            return false;
        ::shutdown(c.fd, SHUT_RDWR);
        ::close(c.fd);
        c.fd = -1;
        c.finished = true;
        ++out.completed;
        return true;
    }

    bool running(int timeoutMs) const
    {
        return out.completed + failed < int(conns.size()) && (nowS(CLOCK_MONOTONIC) - t0) * 1000 < timeoutMs;
    }

    // Resolves host, makes one socket per body (the kernel receive stamp on when `stamped`) and
    // calls `start` with each. False with out.error when the host does not resolve.
    bool open(const QByteArray &host, int port, const QByteArray &path, const QVector<PreparedRequest> &bodies,
        int socketFlags, bool stamped, const std::function<void(size_t, const addrinfo &)> &start)
    {
        addrinfo hints {};
        hints.ai_socktype = SOCK_STREAM;
        addrinfo *addresses = nullptr;
        if (getaddrinfo(host.constData(), QByteArray::number(port).constData(), &hints, &addresses) != 0
            || !addresses) {
            out.error = "cannot resolve " + host;
            return false;
        }
        t0 = nowS(CLOCK_MONOTONIC);
        conns.resize(size_t(bodies.size()));
        for (qsizetype i = 0; i < bodies.size(); ++i) {
            Conn &c = conns[size_t(i)];
            const QByteArray &body = bodies[i].body;
            c.request = "POST " + path + " HTTP/1.1\r\nHost: " + host + ':' + QByteArray::number(port)
                + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\n\r\n" + body;
            c.fd = ::socket(addresses->ai_family, SOCK_STREAM | SOCK_CLOEXEC | socketFlags, 0);
            const int one = 1;
            setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
            if (stamped)
                setsockopt(c.fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
            start(size_t(i), *addresses);
        }
        freeaddrinfo(addresses);
        return true;
    }

    void finish()
    {
        out.wallS = nowS(CLOCK_MONOTONIC) - t0;
        for (Conn &c : conns) {
            if (c.fd >= 0)
                ::close(c.fd);
        }
        const int n = int(conns.size());
        out.ok = out.completed == n;
        if (!out.ok && out.error.isEmpty())
            out.error = "timed out with " + QByteArray::number(n - out.completed) + " streams unfinished";
    }
};

struct EpollReader : ReaderBase {
    std::vector<char> buffer = std::vector<char>(256 * 1024);

    void send(Conn &c)
    {
        while (c.sent < c.request.size()) {
            const ssize_t n = ::send(c.fd, c.request.constData() + c.sent, size_t(c.request.size() - c.sent), 0);
            if (n < 0) {
                if (errno != EAGAIN)
                    fail(c, QByteArray("send: ") + std::strerror(errno));
                return;
            }
            c.sent += n;
        }
    }

    void read(Conn &c)
    {
        for (;;) {
            const ssize_t n = ::recv(c.fd, buffer.data(), buffer.size(), 0);
            if (n <= 0) {
                if (n == 0)
                    fail(c, "the server closed a stream before [DONE]");
                else if (errno != EAGAIN)
                    fail(c, QByteArray("recv: ") + std::strerror(errno));
                return;
            }
            if (take(c, buffer.data(), size_t(n)) || size_t(n) < buffer.size())
                return; // done, or a short read emptied the socket
        }
    }

    void run(
        const QByteArray &host, int port, const QByteArray &path, const QVector<PreparedRequest> &bodies, int timeoutMs)
    {
        const int ep = epoll_create1(EPOLL_CLOEXEC);
        const bool opened = open(host, port, path, bodies, SOCK_NONBLOCK, false, [&](size_t i, const addrinfo &a) {
            Conn &c = conns[i];
            if (::connect(c.fd, a.ai_addr, a.ai_addrlen) != 0 && errno != EINPROGRESS) {
                fail(c, QByteArray("connect: ") + std::strerror(errno));
                return;
            }
            epoll_event ev {};
            ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
            ev.data.u64 = quint64(i);
            epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
        });
        std::vector<epoll_event> events(256);
        while (opened && running(timeoutMs)) {
            const int ready = epoll_wait(ep, events.data(), int(events.size()), 100);
            ++out.waits;
            for (int k = 0; k < ready; ++k) {
                Conn &c = conns[size_t(events[size_t(k)].data.u64)];
                if (c.finished)
                    continue;
                if (events[size_t(k)].events & EPOLLOUT)
                    send(c);
                if (!c.finished && (events[size_t(k)].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
                    read(c);
            }
        }
        ::close(ep);
        if (opened)
            finish();
    }
};

// The same streams through the engine's receive ring (engine/receivering.h), with nothing of the
// engine around it: each socket connects and sends its request (blocking, before it is read),
// then one multishot recvmsg per socket hands its pieces, each with its kernel stamp, to the
// counting. With many streams a wait gathers up to 64 pieces or 1 ms, as the engine's do.
struct UringReader : ReaderBase, ReceiveSink {
    std::unique_ptr<ReceiveRing> ring;

    void onPiece(const ReceivedPiece &p) override
    {
        Conn &c = conns[size_t(p.key)];
        if (c.finished)
            return;
        if (p.len > 0) {
            out.stampedReads += p.stamp != nullptr;
            take(c, p.data, p.len);
        } else if (p.result == 0) {
            fail(c, "the server closed a stream before [DONE]");
        } else if (p.result < 0 && p.result != -ENOBUFS) {
            fail(c, QByteArray("recvmsg: ") + std::strerror(-p.result));
        }
        if (!c.finished && !p.more && (p.result > 0 || p.result == -ENOBUFS))
            ring->receive(c.fd, p.key); // ran out of buffers: armed again, the kernel kept the bytes
    }
    void onBatchEnd() override { }

    void run(
        const QByteArray &host, int port, const QByteArray &path, const QVector<PreparedRequest> &bodies, int timeoutMs)
    {
        QString why;
        ring = ReceiveRing::make(&why);
        if (!ring) {
            out.error = "no receive ring: " + why.toUtf8();
            return;
        }
        ring->setSink(this);
        ring->setBatch(ReceiveRing::kBatch);
        const bool opened = open(host, port, path, bodies, 0, true, [&](size_t i, const addrinfo &a) {
            Conn &c = conns[i];
            if (::connect(c.fd, a.ai_addr, a.ai_addrlen) != 0)
                return fail(c, QByteArray("connect: ") + std::strerror(errno));
            if (::send(c.fd, c.request.constData(), size_t(c.request.size()), MSG_NOSIGNAL) != c.request.size())
                return fail(c, QByteArray("send: ") + std::strerror(errno));
            ring->receive(c.fd, quint64(i));
        });
        while (opened && running(timeoutMs)) {
            ring->wait(100);
            ++out.waits;
        }
        ring.reset(); // ends the receives before finish() closes their sockets
        if (opened)
            finish();
    }
};

} // namespace

bool uringFloorBuilt()
{
#ifdef SERVESCOPE_HAVE_LIBURING
    return true;
#else
    return false;
#endif
}

FloorFigures readFloor(const QByteArray &host, int port, const QByteArray &path, const QVector<PreparedRequest> &bodies,
    int timeoutMs, FloorReceive receive)
{
    FloorFigures out;
    std::thread t([&] {
        pthread_setname_np(pthread_self(), "engine-floor");
        rusage before {}, after {}, processBefore {}, processAfter {};
        getrusage(RUSAGE_SELF, &processBefore);
        getrusage(RUSAGE_THREAD, &before);
        if (receive == FloorReceive::Epoll) {
            EpollReader reader;
            reader.run(host, port, path, bodies, timeoutMs);
            out = reader.out;
        } else {
            UringReader reader;
            reader.run(host, port, path, bodies, timeoutMs);
            out = reader.out;
        }
        getrusage(RUSAGE_THREAD, &after);
        getrusage(RUSAGE_SELF, &processAfter);
        const auto cpu = [](const rusage &r) {
            const auto seconds = [](const timeval &tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; };
            return seconds(r.ru_utime) + seconds(r.ru_stime);
        };
        out.cpuS = cpu(after) - cpu(before);
        out.processCpuS = cpu(processAfter) - cpu(processBefore);
        out.sleeps = after.ru_nvcsw - before.ru_nvcsw;
    });
    t.join();
    return out;
}

} // namespace ServeScope::Testing
