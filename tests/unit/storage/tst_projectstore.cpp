// SPDX-License-Identifier: MIT
#include "recordfactory.h"
#include "storage/projectstore.h"
#include "storage/schema.h"
#include "storage/storewriter.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

class TestProjectStore final : public QObject {
    Q_OBJECT

private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void roundTripEverything();
    void listingAggregates();
    void resolveRunByIdOrName();
    void experimentsSaveAndUpdate();
    void filtersRequests();
    void refusedFilesStayUnchanged_data();
    void refusedFilesStayUnchanged();
    void missingFileIsRefused();
    void fullCheckStopsWhenAsked();

private:
    QString makeProject(const QString &name, int requests);
    QTemporaryDir m_dir;
};

static RunRow sampleRun(const QString &name)
{
    RunRow run;
    run.name = name;
    run.started = QDateTime(QDate(2024, 5, 1), QTime(12, 30, 15, 250), Qt::UTC);
    run.resolvedConfig = QByteArrayLiteral("{\"name\":\"sweep \\u00e9\",\"load\":{\"repeat\":3}}");
    run.definitions = QStringLiteral("vllm");
    run.variants = { QStringLiteral("baseline"), QStringLiteral("seqs-64") };
    run.points = 4;
    run.clientHost = QByteArrayLiteral("{\"cpu\":\"x\"}");
    run.envSnapshot = QByteArrayLiteral("[[\"gpu\",\"A100\"]]");
    return run;
}

QString TestProjectStore::makeProject(const QString &name, int requests)
{
    const QString path = m_dir.filePath(name);
    StoreWriter writer;
    QString error;
    if (!writer.open(path, &error))
        qFatal("cannot open %s: %s", qPrintable(path), qPrintable(error));
    const qint64 run = writer.createRun(sampleRun(QStringLiteral("r")));
    for (int i = 0; i < requests; ++i)
        writer.enqueue(TestData::makeRequest(run, QStringLiteral("baseline"), 0, 1, i));
    writer.enqueue(TestData::makeSummary(run, QStringLiteral("baseline"), 0, 1));
    writer.flush();
    writer.close();
    return path;
}

