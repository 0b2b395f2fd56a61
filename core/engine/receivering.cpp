// SPDX-License-Identifier: MIT
#include "receivering.h"

#include <QByteArray>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/utsname.h>

#ifdef SERVESCOPE_HAVE_LIBURING
#include <liburing.h>
#include <poll.h>
#endif

namespace ServeScope {

namespace {

// Major and minor of the running kernel ("6.18.44-..." is 6 and 18).
bool kernelAtLeast(int major, int minor)
{
    utsname u {};
    if (uname(&u) != 0)
        return false;
    int haveMajor = 0, haveMinor = 0;
    if (std::sscanf(u.release, "%d.%d", &haveMajor, &haveMinor) != 2)
        return false;
    return haveMajor > major || (haveMajor == major && haveMinor >= minor);
}

} // namespace

#ifdef SERVESCOPE_HAVE_LIBURING

namespace {
constexpr quint64 kOwn = quint64(1) << 63; ///< the ring's own requests
constexpr quint64 kWatchKey = kOwn | 1;
constexpr quint64 kStopKey = kOwn | 2;
// Buffers of 2 kB: an SSE event is a few hundred bytes, so a piece is mostly one event.
constexpr unsigned kBufferSize = 2048;
constexpr unsigned short kGroup = 0;
} // namespace

struct ReceiveRing::Impl {
    explicit Impl(unsigned count)
        : buffers(count)
        , memoryBytes(size_t(count) * kBufferSize)
    {
    }
    const unsigned buffers;
    io_uring ring {};
    bool ringUp = false;
    io_uring_buf_ring *bufferRing = nullptr;
    size_t bufferRingBytes = 0;
    char *memory = nullptr;
    size_t memoryBytes;
    msghdr shape {}; ///< what each piece's buffer holds before its bytes: no address, one stamp
    int returned = 0; ///< buffers given back in the current batch of completions
    int watched = -1;

    ~Impl()
    {
        if (ringUp)
            io_uring_queue_exit(&ring); // ends every receive still armed
        if (bufferRing)
            munmap(bufferRing, bufferRingBytes);
        if (memory)
            munmap(memory, memoryBytes);
    }

    io_uring_sqe *sqe()
    {
        io_uring_sqe *s = io_uring_get_sqe(&ring);
        if (!s) {
            io_uring_submit(&ring);
            s = io_uring_get_sqe(&ring);
        }
        return s;
    }

    void giveBack(unsigned id)
    {
        io_uring_buf_ring_add(bufferRing, memory + size_t(id) * kBufferSize, kBufferSize,
            static_cast<unsigned short>(id), io_uring_buf_ring_mask(buffers), returned++);
    }

    void armWatch()
    {
        io_uring_sqe *s = sqe();
        io_uring_prep_poll_multishot(s, watched, POLLIN);
        io_uring_sqe_set_data64(s, kWatchKey);
    }

