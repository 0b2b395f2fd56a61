// SPDX-License-Identifier: MIT
#pragma once

#include "fileinuse.h"
#include "model/records.h"
#include "requestinserter.h"
#include "storetypes.h"

#include <QHash>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

#include <optional>

namespace ServeScope {

/// The writing connection and its prepared statements. Lives entirely on the writer thread;
/// StoreWriter is its only user. Nothing here commits on its own: the caller brackets work with
/// begin()/commit() so it decides the durability window.
class WriterSession final {
public:
    WriterSession();
    ~WriterSession();
    WriterSession(const WriterSession &) = delete;
    WriterSession &operator=(const WriterSession &) = delete;

    /// Creates the file when missing, else verifies it read-only first; then opens it for writing
    /// (WAL, synchronous=NORMAL), migrates it to the current schema and marks runs whose writing
    /// process is gone as interrupted.
    bool open(const QString &path, QString *error);
    void close();

    bool begin(QString *error);
    /// Updates the per-run request counters, then commits.
    bool commit(QString *error);
    void rollback();
    /// Requests inserted in the open transaction.
    qint64 pendingRequests() const { return m_pendingCount; }
    /// The transaction begun is still open: false once SQLite has rolled it back after an error.
    bool inTransaction() const { return m_inTransaction && m_inserter.inTransaction(); }

    bool insertRequest(const RequestRecord &r, QString *error);
    bool insertSummary(const PointSummary &s, QString *error);
    bool insertEstimate(const PointEstimate &e, QString *error);
    bool insertMetricSample(const ServerMetricSample &s, QString *error);
    bool insertLogLine(const ServerLogLine &l, QString *error);
    bool insertPrompt(const PromptRow &p, QString *error);
    bool updateRunConfig(qint64 runId, const QByteArray &resolvedConfig, int points, QString *error);
    bool finishRun(
        qint64 runId, RunStatus status, const QDateTime &finished, const QByteArray &envSnapshot, QString *error);
    qint64 insertRun(const RunRow &run, QString *error);
    qint64 saveExperiment(const ExperimentRow &e, QString *error);

private:
    std::optional<qint64> variantId(qint64 runId, const QString &name, QString *error);
    bool prepare(QSqlQuery &q, const QString &sql, QString *error);
    bool exec(QSqlQuery &q, QString *error);
    bool loadNextRequestId(QString *error);
    bool markInterruptedRuns(QString *error);

    std::optional<FileInUse> m_inUse; ///< held while m_db is open (see fileinuse.h)
    QString m_connection;
    QSqlDatabase m_db;
    RequestInserter m_inserter;
    QSqlQuery m_insertSummary, m_insertEstimate, m_insertSample, m_insertLog, m_insertPrompt;
    QHash<QPair<qint64, QString>, qint64> m_variants;
    QHash<qint64, qint64> m_pendingRequests; ///< per run, added to runs.requests at commit
    qint64 m_pendingCount = 0;
    qint64 m_nextRequestId = 1;
    bool m_inTransaction = false;
};

} // namespace ServeScope