void TestProjectStore::roundTripEverything()
{
    const QString path = m_dir.filePath(QStringLiteral("all.servescope"));
    StoreWriter writer;
    QString error;
    QVERIFY2(writer.open(path, &error), qPrintable(error));
    const RunRow in = sampleRun(QStringLiteral("run one"));
    const qint64 runId = writer.createRun(in, &error);
    QVERIFY2(runId > 0, qPrintable(error));
    QVector<RequestRecord> requests;
    for (const QString &variant : in.variants) {
        for (int point = 0; point < 4; ++point) {
            for (int i = 0; i < 60; ++i)
                requests.append(TestData::makeRequest(runId, variant, point, 1 + i % 2, i, 5 + i % 70));
        }
    }
    writer.enqueue(requests);
    QVector<PointSummary> summaries;
    for (const QString &variant : in.variants) {
        for (int point = 0; point < 4; ++point) {
            for (int repeat = 1; repeat <= 2; ++repeat)
                summaries.append(TestData::makeSummary(runId, variant, point, repeat));
        }
    }
    for (const PointSummary &s : summaries)
        writer.enqueue(s);
    writer.enqueue(ServerMetricSample {
        runId, 123, QStringLiteral("vllm:num_requests_running"), QStringLiteral("model_name=\"m\""), 7.5 });
    writer.enqueue(ServerLogLine { runId, 456, QStringLiteral("stderr"), QStringLiteral("INFO started ✓") });
    writer.enqueue(PromptRow { QByteArrayLiteral("h1"), QStringLiteral("hello"), QByteArray() });
    writer.enqueue(PromptRow { QByteArrayLiteral("h2"), QString(), QByteArray::fromHex("01000000ff7f0000") });
    const QDateTime finished(QDate(2024, 5, 1), QTime(13, 0, 0, 5), Qt::UTC);
    writer.finishRun(runId, RunStatus::Cancelled, finished);
    QVERIFY(writer.flush(10000));
    QCOMPARE(writer.failedItems(), quint64(0));
    QCOMPARE(writer.committedRequests(), quint64(requests.size()));

    ProjectStore store;
    QVERIFY2(store.open(path), qPrintable(store.errorString()));
    const auto run = store.run(runId);
    QVERIFY(run);
    QCOMPARE(run->name, in.name);
    QCOMPARE(run->status, RunStatus::Cancelled);
    QCOMPARE(run->started, in.started);
    QCOMPARE(run->finished, finished);
    QCOMPARE(run->resolvedConfig, in.resolvedConfig);
    QCOMPARE(run->clientHost, in.clientHost);
    QCOMPARE(run->envSnapshot, in.envSnapshot);
    QCOMPARE(run->variants, in.variants);
    QCOMPARE(run->points, 4);

    QVector<RequestRecord> loaded;
    QVERIFY2(store.requests(runId, {}, &loaded), qPrintable(store.errorString()));
    QCOMPARE(loaded.size(), requests.size());
    // Stored order is variant, point, repeat, index; the input was built variant, point, index.
    auto key = [&](const RequestRecord &r) {
        return std::tuple(in.variants.indexOf(r.variant), r.point, r.repeat, r.index);
    };
    std::stable_sort(requests.begin(), requests.end(), [&](auto &a, auto &b) { return key(a) < key(b); });
    for (qsizetype i = 0; i < requests.size(); ++i)
        QVERIFY2(TestData::requestDiff(loaded[i], requests[i]).isEmpty(),
            qPrintable(QStringLiteral("request %1: %2").arg(i).arg(TestData::requestDiff(loaded[i], requests[i]))));

    QVector<PointSummary> loadedSummaries;
    QVERIFY(store.pointSummaries(runId, &loadedSummaries));
    QCOMPARE(loadedSummaries.size(), summaries.size());
    for (qsizetype i = 0; i < summaries.size(); ++i)
        QVERIFY2(TestData::summaryDiff(loadedSummaries[i], summaries[i]).isEmpty(),
            qPrintable(TestData::summaryDiff(loadedSummaries[i], summaries[i])));
    QCOMPARE(loadedSummaries[6].point, 3);
    QVERIFY(std::isinf(loadedSummaries[6].requestRate));

    QVector<ServerMetricSample> samples;
    QVERIFY(store.serverMetricSamples(runId, &samples));
    QCOMPARE(samples.size(), 1);
    QCOMPARE(samples[0].labels, QStringLiteral("model_name=\"m\""));
    QCOMPARE(samples[0].value, 7.5);
    QVector<ServerLogLine> logs;
    QVERIFY(store.serverLogs(runId, &logs));
    QCOMPARE(logs.size(), 1);
    QCOMPARE(logs[0].line, QStringLiteral("INFO started ✓"));
    QCOMPARE(logs[0].timeNs, qint64(456));
    QCOMPARE(store.prompt(PromptHash(QByteArrayLiteral("h1")))->text, QStringLiteral("hello"));
    QCOMPARE(store.prompt(PromptHash(QByteArrayLiteral("h2")))->tokens, QByteArray::fromHex("01000000ff7f0000"));
    QVERIFY(!store.prompt(PromptHash(QByteArrayLiteral("h3"))));
}

