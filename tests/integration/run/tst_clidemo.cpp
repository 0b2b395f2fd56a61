// SPDX-License-Identifier: MIT
// The demo experiment as users first run it: the findings it must and must not produce, and its
// export as llm-d Benchmark Reports read back to the stored figures.
#include "clirunner.h"

#include "storage/projectstore.h"

#include <QDir>
#include <QMap>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

class TestCliDemo final : public QObject {
    Q_OBJECT

private slots:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase() { QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set"); }

    // The max_num_seqs 8 variant queues, confirmed by the server's waiting queue; the baseline and
    // the SGLang flavour are healthy and nothing else; no variant gets a problem from jitter.
    void demoFindings()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const CliRun::Outcome o
            = CliRun::run({ QStringLiteral(SERVESCOPE_SOURCE_DIR "/resources/demo/demo-experiment.json"),
                QStringLiteral("--project"), dir.filePath(QStringLiteral("demo.servescope")),
                QStringLiteral("--sim-time-scale"), QStringLiteral("10") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QMap<QString, QStringList> codes; // variant -> finding codes
        QString queueing;
        for (const QByteArray &line : o.err.split('\n')) {
            if (!line.startsWith("finding: "))
                continue;
            const QList<QByteArray> fields = line.mid(9).split('\t');
            QVERIFY2(fields.size() >= 3, line.constData());
            codes[QString::fromUtf8(fields[1])] << QString::fromUtf8(fields[0]);
            if (fields[0] == "queueing")
                queueing = QString::fromUtf8(line);
        }
        QCOMPARE(codes.value(QStringLiteral("baseline")), QStringList { QStringLiteral("healthy") });
        QCOMPARE(codes.value(QStringLiteral("sglang")), QStringList { QStringLiteral("healthy") });
        QVERIFY2(codes.value(QStringLiteral("seqs-8"))
                == QStringList({ QStringLiteral("queueing"), QStringLiteral("capacity-knee") }),
            o.err.constData()); // every finding line, to tell which one came or went
        QVERIFY2(queueing.startsWith(QStringLiteral("finding: queueing\tseqs-8\tc16,c32,c64\t")), qPrintable(queueing));
        QVERIFY2(queueing.contains(QStringLiteral("\trunning_max=8\t")), qPrintable(queueing));
        QVERIFY2(queueing.endsWith(QStringLiteral("\tconfirmed")), qPrintable(queueing));

        // One report per variant and point; the folder imports as one run per variant with the
        // same points and figures.
        const QString project = dir.filePath(QStringLiteral("demo.servescope"));
        const QString reports = dir.filePath(QStringLiteral("reports"));
        QVERIFY(QDir().mkpath(reports));
        const CliRun::Outcome e
            = CliRun::cli({ QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--run"),
                QStringLiteral("1"), QStringLiteral("--benchmark-report"), reports + QStringLiteral("/demo.yaml") });
        QVERIFY2(e.exitCode == 0, e.err.constData());
        QCOMPARE(e.out.count('\n'), 18);
        const QString back = dir.filePath(QStringLiteral("back.servescope"));
        const CliRun::Outcome i = CliRun::cli({ QStringLiteral("import"), reports, QStringLiteral("--project"), back });
        QVERIFY2(i.exitCode == 0, i.err.constData());
        QCOMPARE(i.out.count('\n'), 3);
        ServeScope::ProjectStore original, imported;
        QVERIFY(original.open(project) && imported.open(back));
        QVector<ServeScope::PointSummary> a;
        QVERIFY(original.pointSummaries(1, &a));
        int compared = 0;
        for (qint64 run = 1; run <= 3; ++run) {
            QVector<ServeScope::PointSummary> b;
            QVERIFY(imported.pointSummaries(run, &b));
            QCOMPARE(b.size(), 6);
            const QString variant = imported.run(run)->name.section(u'/', -1);
            for (const ServeScope::PointSummary &p : std::as_const(b)) {
                const auto same = std::find_if(a.cbegin(), a.cend(),
                    [&](const ServeScope::PointSummary &q) { return q.variant == variant && q.label == p.label; });
                QVERIFY2(same != a.cend(), qPrintable(variant + u' ' + p.label));
                QCOMPARE(p.concurrency, same->concurrency);
                QCOMPARE(p.completed, same->completed);
                QCOMPARE(p.outputThroughput, same->outputThroughput);
                QCOMPARE(p.ttft.mean, same->ttft.mean);
                QCOMPARE(p.ttft.p99, same->ttft.p99);
                QCOMPARE(p.tpot.median, same->tpot.median);
                QCOMPARE(p.itl.p90, same->itl.p90);
                QCOMPARE(p.e2el.p90, same->e2el.p90);
                ++compared;
            }
        }
        QCOMPARE(compared, 18);
    }
};

QTEST_GUILESS_MAIN(TestCliDemo)
#include "tst_clidemo.moc"
