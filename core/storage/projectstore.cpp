// SPDX-License-Identifier: MIT
#include "projectstore.h"
#include "fileinuse.h"

#include "rowcodec.h"
#include "runowner.h"

#include "model/problem.h"

#include <QHash>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

namespace ServeScope {

namespace {

QDateTime parseUtc(const QVariant &v)
{
    if (v.isNull())
        return {};
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    return t.toUTC();
}

} // namespace

ProjectStore::ProjectStore() = default;

ProjectStore::~ProjectStore()
{
    close();
}

bool ProjectStore::fail(const QString &message)
{
    m_error = message;
    return false;
}

void ProjectStore::close()
{
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connection);
    }
    m_inUse.reset();
    m_path.clear();
}

bool ProjectStore::isOpen() const
{
    return m_db.isValid() && m_db.isOpen();
}

static bool execQuery(QSqlQuery &q, QString *error)
{
    if (q.exec())
        return true;
    *error = q.lastError().text();
    return false;
}

QString ProjectStore::ownerColumn() const
{
    return (m_schemaVersion >= 2 ? QStringLiteral("owner") : QStringLiteral("''"))
        + (m_schemaVersion >= 4 ? QStringLiteral(", origin") : QStringLiteral(", ''"));
}

// A run still `running` whose writing process is gone reads as interrupted before any writer has
// stored that (this connection is read-only).
RunStatus ProjectStore::shownStatus(const QString &code, const QString &owner)
{
    const RunStatus s = runStatusFromCode(code);
    return s == RunStatus::Running && RunOwner::isGone(owner) ? RunStatus::Interrupted : s;
}

bool ProjectStore::listRuns(QVector<RunListing> *out)
{
    out->clear();
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT id, coalesce(experiment_id, 0), name, status, started, finished, definitions,"
                             " points, requests, ")
        % ownerColumn()
        % QStringLiteral(
            ", CASE WHEN json_valid(resolved_config) THEN json_extract(resolved_config, '$.endpoint.model')"
            " END FROM runs ORDER BY id"));
    if (!execQuery(q, &m_error))
        return false;
    QHash<qint64, qsizetype> byId;
    while (q.next()) {
        RunListing l;
        RunRow &r = l.run;
        r.id = q.value(0).toLongLong();
        r.experimentId = q.value(1).toLongLong();
        r.name = q.value(2).toString();
        r.status = shownStatus(q.value(3).toString(), q.value(9).toString());
        r.started = parseUtc(q.value(4));
        r.finished = parseUtc(q.value(5));
        r.definitions = q.value(6).toString();
        r.points = q.value(7).toInt();
        l.requests = q.value(8).toLongLong();
        r.origin = q.value(10).toString().toUtf8();
        l.model = q.value(11).toString();
        byId.insert(r.id, out->size());
        out->append(l);
    }
    q.prepare(QStringLiteral("SELECT run_id, name FROM variants ORDER BY run_id, ordinal"));
    if (!execQuery(q, &m_error))
        return false;
    while (q.next()) {
        if (auto it = byId.constFind(q.value(0).toLongLong()); it != byId.cend())
            (*out)[it.value()].run.variants.append(q.value(1).toString());
    }
    q.prepare(QStringLiteral("SELECT run_id, count(*), sum(completed), sum(failed), sum(cancelled),"
                             " sum(total_output_tokens) FROM point_repeats GROUP BY run_id"));
    if (!execQuery(q, &m_error))
        return false;
    while (q.next()) {
        auto it = byId.constFind(q.value(0).toLongLong());
        if (it == byId.cend())
            continue;
        RunListing &l = (*out)[it.value()];
        l.pointRepeats = q.value(1).toInt();
        l.completed = q.value(2).toLongLong();
        l.failed = q.value(3).toLongLong();
        l.cancelled = q.value(4).toLongLong();
        l.totalOutputTokens = q.value(5).toLongLong();
    }
    return true;
}

