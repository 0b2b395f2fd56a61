// SPDX-License-Identifier: MIT
#include "recordfactory.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

class TestStoreRoundTrip final : public QObject {
    Q_OBJECT

private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void hundredThousandRequestsWithEvents();
};

void TestStoreRoundTrip::hundredThousandRequestsWithEvents()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.servescope"));
    const QStringList variants = { QStringLiteral("baseline"), QStringLiteral("candidate") };
    const int points = 5, repeats = 2, perCell = 5000; // 2 x 5 x 2 x 5,000 = 100,000
    QElapsedTimer timer;
    timer.start();
    qint64 runId = 0;
    {
        StoreWriter writer;
        QString error;
        QVERIFY2(writer.open(path, &error), qPrintable(error));
        RunRow run;
        run.name = QStringLiteral("big");
        run.variants = variants;
        run.points = points;
        runId = writer.createRun(run);
        for (const QString &v : variants) {
            for (int p = 0; p < points; ++p) {
                for (int r = 1; r <= repeats; ++r) {
                    for (int i = 0; i < perCell; ++i)
                        writer.enqueue(TestData::makeRequest(runId, v, p, r, i, 64));
                    QVERIFY(writer.flush(60000)); // bounds the queue's memory
                }
            }
        }
        QCOMPARE(writer.committedRequests(), quint64(100000));
        QCOMPARE(writer.failedItems(), quint64(0));
    }
    const qint64 writeMs = timer.restart();

    ProjectStore store;
    QVERIFY2(store.open(path), qPrintable(store.errorString()));
    QVector<RequestRecord> loaded;
    QVERIFY2(store.requests(runId, {}, &loaded), qPrintable(store.errorString()));
    QCOMPARE(loaded.size(), 100000);
    qsizetype k = 0;
    qint64 events = 0;
    for (const QString &v : variants) {
        for (int p = 0; p < points; ++p) {
            for (int r = 1; r <= repeats; ++r) {
                for (int i = 0; i < perCell; ++i, ++k) {
                    const RequestRecord expected = TestData::makeRequest(runId, v, p, r, i, 64);
                    const QString diff = TestData::requestDiff(loaded[k], expected);
                    if (!diff.isEmpty())
                        QFAIL(qPrintable(QStringLiteral("request %1 (%2/%3/%4/%5): %6")
                                             .arg(k)
                                             .arg(v)
                                             .arg(p)
                                             .arg(r)
                                             .arg(i)
                                             .arg(diff)));
                    events += loaded[k].eventNs.size();
                }
            }
        }
    }
    QVERIFY(events > 100000 * 60);
    QVector<RunListing> runs;
    QVERIFY(store.listRuns(&runs));
    QCOMPARE(runs.at(0).requests, qint64(100000));
    qInfo("write %lld ms, read and compare %lld ms", qlonglong(writeMs), qlonglong(timer.elapsed()));
}

QTEST_GUILESS_MAIN(TestStoreRoundTrip)
#include "tst_storeroundtrip.moc"
