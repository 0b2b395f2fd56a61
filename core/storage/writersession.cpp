// SPDX-License-Identifier: MIT
#include "writersession.h"

#include "eventblob.h"
#include "projectstore.h"
#include "rowcodec.h"
#include "runowner.h"
#include "schema.h"

#include <QFileInfo>
#include <QSqlError>
#include <QVariant>

#include <atomic>

namespace ServeScope {

namespace {
std::atomic<int> s_connectionCounter { 0 };

QString isoUtc(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODateWithMs);
}

// NOT NULL text columns: a null QString would bind as NULL, so empty input binds as "".
QString text(const QByteArray &utf8)
{
    return utf8.isEmpty() ? QString(QLatin1String("")) : QString::fromUtf8(utf8);
}

QVariant nullIfEmpty(const QDateTime &t)
{
    return t.isValid() ? QVariant(isoUtc(t)) : QVariant(QMetaType::fromType<QString>());
}
} // namespace

WriterSession::WriterSession()
    : m_connection(QStringLiteral("servescope-writer-%1").arg(s_connectionCounter++))
{
}

WriterSession::~WriterSession()
{
    close();
}

bool WriterSession::prepare(QSqlQuery &q, const QString &sql, QString *error)
{
    q = QSqlQuery(m_db);
    if (q.prepare(sql))
        return true;
    *error = q.lastError().text();
    return false;
}

bool WriterSession::exec(QSqlQuery &q, QString *error)
{
    if (q.exec())
        return true;
    *error = q.lastError().text();
    return false;
}

bool WriterSession::open(const QString &path, QString *error)
{
    close();
    // A project appears whole (ProjectStore::create links it into place complete): if another
    // writer creates it first, this one opens what that one made.
    if (!QFileInfo::exists(path) && !ProjectStore::create(path, error) && !QFileInfo::exists(path))
        return false;
    if (!ProjectStore::verify(path, ProjectStore::Check::Full, error))
        return false;
    m_inUse.emplace(path);
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    m_db.setDatabaseName(path);
    m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=30000"));
    if (!m_db.open()) {
        *error = m_db.lastError().text();
        return false;
    }
    QSqlQuery pragma(m_db);
    for (const char *sql : { "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL" }) {
        if (!pragma.exec(QString::fromLatin1(sql))) {
            *error = pragma.lastError().text();
            return false;
        }
        pragma.finish();
    }
    // Migrations run with foreign keys off (a step may rebuild a table); then they are enforced.
    if (!Schema::migrate(m_db, error))
        return false;
    if (!pragma.exec(QStringLiteral("PRAGMA foreign_keys=ON"))) {
        *error = pragma.lastError().text();
        return false;
    }
    pragma.finish();
    if (!markInterruptedRuns(error))
        return false;
    return m_inserter.prepare(m_db, error) && prepare(m_insertSummary, RowCodec::insertSummarySql(), error)
        && prepare(m_insertEstimate,
            QStringLiteral("INSERT OR REPLACE INTO point_estimates (run_id, variant_id, point, metric, repeats, median,"
                           " min, max, cv, ci_low, ci_high, ci_method) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"),
            error)
        && prepare(m_insertSample,
            QStringLiteral("INSERT INTO server_metric_samples (run_id, t_ns, name, labels, value, source)"
                           " VALUES (?,?,?,?,?,?)"),
            error)
        && prepare(
            m_insertLog, QStringLiteral("INSERT INTO server_logs (run_id, t_ns, stream, line) VALUES (?,?,?,?)"), error)
        && prepare(
            m_insertPrompt, QStringLiteral("INSERT OR IGNORE INTO prompts (hash, text, tokens) VALUES (?,?,?)"), error);
}

void WriterSession::close()
{
    if (!m_db.isValid()) {
        m_inUse.reset();
        return;
    }
    if (m_inTransaction)
        rollback();
    m_inserter.finalize();
    for (QSqlQuery *q : { &m_insertSummary, &m_insertEstimate, &m_insertSample, &m_insertLog, &m_insertPrompt })
        *q = QSqlQuery();
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connection);
    m_inUse.reset();
    m_variants.clear();
    m_pendingRequests.clear();
}

bool WriterSession::loadNextRequestId(QString *error)
{
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("SELECT coalesce(max(id), 0) + 1 FROM requests")) || !q.next()) {
        *error = q.lastError().text();
        return false;
    }
    m_nextRequestId = q.value(0).toLongLong();
    return true;
}

bool WriterSession::begin(QString *error)
{
    // IMMEDIATE takes the write lock now (waiting up to the busy timeout for another writer's batch),
    // so the next request id read below cannot be taken by another process before this commit.
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
        *error = q.lastError().text();
        return false;
    }
    m_inTransaction = true;
    if (!loadNextRequestId(error)) {
        rollback();
        return false;
    }
    return true;
}

