// SPDX-License-Identifier: MIT
// loadExperimentFile's layout detection: the extension decides the syntax (.json is JSON only,
// .toml is TOML only), any other name goes by content.
#include "io/experimentfile.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

namespace {

QByteArray fixture(const char *relative)
{
    QFile f(QStringLiteral(SERVESCOPE_TEST_DATA "/") + QLatin1String(relative));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const QByteArray kTomlBench = "[bench]\nx = 1\n";

} // namespace

class TestFormatDetection final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void detect_data()
    {
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("format");
        // Exact first error, or empty when the read succeeds.
        QTest::addColumn<QString>("error");
        const QString notJson = QStringLiteral(" (a .json file is read as JSON only; TOML needs .toml)");

        QTest::newRow("toml text in .json is a JSON error")
            << QStringLiteral("t.json") << kTomlBench << false << int(ExperimentFormat::Json)
            << QStringLiteral("line 1, column 2 (at [0]): expected a value") + notJson;
        QTest::newRow("toml text in .JSON (any case)")
            << QStringLiteral("t.JSON") << kTomlBench << false << int(ExperimentFormat::Json)
            << QStringLiteral("line 1, column 2 (at [0]): expected a value") + notJson;
        QTest::newRow("plain words in .json")
            << QStringLiteral("w.json") << QByteArray("name = 1\n") << false << int(ExperimentFormat::Json)
            << QStringLiteral("line 1, column 1: invalid literal") + notJson;
        QTest::newRow("empty .json") << QStringLiteral("e.json") << QByteArray() << false << int(ExperimentFormat::Json)
                                     << QStringLiteral("line 1, column 1: unexpected end of file") + notJson;
        QTest::newRow("truncated JSON object in .json: no TOML hint")
            << QStringLiteral("c.json") << QByteArray("{\"load\": \n") << false << int(ExperimentFormat::Json)
            << QStringLiteral("line 2, column 1 (at load): unexpected end of file");
        QTest::newRow("JSON array in .json is read as JSON")
            << QStringLiteral("a.json") << QByteArray("[1, 2]\n") << false << int(ExperimentFormat::BenchConfig)
            << QStringLiteral("must be an object (line 1)");
        QTest::newRow("native .json") << QStringLiteral("full.json") << fixture("experiments/full.json") << true
                                      << int(ExperimentFormat::Json) << QString();
        QTest::newRow("bench_config .json")
            << QStringLiteral("bench_config.json") << fixture("experiments/bench_config.json") << true
            << int(ExperimentFormat::BenchConfig) << QString();
        QTest::newRow("env snapshot .json") << QStringLiteral("env.json") << fixture("seed-configs/env_snapshot.json")
                                            << true << int(ExperimentFormat::EnvSnapshot) << QString();
        QTest::newRow("JSON text in .toml is a TOML error")
            << QStringLiteral("j.toml") << fixture("experiments/full.json") << false << int(ExperimentFormat::Auto)
            << QStringLiteral("line 1, column 1: Error while parsing root table: expected keys, tables, whitespace or "
                              "comments, saw '{'");
        QTest::newRow("bench .toml") << QStringLiteral("bench.toml") << fixture("experiments/bench.toml") << true
                                     << int(ExperimentFormat::TomlBench) << QString();
        QTest::newRow("toml text, other extension, by content")
            << QStringLiteral("t.txt") << fixture("experiments/bench.toml") << true << int(ExperimentFormat::TomlBench)
            << QString();
        QTest::newRow("json text, other extension, by content")
            << QStringLiteral("e.conf") << fixture("experiments/bench_config.json") << true
            << int(ExperimentFormat::BenchConfig) << QString();
        QTest::newRow("toml bench text without extension")
            << QStringLiteral("noext") << kTomlBench << false << int(ExperimentFormat::TomlBench)
            << QStringLiteral("bench.load: is required");
    }
    void detect()
    {
        QFETCH(QString, fileName);
        QFETCH(QByteArray, bytes);
        QFETCH(bool, ok);
        QFETCH(int, format);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(fileName);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bytes), bytes.size());
        f.close();

        const ExperimentReadResult r = loadExperimentFile(path);
        QCOMPARE(r.ok, ok);
        if (!ok) {
            QVERIFY(!r.errors.isEmpty());
            if (!error.isEmpty())
                QCOMPARE(r.errors.first(), error);
        }
        // A TOML syntax error keeps Auto (no layout was recognised).
        QCOMPARE(int(r.format), format);
    }

    void forcedFormatBeatsExtension()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("bench.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(fixture("experiments/bench.toml"));
        f.close();
        QVERIFY(!loadExperimentFile(path).ok);
        const ExperimentReadResult r = loadExperimentFile(path, ExperimentFormat::TomlBench);
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.format, ExperimentFormat::TomlBench);
        QCOMPARE(r.experiment.name, QStringLiteral("sglang rate sweep"));
    }
};

QTEST_GUILESS_MAIN(TestFormatDetection)
#include "tst_formatdetection.moc"