std::optional<RunRow> ProjectStore::run(qint64 id)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT coalesce(experiment_id, 0), name, status, started, finished, resolved_config,"
                             " definitions, points, client_host, env_snapshot, ")
        % ownerColumn() % QStringLiteral(" FROM runs WHERE id = ?"));
    q.bindValue(0, id);
    if (!execQuery(q, &m_error))
        return std::nullopt;
    if (!q.next()) {
        fail(Reason::shown(
            "ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "no run %1"), { QString::number(id) }));
        return std::nullopt;
    }
    RunRow r;
    r.id = id;
    r.experimentId = q.value(0).toLongLong();
    r.name = q.value(1).toString();
    r.status = shownStatus(q.value(2).toString(), q.value(10).toString());
    r.started = parseUtc(q.value(3));
    r.finished = parseUtc(q.value(4));
    r.resolvedConfig = q.value(5).toString().toUtf8();
    r.definitions = q.value(6).toString();
    r.points = q.value(7).toInt();
    r.clientHost = q.value(8).toString().toUtf8();
    r.envSnapshot = q.value(9).toString().toUtf8();
    r.origin = q.value(11).toString().toUtf8();
    q.prepare(QStringLiteral("SELECT name FROM variants WHERE run_id = ? ORDER BY ordinal"));
    q.bindValue(0, id);
    if (!execQuery(q, &m_error))
        return std::nullopt;
    while (q.next())
        r.variants.append(q.value(0).toString());
    return r;
}

qint64 ProjectStore::resolveRun(const QString &idOrName)
{
    bool numeric = false;
    const qint64 id = idOrName.toLongLong(&numeric);
    QSqlQuery q(m_db);
    if (numeric) {
        q.prepare(QStringLiteral("SELECT id FROM runs WHERE id = ?"));
        q.bindValue(0, id);
    } else {
        q.prepare(QStringLiteral("SELECT id FROM runs WHERE name = ? LIMIT 2"));
        q.bindValue(0, idOrName);
    }
    if (!execQuery(q, &m_error))
        return 0;
    if (!q.next()) {
        fail(Reason::shown(
            "ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "no run '%1'"), { idOrName }));
        return 0;
    }
    const qint64 found = q.value(0).toLongLong();
    if (q.next()) {
        fail(Reason::shown("ServeScope::Storage",
            QT_TRANSLATE_NOOP("ServeScope::Storage", "more than one run is named '%1'; use its id"), { idOrName }));
        return 0;
    }
    return found;
}

bool ProjectStore::pointSummaries(qint64 runId, QVector<PointSummary> *out)
{
    out->clear();
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT ") % RowCodec::summaryColumns(m_schemaVersion)
        % QStringLiteral(" FROM point_repeats p JOIN variants v ON v.id = p.variant_id WHERE p.run_id = ?"
                         " ORDER BY v.ordinal, p.point, p.repeat"));
    q.bindValue(0, runId);
    if (!execQuery(q, &m_error))
        return false;
    while (q.next()) {
        PointSummary s;
        RowCodec::readSummary(q, &s);
        out->append(s);
    }
    return true;
}

bool ProjectStore::pointEstimates(qint64 runId, QVector<PointEstimate> *out)
{
    out->clear();
    if (m_schemaVersion < 2)
        return true;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(RowCodec::estimateSelectSql());
    q.bindValue(0, runId);
    if (!execQuery(q, &m_error))
        return false;
    while (q.next())
        out->append(RowCodec::readEstimate(q, runId));
    return true;
}

bool ProjectStore::failureClasses(qint64 runId, QHash<QPair<QString, int>, QMap<QString, int>> *out)
{
    out->clear();
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT v.name, r.point, r.error_class, COUNT(*) FROM requests r"
                             " JOIN variants v ON v.id = r.variant_id WHERE r.run_id = ? AND r.warmup = 0"
                             " AND r.status = ? GROUP BY v.name, r.point, r.error_class"));
    q.bindValue(0, runId);
    q.bindValue(1, int(RequestStatus::Failed));
    if (!execQuery(q, &m_error))
        return false;
    while (q.next())
        (*out)[{ q.value(0).toString(), q.value(1).toInt() }].insert(q.value(2).toString(), q.value(3).toInt());
    return true;
}

