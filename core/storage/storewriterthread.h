// SPDX-License-Identifier: MIT
// StoreWriter's queue, shared by the threads that enqueue and its writer thread: the items and the writer's state.
#pragma once

#include "storewriter.h"
#include "writersession.h"

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

struct StoreWriter::Private {
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

} // namespace ServeScope
