// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractEventDispatcher>

#include <atomic>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

struct epoll_event;

namespace ServeScope {

class ReceiveRing;

/// The event loop of an engine thread (and of the simulator's one thread): one epoll set that the
/// thread blocks in, holding Qt's socket notifiers, a wake-up descriptor for posted events, and the
/// lean transport's sockets themselves.
/// A wake-up therefore costs one `epoll_wait` that returns the ready sockets, where Qt's own loop
/// polled a list of descriptors and the transport then asked its own epoll set (docs/engine.md).
/// Once the lean transport asks for the batched receive path (receiveRing()), the thread blocks in
/// that ring instead, which also watches the epoll set: the set is read when it has something.
/// Timers have Qt's millisecond resolution; every kind is kept as a precise one.
class EpollDispatcher final : public QAbstractEventDispatcher {
    Q_OBJECT
public:
    using Sink = std::function<void(const epoll_event *events, int count)>;

    explicit EpollDispatcher(QObject *parent = nullptr);
    ~EpollDispatcher() override;

    /// The dispatcher of the calling thread, or nullptr when that thread runs another loop.
    static EpollDispatcher *current();

    /// The set this thread blocks in; -1 when it could not be made (no descriptor left).
    int epollFd() const noexcept { return m_epoll; }
    /// Receives, one batch per wake-up, the events of descriptors added to epollFd() by others.
    /// Their keys (`epoll_event::data.u64`) must be below 2^63; the dispatcher's own are above.
    void setSink(Sink sink) { m_sink = std::move(sink); }
    /// This thread's batched receive path, made on the first call; nullptr when it cannot be made
    /// (`why` says why), and the sockets are then read through the epoll set.
    ReceiveRing *receiveRing(QString *why);

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;
    void registerSocketNotifier(QSocketNotifier *notifier) override;
    void unregisterSocketNotifier(QSocketNotifier *notifier) override;
    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject *object) override;
    QList<TimerInfo> registeredTimers(QObject *object) const override;
    int remainingTime(int timerId) override;
    void wakeUp() override;
    void interrupt() override;

private:
    struct Timer {
        int id;
        qint64 intervalMs;
        Qt::TimerType type;
        QObject *object;
        qint64 dueNs;
        bool firing = false; ///< its event is being delivered: a nested loop does not fire it again
    };
    struct Watched {
        QSocketNotifier *read = nullptr, *write = nullptr, *exception = nullptr;
    };
    void updateWatch(int fd);
    /// Blocks (up to `timeout` ms, -1 for ever) in the ring or the epoll set; the set's ready events.
    int waitForEvents(epoll_event *events, int timeout);
    /// The dispatcher's own events of a wait: the wake-up read, and (unless `notifiers` is false) the
    /// Qt notifiers each ready descriptor activates; how many notifiers.
    int activateOwn(const epoll_event *events, int n, bool notifiers);
    int activateTimers();
    int msToNextTimer() const;

    int m_epoll = -1;
    int m_wake = -1; ///< eventfd: posted events and interrupt()
    Sink m_sink;
    std::unique_ptr<ReceiveRing> m_ring;
    QString m_noRing; ///< why m_ring could not be made, once tried
    bool m_ringTried = false;
    bool m_epollPending = false; ///< the ring saw the epoll set readable: read it before blocking again
    std::unordered_map<int, Watched> m_watched;
    std::vector<Timer> m_timers;
    std::atomic<bool> m_interrupted { false };
};

} // namespace ServeScope
