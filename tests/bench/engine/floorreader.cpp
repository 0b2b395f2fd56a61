// SPDX-License-Identifier: MIT
#include "floorreader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <functional>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

#ifdef SERVESCOPE_HAVE_LIBURING
#include <liburing.h>
#endif

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

#ifdef SERVESCOPE_HAVE_LIBURING

// One ring for every stream. Each socket is connected, sent its request, then read by one multishot
// recvmsg: the kernel fills buffers it takes from a registered ring of 4,096 and posts a completion
// per piece, so one io_uring_enter both hands back the pieces of many sockets and waits for more.
// Each piece carries the control message with its SO_TIMESTAMPNS stamp, as the engine's recvmsg does.
struct UringReader : ReaderBase {
    enum Op : quint64 { Connect = 1, Send = 2, Receive = 3 };
    static constexpr unsigned kBuffers = 4096, kBufferSize = 2048;
    static constexpr unsigned kGroup = 0;
    static constexpr unsigned kBatch = 64;
    static constexpr long kWaitNs = 2 * 1000 * 1000;

    io_uring ring {};
    io_uring_buf_ring *bufferRing = nullptr;
    size_t bufferRingBytes = 0;
    std::vector<char> buffers = std::vector<char>(size_t(kBuffers) * kBufferSize);
    msghdr shape {}; ///< what each piece's buffer holds before its bytes: no address, one stamp
    sockaddr_storage address {}; ///< the server's, for every connect (read by the kernel when submitted)
    socklen_t addressLen = 0;
    int returned = 0; ///< buffers given back in the current batch of completions

    static quint64 tag(size_t conn, Op op) { return quint64(conn) << 8 | op; }

    io_uring_sqe *sqe()
    {
        io_uring_sqe *s = io_uring_get_sqe(&ring);
        if (!s) {
            io_uring_submit(&ring);
            s = io_uring_get_sqe(&ring);
        }
        return s;
    }

    void sendRest(size_t i)
    {
        Conn &c = conns[i];
        io_uring_sqe *s = sqe();
        io_uring_prep_send(s, c.fd, c.request.constData() + c.sent, size_t(c.request.size() - c.sent), MSG_NOSIGNAL);
        io_uring_sqe_set_data64(s, tag(i, Send));
    }

    void receive(size_t i)
    {
        io_uring_sqe *s = sqe();
        io_uring_prep_recvmsg_multishot(s, conns[i].fd, &shape, 0);
        s->flags |= IOSQE_BUFFER_SELECT;
        s->buf_group = kGroup;
        io_uring_sqe_set_data64(s, tag(i, Receive));
    }

    void giveBack(unsigned id)
    {
        io_uring_buf_ring_add(bufferRing, buffers.data() + size_t(id) * kBufferSize, kBufferSize,
            static_cast<unsigned short>(id), io_uring_buf_ring_mask(kBuffers), returned++);
    }

    void piece(Conn &c, const io_uring_cqe &cqe)
    {
        const unsigned id = cqe.flags >> IORING_CQE_BUFFER_SHIFT;
        char *buf = buffers.data() + size_t(id) * kBufferSize;
        io_uring_recvmsg_out *o = io_uring_recvmsg_validate(buf, cqe.res, &shape);
        if (!c.finished && o) {
            for (cmsghdr *m = io_uring_recvmsg_cmsg_firsthdr(o, &shape); m;
                 m = io_uring_recvmsg_cmsg_nexthdr(o, &shape, m)) {
                if (m->cmsg_level == SOL_SOCKET && m->cmsg_type == SCM_TIMESTAMPNS) {
                    ++out.stampedReads;
                    break;
                }
            }
            const unsigned len = io_uring_recvmsg_payload_length(o, cqe.res, &shape);
            if (len > 0)
                take(c, static_cast<const char *>(io_uring_recvmsg_payload(o, &shape)), len);
            else if (!c.finished && (o->flags & MSG_TRUNC) == 0)
                fail(c, "the server closed a stream before [DONE]");
        }
        giveBack(id);
    }

