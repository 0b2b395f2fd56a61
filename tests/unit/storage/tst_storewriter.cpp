// SPDX-License-Identifier: MIT
#include "recordfactory.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ServeScope;

class TestStoreWriter final : public QObject {
    Q_OBJECT

private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void commitsWithinInterval();
    void commitsEveryNRows();
    void flushCommitsEverything();
    void acknowledgesInOrderFromManyThreads();
    void refusedItemsAreReportedNotFatal();
    void lostBatchLeavesTheSummaryCounts();
    void enqueueAfterCloseIsRejected();
    void reopenAppendsWithFreshIds();
    void readingBesideTheWriterKeepsItsLocks();

private:
    static qint64 storedRequests(const QString &path, qint64 run);
    static RunRow run(const QString &name = QStringLiteral("r"));
    QTemporaryDir m_dir;
};

RunRow TestStoreWriter::run(const QString &name)
{
    RunRow r;
    r.name = name;
    r.variants = { QStringLiteral("baseline") };
    r.points = 1;
    return r;
}

qint64 TestStoreWriter::storedRequests(const QString &path, qint64 run)
{
    ProjectStore store;
    if (!store.open(path, ProjectStore::Check::Header))
        return -1;
    QVector<RequestRecord> out;
    RequestFilter f;
    f.withEvents = false;
    return store.requests(run, f, &out) ? out.size() : -1;
}

void TestStoreWriter::commitsWithinInterval()
{
    const QString path = m_dir.filePath(QStringLiteral("interval.servescope"));
    StoreWriter writer(StoreWriter::Options { 400, 2000 });
    std::atomic<quint64> callbackSeq { 0 };
    writer.setCommittedCallback([&](quint64 seq, quint64) { callbackSeq = seq; });
    QSignalSpy spy(&writer, &StoreWriter::committed);
    QVERIFY(writer.open(path));
    const qint64 runId = writer.createRun(run());
    QElapsedTimer timer;
    timer.start();
    const quint64 seq = writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, 1));
    QVERIFY(seq > 0);
    // Not committed yet: the writer waits for more rows until the interval ends.
    QCOMPARE(storedRequests(path, runId), qint64(0));
    QTRY_VERIFY_WITH_TIMEOUT(writer.committedSequence() >= seq, 3000);
    const qint64 elapsed = timer.elapsed();
    QVERIFY2(elapsed >= 300 && elapsed < 1500, qPrintable(QString::number(elapsed)));
    QCOMPARE(storedRequests(path, runId), qint64(1));
    QCOMPARE(callbackSeq.load(), seq);
    QTRY_VERIFY(!spy.isEmpty());
    QCOMPARE(spy.constLast().at(0).toULongLong(), seq);
    QCOMPARE(spy.constLast().at(1).toULongLong(), quint64(1));
}

void TestStoreWriter::commitsEveryNRows()
{
    const QString path = m_dir.filePath(QStringLiteral("rows.servescope"));
    StoreWriter writer(StoreWriter::Options { 60000, 100 });
    QVERIFY(writer.open(path));
    const qint64 runId = writer.createRun(run());
    for (int i = 0; i < 250; ++i)
        writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, i, 8));
    QTRY_COMPARE_WITH_TIMEOUT(writer.committedRequests(), quint64(200), 5000);
    QTest::qWait(200);
    QCOMPARE(writer.committedRequests(), quint64(200)); // the last 50 wait for the interval or a flush
    QCOMPARE(storedRequests(path, runId), qint64(200));
    QVERIFY(writer.flush(5000));
    QCOMPARE(writer.committedRequests(), quint64(250));
    QCOMPARE(storedRequests(path, runId), qint64(250));
}

void TestStoreWriter::flushCommitsEverything()
{
    const QString path = m_dir.filePath(QStringLiteral("flush.servescope"));
    StoreWriter writer(StoreWriter::Options { 60000, 1000000 });
    QVERIFY(writer.open(path));
    const qint64 runId = writer.createRun(run());
    quint64 last = 0;
    for (int i = 0; i < 5000; ++i)
        last = writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, i, 4));
    QCOMPARE(writer.enqueuedSequence(), last);
    QVERIFY(writer.flush(10000));
    QCOMPARE(writer.committedSequence(), last);
    QCOMPARE(storedRequests(path, runId), qint64(5000));
    QVERIFY(writer.flush(1000)); // nothing pending: returns at once
}

