// SPDX-License-Identifier: MIT
#include "storage/projectstore.h"
#include "storage/runowner.h"
#include "storage/schema.h"
#include "storage/storewriter.h"

#include <QCoreApplication>
#include <QProcess>

#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace ServeScope;

class TestSchema final : public QObject {
    Q_OBJECT

private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void createdFileHasPragmasAndTables();
    void migratesOlderFileKeepingData();
    void failedStepRollsBackWholeStep();
    void refusesNewerFile();
    void reMigrationIsNoOp();
    void version1ProjectMigratesKeepingRuns();
    void version3ProjectGainsRunOrigin();
    void version4ProjectGainsSampleSource();
    void version5ProjectGainsReasoning();
    void runOfAGoneProcessIsInterrupted();
    void steadySetAndEstimatesRoundTrip();

private:
    QSqlDatabase connect(const QString &path);
    QTemporaryDir m_dir;
    int m_connections = 0;
};

QSqlDatabase TestSchema::connect(const QString &path)
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("c%1").arg(m_connections++));
    db.setDatabaseName(path);
    db.open();
    return db;
}

static QStringList tables(QSqlDatabase &db)
{
    QSqlQuery q(db);
    q.exec(QStringLiteral("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"));
    QStringList names;
    while (q.next())
        names << q.value(0).toString();
    return names;
}

void TestSchema::createdFileHasPragmasAndTables()
{
    const QString path = m_dir.filePath(QStringLiteral("new.servescope"));
    QString error;
    QVERIFY2(ProjectStore::create(path, &error), qPrintable(error));
    QVERIFY(!ProjectStore::create(path, &error));
    QVERIFY2(error.contains(QLatin1String("already exists")), qPrintable(error));
    QSqlDatabase db = connect(path);
    QCOMPARE(Schema::pragmaValue(db, QStringLiteral("application_id")), qint64(0x53535350));
    QCOMPARE(Schema::pragmaValue(db, QStringLiteral("user_version")), qint64(Schema::Version));
    QSqlQuery q(db);
    QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")) && q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
    QCOMPARE(tables(db),
        QStringList({ QStringLiteral("experiments"), QStringLiteral("point_estimates"), QStringLiteral("point_repeats"),
            QStringLiteral("prompts"), QStringLiteral("request_events"), QStringLiteral("requests"),
            QStringLiteral("runs"), QStringLiteral("server_logs"), QStringLiteral("server_metric_samples"),
            QStringLiteral("variants") }));
    // Every distribution statistic of every metric has its own column.
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM pragma_table_info('point_repeats') WHERE name GLOB '*_p99'"))
        && q.next());
    QCOMPARE(q.value(0).toInt(), int(distributionFields().size()));
    QCOMPARE(q.value(0).toInt(), 8);
}

void TestSchema::migratesOlderFileKeepingData()
{
    const QString path = m_dir.filePath(QStringLiteral("old.sqlite"));
    QSqlDatabase db = connect(path);
    QString error;
    QVector<Schema::Step> steps = { { 1, { QStringLiteral("CREATE TABLE t (a INTEGER)") } } };
    QVERIFY2(Schema::migrate(db, steps, &error), qPrintable(error));
    QSqlQuery q(db);
    QVERIFY(q.exec(QStringLiteral("INSERT INTO t VALUES (42)")));
    steps.append({ 2,
        { QStringLiteral("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'"),
            QStringLiteral("CREATE TABLE u (c INTEGER)") } });
    QVERIFY2(Schema::migrate(db, steps, &error), qPrintable(error));
    QCOMPARE(Schema::pragmaValue(db, QStringLiteral("user_version")), qint64(2));
    QCOMPARE(Schema::pragmaValue(db, QStringLiteral("application_id")), qint64(Schema::ApplicationId));
    QVERIFY(q.exec(QStringLiteral("SELECT a, b FROM t")) && q.next());
    QCOMPARE(q.value(0).toInt(), 42);
    QCOMPARE(q.value(1).toString(), QStringLiteral("x"));
}

