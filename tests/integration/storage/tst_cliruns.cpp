// SPDX-License-Identifier: MIT
#include "requireservice.h"
#include "storage/storewriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

class TestCliRuns final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void linesAreTabSeparated();
    void jsonHasTheSameFields();
    void badInputExitsTwo_data();
    void badInputExitsTwo();
    void helpExitsZero();

private:
    struct Result {
        int code = -1;
        QByteArray out, err;
    };
    Result cli(const QStringList &args);
    QTemporaryDir m_dir;
    QString m_project;
};

TestCliRuns::Result TestCliRuns::cli(const QStringList &args)
{
    QProcess p;
    p.start(qEnvironmentVariable("SERVESCOPE_CLI"), QStringList { QStringLiteral("runs") } + args);
    if (!p.waitForFinished(20000))
        return {};
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

void TestCliRuns::initTestCase()
{
    SERVESCOPE_REQUIRE_SERVICE(!qEnvironmentVariableIsEmpty("SERVESCOPE_CLI"),
        QStringLiteral("SERVESCOPE_CLI is not set (run through ctest)"));
    m_project = m_dir.filePath(QStringLiteral("p.servescope"));
    StoreWriter writer;
    QVERIFY(writer.open(m_project));
    RunRow a;
    a.name = QStringLiteral("sweep\tone");
    a.started = QDateTime(QDate(2024, 5, 1), QTime(12, 30, 15, 999), Qt::UTC);
    a.variants = { QStringLiteral("baseline"), QStringLiteral("seqs-64") };
    a.points = 6;
    RunRow b;
    b.name = QStringLiteral("second");
    b.started = QDateTime(QDate(2024, 12, 31), QTime(23, 59, 59), Qt::UTC);
    b.variants = { QStringLiteral("only") };
    b.points = 1;
    QCOMPARE(writer.createRun(a), qint64(1));
    QCOMPARE(writer.createRun(b), qint64(2));
    writer.finishRun(1, RunStatus::Finished, QDateTime(QDate(2024, 5, 1), QTime(13, 0), Qt::UTC));
    QVERIFY(writer.flush(5000));
}

void TestCliRuns::linesAreTabSeparated()
{
    const Result r = cli({ QStringLiteral("--project"), m_project });
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out,
        QByteArray("1\tsweep one\tfinished\t2024-05-01T12:30:15Z\t2\t6\n"
                   "2\tsecond\trunning\t2024-12-31T23:59:59Z\t1\t1\n"));
}

void TestCliRuns::jsonHasTheSameFields()
{
    const Result r = cli({ QStringLiteral("--project"), m_project, QStringLiteral("--json") });
    QCOMPARE(r.code, 0);
    QJsonParseError error;
    const QJsonArray runs = QJsonDocument::fromJson(r.out, &error).array();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(runs.size(), 2);
    const QJsonObject first = runs.at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("id")).toInt(), 1);
    QCOMPARE(first.value(QStringLiteral("name")).toString(), QStringLiteral("sweep\tone"));
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
    QCOMPARE(first.value(QStringLiteral("started")).toString(), QStringLiteral("2024-05-01T12:30:15Z"));
    QCOMPARE(first.value(QStringLiteral("finished")).toString(), QStringLiteral("2024-05-01T13:00:00Z"));
    QCOMPARE(first.value(QStringLiteral("variants")).toInt(), 2);
    QCOMPARE(first.value(QStringLiteral("points")).toInt(), 6);
    QCOMPARE(first.value(QStringLiteral("variant_names")).toArray(),
        QJsonArray({ QStringLiteral("baseline"), QStringLiteral("seqs-64") }));
    QVERIFY(runs.at(1).toObject().value(QStringLiteral("finished")).isNull());
}

void TestCliRuns::badInputExitsTwo_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing file") << QStringLiteral("missing") << QStringLiteral("no such file");
    QTest::newRow("foreign file") << QStringLiteral("foreign") << QStringLiteral("not a ServeScope project");
    QTest::newRow("corrupt file") << QStringLiteral("corrupt") << QStringLiteral("corrupt");
    QTest::newRow("no --project") << QStringLiteral("noproject") << QStringLiteral("--project FILE is required");
    QTest::newRow("unknown option") << QStringLiteral("unknown") << QStringLiteral("Unknown option");
    QTest::newRow("stray argument") << QStringLiteral("stray") << QStringLiteral("unexpected argument");
}

void TestCliRuns::badInputExitsTwo()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.servescope"));
    QStringList args = { QStringLiteral("--project"), path };
    if (kind == QLatin1String("foreign")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("PK\x03\x04 this is a zip file, not a project");
    } else if (kind == QLatin1String("corrupt")) {
        QVERIFY(QFile::copy(m_project, path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(4096); // the second page: a table root
        f.write(QByteArray(8192, char(0x5a)));
    } else if (kind == QLatin1String("noproject")) {
        args.clear();
    } else if (kind == QLatin1String("unknown")) {
        args << QStringLiteral("--bogus");
    } else if (kind == QLatin1String("stray")) {
        args << QStringLiteral("extra");
    }
    const Result r = cli(args);
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
}

void TestCliRuns::helpExitsZero()
{
    const Result r = cli({ QStringLiteral("--help") });
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("--project"));
}

QTEST_GUILESS_MAIN(TestCliRuns)
#include "tst_cliruns.moc"
