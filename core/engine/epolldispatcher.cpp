// SPDX-License-Identifier: MIT
#include "epolldispatcher.h"

#include "receivering.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <algorithm>
#include <cerrno>
#include <ctime>

#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace ServeScope {

namespace {

constexpr quint64 kOwn = quint64(1) << 63; ///< keys of the dispatcher's own descriptors
constexpr quint64 kWakeKey = kOwn | quint64(1) << 62;
constexpr int kEventsPerWait = 256;

qint64 nowNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

} // namespace

EpollDispatcher::EpollDispatcher(QObject *parent)
    : QAbstractEventDispatcher(parent)
    , m_epoll(epoll_create1(EPOLL_CLOEXEC))
    , m_wake(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{
    if (m_epoll >= 0 && m_wake >= 0) {
        epoll_event ev {};
        ev.events = EPOLLIN;
        ev.data.u64 = kWakeKey;
        epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &ev);
    }
}

EpollDispatcher::~EpollDispatcher()
{
    m_ring.reset(); // before the set it watches
    if (m_wake >= 0)
        ::close(m_wake);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

ReceiveRing *EpollDispatcher::receiveRing(QString *why)
{
    if (!m_ringTried) {
        m_ringTried = true;
        if (m_epoll < 0 || m_wake < 0)
            m_noRing = QStringLiteral("no epoll set");
        else if ((m_ring = ReceiveRing::make(&m_noRing)))
            m_ring->watch(m_epoll);
    }
    if (!m_ring && why)
        *why = m_noRing;
    return m_ring.get();
}

EpollDispatcher *EpollDispatcher::current()
{
    return qobject_cast<EpollDispatcher *>(QAbstractEventDispatcher::instance());
}

bool EpollDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags)
{
    m_interrupted.store(false, std::memory_order_relaxed);
    Q_EMIT awake();
    QCoreApplication::sendPostedEvents();
    if (m_interrupted.load(std::memory_order_relaxed))
        return false;

    const bool timers = !(flags & QEventLoop::X11ExcludeTimers);
    const bool notifiers = !(flags & QEventLoop::ExcludeSocketNotifiers);
    int timeout = 0;
    if (flags & QEventLoop::WaitForMoreEvents) {
        // A post from any thread writes m_wake, so nothing posted since the send above is slept through.
        timeout = timers ? msToNextTimer() : -1;
        Q_EMIT aboutToBlock();
    }
    epoll_event events[kEventsPerWait];
    const int n = waitForEvents(events, timeout);
    if (timeout != 0)
        Q_EMIT awake();

    // The transport's sockets first, in one batch, then Qt's notifiers, then timers.
    int handled = 0;
    epoll_event others[kEventsPerWait];
    int otherCount = 0;
    for (int i = 0; i < n; ++i) {
        if (!(events[i].data.u64 & kOwn))
            others[otherCount++] = events[i];
    }
    if (otherCount > 0 && m_sink) {
        m_sink(others, otherCount);
        handled += otherCount;
    }
    handled += activateOwn(events, n, notifiers);
    if (timers)
        handled += activateTimers();
    return handled > 0;
}

int EpollDispatcher::waitForEvents(epoll_event *events, int timeout)
{
    int n = 0;
    if (m_ring) {
        // The ring hands its pieces to the transport while it waits; the set is read once the ring
        // saw it readable, and again on the next turn until it is empty (level-triggered notifiers).
        if (m_ring->wait(m_epollPending ? 0 : timeout))
            m_epollPending = true;
        if (m_epollPending) {
            n = std::max(0, epoll_wait(m_epoll, events, kEventsPerWait, 0));
            m_epollPending = n > 0;
        }
    } else if (m_epoll >= 0 && m_wake >= 0) {
        n = std::max(0, epoll_wait(m_epoll, events, kEventsPerWait, timeout)); // EINTR: the caller's loop comes back
    } else if (timeout != 0) {
        // No set could be made (no descriptor was left): posts are seen within 10 ms, nothing spins.
        ::poll(nullptr, 0, timeout < 0 ? 10 : std::min(timeout, 10));
    }
    return n;
}

int EpollDispatcher::activateOwn(const epoll_event *events, int n, bool notifiers)
{
    int handled = 0;
    for (int i = 0; i < n; ++i) {
        const quint64 key = events[i].data.u64;
        if (!(key & kOwn))
            continue;
        if (key == kWakeKey) {
            quint64 count = 0;
            (void)::read(m_wake, &count, sizeof count);
            continue;
        }
        if (!notifiers)
            continue; // level-triggered: reported again by a later call that includes them
        const int fd = int(key & 0xffffffffu);
        const quint32 ready = events[i].events;
        // As Qt's own loops: an error or hang-up activates the read and write notifiers.
        const bool readable = ready & (EPOLLIN | EPOLLHUP | EPOLLERR);
        const bool writable = ready & (EPOLLOUT | EPOLLHUP | EPOLLERR);
        const bool urgent = ready & EPOLLPRI;
        for (const QSocketNotifier::Type type :
            { QSocketNotifier::Read, QSocketNotifier::Write, QSocketNotifier::Exception }) {
            if (!(type == QSocketNotifier::Read ? readable : type == QSocketNotifier::Write ? writable : urgent))
                continue;
            // Looked up again each time: the previous activation may have removed it.
            const auto it = m_watched.find(fd);
            if (it == m_watched.end())
                break;
            QSocketNotifier *notifier = type == QSocketNotifier::Read ? it->second.read
                : type == QSocketNotifier::Write                      ? it->second.write
                                                                      : it->second.exception;
            if (!notifier)
                continue;
            QEvent activation(QEvent::SockAct);
            QCoreApplication::sendEvent(notifier, &activation);
            ++handled;
        }
    }
    return handled;
}

