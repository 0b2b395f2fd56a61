// SPDX-License-Identifier: MIT
// The demo experiment as users first run it: the findings it must and must not produce.
#include "clirunner.h"

#include <QMap>
#include <QTemporaryDir>
#include <QTest>

class TestCliDemo final : public QObject {
    Q_OBJECT

private slots:
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
        QCOMPARE(codes.value(QStringLiteral("seqs-8")),
            QStringList({ QStringLiteral("queueing"), QStringLiteral("capacity-knee") }));
        QVERIFY2(queueing.startsWith(QStringLiteral("finding: queueing\tseqs-8\tc16,c32,c64\t")), qPrintable(queueing));
        QVERIFY2(queueing.contains(QStringLiteral("\trunning_max=8\t")), qPrintable(queueing));
        QVERIFY2(queueing.endsWith(QStringLiteral("\tconfirmed")), qPrintable(queueing));
    }
};

QTEST_GUILESS_MAIN(TestCliDemo)
#include "tst_clidemo.moc"