void TestStoreWriter::acknowledgesInOrderFromManyThreads()
{
    const QString path = m_dir.filePath(QStringLiteral("threads.servescope"));
    StoreWriter writer(StoreWriter::Options { 50, 500 });
    std::atomic<quint64> previous { 0 };
    std::atomic<bool> monotonic { true };
    writer.setCommittedCallback([&](quint64 seq, quint64) {
        if (seq < previous)
            monotonic = false;
        previous = seq;
    });
    QVERIFY(writer.open(path));
    const qint64 runId = writer.createRun(run());
    QVector<QThread *> threads;
    for (int t = 0; t < 4; ++t) {
        threads.append(QThread::create([&writer, runId, t] {
            for (int i = 0; i < 3000; ++i)
                writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), t, 1, i, 4));
        }));
        threads.last()->start();
    }
    for (QThread *t : threads) {
        QVERIFY(t->wait(30000));
        delete t;
    }
    QVERIFY(writer.flush(20000));
    QVERIFY(monotonic);
    QCOMPARE(writer.committedRequests(), quint64(12000));
    QCOMPARE(storedRequests(path, runId), qint64(12000));
}

void TestStoreWriter::refusedItemsAreReportedNotFatal()
{
    const QString path = m_dir.filePath(QStringLiteral("refused.servescope"));
    StoreWriter writer;
    QSignalSpy failures(&writer, &StoreWriter::writeFailed);
    QVERIFY(writer.open(path));
    const qint64 runId = writer.createRun(run());
    writer.enqueue(TestData::makeRequest(runId + 100, QStringLiteral("baseline"), 0, 1, 0)); // no such run
    RequestRecord backwards = TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, 1, 4);
    {
        const qint64 second = backwards.eventNs[1];
        backwards.eventNs.set(1, backwards.eventNs[2]);
        backwards.eventNs.set(2, second);
    }
    writer.enqueue(backwards);
    writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, 2));
    writer.finishRun(runId + 100, RunStatus::Finished, QDateTime::currentDateTimeUtc());
    QVERIFY(writer.flush(5000));
    QCOMPARE(writer.failedItems(), quint64(3));
    QTRY_COMPARE(failures.size(), 3);
    QVERIFY(failures.at(1).at(0).toString().contains(QLatin1String("decrease")));
    // The request with bad events is kept without them; the good one is complete.
    QCOMPARE(writer.committedRequests(), quint64(2));
    ProjectStore store;
    QVERIFY(store.open(path));
    QVector<RequestRecord> out;
    QVERIFY(store.requests(runId, {}, &out));
    QCOMPARE(out.size(), 2);
    QVERIFY(out[0].eventNs.isEmpty());
    QCOMPARE(out[1].eventNs.size(), 64 + 3);
}

// SQLite ends the transaction of a batch on a full disk; a trigger that rolls back does the same, at a
// chosen request. That batch is lost whole, and the point's summary, stored after it, counts only the
// rows the project holds, the lost ones named by number.
void TestStoreWriter::lostBatchLeavesTheSummaryCounts()
{
    const QString path = m_dir.filePath(QStringLiteral("lost.servescope"));
    StoreWriter::Options options;
    options.commitRows = 64;
    options.commitIntervalMs = 60000; // batches are cut by flush() below, never by time
    StoreWriter writer(options);
    QSignalSpy commitFailures(&writer, &StoreWriter::commitFailed);
    QVERIFY(writer.open(path));
    const qint64 runId = writer.createRun(run());
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("trigger"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY2(q.exec(QStringLiteral("CREATE TRIGGER full_disk BEFORE INSERT ON requests WHEN NEW.idx = 100"
                                       " BEGIN SELECT RAISE(ROLLBACK, 'database or disk is full'); END")),
            qPrintable(q.lastError().text()));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("trigger"));
    PointSummary summary;
    summary.runId = runId;
    summary.variant = QStringLiteral("baseline");
    summary.label = QStringLiteral("c8");
    summary.mode = QStringLiteral("concurrency");
    summary.concurrency = 8;
    for (int batch = 0; batch < 3; ++batch) {
        for (int i = batch * 64; i < (batch + 1) * 64; ++i) {
            RequestRecord r = TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, i, 4);
            r.warmup = false; // every request measured (idx 100 would be a warmup one)
            r.status = i % 16 == 5 ? RequestStatus::Failed : RequestStatus::Ok;
            ++(r.ok() ? summary.completed : summary.failed);
            writer.enqueue(std::move(r));
        }
        writer.flush(5000);
    }
    writer.enqueue(summary);
    writer.close(); // flush() returns at once once a batch failed; close() writes what is queued
    QCOMPARE(commitFailures.size(), 1);
    QCOMPARE(writer.failedItems(), quint64(1));
    QVERIFY2(writer.commitFailure().contains(QLatin1String("disk is full")), qPrintable(writer.commitFailure()));

    ProjectStore store;
    QVERIFY(store.open(path));
    QVector<RequestRecord> rows;
    RequestFilter f;
    f.withEvents = false;
    QVERIFY(store.requests(runId, f, &rows));
    QCOMPARE(rows.size(), 128); // the batch of request 100 (64..127) is gone whole
    QVERIFY(std::none_of(
        rows.cbegin(), rows.cend(), [](const RequestRecord &r) { return r.index >= 64 && r.index < 128; }));
    const auto failed = std::count_if(rows.cbegin(), rows.cend(), [](const RequestRecord &r) { return !r.ok(); });
    QVector<PointSummary> stored;
    QVERIFY(store.pointSummaries(runId, &stored));
    QCOMPARE(stored.size(), 1);
    QCOMPARE(stored[0].completed, int(rows.size() - failed));
    QCOMPARE(stored[0].failed, int(failed));
    QCOMPARE(stored[0].failed, 8); // 4 of each 64 failed, and the lost batch's 4 with it
    QCOMPARE(stored[0].client.value(QStringLiteral("requests_lost")), 64.0);
}