void TestSchema::failedStepRollsBackWholeStep()
{
    const QString path = m_dir.filePath(QStringLiteral("fail.sqlite"));
    QSqlDatabase db = connect(path);
    QString error;
    const QVector<Schema::Step> steps = {
        { 1, { QStringLiteral("CREATE TABLE t (a INTEGER)") } },
        { 2,
            { QStringLiteral("CREATE TABLE half (a INTEGER)"), QStringLiteral("INSERT INTO t VALUES (1)"),
                QStringLiteral("THIS IS NOT SQL") } },
    };
    QVERIFY(!Schema::migrate(db, steps, &error));
    QVERIFY2(error.contains(QLatin1String("schema 2")), qPrintable(error));
    QCOMPARE(Schema::pragmaValue(db, QStringLiteral("user_version")), qint64(1));
    QCOMPARE(tables(db), QStringList { QStringLiteral("t") });
    QSqlQuery q(db);
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM t")) && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
}

void TestSchema::refusesNewerFile()
{
    const QString path = m_dir.filePath(QStringLiteral("newer.sqlite"));
    QSqlDatabase db = connect(path);
    QSqlQuery q(db);
    QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = %1").arg(Schema::Version + 1)));
    QString error;
    QVERIFY(!Schema::migrate(db, &error));
    QVERIFY2(error.contains(QLatin1String("newer")), qPrintable(error));
    QCOMPARE(Schema::pragmaValue(db, QStringLiteral("user_version")), qint64(Schema::Version + 1));
    QVERIFY(tables(db).isEmpty());
}

void TestSchema::reMigrationIsNoOp()
{
    const QString path = m_dir.filePath(QStringLiteral("again.servescope"));
    QString error;
    QVERIFY(ProjectStore::create(path, &error));
    QSqlDatabase db = connect(path);
    QVERIFY2(Schema::migrate(db, &error), qPrintable(error));
    QCOMPARE(Schema::pragmaValue(db, QStringLiteral("user_version")), qint64(Schema::Version));
}

// A project written by a build of schema 1 with a run left running (that build stored no owner),
// one finished run, their variants and a summary: a writer migrates it, keeps every row and the
// references between them, and the running run becomes interrupted.
void TestSchema::version1ProjectMigratesKeepingRuns()
{
    const QString path = m_dir.filePath(QStringLiteral("v1.servescope"));
    {
        QSqlDatabase db = connect(path);
        QString error;
        QVERIFY2(Schema::migrate(db, { Schema::steps().first() }, &error), qPrintable(error));
        QSqlQuery q(db);
        for (const char *sql :
            { "INSERT INTO runs (id, name, status, started, resolved_config, definitions, points, client_host,"
              " env_snapshot) VALUES (1, 'done', 'finished', '2026-01-01T00:00:00Z', '{}', 'vllm', 1, '{}', '[]'),"
              " (2, 'killed', 'running', '2026-01-02T00:00:00Z', '{}', 'vllm', 1, '{}', '[]')",
                "INSERT INTO variants (id, run_id, ordinal, name) VALUES (10, 1, 0, 'baseline'), (20, 2, 0, "
                "'baseline')",
                "INSERT INTO point_repeats (run_id, variant_id, point, repeat, label, mode, concurrency, input_len,"
                " output_len, completed, failed, cancelled, warmup, discarded, total_input_tokens,"
                " total_output_tokens, max_concurrent_requests, ttft_count, ttfc_count, tpot_count, itl_count,"
                " citl_count, e2el_count, derivation_version, definitions, output_throughput) VALUES"
                " (1, 10, 0, 1, 'c4', 'concurrency', 4, 32, 8, 40, 0, 0, 0, 0, 1280, 320, 4, 40, 40, 40, 280, 280,"
                " 40, 1, 'vllm', 512.5)" })
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        db.close();
    }
    {
        StoreWriter writer;
        QString error;
        QVERIFY2(writer.open(path, &error), qPrintable(error));
        writer.close();
    }
    ProjectStore store;
    QVERIFY2(store.open(path), qPrintable(store.errorString()));
    QCOMPARE(store.schemaVersion(), Schema::Version);
    QVector<RunListing> runs;
    QVERIFY(store.listRuns(&runs));
    QCOMPARE(runs.size(), 2);
    QVERIFY(runs.at(0).run.origin.isEmpty()); // v4: migrated runs were measured, not imported
    QCOMPARE(runs.at(0).run.status, RunStatus::Finished);
    QCOMPARE(runs.at(1).run.status, RunStatus::Interrupted);
    QCOMPARE(runs.at(1).run.variants, QStringList { QStringLiteral("baseline") });
    QVector<PointSummary> summaries;
    QVERIFY(store.pointSummaries(1, &summaries));
    QCOMPARE(summaries.size(), 1);
    QCOMPARE(summaries.at(0).outputThroughput, 512.5);
    QCOMPARE(summaries.at(0).inputEstimated, 0); // the version 3 columns, defaulted
    QCOMPARE(summaries.at(0).usageOutputTokens, qint64(-1));
    QVERIFY(summaries.at(0).steady.isEmpty());
    QVector<PointEstimate> estimates;
    QVERIFY(store.pointEstimates(1, &estimates));
    QVERIFY(estimates.isEmpty());
    store.close();
    // The rebuilt runs table is still what the other tables refer to: deleting a run cascades.
    QSqlDatabase db = connect(path);
    QSqlQuery q(db);
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys=ON")));
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_key_check")));
    QVERIFY(!q.next());
    QVERIFY(q.exec(QStringLiteral("DELETE FROM runs WHERE id = 1")));
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM point_repeats")) && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM variants")) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
}