    void complete(const io_uring_cqe &cqe)
    {
        const size_t i = size_t(cqe.user_data >> 8);
        Conn &c = conns[i];
        const Op op = Op(cqe.user_data & 0xff);
        if (op == Receive && (cqe.flags & IORING_CQE_F_BUFFER))
            return piece(c, cqe);
        if (c.finished)
            return;
        if (cqe.res < 0 && !(op == Receive && cqe.res == -ENOBUFS)) {
            static const char *const names[] = { "", "connect: ", "send: ", "recvmsg: " };
            return fail(c, QByteArray(names[op]) + std::strerror(-cqe.res));
        }
        if (op == Connect)
            return sendRest(i);
        if (op == Send) {
            c.sent += cqe.res;
            return c.sent < c.request.size() ? sendRest(i) : receive(i);
        }
        if (cqe.res == 0)
            return fail(c, "the server closed a stream before [DONE]");
        if (!(cqe.flags & IORING_CQE_F_MORE))
            receive(i); // ran out of buffers: armed again, the kernel kept the bytes
    }

    bool setUp()
    {
        io_uring_params p {};
        p.flags
            = IORING_SETUP_CQSIZE | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
        p.cq_entries = 4 * kBuffers;
        int rc = io_uring_queue_init_params(1024, &ring, &p);
        if (rc == -EINVAL) { // a kernel before 6.1: without the single-issuer flags
            p = {};
            p.flags = IORING_SETUP_CQSIZE;
            p.cq_entries = 4 * kBuffers;
            rc = io_uring_queue_init_params(1024, &ring, &p);
        }
        if (rc < 0) {
            out.error = QByteArray("io_uring_queue_init: ") + std::strerror(-rc);
            return false;
        }
        bufferRingBytes = sizeof(io_uring_buf) * kBuffers;
        void *mem = mmap(nullptr, bufferRingBytes, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
        if (mem == MAP_FAILED) {
            out.error = "mmap of the buffer ring failed";
            return false;
        }
        bufferRing = static_cast<io_uring_buf_ring *>(mem);
        io_uring_buf_reg reg {};
        reg.ring_addr = quint64(reinterpret_cast<uintptr_t>(mem));
        reg.ring_entries = kBuffers;
        reg.bgid = kGroup;
        if ((rc = io_uring_register_buf_ring(&ring, &reg, 0)) < 0) {
            out.error = QByteArray("io_uring_register_buf_ring: ") + std::strerror(-rc);
            return false;
        }
        io_uring_buf_ring_init(bufferRing);
        for (unsigned id = 0; id < kBuffers; ++id)
            giveBack(id);
        io_uring_buf_ring_advance(bufferRing, returned);
        returned = 0;
        shape.msg_controllen = CMSG_SPACE(sizeof(timespec));
        return true;
    }

    void run(
        const QByteArray &host, int port, const QByteArray &path, const QVector<PreparedRequest> &bodies, int timeoutMs)
    {
        if (!setUp()) {
            if (bufferRing)
                munmap(bufferRing, bufferRingBytes);
            if (ring.ring_fd > 0)
                io_uring_queue_exit(&ring);
            return;
        }
        const bool opened = open(host, port, path, bodies, 0, true, [&](size_t i, const addrinfo &a) {
            if (addressLen == 0) {
                std::memcpy(&address, a.ai_addr, a.ai_addrlen);
                addressLen = a.ai_addrlen;
            }
            io_uring_sqe *s = sqe();
            io_uring_prep_connect(s, conns[i].fd, reinterpret_cast<const sockaddr *>(&address), addressLen);
            io_uring_sqe_set_data64(s, tag(i, Connect));
        });
        // Each wait gathers up to kBatch pieces or kWaitNs, whichever comes first: the stamps are the
        // kernel's, so holding a piece back costs no accuracy (waiting for one piece at a time, 0.7
        // waits per event, cost more CPU than the epoll floor).
        __kernel_timespec wait { 0, kWaitNs };
        while (opened && running(timeoutMs)) {
            io_uring_cqe *first = nullptr;
            io_uring_submit_and_wait_timeout(&ring, &first, kBatch, &wait, nullptr);
            ++out.waits;
            unsigned head = 0, seen = 0;
            io_uring_cqe *cqe = nullptr;
            io_uring_for_each_cqe(&ring, head, cqe)
            {
                ++seen;
                complete(*cqe);
            }
            io_uring_buf_ring_advance(bufferRing, returned);
            returned = 0;
            io_uring_cq_advance(&ring, seen);
        }
        if (opened)
            finish();
        io_uring_queue_exit(&ring);
        munmap(bufferRing, bufferRingBytes);
    }
};

#endif

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
#ifdef SERVESCOPE_HAVE_LIBURING
            UringReader reader;
            reader.run(host, port, path, bodies, timeoutMs);
            out = reader.out;
#else
            out.error = "built without liburing";
#endif
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
