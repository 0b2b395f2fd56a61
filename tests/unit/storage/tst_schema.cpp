// SPDX-License-Identifier: MIT
#include "storage/projectstore.h"
#include "storage/schema.h"

#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

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
        QStringList({ QStringLiteral("experiments"), QStringLiteral("point_repeats"), QStringLiteral("prompts"),
            QStringLiteral("request_events"), QStringLiteral("requests"), QStringLiteral("runs"),
            QStringLiteral("server_logs"), QStringLiteral("server_metric_samples"), QStringLiteral("variants") }));
    // Every distribution statistic of every metric has its own column.
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM pragma_table_info('point_repeats') WHERE name GLOB '*_p99'"))
        && q.next());
    QCOMPARE(q.value(0).toInt(), 6);
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
    QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 7")));
    QString error;
    QVERIFY(!Schema::migrate(db, &error));
    QVERIFY2(error.contains(QLatin1String("newer")), qPrintable(error));
    QCOMPARE(Schema::pragmaValue(db, QStringLiteral("user_version")), qint64(7));
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

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
