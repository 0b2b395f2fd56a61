// SPDX-License-Identifier: MIT
#include "storewriter.h"

#include "storewriterthread.h"

#include <QSqlDatabase>
#include <QThread>

#include <chrono>
#include <future>
#include <mutex>

namespace ServeScope {

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
    return d->push(Private::RunConfig { runId, resolvedConfig, points });
}

quint64 StoreWriter::finishRun(qint64 runId, RunStatus status, const QDateTime &finished, const QByteArray &envSnapshot)
{
    return d->push(Private::RunFinish { runId, status, finished, envSnapshot });
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
