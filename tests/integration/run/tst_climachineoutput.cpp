// SPDX-License-Identifier: MIT
// Machine output is never translated: each command's stdout and files are byte-identical under
// the C locale, zh_CN (as the GUI's language too) and de_DE (a decimal comma).
#include "simchild.h"

#include <QDir>
#include <QFile>
#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

class TestCliMachineOutput final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_project;

    struct Output {
        int exitCode = -1;
        QByteArray out, file;
    };

    static QProcessEnvironment localeEnv(const QString &locale)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : { "LANG", "LC_ALL", "LC_NUMERIC", "LC_TIME", "LC_MESSAGES", "LANGUAGE" })
            env.insert(QLatin1String(name), locale);
        env.insert(QStringLiteral("SERVESCOPE_LANG"), locale.section(u'.', 0, 0));
        return env;
    }

    /// `args` with "{out}" replaced by a file path whose bytes are returned too.
    Output cli(QStringList args, const QString &locale)
    {
        const QString file = m_dir.filePath(QStringLiteral("out-%1").arg(locale));
        QFile::remove(file);
        for (QString &a : args)
            a.replace(QStringLiteral("{out}"), file).replace(QStringLiteral("{project}"), m_project);
        QProcess p;
        p.setProcessEnvironment(localeEnv(locale));
        p.start(SimChild::cli(), args);
        p.waitForFinished(60000);
        QFile f(file);
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray() };
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI not set");
        m_project = m_dir.filePath(QStringLiteral("real.servescope"));
        const QDir real(QStringLiteral(SERVESCOPE_TEST_DATA "/real"));
        QStringList args { QStringLiteral("import") };
        for (const QString &name : real.entryList(QDir::Files, QDir::Name))
            args << real.filePath(name);
        const Output o = cli(args + QStringList { QStringLiteral("--project"), m_project }, QStringLiteral("C"));
        QCOMPARE(o.exitCode, 0);
        QCOMPARE(o.out.count('\n'), 5); // one line per imported run
    }

    void sameBytesInEveryLocale_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString demo = QStringLiteral(SERVESCOPE_SOURCE_DIR "/resources/demo/demo-experiment.json");
        const QString seeds = QStringLiteral(SERVESCOPE_TEST_DATA "/seed-configs/");
        QTest::newRow("validate") << QStringList { QStringLiteral("validate"), demo };
        QTest::newRow("validate bench.toml")
            << QStringList { QStringLiteral("validate"), seeds + QStringLiteral("bench.toml") };
        QTest::newRow("import-command") << QStringList { QStringLiteral("import-command"),
            seeds + QStringLiteral("vllm_bench_serve.sh") };
        // --no-store-key, and a file that names a variable: the developer's keychain is never touched.
        QTest::newRow("import-endpoint") << QStringList { QStringLiteral("import-endpoint"),
            QStringLiteral(SERVESCOPE_TEST_DATA "/endpoint-files/codex-config.toml"),
            QStringLiteral("--no-store-key") };
        QTest::newRow("export-command") << QStringList { QStringLiteral("export-command"), demo,
            QStringLiteral("--point"), QStringLiteral("c8"), QStringLiteral("--tool"), QStringLiteral("sglang") };
        QTest::newRow("k8s-job") << QStringList { QStringLiteral("k8s-job"), seeds + QStringLiteral("bench.toml"),
            QStringLiteral("--shards"), QStringLiteral("1"), QStringLiteral("--image"), QStringLiteral("servescope:1"),
            QStringLiteral("--start-at"), QStringLiteral("2026-12-01T10:00:00Z"), QStringLiteral("--results-claim"),
            QStringLiteral("results") };
        QTest::newRow("runs") << QStringList { QStringLiteral("runs"), QStringLiteral("--project"),
            QStringLiteral("{project}") };
        QTest::newRow("runs --json") << QStringList { QStringLiteral("runs"), QStringLiteral("--project"),
            QStringLiteral("{project}"), QStringLiteral("--json") };
        QTest::newRow("compare --json") << QStringList { QStringLiteral("compare"), QStringLiteral("--project"),
            QStringLiteral("{project}"), QStringLiteral("--baseline"), QStringLiteral("4"),
            QStringLiteral("--candidate"), QStringLiteral("5"), QStringLiteral("--json") };
        QTest::newRow("compare --junit") << QStringList { QStringLiteral("compare"), QStringLiteral("--project"),
            QStringLiteral("{project}"), QStringLiteral("--baseline"), QStringLiteral("4"),
            QStringLiteral("--candidate"), QStringLiteral("5"), QStringLiteral("--junit"), QStringLiteral("{out}") };
        QTest::newRow("export --csv") << QStringList { QStringLiteral("export"), QStringLiteral("--project"),
            QStringLiteral("{project}"), QStringLiteral("--run"), QStringLiteral("2"), QStringLiteral("--csv"),
            QStringLiteral("{out}") };
        QTest::newRow("export --sglang-jsonl") << QStringList { QStringLiteral("export"), QStringLiteral("--project"),
            QStringLiteral("{project}"), QStringLiteral("--run"), QStringLiteral("2"), QStringLiteral("--sglang-jsonl"),
            QStringLiteral("{out}") };
    }

    void sameBytesInEveryLocale()
    {
        QFETCH(QStringList, args);
        const Output c = cli(args, QStringLiteral("C"));
        QVERIFY2(c.exitCode == 0 || c.exitCode == 1, qPrintable(QString::number(c.exitCode)));
        QVERIFY(!c.out.isEmpty() || !c.file.isEmpty());
        for (const QString &locale : { QStringLiteral("zh_CN.UTF-8"), QStringLiteral("de_DE.UTF-8") }) {
            const Output other = cli(args, locale);
            QCOMPARE(other.exitCode, c.exitCode);
            // Paths to the written file differ by name only; everything else byte for byte.
            QCOMPARE(QString::fromUtf8(other.out).replace(locale, QStringLiteral("C")), QString::fromUtf8(c.out));
            QCOMPARE(other.file, c.file);
        }
    }
};

QTEST_GUILESS_MAIN(TestCliMachineOutput)
#include "tst_climachineoutput.moc"
