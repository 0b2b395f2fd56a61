// SPDX-License-Identifier: MIT
// Jobs on stored runs read the run through StoredRun: its configuration once, each variant resolved.
// A point's prompts come back in submission order with the variant as it ran.
#include "compare/storedrun.h"
#include "io/experimentfile.h"
#include "postrun/promptexport.h"
#include "recordfactory.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"
#include "testexperiment.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

class TestPostrun final : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void storedRunResolvesEachVariantOnce()
    {
        RunRow row;
        row.resolvedConfig = serializeExperiment(Testing::validExperiment());
        const StoredRun run(row);
        QVERIFY(run.experiment());
        QCOMPARE(run.experiment()->server.args.value(QStringLiteral("max_num_seqs")).toInt(), 256);
        QVERIFY(run.variant(QStringLiteral("seqs-64")));
        QCOMPARE(run.variant(QStringLiteral("seqs-64"))->server.args.value(QStringLiteral("max_num_seqs")).toInt(), 64);
        QCOMPARE(run.variant(0)->server.args.value(QStringLiteral("max_num_seqs")).toInt(), 256);
        QVERIFY(!run.variant(QStringLiteral("nope")));
        QCOMPARE(run.variantOrRun(QStringLiteral("nope")), run.experiment());
        QCOMPARE(run.pointOfLabel(QStringLiteral("c8")), 1);
        QCOMPARE(run.pointOfLabel(QStringLiteral("c9")), -1);

        RunRow imported; // an import may keep no configuration, or one that does not read
        imported.resolvedConfig = "{\"name\": ";
        const StoredRun none(imported);
        QVERIFY(!none.experiment());
        QVERIFY(!none.variant(0));
        QVERIFY(!none.variantOrRun(QStringLiteral("baseline")));
        QCOMPARE(none.pointOfLabel(QStringLiteral("c8")), -1);
    }

    void pointPromptsComeBackInOrder()
    {
        const QString path = m_dir.filePath(QStringLiteral("prompts.servescope"));
        const Experiment x = Testing::validExperiment();
        const QStringList texts { QStringLiteral("first prompt"), QStringLiteral("second prompt"),
            QStringLiteral("third prompt") };
        qint64 runId = 0;
        {
            StoreWriter writer;
            QVERIFY(writer.open(path));
            RunRow row;
            row.name = QStringLiteral("sweep");
            row.resolvedConfig = serializeExperiment(x);
            row.variants = { QStringLiteral("baseline"), QStringLiteral("seqs-64") };
            row.points = 3;
            runId = writer.createRun(row);
            QVERIFY(runId > 0);
            // Submitted in reverse of the order they are stored in: the file is in submission order.
            for (int i = 2; i >= 0; --i) {
                const QByteArray hash = QCryptographicHash::hash(texts[i].toUtf8(), QCryptographicHash::Sha256);
                writer.enqueue(PromptRow { hash.left(PromptHash::Size), texts[i], {} });
                RequestRecord r = TestData::makeRequest(runId, QStringLiteral("seqs-64"), 1, 1, i + 1, 4);
                r.warmup = false;
                r.targetOutputLen = 10 * (i + 1);
                r.promptHash = PromptHash(hash);
                writer.enqueue(r);
            }
            QVERIFY(writer.flush(10000));
        }
        ProjectStore store;
        QVERIFY(store.open(path));
        PointPrompts p;
        QString error;
        QVERIFY2(loadPointPrompts(store, runId, QStringLiteral("seqs-64"), 1, 1, &p, &error), qPrintable(error));
        QCOMPARE(p.prompts, texts);
        QCOMPARE(p.outputTokens, QList<int>({ 10, 20, 30 }));
        QCOMPARE(p.pointLabel, QStringLiteral("c8"));
        QVERIFY(p.configured);
        QCOMPARE(p.resolved.server.args.value(QStringLiteral("max_num_seqs")).toInt(), 64);
        const QList<QByteArray> lines = customJsonl(p).trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        const QJsonObject first = QJsonDocument::fromJson(lines.first()).object();
        QCOMPARE(first.value(QLatin1String("prompt")).toString(), texts.first());
        QCOMPARE(first.value(QLatin1String("output_tokens")).toInt(), 10);
        QVERIFY(!loadPointPrompts(store, runId, QStringLiteral("nope"), 1, 1, &p, &error));
    }
};

QTEST_GUILESS_MAIN(TestPostrun)
#include "tst_postrun.moc"
