// SPDX-License-Identifier: MIT
#include "teamdbquery.h"

#include "teamdbconnection.h"
#include "teamdbschema.h"

#include "storage/rowcodec.h"

#include <QRegularExpression>
#include <QSqlQuery>

namespace ServeScope {

namespace {

QDateTime utc(const QVariant &v)
{
    return v.isNull() ? QDateTime() : QDateTime::fromString(v.toString(), Qt::ISODateWithMs).toUTC();
}

// Opens and checks the schema: its version, 0 when the database has no ServeScope tables yet, -1 on error.
int openForReading(TeamDbConnection &db, const TeamDbUrl &url, const QByteArray &password, QString *error)
{
    return db.open(url, password, error) ? TeamDbSchema::check(db, error) : -1;
}

bool select(TeamDbConnection &db, QSqlQuery &q, const QString &sql, const QVariantList &values, QString *error)
{
    return db.select(q, sql, values, error);
}

bool readRow(TeamDbConnection &db, qint64 id, RunRow *r, QString *error)
{
    QSqlQuery q(db.database());
    if (!select(db, q,
            QStringLiteral("SELECT name, status, started, finished, resolved_config, definitions, points, client_host,"
                           " env_snapshot, origin FROM runs WHERE id = ?"),
            { id }, error))
        return false;
    if (!q.next()) {
        *error = QStringLiteral("the published run was deleted while it was read");
        return false;
    }
    r->name = q.value(0).toString();
    r->status = runStatusFromCode(q.value(1).toString());
    r->started = utc(q.value(2));
    r->finished = utc(q.value(3));
    r->resolvedConfig = q.value(4).toString().toUtf8();
    r->definitions = q.value(5).toString();
    r->points = q.value(6).toInt();
    r->clientHost = q.value(7).toString().toUtf8();
    r->envSnapshot = q.value(8).toString().toUtf8();
    r->origin = q.value(9).toString().toUtf8();
    if (!select(db, q, QStringLiteral("SELECT name FROM variants WHERE run_id = ? ORDER BY ordinal"), { id }, error))
        return false;
    while (q.next())
        r->variants << q.value(0).toString();
    return true;
}

bool readSummaries(TeamDbConnection &db, int rowSchema, qint64 id, RunBundle *out, QString *error)
{
    QSqlQuery q(db.database());
    if (!select(db, q,
            QStringLiteral("SELECT ") % RowCodec::summaryColumns(rowSchema)
                % QStringLiteral(" FROM point_repeats p JOIN variants v ON v.id = p.variant_id WHERE p.run_id = ?"
                                 " ORDER BY v.ordinal, p.point, p.repeat"),
            { id }, error))
        return false;
    while (q.next()) {
        PointSummary s;
        RowCodec::readSummary(q, &s);
        out->summaries << s;
    }
    if (!select(db, q, RowCodec::estimateSelectSql(), { id }, error))
        return false;
    while (q.next())
        out->estimates << RowCodec::readEstimate(q, 0); // the bundle's run id is the pulling project's to give
    return true;
}

bool readRequests(TeamDbConnection &db, int rowSchema, qint64 id, RunBundle *out, QString *error)
{
    QSqlQuery q(db.database());
    if (!select(db, q,
            QStringLiteral("SELECT ") % RowCodec::requestColumns(rowSchema)
                % QStringLiteral(" FROM requests r JOIN variants v ON v.id = r.variant_id"
                                 " LEFT JOIN request_events e ON e.run_id = r.run_id AND e.request_id = r.id"
                                 " WHERE r.run_id = ? ORDER BY r.id"),
            { id }, error))
        return false;
    while (q.next()) {
        RequestRecord r;
        if (!RowCodec::readRequest(q, 0, true, &r, error))
            return false;
        out->requests << std::move(r);
    }
    if (!select(db, q,
            QStringLiteral("SELECT p.hash, p.text, p.tokens FROM prompts p WHERE p.hash IN"
                           " (SELECT DISTINCT prompt_hash FROM requests WHERE run_id = ?)"),
            { id }, error))
        return false;
    while (q.next())
        out->prompts << PromptRow { q.value(0).toByteArray(), q.value(1).toString(), q.value(2).toByteArray() };
    return true;
}

bool readSeries(TeamDbConnection &db, qint64 id, RunBundle *out, QString *error)
{
    QSqlQuery q(db.database());
    if (!select(db, q,
            QStringLiteral("SELECT t_ns, name, labels, value, source FROM server_metric_samples WHERE run_id = ?"
                           " ORDER BY seq"),
            { id }, error))
        return false;
    while (q.next()) {
        out->samples << ServerMetricSample { 0, q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
            q.value(3).toDouble(), q.value(4).toString() };
    }
    if (!select(db, q, QStringLiteral("SELECT t_ns, stream, line FROM server_logs WHERE run_id = ? ORDER BY seq"),
            { id }, error))
        return false;
    while (q.next())
        out->logs << ServerLogLine { 0, q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString() };
    return true;
}

} // namespace

bool listTeamRuns(const TeamDbUrl &url, const QByteArray &password, const TeamRunFilter &filter,
    QVector<TeamRunListing> *out, QString *error)
{
    out->clear();
    TeamDbConnection db;
    const int version = openForReading(db, url, password, error);
    if (version <= 0)
        return version == 0;
    QString where = QStringLiteral(" WHERE true");
    QVariantList values;
    const auto equal = [&](const char *column, const QString &value) {
        if (value.isEmpty())
            return;
        where += QStringLiteral(" AND r.") + QLatin1String(column) + QStringLiteral(" = ?");
        values << value;
    };
    equal("experiment", filter.experiment);
    equal("model", filter.model);
    equal("engine", filter.engine);
    if (filter.since.isValid()) {
        where += QStringLiteral(" AND r.started_at >= CAST(? AS TIMESTAMPTZ)");
        values << filter.since.toUTC().toString(Qt::ISODateWithMs);
    }
    if (filter.until.isValid()) {
        where += QStringLiteral(" AND r.started_at < CAST(? AS TIMESTAMPTZ)");
        values << filter.until.toUTC().toString(Qt::ISODateWithMs);
    }
    for (const QString &tag : filter.tags) {
        where += QStringLiteral(" AND EXISTS (SELECT 1 FROM run_tags t WHERE t.run_id = r.id AND t.tag = ?)");
        values << tag;
    }
    QSqlQuery q(db.database());
    if (!select(db, q,
            QStringLiteral("SELECT r.uid, r.name, r.status, r.started, r.experiment, r.model, r.engine, r.requests,"
                           " (SELECT count(*) FROM variants v WHERE v.run_id = r.id), r.points, r.published_by,"
                           " to_char(r.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),"
                           " (SELECT string_agg(t.tag, E'\\n' ORDER BY t.tag) FROM run_tags t WHERE t.run_id = r.id)"
                           " FROM runs r")
                % where % QStringLiteral(" ORDER BY r.started_at, r.id"),
            values, error))
        return false;
    while (q.next()) {
        TeamRunListing l;
        l.uid = q.value(0).toString();
        l.name = q.value(1).toString();
        l.status = q.value(2).toString();
        l.started = utc(q.value(3));
        l.experiment = q.value(4).toString();
        l.model = q.value(5).toString();
        l.engine = q.value(6).toString();
        l.requests = q.value(7).toLongLong();
        l.variants = q.value(8).toInt();
        l.points = q.value(9).toInt();
        l.publishedBy = q.value(10).toString();
        l.publishedAt = utc(q.value(11));
        const QString tags = q.value(12).toString();
        l.tags = tags.isEmpty() ? QStringList() : tags.split(QLatin1Char('\n'));
        out->append(l);
    }
    return true;
}

bool fetchTeamRun(const TeamDbUrl &url, const QByteArray &password, const QString &idOrPrefix, RunBundle *out,
    QString *uid, bool *unknown, QString *error)
{
    *unknown = false;
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{8,64}$"));
    const QString wanted = idOrPrefix.trimmed().toLower();
    if (!hex.match(wanted).hasMatch()) {
        *unknown = true;
        *error = QStringLiteral("a published run's id is 8 to 64 hex digits (as publish and runs --db print it)");
        return false;
    }
    TeamDbConnection db;
    const int version = openForReading(db, url, password, error);
    if (version < 0)
        return false;
    const bool empty = version == 0;
    QSqlQuery q(db.database());
    if (!empty
        && !select(db, q, QStringLiteral("SELECT id, uid FROM runs WHERE uid LIKE ? LIMIT 2"),
            { QString(wanted + QLatin1Char('%')) }, error))
        return false;
    if (empty || !q.next()) {
        *unknown = true;
        *error = QStringLiteral("no published run %1").arg(wanted);
        return false;
    }
    const qint64 id = q.value(0).toLongLong();
    *uid = q.value(1).toString();
    if (q.next()) {
        *unknown = true;
        *error = QStringLiteral("more than one published run starts with %1; give more of its id").arg(wanted);
        return false;
    }
    *out = RunBundle {};
    // One snapshot of the run even while others publish.
    // Right after a large publish the tables have no statistics yet, and the planner, guessing one row per
    // run, joins 20,000 requests to their events in a nested loop over every event of the run (25 s
    // instead of 40 ms); a whole run is always read, so hash and merge joins are right whatever it guesses.
    if (!db.exec(QStringLiteral("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"), error)
        || !db.exec(QStringLiteral("SET LOCAL enable_nestloop = off"), error))
        return false;
    const int rowSchema = TeamDbSchema::projectSchema(version);
    const bool ok = readRow(db, id, &out->run, error) && readSummaries(db, rowSchema, id, out, error)
        && readRequests(db, rowSchema, id, out, error) && readSeries(db, id, out, error);
    db.rollback();
    return ok;
}

} // namespace ServeScope