    QString setUp()
    {
        io_uring_params p {};
        p.flags
            = IORING_SETUP_CQSIZE | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
        p.cq_entries = 4 * std::max(buffers, 1024u);
        int rc = io_uring_queue_init_params(1024, &ring, &p);
        if (rc == -EINVAL) { // kernel 6.0: without the single-issuer flags
            p = {};
            p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SUBMIT_ALL;
            p.cq_entries = 4 * std::max(buffers, 1024u);
            rc = io_uring_queue_init_params(1024, &ring, &p);
        }
        if (rc < 0)
            return QStringLiteral("io_uring refused: %1").arg(QString::fromLocal8Bit(std::strerror(-rc)));
        ringUp = true;
        void *mem = mmap(nullptr, memoryBytes, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
        if (mem == MAP_FAILED)
            return QStringLiteral("no memory for the receive buffers");
        memory = static_cast<char *>(mem);
        bufferRingBytes = sizeof(io_uring_buf) * buffers;
        mem = mmap(nullptr, bufferRingBytes, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
        if (mem == MAP_FAILED)
            return QStringLiteral("no memory for the buffer ring");
        bufferRing = static_cast<io_uring_buf_ring *>(mem);
        io_uring_buf_reg reg {};
        reg.ring_addr = quint64(reinterpret_cast<uintptr_t>(mem));
        reg.ring_entries = buffers;
        reg.bgid = kGroup;
        if ((rc = io_uring_register_buf_ring(&ring, &reg, 0)) < 0)
            return QStringLiteral("io_uring buffer ring refused: %1").arg(QString::fromLocal8Bit(std::strerror(-rc)));
        io_uring_buf_ring_init(bufferRing);
        for (unsigned id = 0; id < buffers; ++id)
            giveBack(id);
        io_uring_buf_ring_advance(bufferRing, returned);
        returned = 0;
        shape.msg_controllen = CMSG_SPACE(sizeof(timespec));
        return {};
    }

    // One completion for the sink (a piece's buffer goes back once the sink is done with it).
    void complete(const io_uring_cqe &c, ReceiveSink *sink, bool *watchFired)
    {
        if (c.user_data == kStopKey)
            return;
        if (c.user_data == kWatchKey) {
            *watchFired = true;
            if (!(c.flags & IORING_CQE_F_MORE))
                armWatch();
            return;
        }
        ReceivedPiece piece;
        piece.key = c.user_data;
        piece.result = c.res;
        piece.more = c.flags & IORING_CQE_F_MORE;
        unsigned id = buffers;
        if (c.flags & IORING_CQE_F_BUFFER) {
            id = c.flags >> IORING_CQE_BUFFER_SHIFT;
            char *buffer = memory + size_t(id) * kBufferSize;
            if (io_uring_recvmsg_out *o = c.res > 0 ? io_uring_recvmsg_validate(buffer, c.res, &shape) : nullptr) {
                for (cmsghdr *m = io_uring_recvmsg_cmsg_firsthdr(o, &shape); m;
                     m = io_uring_recvmsg_cmsg_nexthdr(o, &shape, m)) {
                    if (m->cmsg_level == SOL_SOCKET && m->cmsg_type == SCM_TIMESTAMPNS)
                        piece.stamp = reinterpret_cast<const timespec *>(CMSG_DATA(m));
                }
                piece.len = io_uring_recvmsg_payload_length(o, c.res, &shape);
                piece.data = static_cast<const char *>(io_uring_recvmsg_payload(o, &shape));
                piece.result = int(piece.len); // a piece without bytes: the peer closed its side
            } else if (c.res > 0) {
                piece.result = -EPROTO; // a buffer the kernel did not lay out as asked
            }
        }
        if (sink)
            sink->onPiece(piece);
        if (id < buffers)
            giveBack(id);
    }
};

ReceiveRing::ReceiveRing(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{
}

ReceiveRing::~ReceiveRing() = default;

std::unique_ptr<ReceiveRing> ReceiveRing::make(QString *why, unsigned buffers)
{
    Q_ASSERT(buffers > 0 && (buffers & (buffers - 1)) == 0 && buffers <= 32768);
    const QByteArray choice = qgetenv("SERVESCOPE_RECEIVE");
    if (choice == "epoll") {
        *why = QStringLiteral("SERVESCOPE_RECEIVE=epoll");
        return nullptr;
    }
    if (!kernelAtLeast(6, 0)) {
        *why = QStringLiteral("kernel before 6.0 (no multishot receive)");
        return nullptr;
    }
    auto impl = std::make_unique<Impl>(buffers);
    if (const QString error = impl->setUp(); !error.isEmpty()) {
        *why = error;
        return nullptr;
    }
    return std::unique_ptr<ReceiveRing>(new ReceiveRing(std::move(impl)));
}

void ReceiveRing::receive(int fd, quint64 key)
{
    io_uring_sqe *s = m_impl->sqe();
    io_uring_prep_recvmsg_multishot(s, fd, &m_impl->shape, 0);
    s->flags |= IOSQE_BUFFER_SELECT;
    s->buf_group = kGroup;
    io_uring_sqe_set_data64(s, key);
}

void ReceiveRing::stop(quint64 key)
{
    io_uring_sqe *s = m_impl->sqe();
    io_uring_prep_cancel64(s, key, 0);
    io_uring_sqe_set_data64(s, kStopKey);
}

void ReceiveRing::watch(int fd)
{
    m_impl->watched = fd;
    m_impl->armWatch();
}

bool ReceiveRing::wait(int timeoutMs)
{
    io_uring *ring = &m_impl->ring;
    qint64 ns = timeoutMs < 0 ? -1 : qint64(timeoutMs) * 1'000'000;
    if (m_batch > 1 && ns != 0)
        ns = ns < 0 ? kBatchWaitNs : std::min(ns, kBatchWaitNs);
    if (ns == 0) {
        io_uring_submit_and_get_events(ring);
    } else if (ns < 0) {
        io_uring_submit_and_wait(ring, 1);
    } else {
        __kernel_timespec ts { ns / 1'000'000'000, ns % 1'000'000'000 };
        io_uring_cqe *first = nullptr;
        io_uring_submit_and_wait_timeout(ring, &first, m_batch, &ts, nullptr); // -ETIME: fewer came
    }
    bool watchFired = false;
    unsigned head = 0, seen = 0;
    io_uring_cqe *cqe = nullptr;
    io_uring_for_each_cqe(ring, head, cqe)
    {
        ++seen;
        m_impl->complete(*cqe, m_sink, &watchFired);
    }
    io_uring_buf_ring_advance(m_impl->bufferRing, m_impl->returned);
    m_impl->returned = 0;
    io_uring_cq_advance(ring, seen);
    if (seen > 0 && m_sink)
        m_sink->onBatchEnd();
    return watchFired;
}

#else // built without liburing: the engine reads through epoll

struct ReceiveRing::Impl { };

ReceiveRing::ReceiveRing(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{
}

ReceiveRing::~ReceiveRing() = default;

std::unique_ptr<ReceiveRing> ReceiveRing::make(QString *why, unsigned)
{
    *why = kernelAtLeast(6, 0) ? QStringLiteral("built without liburing") : QStringLiteral("kernel before 6.0");
    return nullptr;
}

void ReceiveRing::receive(int, quint64) { }
void ReceiveRing::stop(quint64) { }
void ReceiveRing::watch(int) { }
bool ReceiveRing::wait(int)
{
    return false;
}

#endif

} // namespace ServeScope