void TestProjectStore::listingAggregates()
{
    const QString path = m_dir.filePath(QStringLiteral("list.servescope"));
    StoreWriter writer;
    QVERIFY(writer.open(path));
    const qint64 a = writer.createRun(sampleRun(QStringLiteral("alpha")));
    RunRow second = sampleRun(QStringLiteral("beta"));
    second.variants = { QStringLiteral("only") };
    second.points = 2;
    const qint64 b = writer.createRun(second);
    for (int i = 0; i < 30; ++i)
        writer.enqueue(TestData::makeRequest(a, QStringLiteral("seqs-64"), 1, 1, i));
    writer.enqueue(TestData::makeRequest(a, QStringLiteral("undeclared"), 0, 1, 0));
    writer.enqueue(TestData::makeSummary(a, QStringLiteral("baseline"), 0, 1));
    writer.enqueue(TestData::makeSummary(a, QStringLiteral("baseline"), 1, 1));
    writer.enqueue(TestData::makeSummary(a, QStringLiteral("baseline"), 1, 1)); // replaces, does not add
    writer.finishRun(b, RunStatus::Finished, QDateTime(QDate(2024, 5, 2), QTime(1, 2, 3), Qt::UTC));
    QVERIFY(writer.flush(10000));

    ProjectStore store;
    QVERIFY(store.open(path, ProjectStore::Check::Header));
    QVector<RunListing> runs;
    QVERIFY2(store.listRuns(&runs), qPrintable(store.errorString()));
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].run.id, a);
    QCOMPARE(runs[0].run.name, QStringLiteral("alpha"));
    QCOMPARE(runs[0].run.status, RunStatus::Running);
    QCOMPARE(runs[0].run.variants,
        QStringList({ QStringLiteral("baseline"), QStringLiteral("seqs-64"), QStringLiteral("undeclared") }));
    QCOMPARE(runs[0].requests, qint64(31));
    QCOMPARE(runs[0].pointRepeats, 2);
    QCOMPARE(runs[0].completed, qint64(200 + 201));
    QCOMPARE(runs[0].failed, qint64(2));
    QCOMPARE(runs[0].totalOutputTokens, qint64(2 * 25601));
    QVERIFY(runs[0].run.resolvedConfig.isEmpty());
    QCOMPARE(runs[1].run.status, RunStatus::Finished);
    QCOMPARE(runs[1].run.points, 2);
    QCOMPARE(runs[1].requests, qint64(0));
    QCOMPARE(runs[1].pointRepeats, 0);
    QCOMPARE(runs[1].run.finished.toString(Qt::ISODate), QStringLiteral("2024-05-02T01:02:03Z"));
}

void TestProjectStore::resolveRunByIdOrName()
{
    const QString path = m_dir.filePath(QStringLiteral("resolve.servescope"));
    StoreWriter writer;
    QVERIFY(writer.open(path));
    const qint64 a = writer.createRun(sampleRun(QStringLiteral("same")));
    writer.createRun(sampleRun(QStringLiteral("same")));
    const qint64 c = writer.createRun(sampleRun(QStringLiteral("unique")));
    ProjectStore store;
    QVERIFY(store.open(path));
    QCOMPARE(store.resolveRun(QString::number(a)), a);
    QCOMPARE(store.resolveRun(QStringLiteral("unique")), c);
    QCOMPARE(store.resolveRun(QStringLiteral("same")), qint64(0));
    QVERIFY(store.errorString().contains(QLatin1String("more than one")));
    QCOMPARE(store.resolveRun(QStringLiteral("99")), qint64(0));
    QVERIFY(store.errorString().contains(QLatin1String("no run")));
}

