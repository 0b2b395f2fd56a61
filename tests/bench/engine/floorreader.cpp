// SPDX-License-Identifier: MIT
#include "floorreader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
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

namespace ServeScope::Testing {

namespace {

constexpr char kData[] = "data: ";
constexpr char kDone[] = "data: [DONE]";
constexpr size_t kDataLen = sizeof(kData) - 1, kDoneLen = sizeof(kDone) - 1;
constexpr size_t kCarry = kDoneLen - 1; // the longest pattern can straddle two reads by this much

struct Conn {
    int fd = -1;
    QByteArray request;
    qsizetype sent = 0;
    char carry[kCarry] = {};
    size_t carryLen = 0;
    bool finished = false;
};

double nowS(clockid_t clock)
{
    timespec ts {};
    clock_gettime(clock, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// Matches of `pattern` in [buf, buf + len) that end past `from` (those inside the carried bytes
// were counted with the read they came from).
qint64 countEnding(const char *buf, size_t len, size_t from, const char *pattern, size_t patternLen)
{
    qint64 n = 0;
    const char *at = buf, *end = buf + len;
    while (const void *hit = memmem(at, size_t(end - at), pattern, patternLen)) {
        const char *p = static_cast<const char *>(hit);
        n += size_t(p - buf) + patternLen > from ? 1 : 0;
        at = p + patternLen;
    }
    return n;
}

struct Reader {
    std::vector<Conn> conns;
    std::vector<char> buffer = std::vector<char>(256 * 1024 + kCarry);
    FloorFigures out;
    int failed = 0;

    void fail(Conn &c, const QByteArray &why)
    {
        if (out.error.isEmpty())
            out.error = why;
        ::close(c.fd);
        c.fd = -1;
        c.finished = true;
        ++failed;
    }

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
        char *buf = buffer.data();
        for (;;) {
            std::memcpy(buf, c.carry, c.carryLen);
            const ssize_t n = ::recv(c.fd, buf + c.carryLen, buffer.size() - c.carryLen, 0);
            if (n <= 0) {
                if (n == 0)
                    fail(c, "the server closed a stream before [DONE]");
                else if (errno != EAGAIN)
                    fail(c, QByteArray("recv: ") + std::strerror(errno));
                return;
            }
            const size_t len = c.carryLen + size_t(n);
            const qint64 done = countEnding(buf, len, c.carryLen, kDone, kDoneLen);
            out.dataEvents += countEnding(buf, len, c.carryLen, kData, kDataLen) - done;
            if (done > 0) {
                ::close(c.fd);
                c.fd = -1;
                c.finished = true;
                ++out.completed;
                return;
            }
            c.carryLen = std::min(kCarry, len);
            std::memcpy(c.carry, buf + len - c.carryLen, c.carryLen);
            if (size_t(n) < buffer.size() - kCarry)
                return; // a short read emptied the socket
        }
    }

    void run(
        const QByteArray &host, int port, const QByteArray &path, const QVector<PreparedRequest> &bodies, int timeoutMs)
    {
        addrinfo hints {};
        hints.ai_socktype = SOCK_STREAM;
        addrinfo *addresses = nullptr;
        if (getaddrinfo(host.constData(), QByteArray::number(port).constData(), &hints, &addresses) != 0
            || !addresses) {
            out.error = "cannot resolve " + host;
            return;
        }
        const int ep = epoll_create1(EPOLL_CLOEXEC);
        const double t0 = nowS(CLOCK_MONOTONIC);
        conns.resize(size_t(bodies.size()));
        for (qsizetype i = 0; i < bodies.size(); ++i) {
            Conn &c = conns[size_t(i)];
            const QByteArray &body = bodies[i].body;
            c.request = "POST " + path + " HTTP/1.1\r\nHost: " + host + ':' + QByteArray::number(port)
                + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\n\r\n" + body;
            c.fd = ::socket(addresses->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            const int one = 1;
            setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
            if (::connect(c.fd, addresses->ai_addr, addresses->ai_addrlen) != 0 && errno != EINPROGRESS) {
                fail(c, QByteArray("connect: ") + std::strerror(errno));
                continue;
            }
            epoll_event ev {};
            ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
            ev.data.u64 = quint64(i);
            epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
        }
        freeaddrinfo(addresses);
        std::vector<epoll_event> events(256);
        const int n = int(conns.size());
        while (out.completed + failed < n && (nowS(CLOCK_MONOTONIC) - t0) * 1000 < timeoutMs) {
            const int ready = epoll_wait(ep, events.data(), int(events.size()), 100);
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
        out.wallS = nowS(CLOCK_MONOTONIC) - t0;
        for (Conn &c : conns) {
            if (c.fd >= 0)
                ::close(c.fd);
        }
        ::close(ep);
        out.ok = out.completed == n;
        if (!out.ok && out.error.isEmpty())
            out.error = "timed out with " + QByteArray::number(n - out.completed) + " streams unfinished";
    }
};

} // namespace

FloorFigures readFloor(
    const QByteArray &host, int port, const QByteArray &path, const QVector<PreparedRequest> &bodies, int timeoutMs)
{
    Reader reader;
    std::thread t([&] {
        pthread_setname_np(pthread_self(), "engine-floor");
        rusage before {}, after {};
        getrusage(RUSAGE_THREAD, &before);
        reader.run(host, port, path, bodies, timeoutMs);
        getrusage(RUSAGE_THREAD, &after);
        const auto seconds = [](const timeval &tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; };
        reader.out.cpuS
            = seconds(after.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_utime) - seconds(before.ru_stime);
        reader.out.sleeps = after.ru_nvcsw - before.ru_nvcsw;
    });
    t.join();
    return reader.out;
}

} // namespace ServeScope::Testing
