// SPDX-License-Identifier: MIT
#pragma once

#include "model/promptlist.h"
#include "pointschedule.h"
#include "streamtransport.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <memory>

namespace ServeScope {

class LeanTransport;
class PoolTransport;

/// One engine worker: lives on its own QThread, owns its transports and sockets, runs its slice
/// of the schedule (closed-loop slots s with s % workers == id, open-loop arrivals likewise),
/// takes every timestamp and builds the records it sends back by value.
class EngineWorker final : public QObject {
    Q_OBJECT
public:
    EngineWorker(int id, int workers, QObject *parent = nullptr);
    ~EngineWorker() override;

    // Called on the worker's thread (queued from the generator).
    void configure(const EndpointConfig &endpoint, const EventTap &tap);
    void warm(int connections);
    void begin(std::shared_ptr<PointSchedule> schedule, std::shared_ptr<const PromptList> requests);
    void cancel();
    /// After the point: drops its schedule and prompt list (the point's prompt bodies are freed once
    /// every holder let go). Nothing starts until the next begin().
    void release();

    /// Events framed by this worker's transports (any thread).
    qint64 eventsReceived() const;
    /// Reused connections reopened (any thread; approximate while running).
    int reopened() const;
    QString transportName() const;
    /// How the lean transport reads its sockets (set once, when the first point configures it).
    QString receivePath() const;

Q_SIGNALS:
    void warmed(int worker, int opened);
    void recordReady(const ServeScope::RequestRecord &record);

private:
    void onFreed(int slot, qint64 endNs);
    void onDone(RequestRecord &&record);
    void startItem(const PointSchedule::Item &item);
    void fireArrivals();
    bool sessions() const;
    /// A session's turn ended on its slot: its next turn (after the think time), or the slot's next session.
    void continueSession(const RequestRecord &record);
    void startTurn(int index, int slot, qint64 scheduledNs, bool held);

    int m_id;
    int m_workers;
    LeanTransport *m_lean;
    PoolTransport *m_pool;
    StreamTransport *m_transport;
    std::shared_ptr<PointSchedule> m_schedule;
    std::shared_ptr<const PromptList> m_requests;
    int m_nextArrival = 0;
    /// Sessions: each slot's conversation so far, as the JSON messages (with their commas) put before a turn's
    /// own message; and the point a think-time timer belongs to (a timer of an earlier point does nothing).
    QHash<int, QByteArray> m_conversation;
    quint64 m_pointSerial = 0;
    QTimer m_arrivalTimer { this };
    std::atomic<int> m_reopened { 0 };
};

} // namespace ServeScope