bool WriterSession::commit(QString *error)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE runs SET requests = requests + ? WHERE id = ?"));
    for (auto it = m_pendingRequests.cbegin(); it != m_pendingRequests.cend(); ++it) {
        q.bindValue(0, it.value());
        q.bindValue(1, it.key());
        if (!exec(q, error)) {
            rollback();
            return false;
        }
    }
    if (!m_db.commit()) {
        *error = m_db.lastError().text();
        rollback();
        return false;
    }
    m_pendingRequests.clear();
    m_pendingCount = 0;
    m_inTransaction = false;
    return true;
}

void WriterSession::rollback()
{
    m_db.rollback();
    m_inTransaction = false;
    m_pendingRequests.clear();
    m_pendingCount = 0;
    m_variants.clear(); // variants inserted in the rolled-back transaction are gone
}

std::optional<qint64> WriterSession::variantId(qint64 runId, const QString &name, QString *error)
{
    const auto key = qMakePair(runId, name);
    if (auto it = m_variants.constFind(key); it != m_variants.cend())
        return it.value();
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT id FROM variants WHERE run_id = ? AND name = ?"));
    q.bindValue(0, runId);
    q.bindValue(1, name);
    if (!exec(q, error))
        return std::nullopt;
    if (!q.next()) {
        // A variant the run did not declare up front: append it after the declared ones.
        q.prepare(QStringLiteral("INSERT INTO variants (run_id, ordinal, name) VALUES"
                                 " (?, (SELECT coalesce(max(ordinal), -1) + 1 FROM variants WHERE run_id = ?), ?)"));
        q.bindValue(0, runId);
        q.bindValue(1, runId);
        q.bindValue(2, name);
        if (!exec(q, error))
            return std::nullopt;
        m_variants.insert(key, q.lastInsertId().toLongLong());
        return q.lastInsertId().toLongLong();
    }
    m_variants.insert(key, q.value(0).toLongLong());
    return q.value(0).toLongLong();
}

bool WriterSession::insertRequest(const RequestRecord &r, QString *error)
{
    const auto variant = variantId(r.runId, r.variant, error);
    if (!variant)
        return false;
    QByteArray blob;
    QString blobError;
    const bool blobOk = EventBlob::encode(r.eventNs, r.eventKinds, &blob, &blobError);
    const qint64 id = m_nextRequestId;
    if (!m_inserter.insert(r, *variant, id, blob, error)) {
        *error = QStringLiteral("request %1 of run %2 not stored: %3").arg(r.index).arg(r.runId).arg(*error);
        return false;
    }
    ++m_nextRequestId;
    ++m_pendingRequests[r.runId];
    ++m_pendingCount;
    if (blobOk)
        return true;
    *error = QStringLiteral("request %1 stored without its events: %2").arg(r.index).arg(blobError);
    return false;
}

bool WriterSession::insertSummary(const PointSummary &s, QString *error)
{
    const auto variant = variantId(s.runId, s.variant, error);
    if (!variant)
        return false;
    RowCodec::bindSummary(m_insertSummary, s, *variant);
    return exec(m_insertSummary, error);
}

bool WriterSession::insertEstimate(const PointEstimate &e, QString *error)
{
    const auto variant = variantId(e.runId, e.variant, error);
    if (!variant)
        return false;
    const QVariant none(QMetaType::fromType<double>());
    const QVariantList values { e.runId, *variant, e.point, e.metric, e.repeats, e.median, e.min, e.max, e.cv,
        e.hasInterval() ? QVariant(e.ciLow) : none, e.hasInterval() ? QVariant(e.ciHigh) : none,
        e.hasInterval() ? e.ciMethod : QString(QLatin1String("")) }; // a null QString binds as NULL
    for (int i = 0; i < values.size(); ++i)
        m_insertEstimate.bindValue(i, values.at(i));
    return exec(m_insertEstimate, error);
}

bool WriterSession::insertMetricSample(const ServerMetricSample &s, QString *error)
{
    m_insertSample.bindValue(0, s.runId);
    m_insertSample.bindValue(1, s.timeNs);
    m_insertSample.bindValue(2, s.name);
    m_insertSample.bindValue(3, s.labels);
    m_insertSample.bindValue(4, s.value);
    m_insertSample.bindValue(5, s.source);
    return exec(m_insertSample, error);
}

bool WriterSession::insertLogLine(const ServerLogLine &l, QString *error)
{
    m_insertLog.bindValue(0, l.runId);
    m_insertLog.bindValue(1, l.timeNs);
    m_insertLog.bindValue(2, l.stream);
    m_insertLog.bindValue(3, l.line);
    return exec(m_insertLog, error);
}