void TestProjectStore::experimentsSaveAndUpdate()
{
    const QString path = m_dir.filePath(QStringLiteral("exp.servescope"));
    StoreWriter writer;
    QVERIFY(writer.open(path));
    const QDateTime created(QDate(2024, 1, 2), QTime(3, 4, 5), Qt::UTC);
    const qint64 id = writer.saveExperiment({ 0, QStringLiteral("sweep"), QByteArrayLiteral("{\"a\":1}"), created });
    QVERIFY(id > 0);
    QCOMPARE(writer.saveExperiment({ id, QStringLiteral("sweep 2"), QByteArrayLiteral("{\"a\":2}"), {} }), id);
    RunRow run = sampleRun(QStringLiteral("r"));
    run.experimentId = id;
    const qint64 runId = writer.createRun(run);
    QString error;
    RunRow bad = sampleRun(QStringLiteral("bad"));
    bad.experimentId = 12345;
    QCOMPARE(writer.createRun(bad, &error), qint64(0));
    QVERIFY2(error.contains(QLatin1String("FOREIGN KEY")), qPrintable(error));
    ProjectStore store;
    QVERIFY(store.open(path));
    QVector<ExperimentRow> rows;
    QVERIFY(store.experiments(&rows));
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].name, QStringLiteral("sweep 2"));
    QCOMPARE(rows[0].json, QByteArrayLiteral("{\"a\":2}"));
    QCOMPARE(rows[0].created, created);
    QCOMPARE(store.run(runId)->experimentId, id);
}

void TestProjectStore::filtersRequests()
{
    const QString path = m_dir.filePath(QStringLiteral("filter.servescope"));
    StoreWriter writer;
    QVERIFY(writer.open(path));
    const qint64 run = writer.createRun(sampleRun(QStringLiteral("r")));
    for (int point = 0; point < 3; ++point) {
        for (int i = 0; i < 100; ++i) {
            writer.enqueue(TestData::makeRequest(run, QStringLiteral("baseline"), point, 1, i));
            writer.enqueue(TestData::makeRequest(run, QStringLiteral("seqs-64"), point, 2, i));
        }
    }
    QVERIFY(writer.flush(10000));
    ProjectStore store;
    QVERIFY(store.open(path));
    QVector<RequestRecord> out;
    RequestFilter f;
    f.variant = QStringLiteral("seqs-64");
    f.point = 1;
    QVERIFY(store.requests(run, f, &out));
    QCOMPARE(out.size(), 100);
    QVERIFY(std::all_of(out.cbegin(), out.cend(), [](auto &r) { return r.point == 1 && r.repeat == 2; }));
    f.includeWarmup = false;
    f.withEvents = false;
    QVERIFY(store.requests(run, f, &out));
    QCOMPARE(out.size(), 98); // indices 0 and 50 are warmups
    QVERIFY(out[0].eventNs.isEmpty());
    f = {};
    f.repeat = 1;
    QVERIFY(store.requests(run, f, &out));
    QCOMPARE(out.size(), 300);
}

struct FileState {
    QByteArray sha;
    QDateTime modified;
    qint64 size = 0;
    QStringList siblings;
};

static FileState stateOf(const QString &path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    const QFileInfo info(path);
    return { QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256), info.lastModified(), info.size(),
        info.dir().entryList(QDir::Files, QDir::Name) };
}

void TestProjectStore::refusedFilesStayUnchanged_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("why");
    QTest::newRow("text file") << QStringLiteral("text") << QStringLiteral("not an SQLite database");
    QTest::newRow("empty file") << QStringLiteral("empty") << QStringLiteral("is empty");
    QTest::newRow("other application id") << QStringLiteral("otherapp") << QStringLiteral("application id 0x12345678");
    QTest::newRow("plain sqlite") << QStringLiteral("plain") << QStringLiteral("application id 0x00000000");
    QTest::newRow("newer schema") << QStringLiteral("newer") << QStringLiteral("newer ServeScope (schema 9");
    QTest::newRow("corrupt pages") << QStringLiteral("corrupt") << QStringLiteral("corrupt");
    QTest::newRow("truncated") << QStringLiteral("truncated") << QStringLiteral("corrupt");
}

