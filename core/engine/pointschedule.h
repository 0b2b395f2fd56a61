// SPDX-License-Identifier: MIT
#pragma once

#include "engineconfig.h"

#include <QMutex>
#include <QVector>

#include <deque>
#include <optional>

namespace ServeScope {

/// The shared, thread-safe schedule of one point: which request goes next, on which slot, and
/// when the point has nothing left to send. Engine workers call it as slots free and arrivals
/// fire; every hand-out happens under one mutex so the stop rule is exact.
class PointSchedule {
public:
    struct Item {
        int index = 0;
        int slot = -1;
        qint64 scheduledNs = 0;
        qint64 slotNs = 0;
    };

    /// `arrivals` are the open-loop offsets from `clockStartNs` (empty in closed loop).
    PointSchedule(const LoadSpec &spec, qint64 clockStartNs, QVector<qint64> arrivals);

    const LoadSpec &spec() const noexcept { return m_spec; }
    qint64 clockStartNs() const noexcept { return m_t0; }
    const QVector<qint64> &arrivals() const noexcept { return m_arrivals; }

    /// Closed loop: the next request for `slot`, freed at `nowNs` (scheduled = slot = that moment). With
    /// sessions, the first turn of the next session (its later turns come from nextTurn()).
    std::optional<Item> nextForSlot(int slot, qint64 scheduledNs, qint64 nowNs);
    /// Closed loop with sessions: turn `index` of the session running on `slot`, wanted at `scheduledNs` (the
    /// previous turn's end plus the think time). Nothing when the point is stopping by a stop or its deadline;
    /// num_prompts never cuts a session short. `held`: the turn was held (holdTurn()) through its think time.
    std::optional<Item> nextTurn(int index, int slot, qint64 scheduledNs, qint64 nowNs, bool held);
    /// A session's next turn waits out its think time: until nextTurn() takes it, the point does not finish
    /// unless it is stopped.
    void holdTurn();
    /// Open loop: arrival `index` wanted at `scheduledNs`. Returns the item to start now, or
    /// nothing when it waits for a slot (cap) or the point is stopping.
    std::optional<Item> arrive(int index, qint64 scheduledNs, qint64 nowNs);
    /// Open loop with a cap: `slot` freed at `nowNs`; returns a waiting item to start on it.
    std::optional<Item> release(int slot, qint64 nowNs);

    /// Stops handing out requests (cancel, deadline); waiting items are dropped.
    void stop();
    /// True when nothing more will be started and every started request has been received.
    bool finished(int received, qint64 nowNs);
    int started() const;

private:
    bool stoppingLocked(qint64 nowNs) const;
    bool cutLocked(qint64 nowNs) const { return m_stopped || (m_deadlineNs && nowNs >= m_deadlineNs); }

    mutable QMutex m_mutex;
    LoadSpec m_spec;
    qint64 m_t0;
    qint64 m_deadlineNs;
    QVector<qint64> m_arrivals;
    int m_nextIndex = 0; ///< closed loop: submission order
    int m_started = 0;
    int m_arrived = 0;
    int m_held = 0; ///< sessions' turns in their think time
    bool m_stopped = false;
    QVector<int> m_freeSlots;
    std::deque<Item> m_waiting;
};

} // namespace ServeScope