// Version 4 adds runs.origin: a version-3 file's runs read with none, a new run keeps the one given.
void TestSchema::version3ProjectGainsRunOrigin()
{
    const QString path = m_dir.filePath(QStringLiteral("v3.servescope"));
    {
        QSqlDatabase db = connect(path);
        QString error;
        QVERIFY2(Schema::migrate(db, Schema::steps().mid(0, 3), &error), qPrintable(error));
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("INSERT INTO runs (id, name, status, started, resolved_config, definitions,"
                                      " points, client_host, env_snapshot) VALUES (1, 'old', 'finished',"
                                      " '2026-01-01T00:00:00Z', '{}', 'vllm', 1, '{}', '[]')")));
        db.close();
    }
    {
        StoreWriter writer;
        QString error;
        QVERIFY2(writer.open(path, &error), qPrintable(error));
        RunRow imported;
        imported.name = QStringLiteral("imported");
        imported.status = RunStatus::Finished;
        imported.origin = R"({"kind":"import","format":"vllm","file":"/x.json","lines":[1]})";
        QCOMPARE(writer.createRun(imported, &error), qint64(2));
        writer.close();
    }
    ProjectStore store;
    QVERIFY2(store.open(path), qPrintable(store.errorString()));
    QCOMPARE(store.schemaVersion(), Schema::Version);
    QVERIFY(store.run(1)->origin.isEmpty());
    QCOMPARE(store.run(2)->origin, QByteArray(R"({"kind":"import","format":"vllm","file":"/x.json","lines":[1]})"));
    QVector<RunListing> runs;
    QVERIFY(store.listRuns(&runs));
    QCOMPARE(runs.at(1).run.origin, store.run(2)->origin);
}

