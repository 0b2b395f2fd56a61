// SPDX-License-Identifier: MIT
#include "loadgenerator.h"

#include "arrivals.h"
#include "engineworker.h"
#include "epolldispatcher.h"
#include "fdlimit.h"
#include "model/clock.h"
#include "pointschedule.h"

#include <QThread>

#include <cmath>

namespace ServeScope {

LoadGenerator::LoadGenerator(int workers, QObject *parent)
    : QObject(parent)
    , m_workerCount(workers > 0 ? workers : std::max(1, QThread::idealThreadCount()))
{
    qRegisterMetaType<ServeScope::RequestRecord>();
    qRegisterMetaType<ServeScope::LoadProgress>();
    qRegisterMetaType<ServeScope::LoadOutcome>();
    m_progressTimer.setInterval(100);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] { Q_EMIT progressed(progress()); });
    m_deadlineTimer.setSingleShot(true);
    m_deadlineTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_deadlineTimer, &QTimer::timeout, this, [this] {
        if (m_schedule)
            m_schedule->stop();
        checkFinished();
    });
}

LoadGenerator::~LoadGenerator()
{
    for (WorkerThread &w : m_workers) {
        // Sockets and managers must die on the thread that owns them.
        EngineWorker *worker = w.worker;
        QMetaObject::invokeMethod(
            worker, [worker] { delete worker; }, Qt::BlockingQueuedConnection);
        w.thread->quit();
        w.thread->wait();
        delete w.thread;
    }
}

void LoadGenerator::ensureWorkers()
{
    if (!m_workers.empty())
        return;
    for (int i = 0; i < m_workerCount; ++i) {
        WorkerThread w;
        w.thread = new QThread();
        w.thread->setObjectName(QStringLiteral("engine-%1").arg(i));
        w.thread->setEventDispatcher(new EpollDispatcher); // the thread's sockets and timers in one epoll set
        w.worker = new EngineWorker(i, m_workerCount);
        w.worker->moveToThread(w.thread);
        connect(w.worker, &EngineWorker::warmed, this, &LoadGenerator::onWarmed);
        connect(w.worker, &EngineWorker::recordReady, this, &LoadGenerator::onRecord);
        w.thread->start();
        m_workers.push_back(w);
    }
}

void LoadGenerator::failToStart(const QString &message)
{
    LoadOutcome o;
    o.ok = false;
    o.message = message;
    QMetaObject::invokeMethod(
        this, [this, o] { Q_EMIT finished(o); }, Qt::QueuedConnection);
}

bool LoadGenerator::start(
    const EndpointConfig &endpoint, std::shared_ptr<const PromptList> requests, const LoadSpec &spec)
{
    if (m_running) {
        failToStart(QStringLiteral("a point is already running"));
        return false;
    }
    if (!requests || requests->size() == 0 || (spec.load.numPrompts <= 0 && spec.load.maxSeconds <= 0)
        || (spec.mode == LoadMode::Concurrency && spec.load.concurrency < 1)
        || (spec.mode == LoadMode::Rate && !(spec.load.requestRate > 0))) {
        failToStart(QStringLiteral("invalid point: needs requests, a stop rule and a concurrency or rate"));
        return false;
    }
    const int peak = spec.peakStreams();
    const qint64 needed = descriptorsNeeded(peak);
    if (openFileLimit() < needed) {
        failToStart(QStringLiteral("%1 streams need %2 file descriptors but the limit is %3; raise it with "
                                   "`ulimit -n %2` (or the hard limit in /etc/security/limits.conf)")
                        .arg(peak)
                        .arg(needed)
                        .arg(openFileLimit()));
        return false;
    }
    ensureWorkers();
    m_endpoint = endpoint;
    m_spec = spec;
    m_requests = std::move(requests);
    m_schedule.reset();
    m_outcome = LoadOutcome();
    m_outcome.workers = m_workerCount;
    m_outcome.transport
        = resolveTransport(endpoint) == TransportKind::Lean ? QStringLiteral("lean") : QStringLiteral("pool");
    m_running = true;
    m_cancelRequested = false;
    m_received = 0;
    m_eventsAtStart = 0;
    m_reopenedAtStart = 0;
    for (const WorkerThread &w : m_workers) {
        m_eventsAtStart += w.worker->eventsReceived();
        m_reopenedAtStart += w.worker->reopened();
    }
    m_warmPending = m_workerCount;
    for (int i = 0; i < m_workerCount; ++i) {
        EngineWorker *worker = m_workers[i].worker;
        // Each worker warms as many connections as it has slots (closed) or its share (open).
        const int share = peak / m_workerCount + (i < peak % m_workerCount ? 1 : 0);
        QMetaObject::invokeMethod(worker, [worker, endpoint, tap = m_tap, share] {
            worker->configure(endpoint, tap);
            worker->warm(share);
        });
    }
    return true;
}