void TestStoreWriter::enqueueAfterCloseIsRejected()
{
    const QString path = m_dir.filePath(QStringLiteral("closed.servescope"));
    StoreWriter writer;
    QCOMPARE(writer.enqueue(TestData::makeRequest(1, QStringLiteral("b"), 0, 1, 0)), quint64(0));
    QVERIFY(writer.open(path));
    writer.close();
    QVERIFY(!writer.isOpen());
    QCOMPARE(writer.enqueue(TestData::makeRequest(1, QStringLiteral("b"), 0, 1, 0)), quint64(0));
    QString error;
    QCOMPARE(writer.createRun(run(), &error), qint64(0));
    QVERIFY(!error.isEmpty());
}

void TestStoreWriter::reopenAppendsWithFreshIds()
{
    const QString path = m_dir.filePath(QStringLiteral("reopen.servescope"));
    qint64 runId = 0;
    {
        StoreWriter writer;
        QVERIFY(writer.open(path));
        runId = writer.createRun(run());
        for (int i = 0; i < 10; ++i)
            writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, i));
    } // the destructor commits what is queued
    StoreWriter writer;
    QString error;
    QVERIFY2(writer.open(path, &error), qPrintable(error));
    for (int i = 10; i < 20; ++i)
        writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, i));
    QVERIFY(writer.flush(5000));
    QCOMPARE(storedRequests(path, runId), qint64(20));
    ProjectStore store;
    QVERIFY(store.open(path));
    QVector<RunListing> runs;
    QVERIFY(store.listRuns(&runs));
    QCOMPARE(runs[0].requests, qint64(20));
}

QTEST_GUILESS_MAIN(TestStoreWriter)
// Whether another process sees a lock on the byte range where SQLite's connections hold their
// SHARED lock (a WAL-mode connection holds it while open; losing it lets another process take
// the file, checkpoint and delete the WAL under this one).
static bool otherProcessSeesSharedLock(const QString &path)
{
    const QByteArray file = QFile::encodeName(path);
    const pid_t child = ::fork();
    if (child == 0) {
        const int fd = ::open(file.constData(), O_RDONLY);
        struct flock fl { };
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        fl.l_start = 0x40000000 + 2; // SQLite's SHARED_FIRST
        fl.l_len = 510; // SHARED_SIZE
        _exit(fd >= 0 && ::fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK ? 0 : 1);
    }
    int status = 0;
    return child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Reading a project in the writer's process (the window lists runs while it runs one) must not
// open and close the file beside SQLite: closing any descriptor drops the process's locks.
void TestStoreWriter::readingBesideTheWriterKeepsItsLocks()
{
    const QString path = m_dir.filePath(QStringLiteral("beside.servescope"));
    StoreWriter writer;
    QVERIFY(writer.open(path));
    const qint64 runId = writer.createRun(run());
    writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, 0, 4));
    QVERIFY(writer.flush(10000));
    QVERIFY(otherProcessSeesSharedLock(path));
    QString error;
    QVERIFY2(ProjectStore::verify(path, ProjectStore::Check::Header, &error), qPrintable(error));
    QVERIFY(otherProcessSeesSharedLock(path));
    // The full check reads the whole file ahead through SQLite's own descriptor here, not one of its own.
    QVERIFY2(ProjectStore::verify(path, ProjectStore::Check::Full, &error), qPrintable(error));
    QVERIFY2(otherProcessSeesSharedLock(path), "the full check beside the writer dropped its SQLite locks");
    {
        ProjectStore store;
        QVERIFY(store.open(path, ProjectStore::Check::Header));
        QVERIFY(store.open(path, ProjectStore::Check::Header, ProjectStore::Follow::Snapshot));
    }
    QCOMPARE(storedRequests(path, runId), qint64(1));
    QVERIFY2(otherProcessSeesSharedLock(path), "a read beside the writer dropped its SQLite locks");
    writer.close();
    QVERIFY(!otherProcessSeesSharedLock(path));
}

#include "tst_storewriter.moc"
