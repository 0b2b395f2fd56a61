// SPDX-License-Identifier: MIT
#include "schema.h"

#include "model/problem.h"
#include "model/records.h"

#include <QSqlError>
#include <QSqlQuery>

namespace ServeScope {

// The schema version that added a distribution's columns: 1 but for those listed.
static int distributionSince(const char *code)
{
    static constexpr std::pair<const char *, int> later[] = { { "ttfo", 6 }, { "atpot", 6 } };
    for (const auto &[name, version] : later) {
        if (qstrcmp(code, name) == 0)
            return version;
    }
    return 1;
}

QStringList Schema::distributionMetrics(int version)
{
    QStringList m;
    for (const DistributionField &f : distributionFields()) {
        if (distributionSince(f.code) <= version)
            m << QLatin1String(f.code);
    }
    return m;
}

QStringList Schema::addedDistributionColumns(int version, QLatin1String realType)
{
    QStringList out;
    for (const DistributionField &f : distributionFields()) {
        if (distributionSince(f.code) != version)
            continue;
        for (const QString &s : distributionStats())
            out << QStringLiteral("ALTER TABLE point_repeats ADD COLUMN ") % QLatin1String(f.code) % QLatin1Char('_')
                    % s % (s == QLatin1String("count") ? QLatin1String(" INTEGER NOT NULL DEFAULT 0") : realType);
    }
    return out;
}

const QStringList &Schema::distributionStats()
{
    static const QStringList s = { QStringLiteral("count"), QStringLiteral("mean"), QStringLiteral("median"),
        QStringLiteral("std"), QStringLiteral("p1"), QStringLiteral("p10"), QStringLiteral("p25"),
        QStringLiteral("p50"), QStringLiteral("p75"), QStringLiteral("p90"), QStringLiteral("p99") };
    return s;
}

static QString pointRepeatsTable()
{
    QString dist;
    for (const QString &m : Schema::distributionMetrics(1)) {
        for (const QString &s : Schema::distributionStats())
            dist += QStringLiteral("  ") % m % QLatin1Char('_') % s
                % (s == QLatin1String("count") ? QLatin1String(" INTEGER NOT NULL,\n") : QLatin1String(" REAL,\n"));
    }
    return QStringLiteral("CREATE TABLE point_repeats (\n"
                          "  id INTEGER PRIMARY KEY,\n"
                          "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
                          "  variant_id INTEGER NOT NULL REFERENCES variants(id),\n"
                          "  point INTEGER NOT NULL, repeat INTEGER NOT NULL,\n"
                          "  label TEXT NOT NULL, mode TEXT NOT NULL, concurrency INTEGER NOT NULL,\n"
                          "  request_rate REAL, input_len INTEGER NOT NULL, output_len INTEGER NOT NULL,\n"
                          "  completed INTEGER NOT NULL, failed INTEGER NOT NULL, cancelled INTEGER NOT NULL,\n"
                          "  warmup INTEGER NOT NULL, discarded INTEGER NOT NULL, duration REAL,\n"
                          "  total_input_tokens INTEGER NOT NULL, total_output_tokens INTEGER NOT NULL,\n"
                          "  request_throughput REAL, output_throughput REAL, total_token_throughput REAL,\n"
                          "  request_goodput REAL, max_concurrent_requests INTEGER NOT NULL,\n"
                          "  average_concurrency REAL, max_output_tokens_per_s REAL, success_rate REAL,\n")
        % dist
        % QStringLiteral("  extra_percentiles TEXT NOT NULL DEFAULT '{}',\n"
                         "  derivation_version INTEGER NOT NULL, definitions TEXT NOT NULL,\n"
                         "  UNIQUE (run_id, variant_id, point, repeat)\n)");
}

// `runs` of a schema version: 2 adds the status 'interrupted' and the writing process (owner).
static QString runsTable(const QString &name, int version)
{
    return QStringLiteral("CREATE TABLE ") % name
        % QStringLiteral(" (id INTEGER PRIMARY KEY,"
                         " experiment_id INTEGER REFERENCES experiments(id) ON DELETE SET NULL,"
                         " name TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN"
                         " ('running','finished','cancelled','failed'")
        % (version >= 2 ? QStringLiteral(",'interrupted'") : QString())
        % QStringLiteral(")), started TEXT NOT NULL, finished TEXT, resolved_config TEXT NOT NULL,"
                         " definitions TEXT NOT NULL, points INTEGER NOT NULL, client_host TEXT NOT NULL,"
                         " env_snapshot TEXT NOT NULL, requests INTEGER NOT NULL DEFAULT 0")
        % (version >= 2 ? QStringLiteral(", owner TEXT NOT NULL DEFAULT ''") : QString()) % QLatin1Char(')');
}

static QStringList version1()
{
    return {
        QStringLiteral("CREATE TABLE experiments (id INTEGER PRIMARY KEY, name TEXT NOT NULL, json TEXT NOT NULL,"
                       " created TEXT NOT NULL)"),
        runsTable(QStringLiteral("runs"), 1),
        QStringLiteral("CREATE TABLE variants (id INTEGER PRIMARY KEY,"
                       " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " ordinal INTEGER NOT NULL, name TEXT NOT NULL, UNIQUE (run_id, name))"),
        pointRepeatsTable(),
        QStringLiteral("CREATE TABLE prompts (hash BLOB PRIMARY KEY, text TEXT, tokens BLOB) WITHOUT ROWID"),
        QStringLiteral("CREATE TABLE requests (id INTEGER PRIMARY KEY,"
                       " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " variant_id INTEGER NOT NULL REFERENCES variants(id),"
                       " point INTEGER NOT NULL, repeat INTEGER NOT NULL, idx INTEGER NOT NULL,"
                       " warmup INTEGER NOT NULL, slot INTEGER NOT NULL,"
                       " scheduled_ns INTEGER NOT NULL, slot_ns INTEGER NOT NULL, start_ns INTEGER NOT NULL,"
                       " end_ns INTEGER NOT NULL, connect_ns INTEGER NOT NULL, tls_ns INTEGER NOT NULL,"
                       " first_token_ns INTEGER, first_content_ns INTEGER,"
                       " http_status INTEGER NOT NULL, status INTEGER NOT NULL, error_class TEXT NOT NULL,"
                       " error_text TEXT, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,"
                       " output_estimated INTEGER NOT NULL, target_input_len INTEGER NOT NULL,"
                       " target_output_len INTEGER NOT NULL, protocol TEXT, prompt_hash BLOB,"
                       " generated_text TEXT)"),
        QStringLiteral("CREATE INDEX requests_by_point ON requests (run_id, variant_id, point, repeat, idx)"),
        QStringLiteral("CREATE TABLE request_events (request_id INTEGER PRIMARY KEY"
                       " REFERENCES requests(id) ON DELETE CASCADE, blob BLOB NOT NULL)"),
        QStringLiteral("CREATE TABLE server_metric_samples (id INTEGER PRIMARY KEY,"
                       " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " t_ns INTEGER NOT NULL, name TEXT NOT NULL, labels TEXT NOT NULL, value REAL)"),
        QStringLiteral("CREATE INDEX server_metric_samples_by_run ON server_metric_samples (run_id, name, t_ns)"),
        QStringLiteral("CREATE TABLE server_logs (id INTEGER PRIMARY KEY,"
                       " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " t_ns INTEGER NOT NULL, stream TEXT NOT NULL, line TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX server_logs_by_run ON server_logs (run_id, t_ns)"),
    };
}

// Version 2: the steady result set and the server-series summary beside each summary, the statistics across repeats,
// and runs that can be marked interrupted. SQLite cannot change a CHECK constraint in place, so `runs` is rebuilt (ids
// kept); Schema::migrate runs with foreign keys off, so dropping the old table cascades nowhere, and the other tables'
// references resolve to the renamed copy.
static QStringList version2()
{
    return {
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN steady TEXT NOT NULL DEFAULT '{}'"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN server TEXT NOT NULL DEFAULT '{}'"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN output_estimated INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN client TEXT NOT NULL DEFAULT '{}'"),
        QStringLiteral("CREATE TABLE point_estimates ("
                       " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " variant_id INTEGER NOT NULL REFERENCES variants(id),"
                       " point INTEGER NOT NULL, metric TEXT NOT NULL, repeats INTEGER NOT NULL,"
                       " median REAL, min REAL, max REAL, cv REAL, ci_low REAL, ci_high REAL,"
                       " ci_method TEXT NOT NULL, PRIMARY KEY (run_id, variant_id, point, metric)) WITHOUT ROWID"),
        runsTable(QStringLiteral("runs_v2"), 2),
        QStringLiteral("INSERT INTO runs_v2 (id, experiment_id, name, status, started, finished, resolved_config,"
                       " definitions, points, client_host, env_snapshot, requests)"
                       " SELECT id, experiment_id, name, status, started, finished, resolved_config,"
                       " definitions, points, client_host, env_snapshot, requests FROM runs"),
        QStringLiteral("DROP TABLE runs"),
        QStringLiteral("ALTER TABLE runs_v2 RENAME TO runs"),
    };
}

// Version 3: whether a request's input token count is an estimate (no usage, no /tokenize), per request and
// counted per summary; the server's own output count per summary (-1: unknown).
static QStringList version3()
{
    return {
        QStringLiteral("ALTER TABLE requests ADD COLUMN input_estimated INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN input_estimated INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN usage_output_tokens INTEGER NOT NULL DEFAULT -1"),
    };
}

// Version 4: where a run came from when ServeScope did not measure it (an imported result file), as
// JSON; empty for measured runs.
static QStringList version4()
{
    return { QStringLiteral("ALTER TABLE runs ADD COLUMN origin TEXT NOT NULL DEFAULT ''") };
}

// Version 5: where a server sample came from ('metrics': a /metrics scrape; 'log': the launched server's scheduler
// log line, the fallback when it has no /metrics), and per summary the requests answered 429, the requests shorter
// than asked under ignore_eos (-1: not asked) and the median gap between the first token event and the first content.
static QStringList version5()
{
    return {
        QStringLiteral("ALTER TABLE server_metric_samples ADD COLUMN source TEXT NOT NULL DEFAULT 'metrics'"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN rate_limited INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN short_outputs INTEGER NOT NULL DEFAULT -1"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN role_gap_ms REAL NOT NULL DEFAULT 0"),
    };
}

// Version 6: reasoning models and prefix-cache hits. Per request the reasoning tokens of the output and whether
// that count is an estimate, and the prompt tokens the server said its prefix cache held (-1: not said); per
// summary their sums, the requests with an estimate, the prompt tokens of the requests that said, and the TTFO
// and ATPOT distributions (time to the first output token and the answer's TPOT, reasoning excluded).
static QStringList version6()
{
    QStringList out = {
        QStringLiteral("ALTER TABLE requests ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE requests ADD COLUMN reasoning_estimated INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN reasoning_estimated INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE requests ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT -1"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT -1"),
        QStringLiteral("ALTER TABLE point_repeats ADD COLUMN cached_prompt_tokens INTEGER NOT NULL DEFAULT 0"),
    };
    return out + Schema::addedDistributionColumns(6, QLatin1String(" REAL"));
}

// Version 7: a multi_turn point's first turns against its later ones (PointSummary::turns).
static QStringList version7()
{
    return { QStringLiteral("ALTER TABLE point_repeats ADD COLUMN turns TEXT NOT NULL DEFAULT '{}'") };
}

const QVector<Schema::Step> &Schema::steps()
{
    static const QVector<Step> s = { { 1, version1() }, { 2, version2() }, { 3, version3() }, { 4, version4() },
        { 5, version5() }, { 6, version6() }, { 7, version7() } };
    return s;
}

qint64 Schema::pragmaValue(QSqlDatabase &db, const QString &pragma)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA ") % pragma) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

static bool execAll(QSqlDatabase &db, const QStringList &statements, QString *error)
{
    QSqlQuery q(db);
    for (const QString &sql : statements) {
        if (!q.exec(sql)) {
            *error = q.lastError().text() % QStringLiteral(" in: ") % sql.left(80);
            return false;
        }
    }
    return true;
}

bool Schema::migrate(QSqlDatabase &db, const QVector<Step> &steps, QString *error)
{
    const qint64 current = pragmaValue(db, QStringLiteral("user_version"));
    if (current < 0) {
        *error = QStringLiteral("cannot read the schema version: ") % db.lastError().text();
        return false;
    }
    const int newest = steps.isEmpty() ? 0 : steps.constLast().version;
    if (current > newest) {
        *error = Reason::shown("ServeScope::Storage",
            QT_TRANSLATE_NOOP("ServeScope::Storage",
                "the project was written by a newer ServeScope (schema %1, this build reads up to %2)"),
            { QString::number(current), QString::number(newest) });
        return false;
    }
    for (const Step &step : steps) {
        if (step.version <= current)
            continue;
        // IMMEDIATE, then the version read again: another process opening the same new project may
        // have run this step since the read above.
        QSqlQuery begin(db);
        if (!begin.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
            *error = QStringLiteral("cannot begin a migration: ") % begin.lastError().text();
            return false;
        }
        begin.finish();
        if (pragmaValue(db, QStringLiteral("user_version")) >= step.version) {
            db.rollback();
            continue;
        }
        QStringList statements = step.statements;
        statements << QStringLiteral("PRAGMA application_id = %1").arg(ApplicationId)
                   << QStringLiteral("PRAGMA user_version = %1").arg(step.version);
        QString why;
        if (execAll(db, statements, &why) && db.commit())
            continue;
        if (why.isEmpty())
            why = db.lastError().text();
        db.rollback();
        *error = QStringLiteral("migration to schema %1 failed: %2").arg(step.version).arg(why);
        return false;
    }
    return true;
}

} // namespace ServeScope