void LoadGenerator::onWarmed(int, int opened)
{
    if (!m_running || m_schedule)
        return;
    m_outcome.connectionsOpened += opened;
    if (--m_warmPending > 0)
        return;
    if (m_cancelRequested) {
        m_outcome.cancelled = true;
        m_outcome.clockStartNs = m_outcome.endNs = monotonicNs();
        finish();
        return;
    }
    beginPoint();
}

void LoadGenerator::beginPoint()
{
    const qint64 t0 = monotonicNs();
    QVector<qint64> arrivals;
    if (m_spec.mode == LoadMode::Rate && !m_spec.arrivalsNs.isEmpty())
        arrivals = m_spec.arrivalsNs;
    else if (m_spec.mode == LoadMode::Rate)
        arrivals = arrivalOffsetsNs(m_spec.load.numPrompts, m_spec.load.requestRate, m_spec.load.burstiness,
            m_spec.seed, m_spec.load.maxSeconds);
    m_schedule = std::make_shared<PointSchedule>(m_spec, t0, std::move(arrivals));
    m_outcome.clockStartNs = t0;
    if (m_spec.load.maxSeconds > 0)
        m_deadlineTimer.start(int(std::ceil(m_spec.load.maxSeconds * 1000)));
    m_progressTimer.start();
    for (const WorkerThread &w : m_workers) {
        EngineWorker *worker = w.worker;
        QMetaObject::invokeMethod(
            worker, [worker, schedule = m_schedule, requests = m_requests] { worker->begin(schedule, requests); });
    }
    // A point whose stop rule already holds (e.g. num_prompts reached by 0) ends right away.
    QMetaObject::invokeMethod(this, &LoadGenerator::checkFinished, Qt::QueuedConnection);
}

void LoadGenerator::stopSending()
{
    if (!m_running || !m_schedule)
        return;
    m_schedule->stop();
    checkFinished();
}

void LoadGenerator::onRecord(const RequestRecord &record)
{
    if (!m_running)
        return;
    ++m_received;
    if (record.status == RequestStatus::Ok)
        ++m_outcome.completed;
    else if (record.status == RequestStatus::Cancelled)
        ++m_outcome.cancelledRequests;
    else
        ++m_outcome.failed;
    m_outcome.endNs = std::max(m_outcome.endNs, record.endNs);
    Q_EMIT requestFinished(record);
    checkFinished();
}

void LoadGenerator::checkFinished()
{
    if (m_running && m_schedule && m_schedule->finished(m_received, monotonicNs()))
        finish();
}

void LoadGenerator::finish()
{
    m_progressTimer.stop();
    m_deadlineTimer.stop();
    m_outcome.sent = m_received;
    if (!m_outcome.endNs)
        m_outcome.endNs = monotonicNs();
    const LoadProgress last = progress();
    m_running = false;
    m_schedule.reset();
    // Every request has ended: the prompt list is let go here and in each worker, so a point's
    // prompt bodies do not outlive it (summarising and storing come next).
    m_requests.reset();
    for (const WorkerThread &w : m_workers) {
        EngineWorker *worker = w.worker;
        QMetaObject::invokeMethod(worker, [worker] { worker->release(); });
    }
    if (m_outcome.transport == QLatin1String("lean"))
        m_outcome.receive = m_workers.front().worker->receivePath(); // written before the point's warm-up
    Q_EMIT progressed(last);
    Q_EMIT finished(m_outcome);
}

void LoadGenerator::cancel()
{
    if (!m_running)
        return;
    m_cancelRequested = true;
    m_outcome.cancelled = true;
    if (m_schedule)
        m_schedule->stop();
    // While connections are still opening, a worker's cancel ends its warm-up at once and onWarmed
    // ends the point.
    for (const WorkerThread &w : m_workers) {
        EngineWorker *worker = w.worker;
        QMetaObject::invokeMethod(worker, [worker] { worker->cancel(); });
    }
    checkFinished();
}

LoadProgress LoadGenerator::progress() const
{
    LoadProgress p;
    if (m_outcome.clockStartNs)
        p.elapsedNs = monotonicNs() - m_outcome.clockStartNs;
    p.started = m_schedule ? m_schedule->started() : m_received;
    p.inFlight = p.started - m_received;
    p.completed = m_outcome.completed;
    p.failed = m_outcome.failed;
    p.cancelled = m_outcome.cancelledRequests;
    for (const WorkerThread &w : m_workers) {
        p.eventsReceived += w.worker->eventsReceived();
        p.reopenedConnections += w.worker->reopened();
    }
    p.eventsReceived -= m_eventsAtStart;
    p.reopenedConnections -= m_reopenedAtStart;
    return p;
}

} // namespace ServeScope
