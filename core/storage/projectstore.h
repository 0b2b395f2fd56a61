// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"
#include "storetypes.h"

#include <QHash>
#include <QMap>
#include <QPair>
#include <QSqlDatabase>
#include <QString>
#include <QVector>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

struct sqlite3;

namespace ServeScope {

class FileInUse;

/// Lets another thread end a running full check (`ProjectStore::verify`) at once: `PRAGMA
/// quick_check` reads the whole file in one SQLite step, so sqlite3_interrupt() ends it.
class CheckStop final {
public:
    /// Any thread. A check that has not begun yet ends as soon as it begins.
    void stop();
    bool isStopped() const;
    /// For the check itself, on its thread: the connection to interrupt (nullptr before it closes).
    void watch(sqlite3 *handle);

private:
    std::mutex m_mutex;
    sqlite3 *m_handle = nullptr;
    std::atomic_bool m_stopped { false };
};

/// Read-only access to a project file (`*.servescope`) for listings, charts and exports.
/// One instance is one connection and must be used on the thread that opened it (the query
/// thread). All writes go through StoreWriter.
class ProjectStore final {
public:
    /// How much of an existing file is checked before it is used.
    enum class Check {
        Header, ///< SQLite magic, application id, schema version, expected tables (constant time)
        Full, ///< Header plus `PRAGMA quick_check` (reads every page)
        None, ///< internal: already checked
    };
    /// Whether the connection sees commits made after open().
    enum class Follow {
        Live, ///< sees later commits (GUI query thread); may leave -wal/-shm files beside the project
        Snapshot, ///< when no writer is active, opens the file immutable: nothing is created beside it
    };

    ProjectStore();
    ~ProjectStore();
    ProjectStore(const ProjectStore &) = delete;
    ProjectStore &operator=(const ProjectStore &) = delete;

    /// Creates a new project file at the current schema; refuses a path that exists.
    static bool create(const QString &path, QString *error);

    /// Checks an existing file without writing to it: the raw header is read first, then the
    /// file is opened with QSQLITE_OPEN_READONLY. Refuses a missing, foreign (not SQLite or
    /// another application id), corrupt or newer-schema file with a message naming the file.
    /// With `stop`, a full check ends as soon as another thread calls stop->stop() (false; the
    /// error says it was stopped).
    static bool verify(const QString &path, Check check, QString *error, CheckStop *stop = nullptr);
    /// Writes a compact, consistent copy of the project at `source` (WAL content included) to
    /// `target` with `VACUUM INTO`; `target` must not exist. Safe while a writer is open.
    static bool copyTo(const QString &source, const QString &target, QString *error);

    /// Verifies the file and keeps a read-only connection for the queries below.
    bool open(const QString &path, Check check = Check::Full, Follow follow = Follow::Live);
    void close();
    bool isOpen() const;
    QString path() const { return m_path; }
    /// The reason the last call failed.
    QString errorString() const { return m_error; }
    /// Schema version of the open file.
    int schemaVersion() const { return m_schemaVersion; }

    /// Every run, oldest first, with aggregates from `runs` and `point_repeats` (never requests).
    bool listRuns(QVector<RunListing> *out);
    /// One run with its JSON columns; nullopt when missing (errorString() says so).
    std::optional<RunRow> run(qint64 id);
    /// A run id from a numeric id or a unique name; 0 when none or ambiguous (errorString()).
    qint64 resolveRun(const QString &idOrName);
    /// Every stored (variant, point, repeat) summary of a run, by variant order, point, repeat.
    bool pointSummaries(qint64 runId, QVector<PointSummary> *out);
    /// The statistics across repeats of every (variant, point, metric) of a run, by variant order,
    /// point, metric; none for a file of schema 1.
    bool pointEstimates(qint64 runId, QVector<PointEstimate> *out);
    /// How a run's measured requests failed: per (variant, point), each error class code with its
    /// count, summed over the repeats (one grouped read of the requests' columns, no events).
    bool failureClasses(qint64 runId, QHash<QPair<QString, int>, QMap<QString, int>> *out);
    /// A run's requests by variant order, point, repeat, index, with decoded events.
    bool requests(qint64 runId, const RequestFilter &filter, QVector<RequestRecord> *out);
    bool experiments(QVector<ExperimentRow> *out);
    bool serverMetricSamples(qint64 runId, QVector<ServerMetricSample> *out);
    bool serverLogs(qint64 runId, QVector<ServerLogLine> *out);
    std::optional<PromptRow> prompt(const PromptHash &hash);
    /// The generated texts of one (variant, point, repeat)'s measured requests, read as they are asked
    /// for: call the result with rising request indexes (a forward cursor over the point's rows); an
    /// index without a stored row gives an empty text. Empty on failure (errorString()). Valid while
    /// the store is open; the results folder writes a point's texts from here instead of keeping them.
    std::function<QByteArray(int index)> generatedTexts(qint64 runId, const QString &variant, int point, int repeat);

private:
    bool fail(const QString &message);
    /// The owner and origin columns (constants for older schemas).
    QString ownerColumn() const;
    static RunStatus shownStatus(const QString &code, const QString &owner);

    std::unique_ptr<FileInUse> m_inUse; ///< held while m_db is open (see fileinuse.h)
    QString m_connection;
    QSqlDatabase m_db;
    QString m_path;
    QString m_error;
    int m_schemaVersion = 0;
};

} // namespace ServeScope
