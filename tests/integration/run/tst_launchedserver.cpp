// SPDX-License-Identifier: MIT
// `servescope-cli run --allow-launch`: each variant's server started from server.launch.argv (here
// `servescope-cli sim` itself on the base URL's port), its lines stored in the project, its readiness
// waited for, its settings read back, and the process gone after the run, a cancel or our death.
#include "freeport.h"
#include "simchild.h"

#include "report/storeinput.h"
#include "storage/projectstore.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>

using namespace ServeScope;

namespace {

/// False once the process is gone or a zombie nobody reaped yet.
bool alive(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.size() > close + 2 && text.at(close + 2) != 'Z';
}

bool goneWithin(qint64 pid, int ms)
{
    for (QDeadlineTimer d(ms); !d.hasExpired(); QThread::msleep(50)) {
        if (!alive(pid))
            return true;
    }
    return !alive(pid);
}

QList<qint64> launchedPids(const QByteArray &err)
{
    static const QRegularExpression re(QStringLiteral("launched server pid (\\d+):"));
    QList<qint64> pids;
    auto it = re.globalMatch(QString::fromUtf8(err));
    while (it.hasNext())
        pids << it.next().captured(1).toLongLong();
    return pids;
}

} // namespace

class TestLaunchedServer final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    struct Outcome {
        int exitCode = -1;
        QByteArray out, err;
    };

    /// An experiment whose server is `servescope-cli sim` on `port`, launched with `argv` after the program.
    QString writeExperiment(const QString &name, quint16 port, const QStringList &simArgs, const QJsonObject &args,
        const QJsonArray &variants, int numPrompts = 12, double readyTimeout = 30, int outputLen = 4)
    {
        QJsonArray argv { SimChild::cli(), QStringLiteral("sim"), QStringLiteral("--port"), QStringLiteral("{port}"),
            QStringLiteral("--model"), QStringLiteral("m") };
        for (const QString &a : simArgs)
            argv << a;
        const QJsonObject x {
            { QStringLiteral("name"), name },
            { QStringLiteral("endpoint"),
                QJsonObject { { QStringLiteral("base_url"), QStringLiteral("http://127.0.0.1:%1").arg(port) },
                    { QStringLiteral("model"), QStringLiteral("m") } } },
            { QStringLiteral("server"),
                QJsonObject { { QStringLiteral("engine"), QStringLiteral("sim") }, { QStringLiteral("args"), args },
                    { QStringLiteral("launch"),
                        QJsonObject { { QStringLiteral("argv"), argv },
                            { QStringLiteral("ready"), QStringLiteral("/health") },
                            { QStringLiteral("ready_timeout_s"), readyTimeout },
                            { QStringLiteral("env"),
                                QJsonObject { { QStringLiteral("SIM_NOTE"), QStringLiteral("x") } } },
                            { QStringLiteral("cwd"), m_dir.path() } } } } },
            { QStringLiteral("dataset"), QJsonObject { { QStringLiteral("name"), QStringLiteral("random") } } },
            { QStringLiteral("load"),
                QJsonObject { { QStringLiteral("mode"), QStringLiteral("concurrency") },
                    { QStringLiteral("points"),
                        QJsonArray { QJsonObject { { QStringLiteral("concurrency"), 4 },
                            { QStringLiteral("input_len"), 16 }, { QStringLiteral("output_len"), outputLen },
                            { QStringLiteral("num_prompts"), numPrompts } } } } } },
            { QStringLiteral("variants"), variants },
        };
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(QJsonDocument(x).toJson());
        return path;
    }

    static Outcome run(const QString &experiment, const QStringList &extra = { QStringLiteral("--allow-launch") })
    {
        QProcess p;
        p.start(SimChild::cli(), QStringList { QStringLiteral("run"), experiment } + extra);
        p.waitForFinished(120000);
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError() };
    }

    static QVector<ServerLogLine> logsOf(const QString &experiment)
    {
        ProjectStore store;
        QVector<ServerLogLine> logs;
        const QString project = QString(experiment).replace(QStringLiteral(".json"), QStringLiteral(".servescope"));
        if (store.open(project))
            store.serverLogs(1, &logs);
        return logs;
    }

    static int countLines(const QVector<ServerLogLine> &logs, const QString &stream, const QString &part)
    {
        int n = 0;
        for (const ServerLogLine &l : logs)
            n += l.stream == stream && l.line.contains(part);
        return n;
    }

    /// Starts `run` and returns once the launched server is ready and the point measuring, with its pid.
    static qint64 startUntilMeasuring(QProcess &p, const QString &experiment, QByteArray *err)
    {
        p.start(SimChild::cli(), { QStringLiteral("run"), experiment, QStringLiteral("--allow-launch") });
        for (QDeadlineTimer d(30000); !d.hasExpired() && !err->contains(" measuring ");) {
            p.setReadChannel(QProcess::StandardError);
            p.waitForReadyRead(200);
            *err += p.readAllStandardError();
        }
        const QList<qint64> pids = launchedPids(*err);
        return err->contains("server ready after") && pids.size() == 1 ? pids.first() : 0;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
    }

    // Two variants, two launches with their own args; lines stored; readiness waited (the server
    // listens only after 1.2 s); both children gone after the run.
    void eachVariantLaunchesItsServer()
    {
        const quint16 port = Testing::unusedPort();
        const QString x = writeExperiment(QStringLiteral("two"), port,
            { QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--max-num-seqs"),
                QStringLiteral("{server.args.max_num_seqs}"), QStringLiteral("--listen-delay-ms"),
                QStringLiteral("1200") },
            QJsonObject { { QStringLiteral("max_num_seqs"), 8 } },
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } },
                QJsonObject { { QStringLiteral("name"), QStringLiteral("seqs-2") },
                    { QStringLiteral("changes"),
                        QJsonObject { { QStringLiteral("server.args.max_num_seqs"), 2 } } } } });
        const Outcome o = run(x);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY2(o.out.contains("run\t1\tfinished\t24\t0"), o.out.constData());
        const QList<qint64> pids = launchedPids(o.err);
        QCOMPARE(pids.size(), 2);
        QVERIFY(pids[0] != pids[1]);
        for (qint64 pid : pids)
            QVERIFY2(goneWithin(pid, 2000), qPrintable(QString::number(pid)));
        QVERIFY(o.err.contains("--max-num-seqs 8 --listen-delay-ms 1200"));
        QVERIFY(o.err.contains("--max-num-seqs 2 --listen-delay-ms 1200"));
        static const QRegularExpression ready(QStringLiteral("server ready after ([0-9.]+) s"));
        auto it = ready.globalMatch(QString::fromUtf8(o.err));
        int readies = 0;
        while (it.hasNext()) {
            QVERIFY(it.next().captured(1).toDouble() >= 1.1);
            ++readies;
        }
        QCOMPARE(readies, 2);
        QVERIFY(o.err.contains("max_num_seqs 8 (/metrics)"));
        QVERIFY(o.err.contains("max_num_seqs 2 (/metrics)"));

        const QVector<ServerLogLine> logs = logsOf(x);
        const QString listening = QStringLiteral("listening http://127.0.0.1:%1").arg(port);
        QCOMPARE(countLines(logs, QStringLiteral("stdout"), listening), 2);
        QCOMPARE(countLines(logs, QStringLiteral("stderr"), QStringLiteral("max-num-seqs 8,")), 1);
        QCOMPARE(countLines(logs, QStringLiteral("stderr"), QStringLiteral("max-num-seqs 2,")), 1);
        QCOMPARE(countLines(logs, QStringLiteral("stderr"), QStringLiteral("servescope-cli sim: stopped")), 2);
        QCOMPARE(countLines(logs, QStringLiteral("launch"), QStringLiteral("pid %1: ").arg(pids[0])), 1);
        QCOMPARE(countLines(logs, QStringLiteral("launch"), QStringLiteral("pid %1: ").arg(pids[1])), 1);
    }

    // Without --allow-launch nothing is started: the note, and no server answers.
    void launchNeedsTheFlag()
    {
        const quint16 port = Testing::unusedPort();
        const QString x = writeExperiment(QStringLiteral("noflag"), port, {}, QJsonObject {},
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } }, 2);
        const Outcome o = run(x, {});
        QVERIFY(o.err.contains("not running the experiment's launch command without --allow-launch"));
        QVERIFY(!o.err.contains("launched server pid"));
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.out.contains("run\t1\tfailed\t0\t2"), o.out.constData());
    }

    void settingMismatchStopsTheRun_data()
    {
        QTest::addColumn<QStringList>("simArgs");
        QTest::addColumn<QString>("arg");
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("vllm max_num_seqs")
            << QStringList { QStringLiteral("--max-num-seqs"), QStringLiteral("4") } << QStringLiteral("max_num_seqs")
            << 8 << QStringLiteral("server.args.max_num_seqs is 8 but the server runs with 4 (/metrics)");
        QTest::newRow("vllm max_model_len")
            << QStringList { QStringLiteral("--max-model-len"), QStringLiteral("2048") }
            << QStringLiteral("max_model_len") << 4096
            << QStringLiteral("server.args.max_model_len is 4096 but the server runs with 2048 (/v1/models)");
        QTest::newRow("sglang max_running_requests")
            << QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang"),
                   QStringLiteral("--max-running-requests"), QStringLiteral("4") }
            << QStringLiteral("max_running_requests") << 8
            << QStringLiteral("server.args.max_running_requests is 8 but the server runs with 4 (/get_server_info)");
        QTest::newRow("sglang context_length")
            << QStringList { QStringLiteral("--flavor"), QStringLiteral("sglang"), QStringLiteral("--context-length"),
                   QStringLiteral("1024") }
            << QStringLiteral("context_length") << 4096
            << QStringLiteral("server.args.context_length is 4096 but the server runs with 1024 (/get_server_info)");
    }

    // The argv does not pass the variant's value: the run stops before any point, exit 1, and says why.
    void settingMismatchStopsTheRun()
    {
        QFETCH(QStringList, simArgs);
        QFETCH(QString, arg);
        QFETCH(int, value);
        QFETCH(QString, message);
        const QString x = writeExperiment(QStringLiteral("mismatch-%1").arg(arg), Testing::unusedPort(), simArgs,
            QJsonObject { { arg, value } },
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } });
        const Outcome o = run(x);
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(message.toUtf8()), o.err.constData());
        QVERIFY(o.err.contains("stopping the run"));
        QVERIFY2(o.out.contains("run\t1\tfailed\t0\t0"), o.out.constData());
        const QList<qint64> pids = launchedPids(o.err);
        QCOMPARE(pids.size(), 1);
        QVERIFY(goneWithin(pids.first(), 2000));
    }

    // A server that exits before it is ready: its exit code and last lines, stored and printed.
    void earlyExitIsReported()
    {
        const QString x
            = writeExperiment(QStringLiteral("early"), Testing::unusedPort(), { QStringLiteral("--no-such-flag") },
                QJsonObject {}, QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } });
        const Outcome o = run(x);
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains("exited with code 2 before it was ready; its last lines:"), o.err.constData());
        QVERIFY(o.err.contains("Unknown option 'no-such-flag'"));
        QCOMPARE(countLines(logsOf(x), QStringLiteral("stderr"), QStringLiteral("Unknown option 'no-such-flag'")), 1);
    }

    // The launch env and cwd reach the server; the run's API key never reaches the project or the
    // output, even when the server prints it raw, JSON-escaped, percent-encoded, base64, cut short or
    // by its tail (here a shell the experiment asks for prints each before exec'ing the simulator).
    void environmentFolderAndScrubbing()
    {
        const quint16 port = Testing::unusedPort();
        QString x = writeExperiment(QStringLiteral("shell"), port, {}, QJsonObject {},
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } }, 4);
        QFile f(x);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QJsonObject endpoint = doc.value(QStringLiteral("endpoint")).toObject();
        endpoint.insert(QStringLiteral("api_key_env"), QStringLiteral("SERVESCOPE_TEST_LAUNCH_KEY"));
        doc.insert(QStringLiteral("endpoint"), endpoint);
        QJsonObject server = doc.value(QStringLiteral("server")).toObject();
        QJsonObject launch = server.value(QStringLiteral("launch")).toObject();
        launch.insert(QStringLiteral("argv"),
            QJsonArray { QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                QStringLiteral(
                    "K=$SERVESCOPE_TEST_LAUNCH_KEY; echo \"env=$SIM_NOTE cwd=$(pwd) key=$K\"; "
                    "echo \"json=$(printf %s \"$K\" | sed 's,/,\\\\/,g')\"; "
                    "echo \"pct=$(printf %s \"$K\" | sed 's,/,%2F,g; s,+,%2B,g; s,=,%3D,g')\"; "
                    "echo \"b64=$(printf %s \"$K\" | base64 -w0)\"; "
                    "echo \"short=$(printf %s \"$K\" | head -c -4) tail=$(printf %s \"$K\" | cut -c5-)\" >&2; "
                    "exec \"$0\" sim --port {port} --model m --time-scale 20"),
                SimChild::cli() });
        server.insert(QStringLiteral("launch"), launch);
        doc.insert(QStringLiteral("server"), server);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(doc).toJson());
        f.close();

        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QByteArray key = "sk-launch/Secret+1234=abcdEFGH";
        env.insert(QStringLiteral("SERVESCOPE_TEST_LAUNCH_KEY"), QString::fromLatin1(key));
        p.setProcessEnvironment(env);
        p.start(SimChild::cli(), { QStringLiteral("run"), x, QStringLiteral("--allow-launch") });
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0, err.constData());
        const QVector<ServerLogLine> logs = logsOf(x);
        const QString expected = QStringLiteral("env=x cwd=%1 key=***").arg(m_dir.path());
        QCOMPARE(countLines(logs, QStringLiteral("stdout"), expected), 1);
        QCOMPARE(countLines(logs, QStringLiteral("stdout"), QStringLiteral("json=***")), 1);
        QCOMPARE(countLines(logs, QStringLiteral("stdout"), QStringLiteral("pct=***")), 1);
        QCOMPARE(countLines(logs, QStringLiteral("stdout"), QStringLiteral("b64=***")), 1);
        QCOMPARE(countLines(logs, QStringLiteral("stderr"), QStringLiteral("short=*** tail=***")), 1);
        QFile project(QString(x).replace(QStringLiteral(".json"), QStringLiteral(".servescope")));
        QVERIFY(project.open(QIODevice::ReadOnly));
        const QByteArray stored = project.readAll();
        QByteArray slashed = key;
        slashed.replace("/", "\\/");
        for (const QByteArray &form : { key, slashed, key.toPercentEncoding(), key.toBase64(), key.left(key.size() - 4),
                 key.mid(4), key.mid(4, 12), key.right(8) }) {
            QVERIFY2(!err.contains(form), form.constData());
            QVERIFY2(!stored.contains(form), form.constData());
        }
    }

    // Never ready within server.launch.ready_timeout_s: the run stops and the server is stopped.
    void readinessTimesOut()
    {
        const QString x = writeExperiment(QStringLiteral("slow"), Testing::unusedPort(),
            { QStringLiteral("--listen-delay-ms"), QStringLiteral("20000") }, QJsonObject {},
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } }, 4, 1.0);
        QElapsedTimer clock;
        clock.start();
        const Outcome o = run(x);
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains("was not ready after 1 s: GET http://127.0.0.1:"), o.err.constData());
        QVERIFY(clock.elapsed() < 15000);
        const QList<qint64> pids = launchedPids(o.err);
        QCOMPARE(pids.size(), 1);
        QVERIFY(goneWithin(pids.first(), 2000));
    }

    // Ctrl-C during a point: the run ends cancelled and takes its server with it.
    void cancelStopsTheServer()
    {
        const QString x = writeExperiment(QStringLiteral("cancel"), Testing::unusedPort(), {}, QJsonObject {},
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } }, 2000);
        QProcess p;
        QByteArray err;
        const qint64 pid = startUntilMeasuring(p, x, &err);
        QVERIFY2(pid > 0, err.constData());
        QVERIFY(alive(pid));
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 130);
        QVERIFY(goneWithin(pid, 2000));
    }

    // A server that dies while its points run: the run stops and says so with its last lines, stores the exit,
    // and its findings (printed, and read back from the project as the window and the report read them) name it
    // on the variant, which is not called healthy.
    void serverDeathStopsTheRun()
    {
        const QString x = writeExperiment(QStringLiteral("dies"), Testing::unusedPort(), {}, QJsonObject {},
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } }, 2000);
        QProcess p;
        QByteArray err;
        const qint64 pid = startUntilMeasuring(p, x, &err);
        QVERIFY2(pid > 0, err.constData());
        ::kill(pid_t(pid), SIGKILL);
        QVERIFY(p.waitForFinished(60000));
        err += p.readAllStandardError();
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(
            err.contains(QStringLiteral("the server (pid %1) was killed by a signal while the run used it; its last "
                                        "lines:")
                             .arg(pid)
                             .toUtf8()),
            err.constData());
        QVERIFY2(err.contains("finding: server-exited\tbaseline\tc4\tsignal=9\n"), err.constData());
        QVERIFY2(!err.contains("finding: healthy"), err.constData());
        const QVector<ServerLogLine> logs = logsOf(x);
        QCOMPARE(countLines(logs, QStringLiteral("exit"), QStringLiteral("\"signal\":9")), 1);
        ProjectStore store;
        QVERIFY(store.open(m_dir.filePath(QStringLiteral("dies.servescope"))));
        Report::ReportRun stored;
        QVERIFY(Report::loadReportRun(store, 1, &stored));
        const auto exit = std::find_if(stored.findings.cbegin(), stored.findings.cend(),
            [](const RunFinding &f) { return f.code == QLatin1String("server-exited"); });
        QVERIFY(exit != stored.findings.cend());
        QCOMPARE(exit->variant, QStringLiteral("baseline"));
        QCOMPARE(exit->value(QStringLiteral("signal")), 9.0);
        QVERIFY(std::none_of(stored.findings.cbegin(), stored.findings.cend(),
            [](const RunFinding &f) { return f.code == QLatin1String("healthy"); }));
    }

    // A "sim:" endpoint with server.engine sglang starts the simulator's sglang flavour, under SGLang's
    // flag names, and the run scrapes SGLang's series from it.
    void simEndpointTakesTheEngineFlavour()
    {
        const QJsonObject x {
            { QStringLiteral("name"), QStringLiteral("sgl") },
            { QStringLiteral("endpoint"),
                QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                    { QStringLiteral("model"), QStringLiteral("m") },
                    { QStringLiteral("dialect"), QStringLiteral("sglang") } } },
            { QStringLiteral("server"),
                QJsonObject { { QStringLiteral("engine"), QStringLiteral("sglang") },
                    { QStringLiteral("args"),
                        QJsonObject { { QStringLiteral("max_num_seqs"), 3 },
                            { QStringLiteral("enable_prefix_caching"), false } } } } },
            { QStringLiteral("load"),
                QJsonObject { { QStringLiteral("points"),
                    QJsonArray {
                        QJsonObject { { QStringLiteral("concurrency"), 6 }, { QStringLiteral("input_len"), 16 },
                            { QStringLiteral("output_len"), 64 }, { QStringLiteral("num_prompts"), 36 } } } } } },
            { QStringLiteral("variants"),
                QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("b") } } } },
        };
        const QString path = m_dir.filePath(QStringLiteral("sgl.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(x).toJson());
        f.close();
        const Outcome o = run(path, { QStringLiteral("--sim-time-scale"), QStringLiteral("5") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY2(o.err.contains("--flavor sglang --disable-radix-cache --max-running-requests 3"), o.err.constData());
        ProjectStore store;
        QVERIFY(store.open(m_dir.filePath(QStringLiteral("sgl.servescope"))));
        QVector<ServerMetricSample> samples;
        QVERIFY(store.serverMetricSamples(1, &samples));
        double most = -1;
        for (const ServerMetricSample &s : samples) {
            QVERIFY2(!s.name.startsWith(QLatin1String("vllm:")), qPrintable(s.name));
            if (s.name == QLatin1String("sglang:num_running_reqs"))
                most = qMax(most, s.value);
        }
        QCOMPARE(most, 3.0);
    }

    // A launched server without /metrics: its scheduler log lines become the run's server series
    // (stored with source "log") and the point's summary, with running and waiting as the server
    // counted them (2 slots for 4 streams: 2 running, up to 2 waiting).
    void fallbackSeriesFromTheSchedulerLog_data()
    {
        QTest::addColumn<QStringList>("simArgs");
        QTest::addColumn<QString>("running");
        QTest::addColumn<QString>("waiting");
        // vLLM's engine line comes every 10 s of model time: every 0.5 s at --time-scale 20.
        QTest::newRow("vllm engine line")
            << QStringList { QStringLiteral("--no-metrics"), QStringLiteral("--max-num-seqs"), QStringLiteral("2"),
                   QStringLiteral("--time-scale"), QStringLiteral("20") }
            << QStringLiteral("vllm:num_requests_running") << QStringLiteral("vllm:num_requests_waiting");
        QTest::newRow("sglang batch lines")
            << QStringList { QStringLiteral("--no-metrics"), QStringLiteral("--flavor"), QStringLiteral("sglang"),
                   QStringLiteral("--max-running-requests"), QStringLiteral("2"), QStringLiteral("--time-scale"),
                   QStringLiteral("20") }
            << QStringLiteral("sglang:num_running_reqs") << QStringLiteral("sglang:num_queue_reqs");
    }
    void fallbackSeriesFromTheSchedulerLog()
    {
        QFETCH(QStringList, simArgs);
        QFETCH(QString, running);
        QFETCH(QString, waiting);
        const QString name = QStringLiteral("fallback-") + QString::fromLatin1(QTest::currentDataTag()).left(4);
        const QString x = writeExperiment(name, Testing::unusedPort(), simArgs, QJsonObject {},
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } }, 48, 30, 128);
        const Outcome o = run(x);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QCOMPARE(o.err.count("/metrics did not answer with known series: the server's running and waiting requests "
                             "and KV cache usage come from its scheduler log lines"),
            1);
        ProjectStore store;
        QVERIFY(store.open(QString(x).replace(QStringLiteral(".json"), QStringLiteral(".servescope"))));
        QVector<ServerMetricSample> samples;
        QVERIFY(store.serverMetricSamples(1, &samples));
        QMap<QString, double> most;
        for (const ServerMetricSample &s : std::as_const(samples)) {
            QCOMPARE(s.source, QStringLiteral("log")); // nothing came from a /metrics that answers 404
            most[s.name] = qMax(most.value(s.name, -1), s.value);
        }
        QCOMPARE(most.value(running, -1), 2.0);
        QVERIFY2(
            most.value(waiting, -1) >= 1 && most.value(waiting) <= 2, qPrintable(QString::number(most.value(waiting))));
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.size(), 1);
        const QMap<QString, double> &server = summaries.first().server;
        QCOMPARE(server.value(QStringLiteral("from_log")), 1.0);
        QVERIFY(server.value(QStringLiteral("samples")) >= 1);
        QCOMPARE(server.value(QStringLiteral("running_max")), 2.0);
        QVERIFY(server.value(QStringLiteral("running_mean")) > 1 && server.value(QStringLiteral("running_mean")) <= 2);
        QVERIFY(
            server.value(QStringLiteral("waiting_max"), -1) >= 1 && server.value(QStringLiteral("waiting_max")) <= 2);
        QVERIFY(server.contains(QStringLiteral("kv_usage_max")));
    }

    // A launched server whose /metrics answers keeps its scraped series: the log is not used.
    void scrapedSeriesNeedNoLog()
    {
        const QString x = writeExperiment(QStringLiteral("scraped"), Testing::unusedPort(),
            { QStringLiteral("--max-num-seqs"), QStringLiteral("2"), QStringLiteral("--time-scale"),
                QStringLiteral("20") },
            QJsonObject {}, QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } }, 48,
            30, 128);
        const Outcome o = run(x);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY(!o.err.contains("come from its scheduler log lines"));
        ProjectStore store;
        QVERIFY(store.open(QString(x).replace(QStringLiteral(".json"), QStringLiteral(".servescope"))));
        QVector<ServerMetricSample> samples;
        QVERIFY(store.serverMetricSamples(1, &samples));
        QVERIFY(!samples.isEmpty());
        for (const ServerMetricSample &s : std::as_const(samples))
            QCOMPARE(s.source, QStringLiteral("metrics"));
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QVERIFY(!summaries.first().server.contains(QStringLiteral("from_log")));
        QCOMPARE(summaries.first().server.value(QStringLiteral("running_max")), 2.0);
        // The engine lines were written all the same, and kept as log lines.
        QVERIFY(countLines(logsOf(x), QStringLiteral("stderr"), QStringLiteral("Avg prompt throughput:")) >= 1);
    }

    // ServeScope killed outright: the parent-death signal stops its server.
    void deathStopsTheServer()
    {
        const QString x = writeExperiment(QStringLiteral("death"), Testing::unusedPort(), {}, QJsonObject {},
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("baseline") } } }, 2000);
        QProcess p;
        QByteArray err;
        const qint64 pid = startUntilMeasuring(p, x, &err);
        QVERIFY2(pid > 0, err.constData());
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));
        QVERIFY(goneWithin(pid, 5000));
    }
};

QTEST_GUILESS_MAIN(TestLaunchedServer)
#include "tst_launchedserver.moc"