// Version 5 adds where a server sample came from and three counts per summary: a version-4 file's
// samples read as scraped and its summaries with the defaults; new rows keep what was written.
void TestSchema::version4ProjectGainsSampleSource()
{
    const QString path = m_dir.filePath(QStringLiteral("v4.servescope"));
    {
        QSqlDatabase db = connect(path);
        QString error;
        QVERIFY2(Schema::migrate(db, Schema::steps().mid(0, 4), &error), qPrintable(error));
        QSqlQuery q(db);
        for (const char *sql :
            { "INSERT INTO runs (id, name, status, started, resolved_config, definitions, points, client_host,"
              " env_snapshot) VALUES (1, 'old', 'finished', '2026-01-01T00:00:00Z', '{}', 'vllm', 1, '{}', '[]')",
                "INSERT INTO variants (id, run_id, ordinal, name) VALUES (10, 1, 0, 'baseline')",
                "INSERT INTO server_metric_samples (run_id, t_ns, name, labels, value) VALUES"
                " (1, 5, 'vllm:num_requests_running', '', 3)",
                "INSERT INTO point_repeats (run_id, variant_id, point, repeat, label, mode, concurrency, input_len,"
                " output_len, completed, failed, cancelled, warmup, discarded, total_input_tokens,"
                " total_output_tokens, max_concurrent_requests, ttft_count, ttfc_count, tpot_count, itl_count,"
                " citl_count, e2el_count, derivation_version, definitions) VALUES"
                " (1, 10, 0, 1, 'c4', 'concurrency', 4, 32, 8, 40, 2, 0, 0, 0, 1280, 320, 4, 40, 40, 40, 280, 280,"
                " 40, 1, 'vllm')" })
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        db.close();
    }
    {
        // An old reader's view: the file as it is, before any writer migrates it.
        ProjectStore before;
        QVERIFY2(before.open(path), qPrintable(before.errorString()));
        QCOMPARE(before.schemaVersion(), 4);
        QVector<ServerMetricSample> samples;
        QVERIFY(before.serverMetricSamples(1, &samples));
        QCOMPARE(samples.size(), 1);
        QCOMPARE(samples.at(0).source, QStringLiteral("metrics"));
    }
    {
        StoreWriter writer;
        QString error;
        QVERIFY2(writer.open(path, &error), qPrintable(error));
        writer.enqueue(ServerMetricSample {
            1, 9, QStringLiteral("sglang:num_queue_reqs"), QStringLiteral(""), 2, QStringLiteral("log") });
        PointSummary s;
        s.runId = 1;
        s.variant = QStringLiteral("baseline");
        s.point = 1;
        s.label = QStringLiteral("c8");
        s.mode = QStringLiteral("concurrency");
        s.failed = 12;
        s.rateLimited = 9;
        s.shortOutputs = 4;
        s.roleGapMs = 7.25;
        writer.enqueue(s);
        QVERIFY(writer.flush(10000));
        QCOMPARE(writer.failedItems(), quint64(0));
        writer.close();
    }
    ProjectStore store;
    QVERIFY2(store.open(path), qPrintable(store.errorString()));
    QCOMPARE(store.schemaVersion(), Schema::Version);
    QVector<ServerMetricSample> samples;
    QVERIFY(store.serverMetricSamples(1, &samples));
    QCOMPARE(samples.size(), 2);
    QCOMPARE(samples.at(0).source, QStringLiteral("metrics"));
    QCOMPARE(samples.at(1).source, QStringLiteral("log"));
    QCOMPARE(samples.at(1).value, 2.0);
    QVector<PointSummary> summaries;
    QVERIFY(store.pointSummaries(1, &summaries));
    QCOMPARE(summaries.size(), 2);
    QCOMPARE(summaries.at(0).rateLimited, 0); // the version 5 columns, defaulted
    QCOMPARE(summaries.at(0).shortOutputs, -1);
    QCOMPARE(summaries.at(0).roleGapMs, 0.0);
    QCOMPARE(summaries.at(1).rateLimited, 9);
    QCOMPARE(summaries.at(1).shortOutputs, 4);
    QCOMPARE(summaries.at(1).roleGapMs, 7.25);
}

