// SPDX-License-Identifier: MIT
#include "recordfactory.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

class TestKilledWriter final : public QObject {
    Q_OBJECT

private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void acknowledgedRequestsSurviveSigkill_data();
    void acknowledgedRequestsSurviveSigkill();
};

void TestKilledWriter::acknowledgedRequestsSurviveSigkill_data()
{
    QTest::addColumn<int>("killAfterAcks");
    QTest::newRow("after first commit") << 1;
    QTest::newRow("mid run") << 7;
}

void TestKilledWriter::acknowledgedRequestsSurviveSigkill()
{
    QFETCH(int, killAfterAcks);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("killed.servescope"));
    QProcess child;
    child.start(QStringLiteral(STORAGE_WRITER_CHILD), { path });
    QVERIFY2(child.waitForStarted(5000), qPrintable(child.errorString()));
    qint64 runId = 0;
    quint64 acked = 0;
    int ackLines = 0;
    QByteArray pending;
    auto consume = [&] {
        pending += child.readAllStandardOutput();
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const QByteArray line = pending.left(nl);
            pending.remove(0, nl + 1);
            if (line.startsWith("run "))
                runId = line.mid(4).toLongLong();
            else if (line.startsWith("acked ")) {
                acked = line.mid(6).toULongLong();
                ++ackLines;
            }
        }
    };
    while (ackLines < killAfterAcks || acked == 0) {
        QVERIFY2(child.waitForReadyRead(10000), "the writer acknowledged nothing");
        consume();
    }
    child.kill(); // SIGKILL: no destructor, no final commit, no checkpoint
    QVERIFY(child.waitForFinished(5000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    consume(); // acknowledgements printed before the kill landed still count
    QVERIFY(runId > 0);
    QVERIFY(acked > 0);

    ProjectStore store;
    QVERIFY2(store.open(path, ProjectStore::Check::Full), qPrintable(store.errorString()));
    QVector<RequestRecord> loaded;
    QVERIFY2(store.requests(runId, {}, &loaded), qPrintable(store.errorString()));
    qInfo("acknowledged %llu, found %lld", static_cast<unsigned long long>(acked), qlonglong(loaded.size()));
    QVERIFY(quint64(loaded.size()) >= acked);
    for (quint64 i = 0; i < acked; ++i) {
        const RequestRecord expected = TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, int(i), 64);
        const QString diff = TestData::requestDiff(loaded[qsizetype(i)], expected);
        QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("request %1: %2").arg(i).arg(diff)));
    }
    store.close();

    // The file stays writable after the crash: a new writer appends after the surviving rows.
    StoreWriter writer;
    QString error;
    QVERIFY2(writer.open(path, &error), qPrintable(error));
    writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, 1'000'000, 8));
    QVERIFY(writer.flush(5000));
    QCOMPARE(writer.failedItems(), quint64(0));
}

QTEST_GUILESS_MAIN(TestKilledWriter)
#include "tst_killedwriter.moc"