bool ProjectStore::requests(qint64 runId, const RequestFilter &filter, QVector<RequestRecord> *out)
{
    out->clear();
    QString where = QStringLiteral(" WHERE r.run_id = ?");
    if (!filter.variant.isEmpty())
        where += QStringLiteral(" AND v.name = ?");
    if (filter.point >= 0)
        where += QStringLiteral(" AND r.point = ?");
    if (filter.repeat >= 0)
        where += QStringLiteral(" AND r.repeat = ?");
    if (!filter.includeWarmup)
        where += QStringLiteral(" AND r.warmup = 0");
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT ") % RowCodec::requestColumns(m_schemaVersion)
        % QStringLiteral(" FROM requests r JOIN variants v ON v.id = r.variant_id"
                         " LEFT JOIN request_events e ON e.request_id = r.id")
        % where % QStringLiteral(" ORDER BY r.variant_id, r.point, r.repeat, r.idx, r.id"));
    int i = 0;
    q.bindValue(i++, runId);
    if (!filter.variant.isEmpty())
        q.bindValue(i++, filter.variant);
    if (filter.point >= 0)
        q.bindValue(i++, filter.point);
    if (filter.repeat >= 0)
        q.bindValue(i++, filter.repeat);
    if (!execQuery(q, &m_error))
        return false;
    while (q.next()) {
        RequestRecord r;
        if (!RowCodec::readRequest(q, runId, filter.withEvents, &r, &m_error))
            return false;
        out->append(std::move(r));
    }
    return true;
}

std::function<QByteArray(int)> ProjectStore::generatedTexts(qint64 runId, const QString &variant, int point, int repeat)
{
    auto q = std::make_shared<QSqlQuery>(m_db);
    q->setForwardOnly(true);
    // As stored, UTF-8 bytes: not through a QString and back for every request.
    q->prepare(QStringLiteral("SELECT r.idx, CAST(r.generated_text AS BLOB) FROM requests r JOIN variants v"
                              " ON v.id = r.variant_id"
                              " WHERE r.run_id = ? AND v.name = ? AND r.point = ? AND r.repeat = ? AND r.warmup = 0"
                              " ORDER BY r.idx, r.id"));
    q->bindValue(0, runId);
    q->bindValue(1, variant);
    q->bindValue(2, point);
    q->bindValue(3, repeat);
    if (!execQuery(*q, &m_error))
        return {};
    return [q, onRow = q->next()](int index) mutable {
        while (onRow && q->value(0).toInt() < index)
            onRow = q->next();
        return onRow && q->value(0).toInt() == index ? q->value(1).toByteArray() : QByteArray();
    };
}

bool ProjectStore::experiments(QVector<ExperimentRow> *out)
{
    out->clear();
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT id, name, json, created FROM experiments ORDER BY id"));
    if (!execQuery(q, &m_error))
        return false;
    while (q.next()) {
        out->append(
            { q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString().toUtf8(), parseUtc(q.value(3)) });
    }
    return true;
}

bool ProjectStore::serverMetricSamples(qint64 runId, QVector<ServerMetricSample> *out)
{
    out->clear();
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT t_ns, name, labels, value, ")
        % (m_schemaVersion >= 5 ? QStringLiteral("source") : QStringLiteral("'metrics'"))
        % QStringLiteral(" FROM server_metric_samples WHERE run_id = ? ORDER BY id"));
    q.bindValue(0, runId);
    if (!execQuery(q, &m_error))
        return false;
    while (q.next()) {
        out->append({ runId, q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
            q.value(3).toDouble(), q.value(4).toString() });
    }
    return true;
}

bool ProjectStore::serverLogs(qint64 runId, QVector<ServerLogLine> *out)
{
    out->clear();
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT t_ns, stream, line FROM server_logs WHERE run_id = ? ORDER BY id"));
    q.bindValue(0, runId);
    if (!execQuery(q, &m_error))
        return false;
    while (q.next())
        out->append({ runId, q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString() });
    return true;
}

std::optional<PromptRow> ProjectStore::prompt(const PromptHash &hash)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT text, tokens FROM prompts WHERE hash = ?"));
    q.bindValue(0, hash.toByteArray());
    if (!execQuery(q, &m_error))
        return std::nullopt;
    if (!q.next()) {
        fail(QStringLiteral("no prompt with that hash"));
        return std::nullopt;
    }
    return PromptRow { hash.toByteArray(), q.value(0).toString(), q.value(1).toByteArray() };
}

bool ProjectStore::copyTo(const QString &source, const QString &target, QString *error)
{
    const QString name = QStringLiteral("servescope-copy-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    bool ok = false;
    const FileInUse inUse(source);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(source);
        if (!db.open()) {
            *error = db.lastError().text();
        } else {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("VACUUM INTO ?"));
            q.addBindValue(target);
            ok = q.exec();
            if (!ok)
                *error = q.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

} // namespace ServeScope
