// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"
#include "storetypes.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace ServeScope {

/// The one writer of a project file, on its own thread (Qt SQL connections are per thread).
///
/// Any thread may enqueue by value; each enqueued item gets a sequence number. The writer commits
/// at least every `commitIntervalMs` (250) or `commitRows` items (2,000), whichever comes first, each
/// batch in one short IMMEDIATE transaction (so other processes may write the same project between
/// batches, docs/project-file.md#several-writers), and then acknowledges: committedSequence() advances, the callback
/// runs and committed() is emitted. Everything acknowledged survives a killed process (WAL with synchronous=NORMAL; see
/// docs/project-file.md for the power-loss caveat).
class StoreWriter final : public QObject {
    Q_OBJECT
public:
    struct Options {
        int commitIntervalMs = 250;
        int commitRows = 2000;
    };
    /// Called on the writer thread after each commit with the highest committed sequence number
    /// and the total number of requests committed so far.
    using CommittedCallback = std::function<void(quint64 sequence, quint64 requests)>;

    explicit StoreWriter(QObject *parent = nullptr);
    explicit StoreWriter(Options options, QObject *parent = nullptr);
    /// Flushes and stops the thread.
    ~StoreWriter() override;

    /// Starts the writer thread on `path`: a missing file is created; an existing one is verified
    /// read-only first (ProjectStore::verify, Check::Full), then migrated. Blocks until ready.
    bool open(const QString &path, QString *error = nullptr);
    /// Commits what is queued and stops the thread.
    void close();
    bool isOpen() const;
    /// The project it writes; empty while closed.
    QString path() const;

    /// Set before open(); runs on the writer thread.
    void setCommittedCallback(CommittedCallback callback);

    /// Inserts a run and its variants and commits at once; returns the new id, 0 on failure.
    qint64 createRun(const RunRow &run, QString *error = nullptr);
    /// Inserts (id 0) or updates an experiment and commits at once; returns its id, 0 on failure.
    qint64 saveExperiment(const ExperimentRow &experiment, QString *error = nullptr);

    /// Queue operations; each returns the item's sequence number (0 when the writer is closed).
    quint64 enqueue(RequestRecord record);
    quint64 enqueue(QVector<RequestRecord> records); ///< one sequence number per record; returns the last
    quint64 enqueue(PointSummary summary); ///< replaces a stored summary of the same (variant, point, repeat)
    quint64 enqueue(PointEstimate estimate); ///< replaces a stored one of the same (variant, point, metric)
    quint64 enqueue(ServerMetricSample sample);
    quint64 enqueue(ServerLogLine line);
    quint64 enqueue(PromptRow prompt); ///< ignored when the hash is stored already
    /// `envSnapshot` (UTF-8 JSON, when not empty) replaces the run's: what was learned while it ran.
    quint64 finishRun(qint64 runId, RunStatus status, const QDateTime &finished, const QByteArray &envSnapshot = {});
    /// Replaces the run's stored experiment and point count (a capacity search measured a new level).
    quint64 updateRunConfig(qint64 runId, const QByteArray &resolvedConfig, int points);

    /// Blocks until everything enqueued before the call is committed; false on timeout or when a
    /// commit has failed (now or earlier: see commitFailure()).
    bool flush(int timeoutMs = -1);

    /// For a producer that may wait (an import, a point's prompts before its load; never the load itself):
    /// flushes when more than two batches (2 x commitRows) are queued, so what piles up for a slow disk stays
    /// that small. Returns what flush() returns, true when it did not need to.
    bool catchUp(int timeoutMs = 60000);

    quint64 enqueuedSequence() const;
    quint64 committedSequence() const;
    quint64 committedRequests() const;
    /// Items the database refused (each also reported by writeFailed()).
    quint64 failedItems() const;
    /// Why a transaction could not be begun or committed (a full disk, an I/O error, a lock held too
    /// long by another writer); empty while every commit succeeded. What it held is not stored.
    QString commitFailure() const;

Q_SIGNALS:
    /// Emitted on the writer thread after each commit.
    void committed(quint64 sequence, quint64 requests);
    /// An item or a commit failed; emitted on the writer thread.
    void writeFailed(const QString &message);
    /// A transaction could not be begun or committed (see commitFailure()); emitted on the writer
    /// thread, after writeFailed().
    void commitFailed(const QString &message);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace ServeScope