void EpollDispatcher::updateWatch(int fd)
{
    const auto it = m_watched.find(fd);
    quint32 mask = 0;
    if (it != m_watched.end()) {
        if (it->second.read)
            mask |= EPOLLIN;
        if (it->second.write)
            mask |= EPOLLOUT;
        if (it->second.exception)
            mask |= EPOLLPRI;
    }
    if (mask == 0) {
        if (it != m_watched.end())
            m_watched.erase(it);
        epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr); // fails harmlessly if it was closed first
        return;
    }
    epoll_event ev {};
    ev.events = mask;
    ev.data.u64 = kOwn | quint32(fd);
    if (epoll_ctl(m_epoll, EPOLL_CTL_MOD, fd, &ev) != 0 && errno == ENOENT)
        epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
}

void EpollDispatcher::registerSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    Watched &w = m_watched[fd];
    (notifier->type() == QSocketNotifier::Read           ? w.read
            : notifier->type() == QSocketNotifier::Write ? w.write
                                                         : w.exception)
        = notifier;
    updateWatch(fd);
}

void EpollDispatcher::unregisterSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    const auto it = m_watched.find(fd);
    if (it == m_watched.end())
        return;
    for (QSocketNotifier **slot : { &it->second.read, &it->second.write, &it->second.exception }) {
        if (*slot == notifier)
            *slot = nullptr;
    }
    updateWatch(fd);
}

void EpollDispatcher::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object)
{
    m_timers.push_back({ timerId, interval, timerType, object, nowNs() + interval * 1000000 });
}

bool EpollDispatcher::unregisterTimer(int timerId)
{
    for (auto it = m_timers.begin(); it != m_timers.end(); ++it) {
        if (it->id == timerId) {
            m_timers.erase(it);
            return true;
        }
    }
    return false;
}

bool EpollDispatcher::unregisterTimers(QObject *object)
{
    const auto before = m_timers.size();
    std::erase_if(m_timers, [object](const Timer &t) { return t.object == object; });
    return m_timers.size() != before;
}

QList<QAbstractEventDispatcher::TimerInfo> EpollDispatcher::registeredTimers(QObject *object) const
{
    QList<TimerInfo> list;
    for (const Timer &t : m_timers) {
        if (t.object == object)
            list.append(TimerInfo(t.id, int(t.intervalMs), t.type));
    }
    return list;
}

int EpollDispatcher::remainingTime(int timerId)
{
    const qint64 now = nowNs();
    for (const Timer &t : m_timers) {
        if (t.id == timerId)
            return int(std::max<qint64>(0, (t.dueNs - now + 999999) / 1000000));
    }
    return -1;
}

int EpollDispatcher::msToNextTimer() const
{
    qint64 next = -1;
    for (const Timer &t : m_timers) {
        if (!t.firing && (next < 0 || t.dueNs < next))
            next = t.dueNs;
    }
    if (next < 0)
        return -1;
    return int(std::max<qint64>(0, (next - nowNs() + 999999) / 1000000)); // rounded up: never early
}

int EpollDispatcher::activateTimers()
{
    const qint64 now = nowNs();
    // The timers due now, by id: a timer event may start, stop or delete any of them.
    std::vector<int> due;
    for (const Timer &t : m_timers) {
        if (!t.firing && t.dueNs <= now)
            due.push_back(t.id);
    }
    int fired = 0;
    for (const int id : due) {
        auto find = [this, id] {
            return std::find_if(m_timers.begin(), m_timers.end(), [id](const Timer &t) { return t.id == id; });
        };
        auto it = find();
        if (it == m_timers.end() || it->firing)
            continue;
        const qint64 step = it->intervalMs * 1000000;
        it->dueNs = it->dueNs + step > now ? it->dueNs + step : now + step; // missed periods are skipped
        it->firing = true;
        QObject *object = it->object;
        QTimerEvent event(id);
        QCoreApplication::sendEvent(object, &event);
        ++fired;
        it = find();
        if (it != m_timers.end())
            it->firing = false;
    }
    return fired;
}

void EpollDispatcher::wakeUp()
{
    const quint64 one = 1;
    (void)::write(m_wake, &one, sizeof one);
}

void EpollDispatcher::interrupt()
{
    m_interrupted.store(true, std::memory_order_relaxed);
    wakeUp();
}

} // namespace ServeScope