bool WriterSession::insertPrompt(const PromptRow &p, QString *error)
{
    m_insertPrompt.bindValue(0, p.hash);
    m_insertPrompt.bindValue(1, p.text.isNull() ? QVariant(QMetaType::fromType<QString>()) : QVariant(p.text));
    m_insertPrompt.bindValue(2, p.tokens.isNull() ? QVariant(QMetaType::fromType<QByteArray>()) : QVariant(p.tokens));
    return exec(m_insertPrompt, error);
}

bool WriterSession::markInterruptedRuns(QString *error)
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT id, owner FROM runs WHERE status = 'running'"))) {
        *error = q.lastError().text();
        return false;
    }
    QList<qint64> gone;
    while (q.next()) {
        if (RunOwner::isGone(q.value(1).toString()))
            gone << q.value(0).toLongLong();
    }
    q.finish();
    for (qint64 id : std::as_const(gone)) {
        q.prepare(QStringLiteral("UPDATE runs SET status = 'interrupted' WHERE id = ?"));
        q.bindValue(0, id);
        if (!exec(q, error))
            return false;
    }
    return true;
}

bool WriterSession::updateRunConfig(qint64 runId, const QByteArray &resolvedConfig, int points, QString *error)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE runs SET resolved_config = ?, points = ? WHERE id = ?"));
    q.bindValue(0, text(resolvedConfig));
    q.bindValue(1, points);
    q.bindValue(2, runId);
    if (!exec(q, error))
        return false;
    if (q.numRowsAffected() != 1) {
        *error = QStringLiteral("no run %1").arg(runId);
        return false;
    }
    return true;
}

bool WriterSession::finishRun(
    qint64 runId, RunStatus status, const QDateTime &finished, const QByteArray &envSnapshot, QString *error)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE runs SET status = ?, finished = ?, env_snapshot = coalesce(?, env_snapshot)"
                             " WHERE id = ?"));
    q.bindValue(0, runStatusCode(status));
    q.bindValue(1, nullIfEmpty(finished));
    q.bindValue(2, envSnapshot.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(text(envSnapshot)));
    q.bindValue(3, runId);
    if (!exec(q, error))
        return false;
    if (q.numRowsAffected() != 1) {
        *error = QStringLiteral("no run %1").arg(runId);
        return false;
    }
    return true;
}

qint64 WriterSession::insertRun(const RunRow &run, QString *error)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral(
        "INSERT INTO runs (experiment_id, name, status, started, finished, resolved_config,"
        " definitions, points, client_host, env_snapshot, owner, origin) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"));
    q.bindValue(0, run.experimentId > 0 ? QVariant(run.experimentId) : QVariant(QMetaType::fromType<qint64>()));
    q.bindValue(1, run.name.isNull() ? QString(QLatin1String("")) : run.name);
    q.bindValue(2, runStatusCode(run.status));
    q.bindValue(3, isoUtc(run.started.isValid() ? run.started : QDateTime::currentDateTimeUtc()));
    q.bindValue(4, nullIfEmpty(run.finished));
    q.bindValue(5, text(run.resolvedConfig));
    q.bindValue(6, run.definitions.isNull() ? QString(QLatin1String("")) : run.definitions);
    q.bindValue(7, run.points);
    q.bindValue(8, text(run.clientHost));
    q.bindValue(9, text(run.envSnapshot));
    q.bindValue(10, RunOwner::current());
    q.bindValue(11, text(run.origin));
    if (!exec(q, error))
        return 0;
    const qint64 id = q.lastInsertId().toLongLong();
    for (int i = 0; i < run.variants.size(); ++i) {
        q.prepare(QStringLiteral("INSERT INTO variants (run_id, ordinal, name) VALUES (?,?,?)"));
        q.bindValue(0, id);
        q.bindValue(1, i);
        q.bindValue(2, run.variants.at(i));
        if (!exec(q, error))
            return 0;
        m_variants.insert(qMakePair(id, run.variants.at(i)), q.lastInsertId().toLongLong());
    }
    return id;
}

qint64 WriterSession::saveExperiment(const ExperimentRow &e, QString *error)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO experiments (id, name, json, created) VALUES (?,?,?,?)"
                             " ON CONFLICT (id) DO UPDATE SET name = excluded.name, json = excluded.json"));
    q.bindValue(0, e.id > 0 ? QVariant(e.id) : QVariant(QMetaType::fromType<qint64>()));
    q.bindValue(1, e.name);
    q.bindValue(2, text(e.json));
    q.bindValue(3, isoUtc(e.created.isValid() ? e.created : QDateTime::currentDateTimeUtc()));
    if (!exec(q, error))
        return 0;
    return e.id > 0 ? e.id : q.lastInsertId().toLongLong();
}

} // namespace ServeScope
