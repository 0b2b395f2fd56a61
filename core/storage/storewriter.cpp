// SPDX-License-Identifier: MIT
#include "storewriter.h"

#include "writersession.h"

#include <QSqlDatabase>
#include <QThread>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <tuple>
#include <variant>

namespace ServeScope {

namespace {

struct RunFinish {
    qint64 runId;
    RunStatus status;
    QDateTime finished;
    QByteArray envSnapshot; ///< empty: unchanged
};

/// The run's experiment as it now stands (a capacity search added a level).
struct RunConfig {
    qint64 runId;
    QByteArray resolvedConfig;
    int points;
};

/// A blocking operation: runs on the writer thread, is committed at once, then answered.
struct Task {
    std::function<qint64(WriterSession &, QString *)> work;
    std::shared_ptr<std::promise<std::pair<qint64, QString>>> answer;
};

// The two large types are boxed: an item is as large as the largest alternative, and a queue of
// prompt rows or records laid out at a summary's size (1.2 kB) cost a 100,000-request point 120 MB.
using Payload = std::variant<std::unique_ptr<RequestRecord>, std::unique_ptr<PointSummary>, PointEstimate,
    ServerMetricSample, ServerLogLine, PromptRow, RunFinish, RunConfig, Task>;

struct Item {
    quint64 sequence;
    Payload payload;
};

using Clock = std::chrono::steady_clock;

/// A point's repeat, as its requests and its summary both name it.
using RepeatKey = std::tuple<qint64, QString, int, int>;

/// Measured requests a failed commit lost, by status (Ok, Failed, Cancelled).
using LostCounts = std::array<int, 3>;

} // namespace

struct StoreWriter::Private {
    StoreWriter *q = nullptr;
    Options options;
    CommittedCallback callback;

    mutable std::mutex mutex;
    std::condition_variable wake; ///< the writer waits on it for items, stop or a flush
    std::condition_variable acked; ///< flush() waits on it
    std::deque<Item> queue;
    /// The queue length at which push() wakes the writer: 1 while it has nothing pending, else what
    /// fills its batch. Between those it wakes at its commit deadline, not for every item.
    size_t wakeAt = 1;
    int tasksQueued = 0; ///< a task's caller waits for its answer: it wakes the writer at once
    quint64 nextSequence = 1;
    int flushWaiters = 0;
    bool stopping = false;
    bool broken = false; ///< a commit failed; acknowledged data is safe, the rest is not
    QString path; ///< set while open
    QString firstFailure; ///< why it broke

    std::atomic<quint64> committedSequence { 0 };
    std::atomic<quint64> committedRequests { 0 };
    std::atomic<quint64> failedItems { 0 };
    QThread *thread = nullptr;
    std::map<RepeatKey, LostCounts> lost; ///< the writer thread's own

    quint64 push(Payload payload)
    {
        std::lock_guard lock(mutex);
        if (!thread || stopping)
            return 0;
        const quint64 seq = nextSequence++;
        const bool task = std::holds_alternative<Task>(payload);
        queue.push_back({ seq, std::move(payload) });
        tasksQueued += task;
        if (task || queue.size() == wakeAt)
            wake.notify_one();
        return seq;
    }

    /// Runs `work` on the writer thread, commits at once, and waits for its answer (an id, or 0).
    qint64 call(std::function<qint64(WriterSession &, QString *)> work, QString *error)
    {
        auto answer = std::make_shared<std::promise<std::pair<qint64, QString>>>();
        auto result = answer->get_future();
        if (!push(Task { std::move(work), answer })) {
            if (error)
                *error = QStringLiteral("the project is not open for writing");
            return 0;
        }
        const auto [id, why] = result.get();
        if (error && id == 0)
            *error = why;
        return id;
    }

    void loop(WriterSession &session);
    bool apply(WriterSession &session, Item &item, quint64 *requests, QString *error);
    bool commit(WriterSession &session, quint64 sequence, quint64 requests);
    void runTask(WriterSession &session, Item &item);
    /// Writes `pending` in one transaction and commits it; empties it.
    void writeBatch(WriterSession &session, std::deque<Item> &pending);
    /// A transaction could not be begun or committed: the writer is broken from now on.
    void fail(const QString &message);
    void acknowledge(quint64 sequence);
    void reportFailure(const QString &message);
    /// Counts the measured requests of a batch that was not stored.
    void countLost(const std::deque<Item> &batch);
    /// The summary counts only what is stored: requests a failed commit lost leave its counts and are
    /// named in its client map as `requests_lost`.
    void withoutLost(PointSummary *summary);
};

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

StoreWriter::StoreWriter(QObject *parent)
    : StoreWriter(Options(), parent)
{
}

StoreWriter::StoreWriter(Options options, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->options = options;
}

StoreWriter::~StoreWriter()
{
    close();
}

void StoreWriter::setCommittedCallback(CommittedCallback callback)
{
    d->callback = std::move(callback);
}

bool StoreWriter::open(const QString &path, QString *error)
{
    close();
    // Instantiate the SQLite driver plugin on the caller's (normally the main) thread: loading it
    // first on the writer thread makes Qt warn about a parent in another thread.
    {
        const QString preload = QStringLiteral("servescope-driver-preload");
        {
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), preload);
        }
        QSqlDatabase::removeDatabase(preload);
    }
    std::promise<QString> opened;
    std::future<QString> openResult = opened.get_future();
    {
        std::lock_guard lock(d->mutex);
        d->stopping = false;
        d->broken = false;
        d->firstFailure.clear();
    }
    d->thread = QThread::create([this, path, &opened] {
        WriterSession session;
        QString why;
        const bool ok = session.open(path, &why);
        opened.set_value(ok ? QString() : (why.isEmpty() ? QStringLiteral("cannot open the project") : why));
        if (ok)
            d->loop(session);
    });
    d->thread->setObjectName(QStringLiteral("StoreWriter"));
    d->thread->start();
    const QString why = openResult.get();
    if (why.isEmpty()) {
        d->path = path;
        return true;
    }
    d->thread->wait();
    delete d->thread;
    d->thread = nullptr;
    if (error)
        *error = why;
    return false;
}

