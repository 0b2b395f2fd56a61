// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QtGlobal>

#include <ctime>
#include <memory>

namespace ServeScope {

/// One completion of a socket's receive: a piece of its stream, its end, or both.
struct ReceivedPiece {
    quint64 key = 0; ///< what receive() was given
    const char *data = nullptr; ///< valid only during the sink's call
    size_t len = 0;
    const timespec *stamp = nullptr; ///< the kernel's SO_TIMESTAMPNS of the piece (realtime), if any
    /// > 0: a piece of len bytes; 0: the peer closed its side; < 0: -errno, the receive failed.
    int result = 0;
    /// The receive goes on. False with result > 0 (or -ENOBUFS): it stopped for want of buffers
    /// and the owner arms it again (the kernel keeps the bytes meanwhile).
    bool more = false;
};

/// Where a ring's completions go, batch by batch, on the ring's thread.
class ReceiveSink {
public:
    virtual ~ReceiveSink() = default;
    virtual void onPiece(const ReceivedPiece &piece) = 0;
    /// Every completion of one wait was handed over: the time to parse what they carried.
    virtual void onBatchEnd() = 0;
};

/// The batched receive path of an engine thread (Linux io_uring, kernel >= 6.0): one ring whose
/// sockets are read by multishot `recvmsg` into buffers the kernel takes from a registered ring,
/// one completion per piece with its kernel receive stamp. The thread blocks in the ring, not in
/// epoll: a wait hands back the pieces of many sockets at once and, while many streams are in
/// flight, gathers up to kBatch of them (or kBatchWaitNs) before it returns, so the system calls
/// per event fall well below one. The thread's epoll set (connects, writes, Qt's notifiers, the
/// wake-up descriptor) is watched by the ring (docs/engine.md, "The batched receive path").
class ReceiveRing {
public:
    static constexpr unsigned kBatch = 64;
    static constexpr qint64 kBatchWaitNs = 1'000'000;
    /// Receive buffers of 2 kB each (2 MB, touched as the kernel cycles through them): about 20
    /// times what 1,024 streams at 50 events/s per stream deliver in one wait. Should they run
    /// out, a receive stops with -ENOBUFS, the kernel keeps the bytes and the owner arms it again.
    static constexpr unsigned kBuffers = 1024;

    /// A ring with `buffers` receive buffers (a power of two), or nullptr with `why` when this
    /// build, kernel or process cannot have one (built without liburing, kernel before 6.0,
    /// io_uring refused, SERVESCOPE_RECEIVE=epoll).
    static std::unique_ptr<ReceiveRing> make(QString *why, unsigned buffers = kBuffers);
    ~ReceiveRing();
    ReceiveRing(const ReceiveRing &) = delete;
    ReceiveRing &operator=(const ReceiveRing &) = delete;

    void setSink(ReceiveSink *sink) noexcept { m_sink = sink; }
    /// Reads `fd` until it closes, fails or stop(key); `key` must be below 2^63.
    void receive(int fd, quint64 key);
    /// Ends the receive armed with `key` (before its socket is closed: the ring holds the socket
    /// until then). Its completions still come, and the owner ignores them by their key.
    void stop(quint64 key);
    /// Watches `fd` for input: wait() then says it is readable.
    void watch(int fd);
    /// How many completions a wait may gather before it returns (1: each as it comes).
    void setBatch(unsigned batch) noexcept { m_batch = batch < 1 ? 1 : batch > kBatch ? kBatch : batch; }

    /// Submits what was queued and waits up to `timeoutMs` (-1: no limit, 0: not at all) for
    /// completions, which go to the sink. True when the watched descriptor became readable.
    bool wait(int timeoutMs);

private:
    struct Impl;
    explicit ReceiveRing(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
    ReceiveSink *m_sink = nullptr;
    unsigned m_batch = 1;
};

} // namespace ServeScope
