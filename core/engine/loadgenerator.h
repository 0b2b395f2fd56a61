// SPDX-License-Identifier: MIT
#pragma once

#include "engineconfig.h"
#include "model/promptlist.h"
#include "model/records.h"
#include "streamstate.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <QVector>

#include <memory>

class QThread;

namespace ServeScope {

class EngineWorker;
class PointSchedule;

/// Runs one load point (closed loop or open loop) against an endpoint on engine worker threads
/// and reports every finished request as it completes. Lives on the caller's thread (any thread
/// with an event loop, not necessarily the GUI's); workers are kept between points so warm
/// keep-alive connections carry over from a warmup to the measured point.
///
/// Sequence of one point: descriptor check -> connections opened up to the point's peak streams
/// -> clock start -> requests -> `finished` once nothing is in flight and nothing more will start.
class LoadGenerator final : public QObject {
    Q_OBJECT
public:
    /// `workers` = 0: one per core (QThread::idealThreadCount()).
    explicit LoadGenerator(int workers = 0, QObject *parent = nullptr);
    ~LoadGenerator() override;

    /// A tap on every framed event (worker threads; must be thread-safe). Set before start().
    void setEventTap(EventTap tap) { m_tap = std::move(tap); }

    /// Starts one point. Request i uses `requests[i % requests.size()]`. Returns false (and
    /// emits `finished` with ok = false and a message, queued) when the point cannot start:
    /// already running, no requests, no stop rule, or too few file descriptors.
    bool start(const EndpointConfig &endpoint, std::shared_ptr<const PromptList> requests, const LoadSpec &spec);
    bool start(const EndpointConfig &endpoint, const QVector<PreparedRequest> &requests, const LoadSpec &spec)
    {
        return start(endpoint, builtPrompts(requests), spec);
    }
    /// Stops starting requests and ends in-flight ones as `cancelled`, keeping their times;
    /// everything already finished stays as it was. `finished` follows with cancelled = true.
    void cancel();
    /// Stops starting requests (the point has its answer); in-flight ones finish as usual and `finished` follows.
    void stopSending();

    bool isRunning() const noexcept { return m_running; }
    int workerCount() const noexcept { return int(m_workers.size()); }
    /// The current state (also emitted as `progressed`, at most 10 times a second).
    LoadProgress progress() const;

Q_SIGNALS:
    void requestFinished(const ServeScope::RequestRecord &record);
    void progressed(const ServeScope::LoadProgress &progress);
    void finished(const ServeScope::LoadOutcome &outcome);

private:
    void ensureWorkers();
    void onWarmed(int worker, int opened);
    void beginPoint();
    void onRecord(const RequestRecord &record);
    void checkFinished();
    void finish();
    void failToStart(const QString &message);

    struct WorkerThread {
        QThread *thread = nullptr;
        EngineWorker *worker = nullptr;
    };
    int m_workerCount;
    std::vector<WorkerThread> m_workers;
    EventTap m_tap;

    EndpointConfig m_endpoint;
    LoadSpec m_spec;
    std::shared_ptr<const PromptList> m_requests;
    std::shared_ptr<PointSchedule> m_schedule;
    LoadOutcome m_outcome;
    bool m_running = false;
    bool m_cancelRequested = false;
    int m_warmPending = 0;
    int m_received = 0;
    qint64 m_eventsAtStart = 0;
    int m_reopenedAtStart = 0;
    QTimer m_progressTimer { this };
    QTimer m_deadlineTimer { this };
};

} // namespace ServeScope
