// SPDX-License-Identifier: MIT
// StoreWriter's writer thread: the queue written in batches, one transaction each, and what a failed commit lost.
#include "storewriterthread.h"

namespace ServeScope {

void StoreWriter::Private::countLost(const std::deque<Item> &batch)
{
    for (const Item &item : batch) {
        const auto *r = std::get_if<std::unique_ptr<RequestRecord>>(&item.payload);
        if (r && *r && !(*r)->warmup)
            ++lost[{ (*r)->runId, (*r)->variant, (*r)->point, (*r)->repeat }][size_t((*r)->status)];
    }
}

void StoreWriter::Private::withoutLost(PointSummary *summary)
{
    const auto it = lost.find({ summary->runId, summary->variant, summary->point, summary->repeat });
    if (it == lost.end())
        return;
    const auto [ok, failed, cancelled] = it->second;
    summary->completed -= ok;
    summary->failed -= failed;
    summary->cancelled -= cancelled;
    summary->client[QStringLiteral("requests_lost")] += ok + failed + cancelled;
    lost.erase(it);
}

void StoreWriter::Private::reportFailure(const QString &message)
{
    ++failedItems;
    Q_EMIT q->writeFailed(message);
}

bool StoreWriter::Private::apply(WriterSession &session, Item &item, quint64 *requests, QString *error)
{
    bool ok = true;
    if (auto *r = std::get_if<std::unique_ptr<RequestRecord>>(&item.payload)) {
        const qint64 before = session.pendingRequests();
        ok = session.insertRequest(**r, error);
        *requests += quint64(session.pendingRequests() - before);
        if (session.pendingRequests() == before) {
            // Not stored (the batch's own count, should it fail, skips it).
            std::deque<Item> refused;
            refused.push_back({ item.sequence, std::move(*r) });
            countLost(refused);
        }
    } else if (auto *s = std::get_if<std::unique_ptr<PointSummary>>(&item.payload)) {
        withoutLost(s->get());
        ok = session.insertSummary(**s, error);
    } else if (auto *e = std::get_if<PointEstimate>(&item.payload)) {
        ok = session.insertEstimate(*e, error);
    } else if (auto *m = std::get_if<ServerMetricSample>(&item.payload)) {
        ok = session.insertMetricSample(*m, error);
    } else if (auto *l = std::get_if<ServerLogLine>(&item.payload)) {
        ok = session.insertLogLine(*l, error);
    } else if (auto *p = std::get_if<PromptRow>(&item.payload)) {
        ok = session.insertPrompt(*p, error);
    } else if (auto *f = std::get_if<RunFinish>(&item.payload)) {
        ok = session.finishRun(f->runId, f->status, f->finished, f->envSnapshot, error);
    } else if (auto *c = std::get_if<RunConfig>(&item.payload)) {
        ok = session.updateRunConfig(c->runId, c->resolvedConfig, c->points, error);
    }
    return ok;
}

bool StoreWriter::Private::commit(WriterSession &session, quint64 sequence, quint64 requests)
{
    QString error;
    if (!session.commit(&error)) {
        fail(QStringLiteral("commit failed: ") % error);
        return false;
    }
    committedRequests += requests;
    {
        std::lock_guard lock(mutex);
        committedSequence = sequence;
    }
    acked.notify_all();
    if (callback)
        callback(sequence, committedRequests);
    Q_EMIT q->committed(sequence, committedRequests);
    return true;
}

void StoreWriter::Private::runTask(WriterSession &session, Item &item)
{
    Task &task = std::get<Task>(item.payload);
    QString error;
    qint64 id = 0;
    if (session.begin(&error)) {
        id = task.work(session, &error);
        if (id > 0 && !commit(session, item.sequence, 0))
            id = 0;
        else if (id <= 0)
            session.rollback();
    } else {
        fail(QStringLiteral("cannot write: ") % error);
    }
    if (id <= 0)
        acknowledge(item.sequence);
    task.answer->set_value({ id, id > 0 ? QString() : error });
}

void StoreWriter::Private::writeBatch(WriterSession &session, std::deque<Item> &pending)
{
    QString error;
    const quint64 last = pending.back().sequence;
    bool stored = session.begin(&error);
    if (!stored) {
        // Not stored: flush() returns false from now on, and the run learns that its records are lost.
        fail(QStringLiteral("cannot write: ") % error);
    } else {
        quint64 requests = 0;
        for (auto it = pending.begin(); stored && it != pending.end(); ++it) {
            if (apply(session, *it, &requests, &error))
                continue;
            if (session.inTransaction()) {
                reportFailure(error); // refused alone: the rest of the batch is stored
                continue;
            }
            // SQLite ended the transaction with the refusal (a full disk): nothing of the batch is stored.
            session.rollback();
            fail(QStringLiteral("write failed: ") % error);
            stored = false;
        }
        if (stored)
            stored = commit(session, last, requests);
    }
    if (!stored) {
        countLost(pending);
        // What is not a request (the point's summary, the run's end) is small and says what was lost: it is
        // tried once more on its own, and a full disk may still have room for it.
        std::erase_if(pending,
            [](const Item &item) { return std::holds_alternative<std::unique_ptr<RequestRecord>>(item.payload); });
        if (!pending.empty() && session.begin(&error)) {
            quint64 none = 0;
            bool ok = true;
            for (auto it = pending.begin(); ok && it != pending.end(); ++it)
                ok = apply(session, *it, &none, &error);
            if (!ok || !commit(session, pending.back().sequence, 0))
                session.rollback();
        }
    }
    pending.clear();
}

void StoreWriter::Private::fail(const QString &message)
{
    {
        std::lock_guard lock(mutex);
        broken = true;
        if (firstFailure.isEmpty())
            firstFailure = message;
    }
    acked.notify_all();
    reportFailure(message);
    Q_EMIT q->commitFailed(message);
}

void StoreWriter::Private::acknowledge(quint64 sequence)
{
    {
        std::lock_guard lock(mutex);
        committedSequence = std::max<quint64>(committedSequence, sequence);
    }
    acked.notify_all();
}

// Items wait in memory (at most commitRows of them, for at most commitIntervalMs) and are written in
// one short IMMEDIATE transaction: another process writing the same project waits for SQLite's lock
// only while a batch is written, never for a whole commit interval.
void StoreWriter::Private::loop(WriterSession &session)
{
    Clock::time_point firstPending;
    const auto interval = std::chrono::milliseconds(options.commitIntervalMs);
    std::deque<Item> pending;
    std::deque<Item> batch;
    for (;;) {
        bool stop = false, flushWanted = false;
        {
            std::unique_lock lock(mutex);
            const size_t room = size_t(std::max<qsizetype>(1, options.commitRows - qsizetype(pending.size())));
            wakeAt = pending.empty() ? 1 : room;
            auto ready = [&] {
                return queue.size() >= wakeAt || tasksQueued > 0 || stopping || (!pending.empty() && flushWaiters > 0);
            };
            if (!pending.empty())
                wake.wait_until(lock, firstPending + interval, ready);
            else
                wake.wait(lock, ready);
            const size_t take = std::min(queue.size(), room);
            for (auto it = queue.begin(); it != queue.begin() + qsizetype(take); ++it)
                tasksQueued -= std::holds_alternative<Task>(it->payload);
            batch.insert(batch.end(), std::make_move_iterator(queue.begin()),
                std::make_move_iterator(queue.begin() + qsizetype(take)));
            queue.erase(queue.begin(), queue.begin() + qsizetype(take));
            stop = stopping && queue.empty();
            flushWanted = flushWaiters > 0 && queue.empty();
        }
        for (Item &item : batch) {
            if (std::holds_alternative<Task>(item.payload)) {
                // What came before is committed first, so a failing task cannot roll it back.
                if (!pending.empty())
                    writeBatch(session, pending);
                runTask(session, item);
                continue;
            }
            if (pending.empty())
                firstPending = Clock::now();
            pending.push_back(std::move(item));
        }
        batch.clear();
        const bool due = qsizetype(pending.size()) >= options.commitRows || Clock::now() - firstPending >= interval;
        if (!pending.empty() && (due || flushWanted || stop))
            writeBatch(session, pending);
        if (stop && pending.empty())
            return;
    }
}

} // namespace ServeScope
