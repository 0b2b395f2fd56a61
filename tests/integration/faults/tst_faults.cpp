// SPDX-License-Identifier: MIT
// The fault matrix (docs/project-file.md#several-writers, docs/metrics.md#buffered-streams,
// docs/secrets.md#redaction): what a run keeps and says when the project, the server or the route
// between them misbehaves.
#include "faultservers.h"
#include "simchild.h"

#include "storage/projectstore.h"

#include <QDir>
#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <csignal>
#include <sys/resource.h>

using namespace ServeScope;

namespace {

struct Outcome {
    int exitCode = -1;
    QByteArray out, err;
};

QString cli()
{
    return SimChild::cli();
}

/// Waits for `p` on an event loop, so servers of this process keep answering meanwhile.
Outcome finish(QProcess &p, int timeoutMs = 240000)
{
    if (p.state() != QProcess::NotRunning) {
        QEventLoop loop;
        QObject::connect(&p, &QProcess::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished(5000);
    }
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

QString writeExperiment(const QDir &dir, const QString &name, const QString &endpoint, const QString &load)
{
    const QString path = dir.filePath(name + QStringLiteral(".json"));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(QStringLiteral("{\"name\": \"%1\", \"endpoint\": %2,\n"
                           " \"server\": {\"engine\": \"vllm\", \"args\": {\"max_num_seqs\": 256}},\n"
                           " \"dataset\": {\"name\": \"random\", \"seed\": 7, \"ignore_eos\": true},\n"
                           " \"load\": %3,\n"
                           " \"metrics\": {\"percentiles\": [50, 90, 99]},\n"
                           " \"variants\": [{\"name\": \"baseline\"}]}\n")
                .arg(name, endpoint, load)
                .toUtf8());
    return path;
}

QString endpointAt(const QString &base, const QString &model, const QString &keyEnv = {})
{
    QString json
        = QStringLiteral("{\"base_url\": \"%1\", \"path\": \"/v1/completions\", \"model\": \"%2\"").arg(base, model);
    if (!keyEnv.isEmpty())
        json += QStringLiteral(", \"api_key_env\": \"%1\"").arg(keyEnv);
    return json + u'}';
}

QString load(int concurrency, int prompts, int outputLen, int warmup = 0)
{
    return QStringLiteral("{\"mode\": \"concurrency\", \"warmup_requests\": %4, \"points\": [{\"concurrency\": %1, "
                          "\"input_len\": 16, \"output_len\": %3, \"num_prompts\": %2}]}")
        .arg(concurrency)
        .arg(prompts)
        .arg(outputLen)
        .arg(warmup);
}

/// Per run of a project: (status, the runs.requests counter, the requests stored), read with SQL.
struct StoredRun {
    QString status;
    qint64 counted = 0, stored = 0;
};
QMap<qint64, StoredRun> storedRuns(const QString &project)
{
    QMap<qint64, StoredRun> out;
    const QString name = QStringLiteral("faults-%1").arg(QRandomGenerator::global()->generate());
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(project);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (db.open()) {
            QSqlQuery q(db);
            q.exec(QStringLiteral("SELECT id, status, requests, (SELECT count(*) FROM requests WHERE run_id = runs.id)"
                                  " FROM runs"));
            while (q.next())
                out.insert(q.value(0).toLongLong(),
                    { q.value(1).toString(), q.value(2).toLongLong(), q.value(3).toLongLong() });
        }
    }
    QSqlDatabase::removeDatabase(name);
    return out;
}

/// The runs as ProjectStore lists them (a gone writer's run reads `interrupted`).
QMap<qint64, QString> listedStatus(const QString &project)
{
    QMap<qint64, QString> out;
    ProjectStore store;
    QVector<RunListing> runs;
    if (!store.open(project, ProjectStore::Check::Full) || !store.listRuns(&runs))
        qWarning("%s", qPrintable(store.errorString()));
    for (const RunListing &r : std::as_const(runs))
        out.insert(r.run.id, runStatusCode(r.run.status));
    return out;
}

QByteArray pointLine(const QByteArray &out)
{
    for (const QByteArray &line : out.split('\n'))
        if (line.startsWith("baseline\t"))
            return line;
    return {};
}

} // namespace

class TestFaults final : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
    }

    // Two runs into one new project at once: both finish and keep every request (ids cannot collide).
    void twoWritersKeepEveryRequest()
    {
        const QDir dir(m_dir.path());
        const QString exp = writeExperiment(
            dir, QStringLiteral("two"), endpointAt(QStringLiteral("sim:"), QStringLiteral("m")), load(8, 600, 8, 20));
        const QString project = dir.filePath(QStringLiteral("two.servescope"));
        const QStringList args { QStringLiteral("run"), exp, QStringLiteral("--project"), project,
            QStringLiteral("--sim-time-scale"), QStringLiteral("20") };
        QProcess a, b;
        a.start(cli(), args);
        b.start(cli(), args);
        const Outcome oa = finish(a), ob = finish(b);
        QVERIFY2(oa.exitCode == 0, oa.err.constData());
        QVERIFY2(ob.exitCode == 0, ob.err.constData());
        QVERIFY(!oa.err.contains("UNIQUE") && !ob.err.contains("UNIQUE"));
        const QMap<qint64, StoredRun> runs = storedRuns(project);
        QCOMPARE(runs.size(), 2);
        // One of them created the project whole; the other's staging copy is gone.
        QCOMPARE(dir.entryList({ QStringLiteral("two.servescope.creating-*") }, QDir::Files), QStringList());
        for (const StoredRun &r : runs) {
            QCOMPARE(r.status, QStringLiteral("finished"));
            QCOMPARE(r.stored, qint64(620)); // 600 measured + 20 warmup
            QCOMPARE(r.counted, r.stored);
        }
    }

    // The project's file cannot grow (a file-size limit on the writing process, as a full disk):
    // the load stops, the run is not recorded as finished, the project stays consistent and opens.
    void writeFailureStopsTheRun()
    {
        const QDir dir(m_dir.path());
        const QString exp = writeExperiment(
            dir, QStringLiteral("full"), endpointAt(QStringLiteral("sim:"), QStringLiteral("m")), load(16, 20000, 16));
        const QString project = dir.filePath(QStringLiteral("full.servescope"));
        QProcess p;
        p.setChildProcessModifier([] {
            std::signal(SIGXFSZ, SIG_IGN); // a write past the limit fails with EFBIG instead of killing
            rlimit limit { 512 * 1024, 512 * 1024 };
            setrlimit(RLIMIT_FSIZE, &limit);
        });
        p.start(cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--project"), project, QStringLiteral("--sim-time-scale"),
                QStringLiteral("50") });
        const Outcome o = finish(p);
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains("could not store the run"), o.err.constData());
        QVERIFY2(o.err.contains("the load was stopped"), o.err.constData());
        QString error;
        QVERIFY2(ProjectStore::verify(project, ProjectStore::Check::Full, &error), qPrintable(error));
        const QMap<qint64, StoredRun> runs = storedRuns(project);
        QCOMPARE(runs.size(), 1);
        const StoredRun r = runs.first();
        QVERIFY2(r.status != QLatin1String("finished"), qPrintable(r.status));
        QCOMPARE(r.counted, r.stored);
        QVERIFY(r.stored < 20000);
        const QString listed = listedStatus(project).value(runs.firstKey());
        QVERIFY2(listed == QLatin1String("failed") || listed == QLatin1String("interrupted"), qPrintable(listed));
    }

    // The project refuses a write mid-point the way a full disk does (SQLite ends the transaction: here a
    // trigger in the file rolls back every request insert from index 40 on). The results folder is written
    // from what the run measured, every value row and the point's result file whole; the project's summary
    // counts only the rows it holds and names the rest as lost.
    void fullProjectKeepsTheResultsFolder()
    {
        const QDir dir(m_dir.path());
        const QString project = dir.filePath(QStringLiteral("filling.servescope"));
        const QString first = writeExperiment(
            dir, QStringLiteral("before"), endpointAt(QStringLiteral("sim:"), QStringLiteral("m")), load(2, 4, 4));
        QProcess create;
        create.start(cli(), { QStringLiteral("run"), first, QStringLiteral("--project"), project });
        QCOMPARE(finish(create).exitCode, 0);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("filling"));
            db.setDatabaseName(project);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("CREATE TRIGGER filling BEFORE INSERT ON requests WHEN NEW.idx >= 40"
                                          " BEGIN SELECT RAISE(ROLLBACK, 'database or disk is full'); END")));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("filling"));

        const QString exp = writeExperiment(
            dir, QStringLiteral("filling"), endpointAt(QStringLiteral("sim:"), QStringLiteral("m")), load(8, 400, 64));
        const QString out = dir.filePath(QStringLiteral("filling-results"));
        QProcess p;
        p.start(cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out,
                QStringLiteral("--sim-time-scale"), QStringLiteral("50") });
        const Outcome o = finish(p);
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains("disk is full"), o.err.constData());
        const QList<QByteArray> fields = pointLine(o.out).split('\t');
        QVERIFY2(fields.size() > 4, o.out.constData());
        const int measured = fields.at(3).toInt() + fields.at(4).toInt();
        QVERIFY2(measured > 40, o.out.constData());

        // The results folder: the point's file holds every measured request, summary.csv its value row.
        QFile result(out + QStringLiteral("/baseline/c8-r1.json"));
        QVERIFY2(result.open(QIODevice::ReadOnly), qPrintable(result.fileName()));
        const QJsonObject file = QJsonDocument::fromJson(result.readAll()).object();
        QCOMPARE(
            file.value(QLatin1String("completed")).toInt() + file.value(QLatin1String("failed")).toInt(), measured);
        QCOMPARE(file.value(QLatin1String("ttfts")).toArray().size(), measured);
        QFile summary(out + QStringLiteral("/summary.csv"));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        QVERIFY2(summary.readAll().contains("baseline,c8,concurrency,8,0,1,vllm,value,"), "no value row");

        // The project: what it holds, counted as it holds it.
        const QString name = QStringLiteral("filling-read");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(project);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral(
                "SELECT p.completed, p.failed, p.cancelled, p.client, runs.requests,"
                " (SELECT count(*) FROM requests r WHERE r.run_id = runs.id AND r.warmup = 0 AND r.status = 0),"
                " (SELECT count(*) FROM requests r WHERE r.run_id = runs.id AND r.warmup = 0 AND r.status = 1),"
                " (SELECT count(*) FROM requests r WHERE r.run_id = runs.id AND r.warmup = 0"
                "  AND r.status = 2),"
                " (SELECT count(*) FROM requests r WHERE r.run_id = runs.id)"
                " FROM runs JOIN point_repeats p ON p.run_id = runs.id WHERE runs.name LIKE 'filling%'")));
            QVERIFY2(q.next(), "the point's summary is not stored");
            QCOMPARE(q.value(0).toInt(), q.value(5).toInt());
            QCOMPARE(q.value(1).toInt(), q.value(6).toInt());
            QCOMPARE(q.value(2).toInt(), q.value(7).toInt());
            QCOMPARE(q.value(4).toLongLong(), q.value(8).toLongLong());
            const QJsonObject client = QJsonDocument::fromJson(q.value(3).toByteArray()).object();
            const int lost = client.value(QLatin1String("requests_lost")).toInt();
            QVERIFY2(lost > 0, q.value(3).toByteArray().constData());
            // Lost: the measured requests the project does not hold (cancelled ones among them).
            QVERIFY(q.value(0).toInt() + q.value(1).toInt() < measured);
            QVERIFY(q.value(0).toInt() + q.value(1).toInt() + lost >= measured);
        }
        QSqlDatabase::removeDatabase(name);
    }

    // kill -9 at 10 moments of a run into one project: each run is interrupted or finished, every
    // request it committed is counted, and the project opens with its pages intact.
    void killedAtRandomMoments()
    {
        const QDir dir(m_dir.path());
        const QString exp = writeExperiment(
            dir, QStringLiteral("killed"), endpointAt(QStringLiteral("sim:"), QStringLiteral("m")), load(8, 20000, 8));
        const QString project = dir.filePath(QStringLiteral("killed.servescope"));
        QRandomGenerator random(31);
        for (int i = 0; i < 10; ++i) {
            QProcess p;
            p.start(cli(),
                { QStringLiteral("run"), exp, QStringLiteral("--project"), project, QStringLiteral("--sim-time-scale"),
                    QStringLiteral("20") });
            QVERIFY(p.waitForStarted(10000));
            QTest::qWait(int(random.bounded(600, 2500)));
            ::kill(pid_t(p.processId()), SIGKILL);
            p.waitForFinished(10000);
        }
        QString error;
        QVERIFY2(ProjectStore::verify(project, ProjectStore::Check::Full, &error), qPrintable(error));
        const QMap<qint64, StoredRun> runs = storedRuns(project);
        const QMap<qint64, QString> listed = listedStatus(project);
        int interrupted = 0;
        for (auto it = runs.cbegin(); it != runs.cend(); ++it) {
            QCOMPARE(it->counted, it->stored);
            const QString status = listed.value(it.key());
            QVERIFY2(status == QLatin1String("interrupted") || status == QLatin1String("finished"), qPrintable(status));
            interrupted += status == QLatin1String("interrupted");
        }
        QVERIFY(runs.size() >= 9); // a kill before the run was recorded leaves no run
        QVERIFY(interrupted >= 9);
    }

    // Killed while its second point runs: the CSV and the report say the run was interrupted, and the
    // second point is summarised from the requests it stored, marked partial, its counts those rows.
    void interruptedRunReportsItsStoredRequests()
    {
        const QDir dir(m_dir.path());
        const QString exp
            = writeExperiment(dir, QStringLiteral("cut"), endpointAt(QStringLiteral("sim:"), QStringLiteral("m")),
                QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 8, \"input_len\": 16, "
                               "\"output_len\": 8, \"num_prompts\": 200}, {\"concurrency\": 16, \"input_len\": 16, "
                               "\"output_len\": 8, \"num_prompts\": 100000}]}"));
        const QString project = dir.filePath(QStringLiteral("cut.servescope"));
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--project"), project, QStringLiteral("--sim-time-scale"),
                QStringLiteral("20") });
        QVERIFY(p.waitForStarted(10000));
        // Killed once the second point has stored some requests.
        QByteArray seen;
        QVERIFY(QTest::qWaitFor(
            [&] {
                seen += p.readAll();
                return seen.contains("[2/2] c16 r1/1 measuring | in-flight 16 ok ") && !seen.endsWith(" ok 0");
            },
            60000));
        // The second point's measured requests stored so far (a read-write connection: a read-only one
        // opened while the writer works can fail for good with "disk I/O error").
        const auto storedOfSecond = [&project] {
            qint64 n = -1;
            {
                QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("cut-count"));
                db.setDatabaseName(project);
                db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
                if (db.open()) {
                    QSqlQuery q(db);
                    if (q.exec(QStringLiteral("SELECT count(*) FROM requests WHERE point = 1 AND warmup = 0"))
                        && q.next())
                        n = q.value(0).toLongLong();
                }
                db.close();
            }
            QSqlDatabase::removeDatabase(QStringLiteral("cut-count"));
            return n;
        };
        // Killed once some are committed (however long the writer takes on a loaded machine).
        QVERIFY(QTest::qWaitFor([&] { return storedOfSecond() > 0; }, 60000));
        ::kill(pid_t(p.processId()), SIGKILL);
        p.waitForFinished(10000);
        const qint64 storedSecond = storedOfSecond();
        QVERIFY2(storedSecond > 0 && storedSecond < 100000, qPrintable(QString::number(storedSecond)));

        const QString csv = dir.filePath(QStringLiteral("cut.csv"));
        QProcess e;
        e.start(cli(),
            { QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--run"),
                QStringLiteral("1"), QStringLiteral("--csv"), csv });
        const Outcome o = finish(e);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QVERIFY(lines.first().endsWith(",run_status,partial,gpus,gpu_hour_price"));
        const QList<QByteArray> header = lines.first().split(',');
        const int completed = int(header.indexOf("completed")), failed = int(header.indexOf("failed"));
        int partialRows = 0, wholeRows = 0;
        for (const QByteArray &line : lines.mid(1)) {
            const QList<QByteArray> cells = line.split(',');
            QCOMPARE(cells.value(cells.size() - 4), QByteArray("interrupted"));
            QCOMPARE(cells.value(cells.size() - 2), QByteArray("1")); // one GPU, assumed
            QCOMPARE(cells.last(), QByteArray()); // no price
            if (cells.value(7) != "value" || cells.value(6) != "vllm")
                continue;
            if (cells.value(1) == "c16") {
                ++partialRows;
                QCOMPARE(cells.value(cells.size() - 3), QByteArray("1"));
                QCOMPARE(cells.value(completed).toLongLong() + cells.value(failed).toLongLong(), storedSecond);
            } else {
                ++wholeRows;
                QCOMPARE(cells.value(cells.size() - 3), QByteArray("0"));
                QCOMPARE(cells.value(completed).toLongLong(), 200);
            }
        }
        QCOMPARE(partialRows, 1);
        QCOMPARE(wholeRows, 1);

        const QString html = dir.filePath(QStringLiteral("cut.html"));
        QProcess r;
        r.start(cli(),
            { QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--run"),
                QStringLiteral("1"), QStringLiteral("--report"), html });
        QCOMPARE(finish(r).exitCode, 0);
        QFile h(html);
        QVERIFY(h.open(QIODevice::ReadOnly));
        const QByteArray report = h.readAll();
        QVERIFY(report.contains("interrupted (its process stopped)"));
        QVERIFY(report.contains(QByteArray(QByteArray::number(storedSecond) + " request")));
    }

    // A server stopped with SIGSTOP for 2 s, then resumed: every request is accounted for.
    void pausedServerLosesNothing()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--model"),
            QStringLiteral("servescope-sim") }));
        const QDir dir(m_dir.path());
        const QString exp = writeExperiment(dir, QStringLiteral("paused"),
            endpointAt(sim.url().toString(), QStringLiteral("servescope-sim")), load(4, 400, 16));
        QProcess p;
        p.start(cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--project"),
                dir.filePath(QStringLiteral("paused.servescope")) });
        QVERIFY(p.waitForStarted(10000));
        QTest::qWait(700);
        ::kill(pid_t(sim.pid()), SIGSTOP);
        QTest::qWait(2000);
        ::kill(pid_t(sim.pid()), SIGCONT);
        const Outcome o = finish(p);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QList<QByteArray> last = o.out.trimmed().split('\n').last().split('\t');
        QCOMPARE(last.value(2), QByteArray("finished"));
        QCOMPARE(last.value(3).toInt() + last.value(4).toInt(), 400);
    }

    // A gateway that returns the whole stream at once, or in 4 KiB blocks: named buffered-stream,
    // TPOT and ITL printed as nan, `check --smoke` says so. Straight to the server: none of it.
    void bufferedStreamIsNamed_data()
    {
        QTest::addColumn<int>("mode"); // -1 none, else BufferingProxy::Mode
        QTest::newRow("direct") << -1;
        QTest::newRow("whole response") << int(BufferingProxy::Mode::Whole);
        QTest::newRow("4 KiB blocks") << int(BufferingProxy::Mode::Blocks);
    }
    void bufferedStreamIsNamed()
    {
        QFETCH(int, mode);
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("2"), QStringLiteral("--model"),
            QStringLiteral("servescope-sim") }));
        std::unique_ptr<BufferingProxy> proxy;
        QString base = sim.url().toString();
        if (mode >= 0) {
            proxy = std::make_unique<BufferingProxy>(quint16(sim.url().port()), BufferingProxy::Mode(mode));
            base = QStringLiteral("http://127.0.0.1:%1").arg(proxy->port());
        }
        const QDir dir(m_dir.path());
        const QString exp = writeExperiment(
            dir, QStringLiteral("buffered"), endpointAt(base, QStringLiteral("servescope-sim")), load(2, 8, 64));
        const QString project = dir.filePath(QStringLiteral("buffered-%1.servescope").arg(mode));
        const QString results = dir.filePath(QStringLiteral("buffered-%1-results").arg(mode));
        QProcess p;
        p.start(cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), results });
        const Outcome o = finish(p);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QList<QByteArray> fields = pointLine(o.out).split('\t');
        QCOMPARE(fields.size(), 16);
        const bool buffered = mode >= 0;
        QCOMPARE(o.err.contains("buffered-stream"), buffered);
        QCOMPARE(o.err.contains("healthy"), false); // one point: no curve to call healthy
        QCOMPARE(fields.at(9) == "-", buffered); // median_tpot_ms: withheld, never "nan"
        QCOMPARE(fields.at(10) == "-", buffered); // median_itl_ms
        if (!buffered)
            QVERIFY(fields.at(9).toDouble() > 0);

        // Every output holds the same verdict on the decode timings: the stored summary, the point's
        // result file and summary.csv (NaN, null, an empty field); TTFT and E2EL stay.
        ProjectStore store;
        QVERIFY2(store.open(project), qPrintable(store.errorString()));
        QVector<PointSummary> stored;
        QVERIFY(store.pointSummaries(1, &stored));
        QCOMPARE(stored.size(), 1);
        QCOMPARE(std::isnan(stored[0].tpot.median), buffered);
        QCOMPARE(std::isnan(stored[0].itl.p99), buffered);
        QCOMPARE(std::isnan(stored[0].citl.mean), buffered);
        QCOMPARE(std::isnan(stored[0].atpot.median), buffered); // the answer's TPOT: the buffer's too
        QVERIFY(buffered || stored[0].atpot.median > 0);
        QVERIFY(stored[0].ttft.median > 0 && stored[0].e2el.median > 0);
        QDirIterator files(results, { QStringLiteral("*.json") }, QDir::Files, QDirIterator::Subdirectories);
        QJsonObject point;
        while (files.hasNext()) {
            QFile f(files.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
            if (o.contains(QStringLiteral("median_tpot_ms")))
                point = o;
        }
        QVERIFY(!point.isEmpty());
        QCOMPARE(point.value(QStringLiteral("median_tpot_ms")).isNull(), buffered);
        QCOMPARE(point.value(QStringLiteral("p99_itl_ms")).isNull(), buffered);
        QVERIFY(point.value(QStringLiteral("median_ttft_ms")).toDouble() > 0);
        QFile csv(QDir(results).filePath(QStringLiteral("summary.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> csvLines = csv.readAll().split('\n');
        const QList<QByteArray> header = csvLines.value(0).split(',');
        const qsizetype tpotColumn = header.indexOf("p50_tpot_ms");
        QVERIFY(tpotColumn > 0);
        QCOMPARE(csvLines.value(1).split(',').value(tpotColumn).isEmpty(), buffered); // unknown: an empty field
        // The report says "—" with the reason, never "nan".
        const QString report = dir.filePath(QStringLiteral("buffered-%1.html").arg(mode));
        QProcess exporter;
        exporter.start(cli(),
            { QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--run"),
                QStringLiteral("1"), QStringLiteral("--report"), report });
        const Outcome e = finish(exporter);
        QVERIFY2(e.exitCode == 0, e.err.constData());
        QFile html(report);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray page = html.readAll();
        QVERIFY(!page.contains(">nan<"));
        QCOMPARE(page.contains("—: withheld."), buffered);

        QProcess check;
        check.start(cli(),
            { QStringLiteral("check"), QStringLiteral("--base-url"), base, QStringLiteral("--model"),
                QStringLiteral("servescope-sim"), QStringLiteral("--path"), QStringLiteral("/v1/completions"),
                QStringLiteral("--smoke") });
        const Outcome c = finish(check);
        QVERIFY2(c.exitCode == 0, c.out.constData());
        QVERIFY2(c.out.contains(buffered ? "stream_buffered\tyes" : "stream_buffered\tno"), c.out.constData());
    }

    // A server echoing the key raw, JSON-escaped, percent-encoded, base64, cut short and by its tail:
    // none of it reaches the project, the result files, the reports and CSV exported from the run,
    // stdout or stderr.
    void echoedKeyIsNowhere()
    {
        KeyEchoServer server;
        const QByteArray key = "sk-echo/Key+Value=0123456789abcdefXYZ";
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ECHO_KEY"), QString::fromLatin1(key));
        const QDir dir(m_dir.path());
        const QString exp = writeExperiment(dir, QStringLiteral("echo"),
            endpointAt(QStringLiteral("http://127.0.0.1:%1").arg(server.port()), QStringLiteral("m"),
                QStringLiteral("ECHO_KEY")),
            load(1, 9, 8));
        const QString project = dir.filePath(QStringLiteral("echo.servescope"));
        const QString results = dir.filePath(QStringLiteral("echo-results"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), results });
        const Outcome o = finish(p);
        QVERIFY2(o.out.contains("\tfinished\t3\t6") || o.out.contains("\tfailed\t"), o.out.constData());
        QVERIFY(o.err.contains("***"));
        QList<QPair<QString, QByteArray>> outputs { { QStringLiteral("stdout"), o.out },
            { QStringLiteral("stderr"), o.err } };
        for (const QString &path : QStringList { project, project + QStringLiteral("-wal") }) {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly))
                outputs << qMakePair(path, f.readAll());
        }
        // The run's exports: the report (HTML: the PDF's text is the same document, compressed) and CSV.
        for (const auto &[option, name] :
            { std::pair { "--report", "echo.html" }, std::pair { "--csv", "echo.csv" } }) {
            QProcess e;
            e.start(cli(),
                { QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--run"),
                    QStringLiteral("1"), QLatin1String(option), dir.filePath(QLatin1String(name)) });
            const Outcome x = finish(e);
            QVERIFY2(x.exitCode == 0, x.err.constData());
            outputs << qMakePair(QStringLiteral("export stderr"), x.err);
            QFile f(dir.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::ReadOnly));
            outputs << qMakePair(f.fileName(), f.readAll());
        }
        QDirIterator files(results, QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString path = files.next();
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            outputs << qMakePair(path, f.readAll());
        }
        QVERIFY(outputs.size() >= 9);
        // Every echoed form, and the key's longer runs in any of them.
        QList<QByteArray> forbidden = KeyEchoServer::forms(key);
        forbidden << key.mid(4, 12) << key.right(8);
        for (const auto &[where, bytes] : std::as_const(outputs)) {
            for (const QByteArray &form : std::as_const(forbidden))
                QVERIFY2(
                    !bytes.contains(form), qPrintable(where + QStringLiteral(" holds ") + QString::fromLatin1(form)));
        }
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
