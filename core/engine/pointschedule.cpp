// SPDX-License-Identifier: MIT
#include "pointschedule.h"

#include <algorithm>

namespace ServeScope {

PointSchedule::PointSchedule(const LoadSpec &spec, qint64 clockStartNs, QVector<qint64> arrivals)
    : m_spec(spec)
    , m_t0(clockStartNs)
    , m_deadlineNs(spec.load.maxSeconds > 0 ? clockStartNs + qint64(spec.load.maxSeconds * 1e9) : 0)
    , m_arrivals(std::move(arrivals))
{
    if (spec.mode == LoadMode::Rate && spec.load.maxConcurrency > 0) {
        for (int s = spec.load.maxConcurrency - 1; s >= 0; --s)
            m_freeSlots.append(s);
    }
}

bool PointSchedule::stoppingLocked(qint64 nowNs) const
{
    if (cutLocked(nowNs))
        return true;
    if (m_spec.mode == LoadMode::Concurrency)
        return m_spec.load.numPrompts > 0 && m_nextIndex >= m_spec.load.numPrompts;
    return m_arrived >= m_arrivals.size();
}

std::optional<PointSchedule::Item> PointSchedule::nextForSlot(int slot, qint64 scheduledNs, qint64 nowNs)
{
    QMutexLocker lock(&m_mutex);
    if (stoppingLocked(nowNs))
        return std::nullopt;
    ++m_started;
    const int index = m_nextIndex;
    m_nextIndex += std::max(1, m_spec.sessionTurns);
    return Item { index, slot, scheduledNs, nowNs };
}

std::optional<PointSchedule::Item> PointSchedule::nextTurn(
    int index, int slot, qint64 scheduledNs, qint64 nowNs, bool held)
{
    QMutexLocker lock(&m_mutex);
    if (held)
        --m_held;
    if (cutLocked(nowNs))
        return std::nullopt;
    ++m_started;
    return Item { index, slot, scheduledNs, nowNs };
}

void PointSchedule::holdTurn()
{
    QMutexLocker lock(&m_mutex);
    ++m_held;
}

std::optional<PointSchedule::Item> PointSchedule::arrive(int index, qint64 scheduledNs, qint64 nowNs)
{
    QMutexLocker lock(&m_mutex);
    if (m_stopped || (m_deadlineNs && nowNs >= m_deadlineNs))
        return std::nullopt;
    ++m_arrived;
    if (m_spec.load.maxConcurrency <= 0) {
        ++m_started;
        return Item { index, -1, scheduledNs, nowNs };
    }
    if (m_freeSlots.isEmpty()) {
        m_waiting.push_back(Item { index, -1, scheduledNs, 0 });
        return std::nullopt;
    }
    ++m_started;
    return Item { index, m_freeSlots.takeLast(), scheduledNs, nowNs };
}

std::optional<PointSchedule::Item> PointSchedule::release(int slot, qint64 nowNs)
{
    QMutexLocker lock(&m_mutex);
    if (slot < 0)
        return std::nullopt;
    if (m_waiting.empty() || m_stopped || (m_deadlineNs && nowNs >= m_deadlineNs)) {
        m_freeSlots.append(slot);
        return std::nullopt;
    }
    Item item = m_waiting.front();
    m_waiting.pop_front();
    item.slot = slot;
    item.slotNs = nowNs;
    ++m_started;
    return item;
}

void PointSchedule::stop()
{
    QMutexLocker lock(&m_mutex);
    m_stopped = true;
    m_waiting.clear();
}

bool PointSchedule::finished(int received, qint64 nowNs)
{
    QMutexLocker lock(&m_mutex);
    if (m_deadlineNs && nowNs >= m_deadlineNs)
        m_waiting.clear(); // past the deadline nothing waiting will be sent
    return stoppingLocked(nowNs) && m_waiting.empty() && received == m_started && (m_held == 0 || cutLocked(nowNs));
}

int PointSchedule::started() const
{
    QMutexLocker lock(&m_mutex);
    return m_started;
}

} // namespace ServeScope
