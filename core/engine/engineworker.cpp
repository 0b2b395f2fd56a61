// SPDX-License-Identifier: MIT
#include "engineworker.h"

#include "leantransport.h"
#include "model/clock.h"
#include "pooltransport.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace ServeScope {

EngineWorker::EngineWorker(int id, int workers, QObject *parent)
    : QObject(parent)
    , m_id(id)
    , m_workers(workers)
    , m_lean(new LeanTransport(this))
    , m_pool(new PoolTransport(this))
    , m_transport(m_lean)
{
    for (StreamTransport *t : { static_cast<StreamTransport *>(m_lean), static_cast<StreamTransport *>(m_pool) }) {
        t->setFreed([this](int slot, qint64 endNs) { onFreed(slot, endNs); });
        t->setDone([this](RequestRecord &&r) { onDone(std::move(r)); });
    }
    m_arrivalTimer.setSingleShot(true);
    m_arrivalTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_arrivalTimer, &QTimer::timeout, this, &EngineWorker::fireArrivals);
}

EngineWorker::~EngineWorker() = default;

void EngineWorker::configure(const EndpointConfig &endpoint, const EventTap &tap)
{
    m_transport = resolveTransport(endpoint) == TransportKind::Lean ? static_cast<StreamTransport *>(m_lean)
                                                                    : static_cast<StreamTransport *>(m_pool);
    m_transport->configure(endpoint);
    m_transport->setEventTap(tap);
}

void EngineWorker::warm(int connections)
{
    m_transport->warm(connections, [this](int opened) { Q_EMIT warmed(m_id, opened); });
}

void EngineWorker::begin(std::shared_ptr<PointSchedule> schedule, std::shared_ptr<const PromptList> requests)
{
    m_schedule = std::move(schedule);
    m_requests = std::move(requests);
    m_nextArrival = m_id;
    m_conversation.clear();
    ++m_pointSerial;
    const LoadSpec &spec = m_schedule->spec();
    if (spec.mode == LoadMode::Concurrency) {
        const qint64 t0 = m_schedule->clockStartNs();
        for (int slot = m_id; slot < spec.load.concurrency; slot += m_workers) {
            const auto item = m_schedule->nextForSlot(slot, t0, monotonicNs());
            if (!item)
                break;
            startItem(*item);
        }
    } else {
        fireArrivals();
    }
}

void EngineWorker::fireArrivals()
{
    if (!m_schedule)
        return;
    const QVector<qint64> &arrivals = m_schedule->arrivals();
    const qint64 t0 = m_schedule->clockStartNs();
    qint64 now = monotonicNs();
    while (m_nextArrival < arrivals.size() && t0 + arrivals[m_nextArrival] <= now) {
        const auto item = m_schedule->arrive(m_nextArrival, t0 + arrivals[m_nextArrival], now);
        m_nextArrival += m_workers;
        if (item)
            startItem(*item);
        now = monotonicNs();
    }
    if (m_nextArrival < arrivals.size()) {
        // Timers have millisecond resolution: round up so no request leaves before its time.
        const qint64 waitNs = t0 + arrivals[m_nextArrival] - now;
        // A far arrival (a tiny rate) waits in steps of the longest interval a timer takes.
        m_arrivalTimer.start(int(std::min(std::ceil(double(waitNs) / 1e6), double(std::numeric_limits<int>::max()))));
    }
}

void EngineWorker::startItem(const PointSchedule::Item &item)
{
    StreamRequest req;
    req.index = item.index;
    req.slot = item.slot;
    req.scheduledNs = item.scheduledNs;
    req.slotNs = item.slotNs;
    req.prepared = m_requests->at(item.index % m_requests->size()); // built here when the list builds lazily
    // A later turn: the conversation so far goes before its own message.
    const QByteArray conversation = sessions() ? m_conversation.value(item.slot) : QByteArray();
    if (!conversation.isEmpty() && req.prepared.historyAt >= 0)
        req.prepared.body.insert(req.prepared.historyAt, conversation);
    m_transport->start(std::move(req));
}

bool EngineWorker::sessions() const
{
    return m_schedule && m_schedule->spec().sessionTurns > 1 && m_schedule->spec().mode == LoadMode::Concurrency;
}

