// SPDX-License-Identifier: MIT
// `export-prompts`: a stored point's exact prompts as vLLM's custom dataset and a ShareGPT file,
// and the replay commands, checked against what the run sent to a real simulator.
#include "clirunner.h"
#include "simchild.h"

#include "io/commandimport.h"
#include "storage/projectstore.h"
#include "workload/datasets.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace ServeScope;

class TestCliExportPrompts final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    SimChild m_sim;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    /// A two-point run (c2, c4) of six prompts each on `endpointPath`; returns the project.
    QString runOnce(const QString &name, const QString &endpointPath)
    {
        const QJsonObject endpoint { { QStringLiteral("base_url"), m_sim.url().toString() },
            { QStringLiteral("path"), endpointPath }, { QStringLiteral("model"), QStringLiteral("m") } };
        const QString experiment = CliRun::writeExperiment(QDir(m_dir.path()), name, endpoint,
            QStringLiteral("{\"mode\": \"concurrency\", \"concurrency_gradient\": [2, 4], \"input_len\": 48, "
                           "\"output_len\": 24, \"num_prompts\": 6}"));
        QFile f(experiment);
        f.open(QIODevice::ReadWrite);
        QByteArray json = f.readAll().replace("\"range_ratio\": 0.0", "\"range_ratio\": 0.5");
        f.resize(0);
        f.write(json);
        f.close();
        const QString project = path(name + QStringLiteral(".servescope"));
        const CliRun::Outcome o = CliRun::run({ experiment, QStringLiteral("--project"), project,
            QStringLiteral("--variant"), QStringLiteral("baseline"), QStringLiteral("--out-dir"), path(name) });
        if (o.exitCode != 0)
            qWarning("run: %s", o.err.constData());
        return o.exitCode == 0 ? project : QString();
    }

    static CliRun::Outcome exportPrompts(const QStringList &args)
    {
        QProcess p;
        p.start(SimChild::cli(), QStringList { QStringLiteral("export-prompts") } + args);
        p.waitForFinished(60000);
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError() };
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI not set");
        QVERIFY(m_sim.start(
            { QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"), QStringLiteral("20") }));
    }

    void exportedPromptsAreTheOnesSent()
    {
        const QString project = runOnce(QStringLiteral("chat"), QStringLiteral("/v1/chat/completions"));
        QVERIFY(!project.isEmpty());
        const CliRun::Outcome o = exportPrompts({ QStringLiteral("--project"), project, QStringLiteral("--run"),
            QStringLiteral("1"), QStringLiteral("--point"), QStringLiteral("c4"), QStringLiteral("--out-dir"),
            path(QStringLiteral("prompts")) });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QString jsonl = path(QStringLiteral("prompts/baseline_c4_r1.jsonl"));
        const QString shareGpt = path(QStringLiteral("prompts/baseline_c4_r1.sharegpt.json"));
        QVERIFY(o.out.startsWith((jsonl + u'\n' + shareGpt + u'\n').toUtf8()));

        // What the run stored for c4: each request's prompt hash and requested output length.
        ProjectStore store;
        QVERIFY(store.open(project, ProjectStore::Check::Full, ProjectStore::Follow::Snapshot));
        RequestFilter filter;
        filter.point = 1;
        filter.includeWarmup = false;
        filter.withEvents = false;
        QVector<RequestRecord> records;
        QVERIFY(store.requests(1, filter, &records));
        std::sort(records.begin(), records.end(), [](auto &a, auto &b) { return a.index < b.index; });
        QCOMPARE(records.size(), 6);

        const QList<QByteArray> lines = CliRun::readAll(jsonl).trimmed().split('\n');
        QCOMPARE(lines.size(), records.size());
        QSet<int> lengths;
        QStringList sent;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QJsonObject line = QJsonDocument::fromJson(lines[i]).object();
            const QString prompt = line.value(QStringLiteral("prompt")).toString();
            QVERIFY(!prompt.isEmpty());
            QCOMPARE(QCryptographicHash::hash(prompt.toUtf8(), QCryptographicHash::Sha256).left(16),
                records[i].promptHash.toByteArray());
            QCOMPARE(line.value(QStringLiteral("output_tokens")).toInt(), records[i].targetOutputLen);
            lengths.insert(records[i].targetOutputLen);
            sent << prompt;
        }
        QVERIFY2(lengths.size() > 1, "range_ratio 0.5 should give several output lengths");

        // ServeScope reads both files back as its own datasets: the same prompts and lengths.
        DatasetContent custom;
        QString error;
        Dataset file;
        file.name = QStringLiteral("custom");
        file.path = jsonl;
        QVERIFY2(loadDataset(file, &custom, &error), qPrintable(error));
        QCOMPARE(custom.prompts.size(), sent.size());
        for (qsizetype i = 0; i < sent.size(); ++i) {
            QCOMPARE(custom.prompts[i].prompt, sent[i]);
            QCOMPARE(custom.prompts[i].outputLen, records[i].targetOutputLen);
        }
        const QJsonArray conversations = QJsonDocument::fromJson(CliRun::readAll(shareGpt)).array();
        QCOMPARE(conversations.size(), sent.size());
        for (qsizetype i = 0; i < sent.size(); ++i) {
            const QJsonArray turns = conversations[i].toObject().value(QStringLiteral("conversations")).toArray();
            QCOMPARE(turns[0].toObject().value(QStringLiteral("value")).toString(), sent[i]);
            QCOMPARE(turns[0].toObject().value(QStringLiteral("from")).toString(), QStringLiteral("human"));
        }

        // The printed commands read back as the point, from the exported files.
        const QStringList commands
            = QString::fromUtf8(o.out).section(u'\n', 3).split(QStringLiteral("\n\n"), Qt::SkipEmptyParts);
        QCOMPARE(commands.size(), 2);
        const CommandImportResult vllm = importCommand(commands[0], QStringLiteral("vllm"));
        QVERIFY2(vllm.ok, qPrintable(vllm.errors.join(u'\n')));
        QCOMPARE(vllm.experiment.dataset.name, QStringLiteral("custom"));
        QCOMPARE(vllm.experiment.dataset.path, jsonl);
        QCOMPARE(vllm.experiment.load.points.value(0).numPrompts, 6);
        QCOMPARE(vllm.experiment.load.points.value(0).concurrency, 4);
        QVERIFY(commands[0].contains(QLatin1String("--custom-output-len -1")));
        QVERIFY(commands[0].contains(QLatin1String("--disable-shuffle")));
        QVERIFY(commands[0].contains(QLatin1String("--skip-chat-template")));
        const CommandImportResult sglang = importCommand(commands[1], QStringLiteral("sglang"));
        QVERIFY2(sglang.ok, qPrintable(sglang.errors.join(u'\n')));
        QCOMPARE(sglang.experiment.dataset.name, QStringLiteral("sharegpt"));
        QCOMPARE(sglang.experiment.dataset.path, shareGpt);
        QCOMPARE(sglang.experiment.load.points.value(0).numPrompts, 6);
        QVERIFY(o.err.contains("one output length for all prompts"));
    }

    void refusedWithTheReason_data()
    {
        QTest::addColumn<QString>("endpointPath");
        QTest::addColumn<QString>("point");
        QTest::addColumn<QByteArray>("reason");
        QTest::newRow("token IDs") << QStringLiteral("/v1/completions") << QStringLiteral("c2")
                                   << QByteArray("sent token IDs");
        QTest::newRow("unknown point") << QStringLiteral("/v1/chat/completions") << QStringLiteral("c64")
                                       << QByteArray("no load point labelled 'c64'");
    }

    void refusedWithTheReason()
    {
        QFETCH(QString, endpointPath);
        QFETCH(QString, point);
        QFETCH(QByteArray, reason);
        const QString name = QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-');
        const QString project = runOnce(name, endpointPath);
        QVERIFY(!project.isEmpty());
        const CliRun::Outcome o = exportPrompts({ QStringLiteral("--project"), project, QStringLiteral("--run"),
            QStringLiteral("1"), QStringLiteral("--point"), point, QStringLiteral("--out-dir"), path(name) });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(reason), o.err.constData());
        QVERIFY(!QFile::exists(path(name + QStringLiteral("/baseline_") + point + QStringLiteral("_r1.jsonl"))));
    }
};

QTEST_GUILESS_MAIN(TestCliExportPrompts)
#include "tst_cliexportprompts.moc"