// Version 6 adds the reasoning tokens per request and summary and the TTFO distribution: a version-5 file's
// summaries read with no TTFO (count 0, statistics unknown) and no reasoning, before and after a writer
// migrates it; new rows keep what was written.
void TestSchema::version5ProjectGainsReasoning()
{
    const QString path = m_dir.filePath(QStringLiteral("v5.servescope"));
    {
        QSqlDatabase db = connect(path);
        QString error;
        QVERIFY2(Schema::migrate(db, Schema::steps().mid(0, 5), &error), qPrintable(error));
        QSqlQuery q(db);
        for (const char *sql :
            { "INSERT INTO runs (id, name, status, started, resolved_config, definitions, points, client_host,"
              " env_snapshot) VALUES (1, 'old', 'finished', '2026-01-01T00:00:00Z', '{}', 'vllm', 1, '{}', '[]')",
                "INSERT INTO variants (id, run_id, ordinal, name) VALUES (10, 1, 0, 'baseline')",
                "INSERT INTO point_repeats (run_id, variant_id, point, repeat, label, mode, concurrency, input_len,"
                " output_len, completed, failed, cancelled, warmup, discarded, total_input_tokens,"
                " total_output_tokens, max_concurrent_requests, ttft_count, ttfc_count, tpot_count, itl_count,"
                " citl_count, e2el_count, ttft_median, derivation_version, definitions) VALUES"
                " (1, 10, 0, 1, 'c4', 'concurrency', 4, 32, 8, 40, 2, 0, 0, 0, 1280, 320, 4, 40, 40, 40, 280, 280,"
                " 40, 12.5, 1, 'vllm')" })
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        db.close();
    }
    const auto checkOld = [](const PointSummary &old) {
        QCOMPARE(old.ttft.median, 12.5);
        QCOMPARE(old.ttfo.count, 0);
        QVERIFY(std::isnan(old.ttfo.median) && std::isnan(old.ttfo.p99));
        QCOMPARE(old.reasoningTokens, qint64(0));
        QCOMPARE(old.reasoningEstimated, 0);
    };
    {
        ProjectStore before;
        QVERIFY2(before.open(path), qPrintable(before.errorString()));
        QCOMPARE(before.schemaVersion(), 5);
        QVector<PointSummary> summaries;
        QVERIFY2(before.pointSummaries(1, &summaries), qPrintable(before.errorString()));
        QCOMPARE(summaries.size(), 1);
        checkOld(summaries.at(0));
    }
    {
        StoreWriter writer;
        QString error;
        QVERIFY2(writer.open(path, &error), qPrintable(error));
        PointSummary s;
        s.runId = 1;
        s.variant = QStringLiteral("baseline");
        s.point = 1;
        s.label = QStringLiteral("c8");
        s.mode = QStringLiteral("concurrency");
        s.ttfo.count = 40;
        s.ttfo.median = 881.5;
        s.ttfo.p99 = 903.25;
        s.ttfo.extra = { { 99.9, 910.0 } };
        s.reasoningTokens = 800;
        s.reasoningEstimated = 3;
        s.turns = { { QStringLiteral("later_turn_median_ttft_ms"), 41.5 } };
        writer.enqueue(s);
        RequestRecord r;
        r.runId = 1;
        r.variant = QStringLiteral("baseline");
        r.point = 1;
        r.httpStatus = 200;
        r.completionTokens = 50;
        r.reasoningTokens = 20;
        r.reasoningEstimated = true;
        r.reasoningText = "not stored";
        writer.enqueue(r);
        QVERIFY(writer.flush(10000));
        QCOMPARE(writer.failedItems(), quint64(0));
        writer.close();
    }
    ProjectStore store;
    QVERIFY2(store.open(path), qPrintable(store.errorString()));
    QCOMPARE(store.schemaVersion(), Schema::Version);
    QVector<PointSummary> summaries;
    QVERIFY(store.pointSummaries(1, &summaries));
    QCOMPARE(summaries.size(), 2);
    checkOld(summaries.at(0));
    QVERIFY(summaries.at(0).turns.isEmpty());
    QCOMPARE(summaries.at(1).turns.value(QStringLiteral("later_turn_median_ttft_ms")), 41.5);
    QCOMPARE(summaries.at(1).ttfo.count, 40);
    QCOMPARE(summaries.at(1).ttfo.median, 881.5);
    QCOMPARE(summaries.at(1).ttfo.p99, 903.25);
    QCOMPARE(summaries.at(1).ttfo.percentile(99.9), 910.0);
    QCOMPARE(summaries.at(1).reasoningTokens, qint64(800));
    QCOMPARE(summaries.at(1).reasoningEstimated, 3);
    QVector<RequestRecord> requests;
    QVERIFY(store.requests(1, {}, &requests));
    QCOMPARE(requests.size(), 1);
    QCOMPARE(requests.at(0).reasoningTokens, 20);
    QVERIFY(requests.at(0).reasoningEstimated);
    QVERIFY(requests.at(0).reasoningText.isEmpty());
}

// A run whose writer was SIGKILLed stays `running` in the file; the next reader shows it
// interrupted and the next writer stores that. A run of this (live) process stays running.
void TestSchema::runOfAGoneProcessIsInterrupted()
{
    QVERIFY(!RunOwner::isGone(RunOwner::current()));
    QProcess child;
    child.start(QStringLiteral("sleep"), { QStringLiteral("30") });
    QVERIFY(child.waitForStarted());
    const QString childOwner
        = RunOwner::current().section(u' ', 0, 0) + QStringLiteral(" %1 ").arg(child.processId()) + QStringLiteral("0");
    QVERIFY(RunOwner::isGone(childOwner)); // same pid, another start time: not that process
    child.kill();
    child.waitForFinished();

    const QString path = m_dir.filePath(QStringLiteral("killed.servescope"));
    qint64 live = 0, gone = 0;
    {
        StoreWriter writer;
        QString error;
        QVERIFY2(writer.open(path, &error), qPrintable(error));
        RunRow row;
        row.name = QStringLiteral("live");
        row.variants = { QStringLiteral("baseline") };
        live = writer.createRun(row, &error);
        row.name = QStringLiteral("gone");
        gone = writer.createRun(row, &error);
        QVERIFY(live > 0 && gone > 0);
        writer.close();
    }
    {
        QSqlDatabase db = connect(path);
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("UPDATE runs SET owner = '%1' WHERE id = %2").arg(childOwner).arg(gone)));
        db.close();
    }
    ProjectStore reader;
    QVERIFY(reader.open(path));
    QCOMPARE(reader.run(live)->status, RunStatus::Running);
    QCOMPARE(reader.run(gone)->status, RunStatus::Interrupted);
    reader.close();
    {
        StoreWriter writer;
        QString error;
        QVERIFY2(writer.open(path, &error), qPrintable(error));
        writer.close();
    }
    QSqlDatabase db = connect(path);
    QSqlQuery q(db);
    QVERIFY(q.exec(QStringLiteral("SELECT status FROM runs ORDER BY id")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("running"));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("interrupted"));
}

