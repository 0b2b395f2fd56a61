// SPDX-License-Identifier: MIT
// `servescope-cli validate`: output lines and exit codes, run as a real process.
#include "requireservice.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Outcome {
    int exitCode = -1;
    QString out;
    QString err;
};

Outcome runCli(const QStringList &args)
{
    QProcess p;
    p.start(qEnvironmentVariable("SERVESCOPE_CLI"), QStringList { QStringLiteral("validate") } + args);
    if (!p.waitForFinished(30000))
        return {};
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
}

QString data(const char *name)
{
    return QStringLiteral(SERVESCOPE_TEST_DATA "/experiments/") + QLatin1String(name);
}

} // namespace

class TestValidateCli final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        SERVESCOPE_REQUIRE_SERVICE(!qEnvironmentVariable("SERVESCOPE_CLI").isEmpty(),
            QStringLiteral("SERVESCOPE_CLI is not set (run through ctest)"));
    }

    void demoIsValid()
    {
        const Outcome o = runCli({ QStringLiteral(SERVESCOPE_TEST_DATA "/../../resources/demo/demo-experiment.json") });
        QCOMPARE(o.exitCode, 0);
        QVERIFY(o.out.contains(QLatin1String("points: c1, c4, c8, c16, c32, c64\n")));
        QVERIFY(o.out.contains(QLatin1String("variant seqs-8:\n  server.args.max_num_seqs 256 -> 8\n")));
        QVERIFY(o.out.contains(QLatin1String("valid (json, 3 variants, 6 points, 0 errors, 0 warnings)")));
    }

    void importsAreValid_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("toml load matrix") << data("load_matrix.toml");
        QTest::newRow("toml bench") << data("bench.toml");
        QTest::newRow("bench_config") << data("bench_config.json");
        QTest::newRow("full") << data("full.json");
    }
    void importsAreValid()
    {
        QFETCH(QString, file);
        const Outcome o = runCli({ file });
        QCOMPARE(o.exitCode, 0);
        QVERIFY(o.out.contains(QLatin1String(": valid (")));
    }

    void warningsAndErrors()
    {
        const QString path = data("invalid-point.json");
        const Outcome o = runCli({ path });
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.out.contains(QLatin1String("\nload.points[0].concurrency: must be at least 1\n"))
            || o.out.startsWith(QLatin1String("load.points[0].concurrency: must be at least 1\n")));
        QVERIFY(o.out.contains(QLatin1String("warning: load.points[1].num_prompts: fewer than 5 x concurrency (20)")));
        QVERIFY(o.out.contains(QLatin1String("invalid (json, 2 variants, 2 points, 1 errors, 1 warnings)")));
    }

    void variantWarningsDoNotFail()
    {
        const QString path = data("variant-warnings.json");
        const Outcome o = runCli({ path });
        QCOMPARE(o.exitCode, 0);
        QVERIFY(
            o.out.contains(QLatin1String("variant b:\n  server.args.max_num_seqs unset -> 8\n  load.repeat 1 -> 2\n")));
        QVERIFY(o.out.contains(QLatin1String(
            "  warning: variants[1]: changes 2 variables (server.args.max_num_seqs, load.repeat) without a reason\n")));
        QVERIFY(o.out.contains(
            QLatin1String("  warning: variants[1].changes.server.args.max_num_seqs: no server.launch.argv")));
    }

    void malformedExitsTwo()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"name\": \"x\",\n \"endpoint\": {\"api_key\": \"sk-live-abcdef\"}}");
        f.close();
        const Outcome o = runCli({ path });
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.out.startsWith(QLatin1String("endpoint.api_key: a literal API key is not allowed")));
        QVERIFY(!o.out.contains(QLatin1String("abcdef")) && !o.err.contains(QLatin1String("abcdef")));
        QVERIFY(o.out.contains(QLatin1String(": malformed (json)")));
    }

    void tomlInJsonIsAJsonError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[bench]\nx = 1\n");
        f.close();
        const Outcome o = runCli({ path });
        QCOMPARE(o.exitCode, 2);
        QCOMPARE(o.out,
            QStringLiteral("line 1, column 2 (at [0]): expected a value (a .json file is read as JSON only; TOML "
                           "needs .toml)\n")
                + path + QStringLiteral(": malformed (json)\n"));
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("help") << QStringList { QStringLiteral("--help") } << 0;
        QTest::newRow("no file") << QStringList() << 2;
        QTest::newRow("two files") << QStringList { QStringLiteral("a"), QStringLiteral("b") } << 2;
        QTest::newRow("unknown option") << QStringList { QStringLiteral("--frobnicate"), QStringLiteral("a") } << 2;
        QTest::newRow("unknown format") << QStringList { QStringLiteral("--format=yaml"), QStringLiteral("a") } << 2;
        QTest::newRow("missing file") << QStringList { QStringLiteral("/nonexistent.json") } << 2;
    }
    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        const Outcome o = runCli(args);
        QCOMPARE(o.exitCode, exitCode);
        if (exitCode == 0)
            QVERIFY(o.out.contains(QLatin1String("EXPERIMENT")));
    }
};

QTEST_GUILESS_MAIN(TestValidateCli)
#include "tst_validatecli.moc"
