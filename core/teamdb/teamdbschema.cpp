// SPDX-License-Identifier: MIT
#include "teamdbschema.h"

#include "teamdbconnection.h"

#include "storage/schema.h"

#include <QSqlError>
#include <QSqlQuery>

namespace ServeScope {

namespace {

// Any constant: publishers of one database take turns creating or migrating its tables.
constexpr qint64 kSchemaLock = 0x5353535054454144; // "SSSPTEAD"

// The project file's point_repeats columns with PostgreSQL types; DOUBLE PRECISION keeps every
// double exactly (REAL would be 4 bytes).
QString pointRepeatsTable()
{
    QString dist;
    for (const QString &m : Schema::distributionMetrics(1)) {
        for (const QString &s : Schema::distributionStats())
            dist += m % QLatin1Char('_') % s
                % (s == QLatin1String("count") ? QLatin1String(" INTEGER NOT NULL, ")
                                               : QLatin1String(" DOUBLE PRECISION, "));
    }
    return QStringLiteral("CREATE TABLE point_repeats (run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                          " variant_id BIGINT NOT NULL REFERENCES variants(id), point INTEGER NOT NULL,"
                          " repeat INTEGER NOT NULL, label TEXT NOT NULL, mode TEXT NOT NULL,"
                          " concurrency INTEGER NOT NULL, request_rate DOUBLE PRECISION, input_len INTEGER NOT NULL,"
                          " output_len INTEGER NOT NULL, completed INTEGER NOT NULL, failed INTEGER NOT NULL,"
                          " cancelled INTEGER NOT NULL, warmup INTEGER NOT NULL, discarded INTEGER NOT NULL,"
                          " duration DOUBLE PRECISION, total_input_tokens BIGINT NOT NULL,"
                          " total_output_tokens BIGINT NOT NULL, request_throughput DOUBLE PRECISION,"
                          " output_throughput DOUBLE PRECISION, total_token_throughput DOUBLE PRECISION,"
                          " request_goodput DOUBLE PRECISION, max_concurrent_requests INTEGER NOT NULL,"
                          " average_concurrency DOUBLE PRECISION, max_output_tokens_per_s DOUBLE PRECISION,"
                          " success_rate DOUBLE PRECISION, ")
        % dist
        % QStringLiteral("extra_percentiles TEXT NOT NULL, derivation_version INTEGER NOT NULL,"
                         " definitions TEXT NOT NULL, steady TEXT NOT NULL, server TEXT NOT NULL,"
                         " output_estimated INTEGER NOT NULL, client TEXT NOT NULL, input_estimated INTEGER NOT NULL,"
                         " usage_output_tokens BIGINT NOT NULL, rate_limited INTEGER NOT NULL,"
                         " short_outputs INTEGER NOT NULL, role_gap_ms DOUBLE PRECISION NOT NULL,"
                         " PRIMARY KEY (run_id, variant_id, point, repeat))");
}

QStringList version1()
{
    return {
        QStringLiteral("CREATE TABLE runs (id BIGSERIAL PRIMARY KEY, uid TEXT NOT NULL UNIQUE, name TEXT NOT NULL,"
                       " status TEXT NOT NULL, started TEXT NOT NULL, started_at TIMESTAMPTZ NOT NULL, finished TEXT,"
                       " resolved_config TEXT NOT NULL, definitions TEXT NOT NULL, points INTEGER NOT NULL,"
                       " client_host TEXT NOT NULL, env_snapshot TEXT NOT NULL, origin TEXT NOT NULL,"
                       " experiment TEXT NOT NULL, model TEXT NOT NULL, engine TEXT NOT NULL,"
                       " requests BIGINT NOT NULL, published_at TIMESTAMPTZ NOT NULL DEFAULT now(),"
                       " published_by TEXT NOT NULL DEFAULT current_user)"),
        QStringLiteral("CREATE INDEX runs_by_start ON runs (started_at)"),
        QStringLiteral("CREATE TABLE run_tags (run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " tag TEXT NOT NULL, PRIMARY KEY (run_id, tag))"),
        QStringLiteral("CREATE INDEX run_tags_by_tag ON run_tags (tag)"),
        QStringLiteral("CREATE TABLE variants (id BIGSERIAL PRIMARY KEY,"
                       " run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, ordinal INTEGER NOT NULL,"
                       " name TEXT NOT NULL, UNIQUE (run_id, name))"),
        pointRepeatsTable(),
        QStringLiteral("CREATE TABLE point_estimates (run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " variant_id BIGINT NOT NULL REFERENCES variants(id), point INTEGER NOT NULL,"
                       " metric TEXT NOT NULL, repeats INTEGER NOT NULL, median DOUBLE PRECISION,"
                       " min DOUBLE PRECISION, max DOUBLE PRECISION, cv DOUBLE PRECISION, ci_low DOUBLE PRECISION,"
                       " ci_high DOUBLE PRECISION, ci_method TEXT NOT NULL,"
                       " PRIMARY KEY (run_id, variant_id, point, metric))"),
        QStringLiteral("CREATE TABLE prompts (hash BYTEA PRIMARY KEY, text TEXT, tokens BYTEA)"),
        // `id` is the request's place in the published run (its order when read back), not the local row id.
        QStringLiteral("CREATE TABLE requests (run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " id INTEGER NOT NULL, variant_id BIGINT NOT NULL REFERENCES variants(id),"
                       " point INTEGER NOT NULL, repeat INTEGER NOT NULL, idx INTEGER NOT NULL,"
                       " warmup INTEGER NOT NULL, slot INTEGER NOT NULL, scheduled_ns BIGINT NOT NULL,"
                       " slot_ns BIGINT NOT NULL, start_ns BIGINT NOT NULL, end_ns BIGINT NOT NULL,"
                       " connect_ns BIGINT NOT NULL, tls_ns BIGINT NOT NULL, first_token_ns BIGINT,"
                       " first_content_ns BIGINT, http_status INTEGER NOT NULL, status INTEGER NOT NULL,"
                       " error_class TEXT NOT NULL, error_text TEXT, prompt_tokens INTEGER NOT NULL,"
                       " completion_tokens INTEGER NOT NULL, output_estimated INTEGER NOT NULL,"
                       " target_input_len INTEGER NOT NULL, target_output_len INTEGER NOT NULL, protocol TEXT,"
                       " prompt_hash BYTEA, generated_text TEXT, input_estimated INTEGER NOT NULL,"
                       " PRIMARY KEY (run_id, id))"),
        QStringLiteral("CREATE TABLE request_events (run_id BIGINT NOT NULL, request_id INTEGER NOT NULL,"
                       " blob BYTEA NOT NULL, PRIMARY KEY (run_id, request_id),"
                       " FOREIGN KEY (run_id, request_id) REFERENCES requests (run_id, id) ON DELETE CASCADE)"),
        QStringLiteral("CREATE TABLE server_metric_samples (run_id BIGINT NOT NULL REFERENCES runs(id)"
                       " ON DELETE CASCADE, seq INTEGER NOT NULL, t_ns BIGINT NOT NULL, name TEXT NOT NULL,"
                       " labels TEXT NOT NULL, value DOUBLE PRECISION, source TEXT NOT NULL,"
                       " PRIMARY KEY (run_id, seq))"),
        QStringLiteral("CREATE TABLE server_logs (run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " seq INTEGER NOT NULL, t_ns BIGINT NOT NULL, stream TEXT NOT NULL, line TEXT NOT NULL,"
                       " PRIMARY KEY (run_id, seq))"),
    };
}

// The newest applied version; 0 without the table.
int appliedVersion(TeamDbConnection &db, QString *error)
{
    QSqlQuery q(db.database());
    if (!q.exec(QStringLiteral("SELECT to_regclass('schema_version') IS NOT NULL")) || !q.next()) {
        *error = db.scrub(q.lastError().text());
        return -1;
    }
    if (!q.value(0).toBool())
        return 0;
    if (!q.exec(QStringLiteral("SELECT coalesce(max(version), 0) FROM schema_version")) || !q.next()) {
        *error = db.scrub(q.lastError().text());
        return -1;
    }
    return q.value(0).toInt();
}

bool refuseNewer(int version, QString *error)
{
    if (version <= TeamDbSchema::Version)
        return true;
    *error = QStringLiteral("the team database was written by a newer ServeScope (schema %1; this version reads up "
                            "to %2)")
                 .arg(version)
                 .arg(TeamDbSchema::Version);
    return false;
}

// Version 2, as the project file's version 6: reasoning tokens and prefix-cache hits per request and summary,
// and TTFO and ATPOT.
QStringList version2()
{
    QStringList out = {
        QStringLiteral("ALTER TABLE requests ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE requests ADD COLUMN reasoning_estimated INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN reasoning_tokens BIGINT NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN reasoning_estimated INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE requests ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT -1"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN cached_tokens BIGINT NOT NULL DEFAULT -1"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN cached_prompt_tokens BIGINT NOT NULL DEFAULT 0"),
    };
    return out + Schema::addedDistributionColumns(6, QLatin1String(" DOUBLE PRECISION"));
}

// Version 3, as the project file's version 7: a multi_turn point's first turns against its later ones.
QStringList version3()
{
    return { QStringLiteral("ALTER TABLE point_repeats ADD COLUMN turns TEXT NOT NULL DEFAULT '{}'") };
}

} // namespace

const QVector<TeamDbSchema::Step> &TeamDbSchema::steps()
{
    static const QVector<Step> s = { { 1, version1() }, { 2, version2() }, { 3, version3() } };
    return s;
}

bool TeamDbSchema::ensure(TeamDbConnection &db, QString *error)
{
    if (!db.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kSchemaLock), error)
        || !db.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
                                   " applied TIMESTAMPTZ NOT NULL DEFAULT now())"),
            error))
        return false;
    const int current = appliedVersion(db, error);
    if (current < 0 || !refuseNewer(current, error))
        return false;
    for (const Step &step : steps()) {
        if (step.version <= current)
            continue;
        for (const QString &sql : step.statements) {
            if (!db.exec(sql, error)) {
                *error
                    = QStringLiteral("creating the team database's schema %1 failed: %2").arg(step.version).arg(*error);
                return false;
            }
        }
        if (!db.exec(QStringLiteral("INSERT INTO schema_version (version) VALUES (?)"), error, { step.version }))
            return false;
    }
    return true;
}

int TeamDbSchema::check(TeamDbConnection &db, QString *error)
{
    const int version = appliedVersion(db, error);
    if (version < 0 || !refuseNewer(version, error))
        return -1;
    return version;
}

} // namespace ServeScope