void EngineWorker::continueSession(const RequestRecord &record)
{
    const int turns = m_schedule->spec().sessionTurns;
    const int slot = record.slot;
    const PreparedRequest sent = m_requests->at(record.index % m_requests->size());
    if (!record.ok() || record.index % turns == turns - 1 || sent.historyAt < 0) {
        m_conversation.remove(slot);
        if (const auto next = m_schedule->nextForSlot(slot, record.endNs, monotonicNs()))
            startItem(*next);
        return;
    }
    // The answer without its reasoning (which leads it), as chat templates leave a past turn's reasoning out.
    QByteArray answer = record.generatedText;
    if (!record.reasoningText.isEmpty() && answer.startsWith(record.reasoningText))
        answer.remove(0, record.reasoningText.size());
    QByteArray &conversation = m_conversation[slot];
    conversation += QByteArrayView(sent.body).sliced(sent.historyAt, sent.messageEnd - sent.historyAt);
    conversation += ',';
    conversation += QJsonDocument(QJsonObject { { QStringLiteral("content"), QString::fromUtf8(answer) },
                                      { QStringLiteral("role"), QStringLiteral("assistant") } })
                        .toJson(QJsonDocument::Compact);
    conversation += ',';
    const qint64 thinkNs = m_schedule->spec().thinkNs;
    const int index = record.index + 1;
    if (thinkNs <= 0)
        return startTurn(index, slot, record.endNs, false);
    // Held before the record is sent on, so the point cannot finish while the session thinks.
    m_schedule->holdTurn();
    const qint64 due = record.endNs + thinkNs;
    const quint64 serial = m_pointSerial;
    QTimer::singleShot(std::chrono::milliseconds((thinkNs + 999999) / 1000000), Qt::PreciseTimer, this,
        [this, serial, index, slot, due] {
            if (serial == m_pointSerial && m_schedule)
                startTurn(index, slot, due, true);
        });
}

void EngineWorker::startTurn(int index, int slot, qint64 scheduledNs, bool held)
{
    if (const auto item = m_schedule->nextTurn(index, slot, scheduledNs, monotonicNs(), held))
        startItem(*item);
    else
        m_conversation.remove(slot);
}

void EngineWorker::onFreed(int slot, qint64 endNs)
{
    if (!m_schedule)
        return;
    const LoadSpec &spec = m_schedule->spec();
    std::optional<PointSchedule::Item> next;
    if (sessions())
        return; // the slot's session goes on (or the next begins) once this turn's answer is read: onDone
    if (spec.mode == LoadMode::Concurrency)
        next = m_schedule->nextForSlot(slot, endNs, monotonicNs());
    else if (spec.load.maxConcurrency > 0)
        next = m_schedule->release(slot, monotonicNs());
    if (next)
        startItem(*next);
}

void EngineWorker::onDone(RequestRecord &&record)
{
    if (m_schedule) {
        const LoadSpec &spec = m_schedule->spec();
        record.runId = spec.runId;
        record.variant = spec.variant;
        record.point = spec.point;
        record.repeat = spec.repeat;
        record.warmup = spec.warmup;
        if (sessions() && record.slot >= 0)
            continueSession(record);
    }
    // The reasoning text stays on the record only while its tokens are to be counted.
    if (!record.reasoningEstimated)
        record.reasoningText = QByteArray();
    m_reopened.store(m_lean->reopened(), std::memory_order_relaxed);
    Q_EMIT recordReady(record);
}

void EngineWorker::cancel()
{
    m_arrivalTimer.stop();
    m_transport->cancelAll();
}

void EngineWorker::release()
{
    m_arrivalTimer.stop();
    m_schedule.reset();
    m_requests.reset();
    m_conversation.clear();
    ++m_pointSerial;
}

qint64 EngineWorker::eventsReceived() const
{
    return m_lean->eventsReceived() + m_pool->eventsReceived();
}

int EngineWorker::reopened() const
{
    return m_reopened.load(std::memory_order_relaxed);
}

QString EngineWorker::transportName() const
{
    return m_transport->name();
}

QString EngineWorker::receivePath() const
{
    return m_lean->receivePath();
}

} // namespace ServeScope