void StoreWriter::close()
{
    if (!d->thread)
        return;
    {
        std::lock_guard lock(d->mutex);
        d->stopping = true;
    }
    d->wake.notify_one();
    d->thread->wait();
    delete d->thread;
    std::lock_guard lock(d->mutex);
    d->thread = nullptr;
    d->queue.clear();
    d->path.clear();
}

bool StoreWriter::isOpen() const
{
    std::lock_guard lock(d->mutex);
    return d->thread && !d->stopping;
}

QString StoreWriter::path() const
{
    return d->path;
}

qint64 StoreWriter::createRun(const RunRow &run, QString *error)
{
    return d->call([run](WriterSession &s, QString *why) { return s.insertRun(run, why); }, error);
}

qint64 StoreWriter::saveExperiment(const ExperimentRow &experiment, QString *error)
{
    return d->call([experiment](WriterSession &s, QString *why) { return s.saveExperiment(experiment, why); }, error);
}

quint64 StoreWriter::enqueue(RequestRecord record)
{
    return d->push(std::make_unique<RequestRecord>(std::move(record)));
}

quint64 StoreWriter::enqueue(QVector<RequestRecord> records)
{
    quint64 last = 0;
    for (RequestRecord &r : records)
        last = d->push(std::make_unique<RequestRecord>(std::move(r)));
    return last;
}

quint64 StoreWriter::enqueue(PointSummary summary)
{
    return d->push(std::make_unique<PointSummary>(std::move(summary)));
}

quint64 StoreWriter::enqueue(PointEstimate estimate)
{
    return d->push(std::move(estimate));
}

quint64 StoreWriter::enqueue(ServerMetricSample sample)
{
    return d->push(std::move(sample));
}

quint64 StoreWriter::enqueue(ServerLogLine line)
{
    return d->push(std::move(line));
}

quint64 StoreWriter::enqueue(PromptRow prompt)
{
    return d->push(std::move(prompt));
}

quint64 StoreWriter::updateRunConfig(qint64 runId, const QByteArray &resolvedConfig, int points)
{
    return d->push(RunConfig { runId, resolvedConfig, points });
}

quint64 StoreWriter::finishRun(qint64 runId, RunStatus status, const QDateTime &finished, const QByteArray &envSnapshot)
{
    return d->push(RunFinish { runId, status, finished, envSnapshot });
}

bool StoreWriter::flush(int timeoutMs)
{
    std::unique_lock lock(d->mutex);
    if (!d->thread)
        return d->queue.empty();
    const quint64 target = d->nextSequence - 1;
    ++d->flushWaiters;
    d->wake.notify_one();
    auto done = [&] { return d->committedSequence >= target || d->broken; };
    bool ok = true;
    if (timeoutMs < 0)
        d->acked.wait(lock, done);
    else
        ok = d->acked.wait_for(lock, std::chrono::milliseconds(timeoutMs), done);
    --d->flushWaiters;
    return ok && d->committedSequence >= target && !d->broken;
}

bool StoreWriter::catchUp(int timeoutMs)
{
    if (enqueuedSequence() - committedSequence() <= 2 * quint64(std::max(1, d->options.commitRows)))
        return true;
    return flush(timeoutMs);
}

quint64 StoreWriter::enqueuedSequence() const
{
    std::lock_guard lock(d->mutex);
    return d->nextSequence - 1;
}

quint64 StoreWriter::committedSequence() const
{
    return d->committedSequence;
}

quint64 StoreWriter::committedRequests() const
{
    return d->committedRequests;
}

QString StoreWriter::commitFailure() const
{
    std::lock_guard lock(d->mutex);
    return d->firstFailure;
}

quint64 StoreWriter::failedItems() const
{
    return d->failedItems;
}

} // namespace ServeScope
