// SPDX-License-Identifier: MIT
// Text for people follows the language: under zh_CN every command's help describes each option in
// Chinese, and usage errors and a run's log lines on stderr are Chinese; under the C locale all
// stay English.
#include "simchild.h"

#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

class TestCliHumanText final : public QObject {
    Q_OBJECT

    struct Output {
        int exitCode = -1;
        QString out, err;
    };

    static Output cli(const QStringList &args, const QString &locale)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : { "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE" })
            env.insert(QLatin1String(name), locale);
        env.remove(QStringLiteral("SERVESCOPE_LANG"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(SimChild::cli(), args);
        p.waitForFinished(30000);
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
    }

    static bool hasChinese(const QString &s)
    {
        static const QRegularExpression han(QStringLiteral("\\p{Han}"));
        return han.match(s).hasMatch();
    }

    /// The command names of the top-level help, from its "Commands:" block under the C locale.
    static QStringList commandNames()
    {
        const Output o = cli({ QStringLiteral("--help") }, QStringLiteral("C"));
        QStringList names;
        bool inList = false;
        for (const QString &line : o.out.split(u'\n')) {
            if (line == QLatin1String("Commands:"))
                inList = true;
            else if (inList && line.isEmpty())
                break;
            else if (inList)
                names << line.simplified().section(u' ', 0, 0);
        }
        return names;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase() { QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI not set"); }

    void topLevelHelp()
    {
        const Output en = cli({ QStringLiteral("--help") }, QStringLiteral("C"));
        const Output zh = cli({ QStringLiteral("--help") }, QStringLiteral("zh_CN.UTF-8"));
        QCOMPARE(en.exitCode, 0);
        QCOMPARE(zh.exitCode, 0);
        QVERIFY2(en.out.startsWith(QLatin1String("Usage: servescope-cli <command> [options]")), qPrintable(en.out));
        QVERIFY(!hasChinese(en.out));
        QVERIFY2(zh.out.startsWith(QStringLiteral("用法：servescope-cli")), qPrintable(zh.out));
        const QStringList names = commandNames();
        QVERIFY2(names.size() >= 15, qPrintable(names.join(u' ')));
        // Every command's summary is translated; its name is not.
        for (const QString &name : names) {
            const QRegularExpression row(QStringLiteral("^  %1 +(.+)$").arg(QRegularExpression::escape(name)),
                QRegularExpression::MultilineOption);
            const QRegularExpressionMatch m = row.match(zh.out);
            QVERIFY2(m.hasMatch(), qPrintable(name));
            QVERIFY2(hasChinese(m.captured(1)), qPrintable(name + QLatin1String(": ") + m.captured(1)));
        }
    }

    void everyOptionDescribedInChinese()
    {
        for (const QString &name : commandNames()) {
            const Output en = cli({ name, QStringLiteral("--help") }, QStringLiteral("C"));
            const Output zh = cli({ name, QStringLiteral("--help") }, QStringLiteral("zh_CN.UTF-8"));
            QCOMPARE(en.exitCode, 0);
            QCOMPARE(zh.exitCode, 0);
            QVERIFY2(!hasChinese(en.out), qPrintable(name));
            // An option line: two spaces, the option, two or more spaces, its description.
            static const QRegularExpression option(QStringLiteral("^  (-[^ ].*?)  +(\\S.*)$"));
            int options = 0;
            for (const QString &line : zh.out.split(u'\n')) {
                const QRegularExpressionMatch m = option.match(line);
                if (!m.hasMatch())
                    continue;
                ++options;
                QVERIFY2(hasChinese(m.captured(2)), qPrintable(name + QLatin1String(": ") + line));
            }
            QVERIFY2(options >= 2, qPrintable(name + QLatin1Char('\n') + zh.out));
        }
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("chinese");
        QTest::newRow("unknown command") << QStringList { QStringLiteral("bogus") }
                                         << QStringLiteral("servescope-cli: unknown command 'bogus'")
                                         << QStringLiteral("servescope-cli：未知命令“bogus”");
        QTest::newRow("validate") << QStringList { QStringLiteral("validate"), QStringLiteral("a"),
            QStringLiteral("b") } << QStringLiteral("expected exactly one EXPERIMENT file (see --help)")
                                  << QStringLiteral("需要恰好一个 EXPERIMENT 文件（见 --help）");
        QTest::newRow("compare") << QStringList { QStringLiteral("compare") }
                                 << QStringLiteral("--baseline and --candidate are required")
                                 << QStringLiteral("必须给出 --baseline 和 --candidate");
        QTest::newRow("export") << QStringList { QStringLiteral("export"), QStringLiteral("--project"),
            QStringLiteral("x.servescope") }
                                << QStringLiteral("--project FILE and --run RUN are required")
                                << QStringLiteral("必须给出 --project FILE 和 --run RUN");
        QTest::newRow("sim") << QStringList { QStringLiteral("sim"), QStringLiteral("--port"), QStringLiteral("70000") }
                             << QStringLiteral("--port must be 0..65535")
                             << QStringLiteral("--port 必须在 0..65535 之间");
        QTest::newRow("run") << QStringList { QStringLiteral("run") } << QStringLiteral("expected one EXPERIMENT file")
                             << QStringLiteral("需要恰好一个 EXPERIMENT 文件");
        // A run's own log line: the project cannot be created, so the run is refused.
        QTest::newRow("run log") << QStringList { QStringLiteral("run"),
            QStringLiteral(SERVESCOPE_SOURCE_DIR "/resources/demo/demo-experiment.json"), QStringLiteral("--project"),
            QStringLiteral("/nonexistent-dir/p.servescope") }
                                 << QStringLiteral("error: cannot open the project: ")
                                 << QStringLiteral("error: 无法打开项目：");
        // The store's refusal of a file that is not a project (here, an experiment file).
        QTest::newRow("not a project") << QStringList { QStringLiteral("runs"), QStringLiteral("--project"),
            QStringLiteral(SERVESCOPE_SOURCE_DIR "/resources/demo/demo-experiment.json") }
                                       << QStringLiteral("not a ServeScope project (not an SQLite database)")
                                       << QStringLiteral("不是 ServeScope 项目（不是 SQLite 数据库）");
        QTest::newRow("Qt's own parser message") << QStringList { QStringLiteral("runs"), QStringLiteral("--nope") }
                                                 << QStringLiteral("Unknown option 'nope'.") << QStringLiteral("nope");
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, english);
        QFETCH(QString, chinese);
        const Output en = cli(args, QStringLiteral("C"));
        const Output zh = cli(args, QStringLiteral("zh_CN.UTF-8"));
        QCOMPARE(en.exitCode, 2);
        QCOMPARE(zh.exitCode, 2);
        QVERIFY2(en.err.contains(english), qPrintable(en.err));
        QVERIFY2(!hasChinese(en.err), qPrintable(en.err));
        QVERIFY2(zh.err.contains(chinese), qPrintable(zh.err));
        QVERIFY2(hasChinese(zh.err), qPrintable(zh.err));
        QVERIFY2(!zh.err.contains(english), qPrintable(zh.err));
        QCOMPARE(zh.out, en.out); // nothing for machines changes
    }
};

QTEST_GUILESS_MAIN(TestCliHumanText)
#include "tst_clihumantext.moc"
