// SPDX-License-Identifier: MIT
// Bounded memory and work: the SSE event cap against a simulator that sends a 50 MB line (peak RSS
// of the `run` process measured, not timed), and validation against this machine's descriptor limit.
#include "simchild.h"

#include "storage/projectstore.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

using namespace ServeScope;

namespace {

constexpr qint64 kLine = 50LL * 1024 * 1024;

/// Peak resident set (VmHWM) of a live process in bytes; -1 once it is gone.
qint64 peakRss(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    return -1;
}

} // namespace

class TestCliLimits final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString writeExperiment(const QString &name, const QUrl &base, int concurrency, int maxEventBytes)
    {
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(QStringLiteral("{\"name\":\"%1\",\"endpoint\":{\"base_url\":\"%2\",\"path\":\"/v1/chat/completions\","
                               "\"model\":\"servescope-sim-7b\"},\"dataset\":{\"name\":\"random\",\"seed\":3},"
                               "\"load\":{\"mode\":\"concurrency\",\"points\":[{\"concurrency\":%3,\"input_len\":16,"
                               "\"output_len\":4,\"num_prompts\":%3}],\"max_event_bytes\":%4},"
                               "\"variants\":[{\"name\":\"baseline\"}]}")
                    .arg(name, base.toString())
                    .arg(concurrency)
                    .arg(maxEventBytes)
                    .toUtf8());
        return path;
    }

    struct Measured {
        int exitCode = -1;
        qint64 peak = -1;
        QByteArray err;
    };

    /// Runs `servescope-cli ARGS` and samples its peak RSS until it exits.
    static Measured measure(const QStringList &args)
    {
        QProcess p;
        p.start(SimChild::cli(), args);
        Measured m;
        if (!p.waitForStarted(10000))
            return m;
        const qint64 pid = p.processId();
        while (!p.waitForFinished(10))
            m.peak = std::max(m.peak, peakRss(pid));
        m.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        m.err = p.readAllStandardError();
        return m;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
    }

    void fiftyMegabyteLine_data()
    {
        QTest::addColumn<int>("streams");
        QTest::addColumn<int>("maxEventBytes");
        QTest::addColumn<bool>("bounded");
        QTest::newRow("default cap, 4 streams") << 4 << (1 << 20) << true;
        // The control: a cap above the line keeps it, and the measurement sees what that costs.
        QTest::newRow("cap above the line, 1 stream") << 1 << (128 << 20) << false;
    }

    void fiftyMegabyteLine()
    {
        QFETCH(int, streams);
        QFETCH(int, maxEventBytes);
        QFETCH(bool, bounded);
        SimChild quietSim;
        QVERIFY(quietSim.start({ QStringLiteral("--time-scale"), QStringLiteral("50") }));
        const QString quiet = writeExperiment(QStringLiteral("quiet"), quietSim.url(), streams, maxEventBytes);
        const Measured base = measure({ QStringLiteral("run"), quiet, QStringLiteral("--project"),
            m_dir.filePath(QStringLiteral("quiet.servescope")) });
        QCOMPARE(base.exitCode, 0);

        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--huge-event-bytes"),
            QString::number(kLine) }));
        const QString huge = writeExperiment(QStringLiteral("huge"), sim.url(), streams, maxEventBytes);
        const QString project = m_dir.filePath(QStringLiteral("huge%1.servescope").arg(streams));
        const Measured m = measure({ QStringLiteral("run"), huge, QStringLiteral("--project"), project });
        qInfo("peak RSS: quiet run %.1f MB, %d stream(s) of a 50 MB line %.1f MB (cap %d bytes)", base.peak / 1e6,
            streams, m.peak / 1e6, maxEventBytes);
        QVERIFY(base.peak > 0 && m.peak > 0);

        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<RequestRecord> records;
        QVERIFY(store.requests(1, RequestFilter {}, &records));
        QCOMPARE(records.size(), streams);
        if (bounded) {
            QCOMPARE(m.exitCode, 1);
            for (const RequestRecord &r : std::as_const(records)) {
                QCOMPARE(r.errorClass, ErrorClass::Protocol);
                QVERIFY2(r.errorText.contains(QStringLiteral("load.max_event_bytes")), qPrintable(r.errorText));
            }
            // Each stream holds at most about the cap: far from the line's 50 MB, let alone 6.6 x.
            QVERIFY2(m.peak - base.peak < 32LL * 1024 * 1024, qPrintable(QString::number(m.peak - base.peak)));
        } else {
            QCOMPARE(m.exitCode, 0);
            QVERIFY2(m.peak - base.peak > kLine, qPrintable(QString::number(m.peak - base.peak)));
        }
    }

    // validate and run refuse a point this machine's descriptor hard limit can never serve, with the reason.
    void descriptorHardLimit_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("validate, fits") << "validate" << 100 << 0;
        QTest::newRow("validate, over the limit") << "validate" << 1000 << 2;
        QTest::newRow("run, over the limit") << "run" << 1000 << 2;
    }

    void descriptorHardLimit()
    {
        QFETCH(QString, command);
        QFETCH(int, concurrency);
        QFETCH(int, exitCode);
        const QString exp = writeExperiment(
            QStringLiteral("fds%1").arg(concurrency), QUrl(QStringLiteral("http://127.0.0.1:9")), concurrency, 1 << 20);
        QProcess p;
        p.setChildProcessModifier([] {
            const rlimit rl { 256, 256 }; // 1000 streams need 1,230 descriptors; 100 need 180
            ::setrlimit(RLIMIT_NOFILE, &rl);
        });
        QStringList args { command, exp };
        if (command == QLatin1String("run"))
            args << QStringLiteral("--project") << m_dir.filePath(QStringLiteral("fds.servescope"));
        p.start(SimChild::cli(), args);
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput() + p.readAllStandardError();
        QCOMPARE(p.exitCode(), exitCode);
        const bool refused = out.contains("load.points[0].concurrency: 1000 concurrent streams need 1230 file "
                                          "descriptors but the open-file hard limit is 256");
        QVERIFY2(refused == (exitCode == 2), out.constData());
        if (command == QLatin1String("run"))
            QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("fds.servescope"))));
    }

    // A rate so small that the point's planned num_prompts / request_rate passes a day is refused by validate and
    // run, naming the point and its planned duration; 1e-10 once sent everything at once and 1e-8 waited for ever.
    void tinyRateIsRefused_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("rate");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("validate, 1e-10") << "validate"
                                         << "1e-10" << 2
                                         << "load.points[0].request_rate: plans point r1e-10 to last 1000000000000 s "
                                            "(100 prompts at 1e-10 requests/s), longer than a day (86400 s)";
        QTest::newRow("validate, 1e-8") << "validate"
                                        << "1e-8" << 2
                                        << "load.points[0].request_rate: plans point r1e-08 to last 10000000000 s "
                                           "(100 prompts at 1e-08 requests/s), longer than a day (86400 s)";
        QTest::newRow("run, 1e-8") << "run"
                                   << "1e-8" << 2
                                   << "load.points[0].request_rate: plans point r1e-08 to last 10000000000 s";
        QTest::newRow("validate, 100 prompts in 20 h") << "validate"
                                                       << "0.0014" << 0 << QString();
    }

    void tinyRateIsRefused()
    {
        QFETCH(QString, command);
        QFETCH(QString, rate);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QString exp = m_dir.filePath(QStringLiteral("rate%1.json").arg(rate));
        QFile f(exp);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("{\"name\":\"tiny\",\"endpoint\":{\"base_url\":\"http://127.0.0.1:9\",\"path\":"
                               "\"/v1/chat/completions\",\"model\":\"m\"},\"dataset\":{\"name\":\"random\",\"seed\":3},"
                               "\"load\":{\"mode\":\"rate\",\"points\":[{\"request_rate\":%1,\"input_len\":16,"
                               "\"output_len\":4,\"num_prompts\":100}]},\"variants\":[{\"name\":\"baseline\"}]}")
                    .arg(rate)
                    .toUtf8());
        f.close();
        const QString project = m_dir.filePath(QStringLiteral("tiny.servescope"));
        QStringList args { command, exp };
        if (command == QLatin1String("run"))
            args << QStringLiteral("--project") << project;
        QProcess p;
        p.start(SimChild::cli(), args);
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        QCOMPARE(p.exitCode(), exitCode);
        if (exitCode != 0)
            QVERIFY2(out.contains(message), qPrintable(out));
        else
            QVERIFY2(!out.contains(QStringLiteral("longer than a day")), qPrintable(out));
        QVERIFY(!QFile::exists(project));
    }

    // A capacity search over rate starts at its slowest level: one that plans a day is refused like a point.
    void tinyCapacityStartIsRefused()
    {
        const QString exp = m_dir.filePath(QStringLiteral("capacity-start.json"));
        QFile f(exp);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"name\":\"tiny\",\"endpoint\":{\"base_url\":\"sim:\",\"model\":\"m\"},\"dataset\":{\"name\":"
                "\"random\"},\"load\":{\"mode\":\"capacity\",\"capacity\":{\"over\":\"rate\",\"slo\":{\"p90_ttft_ms\":"
                "500},\"start\":1e-6,\"max\":8,\"input_len\":16,\"output_len\":4,\"num_prompts\":100}}}");
        f.close();
        QProcess p;
        p.start(SimChild::cli(), { QStringLiteral("validate"), exp });
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput() + p.readAllStandardError();
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(out.contains("load.capacity.request_rate: plans point r1e-06 to last 100000000 s (100 prompts at "
                              "1e-06 requests/s), longer than a day"),
            out.constData());
    }

    // A run the project's disk cannot hold is refused before anything is sent or created: no project
    // file and no results folder are left behind (a 77,824-byte project and a results folder were).
    void runTheDiskCannotHoldCreatesNothing()
    {
        const QString exp = m_dir.filePath(QStringLiteral("huge.json"));
        QFile f(exp);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // 10^8 prompts of 30,000 tokens in and out: terabytes of project, more than any test disk.
        f.write("{\"name\":\"huge\",\"endpoint\":{\"base_url\":\"sim:\",\"model\":\"m\"},\"dataset\":{\"name\":"
                "\"random\"},\"load\":{\"mode\":\"concurrency\",\"points\":[{\"concurrency\":4,\"input_len\":30000,"
                "\"output_len\":30000,\"num_prompts\":100000000}]}}");
        f.close();
        const QString project = m_dir.filePath(QStringLiteral("huge.servescope"));
        const QString results = m_dir.filePath(QStringLiteral("huge-results"));
        QProcess p;
        p.start(SimChild::cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), results });
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains(QStringLiteral("MiB free and this run needs about"))
                && err.contains(QStringLiteral("nothing was sent")),
            qPrintable(err));
        QVERIFY(!QFile::exists(project));
        QVERIFY(!QFileInfo::exists(results));
    }
};

QTEST_GUILESS_MAIN(TestCliLimits)
#include "tst_clilimits.moc"
