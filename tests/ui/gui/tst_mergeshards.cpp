// SPDX-License-Identifier: MIT
// File → Merge shards…: three shard runs measured by `servescope-cli run --shard` against one
// simulator become one run of the window's project, listed in the tree and described.
#include "clirunner.h"
#include "guitesthelpers.h"
#include "importflow.h"
#include "mainwindow.h"
#include "secrets/memorysecretstore.h"
#include "storage/projectstore.h"

#include <QApplication>
#include <QDateTime>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace ServeScope;

class TestMergeShards final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    SimChild m_sim;
    QStringList m_shards;

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*"))); }
    void initTestCase()
    {
        TestHelpers::initGuiTest();
        QVERIFY(m_dir.isValid());
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_sim.start(
            { QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"), QStringLiteral("10") }));
        const QString exp = CliRun::writeExperiment(QDir(m_dir.path()), QStringLiteral("sharded"),
            QJsonObject { { QStringLiteral("base_url"), m_sim.url().toString() },
                { QStringLiteral("path"), QStringLiteral("/v1/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 6, \"input_len\": 32, "
                           "\"output_len\": 8, \"num_prompts\": 30}]}"));
        const QString startAt = QDateTime::currentDateTimeUtc().addSecs(2).toString(Qt::ISODateWithMs);
        for (int i = 0; i < 3; ++i) {
            m_shards << m_dir.filePath(QStringLiteral("shard%1.servescope").arg(i));
            // One variant: writeExperiment's second one would double the load for nothing here.
            const CliRun::Outcome o = CliRun::run({ exp, QStringLiteral("--variant"), QStringLiteral("baseline"),
                QStringLiteral("--project"), m_shards.last(), QStringLiteral("--shard"), QStringLiteral("%1/3").arg(i),
                QStringLiteral("--start-at"), startAt });
            QVERIFY2(o.exitCode == 0, o.err.constData());
        }
    }

    void threeShardsBecomeOneRun()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        w.show();
        QSignalSpy listed(&w, &MainWindow::runsListed);
        QSignalSpy shown(&w, &MainWindow::resultsShown);
        w.imports()->mergeShardFiles(m_shards);
        // No project was open: one is created, then the merge runs and its result is shown.
        QTRY_VERIFY_WITH_TIMEOUT(w.findChild<QMessageBox *>(QStringLiteral("mergeShardsResult")), 30000);
        const QString text = w.findChild<QMessageBox *>(QStringLiteral("mergeShardsResult"))->text();
        QVERIFY2(text.startsWith(QStringLiteral("3 shard(s) merged into run 1: 30 requests completed, 0 failed.")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("at the widest point (baseline point 0 r1)")), qPrintable(text));
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty() && listed.last().at(0).toInt() == 1, 10000);
        w.findChild<QMessageBox *>(QStringLiteral("mergeShardsResult"))->close();
        // The merged run is shown (its own status message) before the next merge says anything.
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 30000);

        // The same files again are refused with the reason: one of them is no shard run of a set.
        w.imports()->mergeShardFiles({ m_shards[0], m_shards[1] });
        const auto refusal = [&w] {
            for (const QMessageBox *box : w.findChildren<QMessageBox *>(QStringLiteral("projectWarning"))) {
                if (box->text().startsWith(QStringLiteral("The shards were not merged: ")))
                    return true;
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(refusal(), 30000);
    }
};

QTEST_MAIN(TestMergeShards)
#include "tst_mergeshards.moc"
