// SPDX-License-Identifier: MIT
#pragma once

#include "engineconfig.h"
#include "streamstate.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace ServeScope {

/// One request handed to a transport; the transport stamps startNs right before sending.
struct StreamRequest {
    int index = 0;
    int slot = -1;
    qint64 scheduledNs = 0;
    qint64 slotNs = 0;
    PreparedRequest prepared;
};

/// Sends streaming POSTs and builds complete records. Lives on one engine worker thread and is
/// used only from it; every callback runs on that thread.
class StreamTransport : public QObject {
    Q_OBJECT
public:
    using DoneFn = std::function<void(RequestRecord &&)>;
    using FreedFn = std::function<void(int slot, qint64 endNs)>;

    explicit StreamTransport(QObject *parent = nullptr)
        : QObject(parent)
    {
    }
    ~StreamTransport() override = default;

    virtual QString name() const = 0;
    /// Sets the endpoint (and drops connections to another one).
    virtual void configure(const EndpointConfig &endpoint) = 0;
    /// Opens up to `connections` idle connections, then calls `ready(opened)`; the point's clock
    /// starts after this so connects are not measured as load.
    virtual void warm(int connections, std::function<void(int)> ready) = 0;
    /// Sends one request; `done` gets its record when it ends, whatever the outcome.
    virtual void start(StreamRequest request) = 0;
    /// Ends every in-flight request as cancelled (with its times); their records go to `done`.
    virtual void cancelAll() = 0;
    virtual int inFlight() const = 0;
    /// Connections reopened because the server closed a reused one before answering.
    virtual int reopened() const = 0;

    void setDone(DoneFn done) { m_done = std::move(done); }
    /// Called as soon as a request ends, before its record is built, so a closed loop can send
    /// the next request on the freed slot without waiting for the JSON parse.
    void setFreed(FreedFn freed) { m_freed = std::move(freed); }
    void setEventTap(EventTap tap) { m_tap = std::move(tap); }
    /// Events framed so far on this transport (any thread may read it).
    qint64 eventsReceived() const noexcept { return m_events.load(std::memory_order_relaxed); }

protected:
    /// Counts framed events: only this transport's thread writes, so no locked add per read.
    void countEvents(int n) noexcept
    {
        m_events.store(m_events.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }
    /// A stream's state with the request's schedule, slot and targets already in its record.
    static std::unique_ptr<StreamState> newStream(const StreamRequest &request);

    DoneFn m_done;
    FreedFn m_freed;
    EventTap m_tap;
    std::atomic<qint64> m_events { 0 };
};

/// Request headers every transport sends (the key only when set).
QList<QPair<QByteArray, QByteArray>> requestHeaders(const EndpointConfig &endpoint, const QByteArray &requestId);

} // namespace ServeScope
