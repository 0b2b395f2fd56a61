// SPDX-License-Identifier: MIT
// servescope-cli export against a project file written through the store, run without a display.
#include "requireservice.h"
#include "storage/storewriter.h"
#include "testpoints.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

class TestCliExport final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*")));
        m_cli = qEnvironmentVariable("SERVESCOPE_CLI");
        SERVESCOPE_REQUIRE_SERVICE(!m_cli.isEmpty(), QStringLiteral("SERVESCOPE_CLI not set"));
        QVERIFY(m_dir.isValid());
        m_project = m_dir.filePath(QStringLiteral("p.servescope"));
        StoreWriter writer;
        QString error;
        QVERIFY2(writer.open(m_project, &error), qPrintable(error));
        for (const char *name : { "vllm-run", "sglang-run" }) {
            RunRow row;
            row.name = QString::fromLatin1(name);
            row.started = QDateTime(QDate(2026, 11, 29), QTime(10, 0), Qt::UTC);
            row.resolvedConfig = R"({"endpoint":{"base_url":"http://127.0.0.1:8000","model":"demo-7b"}})";
            row.variants = { QStringLiteral("baseline") };
            row.points = 3;
            row.envSnapshot = R"([["gpu","A100","typed"]])";
            row.clientHost = R"({"cpu_model":"Test CPU"})";
            const qint64 id = writer.createRun(row, &error);
            QVERIFY2(id > 0, qPrintable(error));
            int point = 0;
            for (int c : { 1, 8, 32 }) {
                PointSummary p = TestPoints::concurrencyPoint(QStringLiteral("baseline"), point++, c, 100.0 * c);
                p.runId = id;
                writer.enqueue(p);
            }
            writer.finishRun(id, RunStatus::Finished, row.started.addSecs(600));
        }
        QVERIFY(writer.flush(10000));
        writer.close();
    }

    void exports_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("startsWith");
        QTest::newRow("png chart") << QStringList { QStringLiteral("--chart"), QStringLiteral("c.png"),
            QStringLiteral("--metric"), QStringLiteral("ttft"), QStringLiteral("--size"), QStringLiteral("640x400") }
                                   << QStringLiteral("c.png") << QByteArray("\x89PNG");
        QTest::newRow("svg chart") << QStringList { QStringLiteral("--chart"), QStringLiteral("c.svg") }
                                   << QStringLiteral("c.svg") << QByteArray("<?xml");
        QTest::newRow("pdf chart") << QStringList { QStringLiteral("--chart"), QStringLiteral("c.pdf"),
            QStringLiteral("--kind"), QStringLiteral("tradeoff") }
                                   << QStringLiteral("c.pdf") << QByteArray("%PDF");
        QTest::newRow("per-gpu svg chart")
            << QStringList { QStringLiteral("--chart"), QStringLiteral("g.svg"), QStringLiteral("--kind"),
                   QStringLiteral("per-gpu"), QStringLiteral("--target-interactivity"), QStringLiteral("45") }
            << QStringLiteral("g.svg") << QByteArray("<?xml");
        QTest::newRow("csv") << QStringList { QStringLiteral("--csv"), QStringLiteral("s.csv") }
                             << QStringLiteral("s.csv")
                             << QByteArray(
                                    "variant,label,mode,concurrency,request_rate,repeat,set,stat,completed,failed,");
        QTest::newRow("html report") << QStringList { QStringLiteral("--report"), QStringLiteral("r.html") }
                                     << QStringLiteral("r.html") << QByteArray("<!DOCTYPE html>");
        QTest::newRow("pdf report") << QStringList { QStringLiteral("--report"), QStringLiteral("r.pdf") }
                                    << QStringLiteral("r.pdf") << QByteArray("%PDF");
    }
    void exports()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, file);
        QFETCH(QByteArray, startsWith);
        for (QString &a : args)
            if (a.contains(QLatin1Char('.')))
                a = m_dir.filePath(a);
        const int rc = runCli(QStringList { QStringLiteral("--run"), QStringLiteral("vllm-run"), QStringLiteral("--vs"),
                                  QStringLiteral("2") }
            + args);
        QCOMPARE(rc, 0);
        QFile f(m_dir.filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray data = f.readAll();
        QVERIFY2(data.startsWith(startsWith), data.left(80).constData());
        if (file.endsWith(QLatin1String(".png")))
            QCOMPARE(QImage::fromData(data).size(), QSize(640, 400));
        if (file == QLatin1String("g.svg")) {
            QVERIFY(data.contains("Output throughput per GPU vs per user"));
            QVERIFY(data.contains("Pareto frontier"));
            // c8 (TPOT p50 22 ms, 45.5 tok/s per user) and c32 (34 ms, 29.4): 45 lies between them.
            QVERIFY2(data.contains("A #1: ") && data.contains(" tok/s per GPU at 45 tok/s per user"), data.constData());
        }
        if (file.endsWith(QLatin1String(".csv"))) {
            // header + 3 points x 2 runs x (one repeat, no steady set + 6 statistic rows across repeats)
            QCOMPARE(data.count('\n'), 1 + 3 * 2 * (1 + 6));
            QVERIFY(data.contains("\nsglang-run/baseline,c32,concurrency,32,"));
        }
        if (file.endsWith(QLatin1String(".html"))) {
            QVERIFY(data.contains("http://127.0.0.1:8000") && data.contains("Test CPU") && data.contains("A100"));
            // One repeat a side: a change is judged against the run-to-run noise floor.
            QVERIFY(data.contains("Changes: B #2 against A #1") && data.contains("Run 2: sglang-run"));
            // Output throughput, the first headline column: no change, never "+0.0%".
            QVERIFY(data.contains("<tr><td nowrap>baseline</td><td nowrap>c32</td><td class=\"noise\" "
                                  "style=\"background-color: #eeeeee\"><span class=\"change\">0.0%</span><br><span "
                                  "class=\"verdict\">within noise (&lt;5%)</span></td>"));
            QVERIFY(!data.contains("output_throughput"));
            QVERIFY(data.contains("Throughput per GPU and cost") && data.contains("one assumed"));
        }
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("unknown run") << QStringList { QStringLiteral("--run"), QStringLiteral("nope"),
            QStringLiteral("--csv"), QStringLiteral("x.csv") };
        QTest::newRow("no output") << QStringList { QStringLiteral("--run"), QStringLiteral("1") };
        QTest::newRow("two outputs") << QStringList { QStringLiteral("--run"), QStringLiteral("1"),
            QStringLiteral("--csv"), QStringLiteral("x.csv"), QStringLiteral("--report"), QStringLiteral("x.html") };
        QTest::newRow("bad metric") << QStringList { QStringLiteral("--run"), QStringLiteral("1"),
            QStringLiteral("--chart"), QStringLiteral("x.png"), QStringLiteral("--metric"), QStringLiteral("p99") };
        QTest::newRow("bad suffix") << QStringList { QStringLiteral("--run"), QStringLiteral("1"),
            QStringLiteral("--chart"), QStringLiteral("x.gif") };
        QTest::newRow("target without per-gpu")
            << QStringList { QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--chart"),
                   QStringLiteral("x.png"), QStringLiteral("--target-interactivity"), QStringLiteral("40") };
        QTest::newRow("per-gpu with a metric") << QStringList { QStringLiteral("--run"), QStringLiteral("1"),
            QStringLiteral("--chart"), QStringLiteral("x.png"), QStringLiteral("--kind"), QStringLiteral("per-gpu"),
            QStringLiteral("--metric"), QStringLiteral("ttft") };
        QTest::newRow("negative target") << QStringList { QStringLiteral("--run"), QStringLiteral("1"),
            QStringLiteral("--chart"), QStringLiteral("x.png"), QStringLiteral("--kind"), QStringLiteral("per-gpu"),
            QStringLiteral("--target-interactivity"), QStringLiteral("-3") };
        QTest::newRow("unknown option") << QStringList { QStringLiteral("--run"), QStringLiteral("1"),
            QStringLiteral("--bogus") };
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QCOMPARE(runCli(args), 2);
    }

    // export checks every page as run and runs do: a damaged page past the header is refused.
    void damagedProjectIsRefused()
    {
        const QString damaged = m_dir.filePath(QStringLiteral("damaged.servescope"));
        {
            StoreWriter writer;
            QString error;
            QVERIFY2(writer.open(damaged, &error), qPrintable(error));
            RunRow row;
            row.name = QStringLiteral("r");
            row.variants = { QStringLiteral("baseline") };
            const qint64 id = writer.createRun(row, &error);
            PointSummary p = TestPoints::concurrencyPoint(QStringLiteral("baseline"), 0, 8, 800);
            p.runId = id;
            writer.enqueue(p);
            for (int i = 0; i < 3000; ++i) {
                RequestRecord r;
                r.runId = id;
                r.variant = QStringLiteral("baseline");
                r.index = i;
                r.generatedText = QByteArray(40, 'x');
                writer.enqueue(r);
            }
            QVERIFY(writer.flush(30000));
            writer.close();
        }
        const QString good = m_project;
        m_project = damaged;
        QCOMPARE(runCli({ QStringLiteral("--run"), QStringLiteral("r"), QStringLiteral("--csv"),
                     m_dir.filePath(QStringLiteral("d.csv")) }),
            0);
        QFile f(damaged);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(f.size() / 2);
        f.write(QByteArray(32 * 1024, char(0xa5)));
        f.close();
        const int rc = runCli({ QStringLiteral("--run"), QStringLiteral("r"), QStringLiteral("--csv"),
            m_dir.filePath(QStringLiteral("d2.csv")) });
        m_project = good;
        QCOMPARE(rc, 2);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("d2.csv"))));
    }

private:
    int runCli(const QStringList &args)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM")); // the command must pick offscreen itself
        p.setProcessEnvironment(env);
        p.start(m_cli, QStringList { QStringLiteral("export"), QStringLiteral("--project"), m_project } + args);
        if (!p.waitForFinished(60000))
            return -1;
        if (p.exitCode() != 0)
            qInfo("stderr: %s", p.readAllStandardError().constData());
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }

    QTemporaryDir m_dir;
    QString m_cli;
    QString m_project;
};

QTEST_MAIN(TestCliExport)
#include "tst_cliexport.moc"