void TestSchema::steadySetAndEstimatesRoundTrip()
{
    const QString path = m_dir.filePath(QStringLiteral("estimates.servescope"));
    StoreWriter writer;
    QString error;
    QVERIFY2(writer.open(path, &error), qPrintable(error));
    RunRow row;
    row.name = QStringLiteral("r");
    row.variants = { QStringLiteral("baseline"), QStringLiteral("fast") };
    const qint64 id = writer.createRun(row, &error);
    PointSummary s;
    s.runId = id;
    s.variant = QStringLiteral("fast");
    s.point = 1;
    s.label = QStringLiteral("c8");
    s.mode = QStringLiteral("concurrency");
    s.steady = { { QStringLiteral("valid"), 1 }, { QStringLiteral("window_s"), 12.25 },
        { QStringLiteral("p99_ttft_ms"), 0.1 + 0.2 } };
    s.inputEstimated = 7;
    s.usageOutputTokens = 6335;
    s.outputEstimated = 5;
    writer.enqueue(s);
    PointEstimate with;
    with.runId = id;
    with.variant = QStringLiteral("fast");
    with.point = 1;
    with.metric = QStringLiteral("p99_ttft_ms");
    with.repeats = 3;
    with.median = 41.5;
    with.min = 40;
    with.max = 44.125;
    with.cv = 0.0375;
    with.ciLow = 39.5;
    with.ciHigh = 45;
    with.ciMethod = QStringLiteral("order-statistic");
    PointEstimate without = with;
    without.metric = QStringLiteral("output_throughput");
    without.ciMethod.clear();
    writer.enqueue(with);
    writer.enqueue(without);
    with.median = 42; // a later estimate of the same metric replaces the first
    writer.enqueue(with);
    QVERIFY(writer.flush(10000));
    QCOMPARE(writer.failedItems(), quint64(0));
    writer.close();

    ProjectStore store;
    QVERIFY(store.open(path));
    QVector<PointSummary> summaries;
    QVERIFY(store.pointSummaries(id, &summaries));
    QCOMPARE(summaries.size(), 1);
    QCOMPARE(summaries.at(0).steady, s.steady);
    QCOMPARE(summaries.at(0).inputEstimated, 7);
    QCOMPARE(summaries.at(0).usageOutputTokens, qint64(6335));
    QCOMPARE(summaries.at(0).outputEstimated, 5);
    QVector<PointEstimate> estimates;
    QVERIFY(store.pointEstimates(id, &estimates));
    QCOMPARE(estimates.size(), 2);
    const PointEstimate &a = estimates.at(0), &b = estimates.at(1);
    QCOMPARE(a.metric, QStringLiteral("output_throughput"));
    QVERIFY(!a.hasInterval());
    QCOMPARE(b.metric, QStringLiteral("p99_ttft_ms"));
    QCOMPARE(b.variant, QStringLiteral("fast"));
    QCOMPARE(b.point, 1);
    QCOMPARE(b.repeats, 3);
    QCOMPARE(b.median, 42.0);
    QCOMPARE(b.max, 44.125);
    QCOMPARE(b.cv, 0.0375);
    QCOMPARE(b.ciLow, 39.5);
    QCOMPARE(b.ciHigh, 45.0);
    QCOMPARE(b.ciMethod, QStringLiteral("order-statistic"));
}

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
