// SPDX-License-Identifier: MIT
// The seed configs (tests/data/seed-configs, as engineers publish them) run with `servescope-cli
// run --base-url sim:` against the built-in simulator, and store the points their README says.
#include "simchild.h"

#include "resultfiles/resultfile.h"
#include "storage/projectstore.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

class TestCliSeedConfigs final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    static QString seed(const QString &name) { return QStringLiteral(SERVESCOPE_TEST_DATA "/seed-configs/") + name; }

    static QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
    }

    void runsAgainstTheSimulator_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QList<int>>("concurrency");
        QTest::addColumn<QList<int>>("inputLen");
        QTest::addColumn<QList<int>>("outputLen");
        QTest::addColumn<int>("repeats");
        QTest::addColumn<int>("warmups");
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<int>("envFields");
        const QStringList gradient { QStringLiteral("c1"), QStringLiteral("c4"), QStringLiteral("c8"),
            QStringLiteral("c16"), QStringLiteral("c32"), QStringLiteral("c64") };
        QTest::newRow("bench_config.json")
            << QStringLiteral("bench_config.json") << QStringList() << gradient << QList<int> { 1, 4, 8, 16, 32, 64 }
            << QList<int>(6, 256) << QList<int>(6, 100) << 1 << 0 << QStringLiteral("sonnet") << 0;
        QTest::newRow("bench.toml") << QStringLiteral("bench.toml") << QStringList() << gradient
                                    << QList<int> { 1, 4, 8, 16, 32, 64 } << QList<int>(6, 256) << QList<int>(6, 100)
                                    << 1 << 0 << QStringLiteral("sonnet") << 0;
        QTest::newRow("load_matrix.toml + env_snapshot.json")
            << QStringLiteral("load_matrix.toml")
            << QStringList { QStringLiteral("--env-snapshot"), seed(QStringLiteral("env_snapshot.json")) }
            << QStringList { QStringLiteral("l1"), QStringLiteral("l2"), QStringLiteral("l3") }
            << QList<int> { 1, 8, 32 } << QList<int> { 128, 512, 2048 } << QList<int> { 64, 256, 512 } << 3 << 30
            << QStringLiteral("random") << 12;
    }
    void runsAgainstTheSimulator()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, extra);
        QFETCH(QStringList, labels);
        QFETCH(QList<int>, concurrency);
        QFETCH(QList<int>, inputLen);
        QFETCH(QList<int>, outputLen);
        QFETCH(int, repeats);
        QFETCH(int, warmups);
        QFETCH(QString, dataset);
        QFETCH(int, envFields);
        const QString stem = QString(file).replace(QLatin1Char('.'), QLatin1Char('_'));
        const QString project = m_dir.filePath(stem + QStringLiteral(".servescope"));
        const QString out = m_dir.filePath(stem + QStringLiteral("-results"));
        QProcess p;
        p.start(SimChild::cli(),
            QStringList { QStringLiteral("run"), seed(file), QStringLiteral("--base-url"), QStringLiteral("sim:"),
                QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out,
                QStringLiteral("--sim-time-scale"), QStringLiteral("100") }
                + extra);
        QVERIFY(p.waitForFinished(240000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
        QVERIFY(!err.contains("error"));

        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<PointSummary> points;
        QVERIFY(store.pointSummaries(1, &points));
        QCOMPARE(points.size(), labels.size() * repeats);
        for (const PointSummary &s : std::as_const(points)) {
            const int i = int(labels.indexOf(s.label));
            QVERIFY2(i >= 0, qPrintable(s.label));
            QCOMPARE(s.mode, QStringLiteral("concurrency"));
            QCOMPARE(s.concurrency, concurrency.at(i));
            QCOMPARE(s.inputLen, inputLen.at(i));
            QCOMPARE(s.outputLen, outputLen.at(i));
            QCOMPARE(s.completed, 200);
            QCOMPARE(s.failed, 0);
            QCOMPARE(s.warmup, warmups);
            // Result file: vLLM's prompt lengths (sonnet: at most input_len; random: exact) and
            // ignore_eos outputs of exactly output_len.
            QString error;
            const QVector<ResultRun> runs
                = readResultFilePath(QStringLiteral("%1/baseline/%2-r%3.json").arg(out, s.label).arg(s.repeat), &error);
            QVERIFY2(runs.size() == 1, qPrintable(error));
            QCOMPARE(runs.first().inputLens.size(), 200);
            for (qint64 len : runs.first().inputLens) {
                QVERIFY(len <= inputLen.at(i));
                if (dataset == QLatin1String("random"))
                    QCOMPARE(len, qint64(inputLen.at(i)));
                else
                    QVERIFY2(len > inputLen.at(i) - 40, qPrintable(QString::number(len))); // within a few lines
            }
            for (qint64 len : runs.first().outputLens)
                QCOMPARE(len, qint64(outputLen.at(i)));
        }
        // The manifest records what the file's author meant, the env snapshot with its sources.
        const QJsonObject manifest = QJsonDocument::fromJson(readAll(out + QStringLiteral("/manifest.json"))).object();
        const QJsonObject experiment = manifest.value(QLatin1String("experiment")).toObject();
        QCOMPARE(
            experiment.value(QLatin1String("dataset")).toObject().value(QLatin1String("name")).toString(), dataset);
        QCOMPARE(experiment.value(QLatin1String("endpoint")).toObject().value(QLatin1String("base_url")).toString(),
            QStringLiteral("sim:"));
        const QJsonArray env = manifest.value(QLatin1String("env_snapshot")).toArray();
        // The file's fields, then what the server answered with.
        QCOMPARE(env.size(), envFields + 1);
        QCOMPARE(env.last().toArray().at(0).toString(), QStringLiteral("served_model"));
        QCOMPARE(env.last().toArray().at(2).toString(), QStringLiteral("captured"));
        if (envFields > 0) {
            QCOMPARE(env.first().toArray().at(0).toString(), QStringLiteral("gpu"));
            QCOMPARE(env.first().toArray().at(1).toString(), QStringLiteral("NVIDIA A100 80GB"));
            QCOMPARE(env.first().toArray().at(2).toString(), QStringLiteral("probe"));
        }
    }

    void validates_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<QString>("line");
        QTest::newRow("bench_config.json")
            << QStringLiteral("bench_config.json")
            << QStringLiteral("valid (bench_config, 1 variants, 6 points, 0 errors, 2 warnings)")
            << QStringLiteral("points: c1, c4, c8, c16, c32, c64");
        QTest::newRow("bench.toml") << QStringLiteral("bench.toml")
                                    << QStringLiteral("valid (toml-bench, 1 variants, 6 points, 0 errors, 2 warnings)")
                                    << QStringLiteral("warning: dataset.path: the sonnet file does not exist here; the "
                                                      "built-in copy of vLLM's benchmarks/sonnet.txt is used");
        QTest::newRow("load_matrix.toml")
            << QStringLiteral("load_matrix.toml")
            << QStringLiteral("valid (toml-load-matrix, 1 variants, 3 points, 0 errors, 0 warnings)")
            << QStringLiteral("points: l1, l2, l3");
        QTest::newRow("env_snapshot.json") << QStringLiteral("env_snapshot.json")
                                           << QStringLiteral("valid (env-snapshot, 12 fields, 0 errors, 0 warnings)")
                                           << QStringLiteral("env\tpower_cap_w\t300\tprobe");
    }
    void validates()
    {
        QFETCH(QString, file);
        QFETCH(QString, summary);
        QFETCH(QString, line);
        QProcess p;
        p.start(SimChild::cli(), { QStringLiteral("validate"), seed(file) });
        QVERIFY(p.waitForFinished(30000));
        const QStringList out = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(out.contains(line), qPrintable(out.join(QLatin1Char('\n'))));
        QCOMPARE(out.at(out.size() - 2), seed(file) + QStringLiteral(": ") + summary);
    }

    void importedCommandRuns()
    {
        const QString exp = m_dir.filePath(QStringLiteral("smoke.json"));
        QProcess p;
        p.start(SimChild::cli(),
            { QStringLiteral("import-command"), seed(QStringLiteral("vllm_bench_serve.sh")), QStringLiteral("--out"),
                exp });
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QString out = m_dir.filePath(QStringLiteral("smoke-results"));
        p.start(SimChild::cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--base-url"), QStringLiteral("sim:"),
                QStringLiteral("--out-dir"), out, QStringLiteral("--sim-time-scale"), QStringLiteral("100") });
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QString error;
        const QVector<ResultRun> runs = readResultFilePath(out + QStringLiteral("/baseline/c1-r1.json"), &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        QCOMPARE(int(runs.first().number(QStringLiteral("completed"))), 10);
        for (qint64 len : runs.first().inputLens)
            QVERIFY(len <= 256 && len > 216);
        for (qint64 len : runs.first().outputLens)
            QCOMPARE(len, qint64(100));
    }

    void envSnapshotAloneIsNotRun()
    {
        QProcess p;
        p.start(SimChild::cli(), { QStringLiteral("run"), seed(QStringLiteral("env_snapshot.json")) });
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("holds only an environment snapshot"));
    }

    void sharegptRunsAsNamed()
    {
        // A missing conversations file stops the run before anything is sent.
        const QString config = m_dir.filePath(QStringLiteral("sharegpt.json"));
        const auto write = [&config](const QString &path) {
            QFile f(config);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QStringLiteral("{\"base_url\": \"sim:\", \"model\": \"m\", \"dataset_name\": \"sharegpt\", "
                                   "\"dataset_path\": \"%1\", \"max_concurrency\": 2, \"num_prompts\": 8}")
                        .arg(path)
                        .toUtf8());
        };
        write(m_dir.filePath(QStringLiteral("missing.json")));
        QProcess p;
        p.start(SimChild::cli(),
            { QStringLiteral("run"), config, QStringLiteral("--sim-time-scale"), QStringLiteral("100") });
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("error: dataset.path: cannot read the sharegpt file"));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("sharegpt.servescope"))));

        // With the file: the conversations' first turns, counted by the server, with their own
        // completion lengths (ignore_eos holds them to it).
        write(QStringLiteral(SERVESCOPE_TEST_DATA "/datasets/sharegpt.json"));
        const QString out = m_dir.filePath(QStringLiteral("sharegpt-results"));
        p.start(SimChild::cli(),
            { QStringLiteral("run"), config, QStringLiteral("--out-dir"), out, QStringLiteral("--sim-time-scale"),
                QStringLiteral("100") });
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QString error;
        const QVector<ResultRun> runs = readResultFilePath(out + QStringLiteral("/baseline/c2-r1.json"), &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        QCOMPARE(runs.first().outputLens.size(), 8);
        QSet<qint64> outputs(runs.first().outputLens.cbegin(), runs.first().outputLens.cend());
        QCOMPARE(outputs.size(), 4); // the four conversations that pass vLLM's filter
    }
};

QTEST_GUILESS_MAIN(TestCliSeedConfigs)
#include "tst_cliseedconfigs.moc"