void TestProjectStore::refusedFilesStayUnchanged()
{
    QFETCH(QString, kind);
    QFETCH(QString, why);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.servescope"));
    if (kind == QLatin1String("text") || kind == QLatin1String("empty")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        if (kind == QLatin1String("text"))
            f.write(QByteArray("name,value\n").repeated(500));
    } else if (kind == QLatin1String("otherapp") || kind == QLatin1String("plain") || kind == QLatin1String("newer")) {
        if (kind == QLatin1String("newer"))
            QFile::copy(makeProject(QStringLiteral("newer-src.servescope"), 10), path);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("prep"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode=DELETE")));
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS other (x)")));
            if (kind == QLatin1String("otherapp"))
                QVERIFY(q.exec(QStringLiteral("PRAGMA application_id = 305419896")));
            if (kind == QLatin1String("newer"))
                QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 9")));
            q = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("prep"));
    } else {
        QVERIFY(QFile::copy(makeProject(kind + QStringLiteral("-src.servescope"), 3000), path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 size = f.size();
        QVERIFY(size > 200 * 1024);
        if (kind == QLatin1String("corrupt")) {
            f.seek(size / 2);
            f.write(QByteArray(32 * 1024, char(0xa5)));
        } else {
            f.resize(size / 2);
        }
    }
    QTest::qSleep(20); // let a write by the code under test show up as a different mtime
    const FileState before = stateOf(path);

    QString error;
    QVERIFY(!ProjectStore::verify(path, ProjectStore::Check::Full, &error));
    QVERIFY2(error.contains(why), qPrintable(error));
    // The window's stoppable check (not stopped) refuses it the same way.
    CheckStop goOn;
    QString stoppable;
    QVERIFY(!ProjectStore::verify(path, ProjectStore::Check::Full, &stoppable, &goOn));
    QCOMPARE(stoppable, error);
    QVERIFY2(error.contains(path), qPrintable(error));
    // One line a dialog can show, however many pages SQLite lists as damaged.
    QVERIFY2(!error.contains(u'\n') && error.size() < 400 + path.size(), qPrintable(error));
    StoreWriter writer;
    QVERIFY(!writer.open(path, &error));
    QVERIFY2(error.contains(why), qPrintable(error));
    ProjectStore store;
    QVERIFY(!store.open(path));
    QVERIFY(!store.isOpen());

    const FileState after = stateOf(path);
    QCOMPARE(after.sha.toHex(), before.sha.toHex());
    QCOMPARE(after.modified, before.modified);
    QCOMPARE(after.size, before.size);
    QCOMPARE(after.siblings, before.siblings);
}

void TestProjectStore::missingFileIsRefused()
{
    ProjectStore store;
    QVERIFY(!store.open(m_dir.filePath(QStringLiteral("nope.servescope"))));
    QVERIFY2(store.errorString().contains(QLatin1String("no such file")), qPrintable(store.errorString()));
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("nope.servescope"))));
}

// The window's check of a big file stops when another file is opened: sqlite3_interrupt ends the
// quick_check, and the answer says it was stopped, not that the file is damaged.
void TestProjectStore::fullCheckStopsWhenAsked()
{
    const QString path = makeProject(QStringLiteral("stop.servescope"), 2000);
    CheckStop notYet;
    QString error;
    QVERIFY2(ProjectStore::verify(path, ProjectStore::Check::Full, &error, &notYet), qPrintable(error));
    CheckStop stop;
    stop.stop(); // before the check begins: it ends as it begins
    QVERIFY(!ProjectStore::verify(path, ProjectStore::Check::Full, &error, &stop));
    QVERIFY2(
        error.contains(QLatin1String("check stopped")) && !error.contains(QLatin1String("corrupt")), qPrintable(error));
    QVERIFY2(error.contains(path), qPrintable(error));
    // Stopped only the check: the header-only open is not stopped, and the file is fine afterwards.
    QVERIFY(ProjectStore::verify(path, ProjectStore::Check::Header, &error, &stop));
    QVERIFY(ProjectStore::verify(path, ProjectStore::Check::Full, &error));
}

QTEST_GUILESS_MAIN(TestProjectStore)
#include "tst_projectstore.moc"
