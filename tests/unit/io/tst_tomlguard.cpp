// SPDX-License-Identifier: MIT
// TOML that Debian's toml++ 3.3.0 cannot parse without undefined behaviour (found by
// fuzz_experiment_toml) is refused with a position and a reason before toml++ sees it; valid
// TOML with non-ASCII text in string values and comments still reads.
#include "io/experimentfile.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestTomlGuard final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("toml");
        QTest::addColumn<QString>("error");
        QTest::newRow("non-ASCII after a bare key")
            << QByteArray("e\xEF\xBB\xBD = 1\n")
            << QStringLiteral("line 1, column 2: non-ASCII character outside a string or comment");
        QTest::newRow("non-ASCII as a value") << QByteArray(
            "a = \xC3\xA9\n") << QStringLiteral("line 1, column 5: non-ASCII character outside a string or comment");
        QTest::newRow("quoted key") << QByteArray("x = 1\n\"k\xC3\xA9\" = 1\n")
                                    << QStringLiteral(
                                           "line 2, column 3: non-ASCII characters in keys are not supported");
        QTest::newRow("key in an inline table")
            << QByteArray("a = { \"k\xC2\xA7\" = 1 }\n")
            << QStringLiteral("line 1, column 9: non-ASCII characters in keys are not supported");
        QTest::newRow("quoted table header") << QByteArray(
            "[\"\xC2\xA7\"]\n") << QStringLiteral("line 1, column 3: non-ASCII characters in keys are not supported");
        QTest::newRow("line-ending backslash")
            << QByteArray("s = \"\"\"\\\n\xC2\xA7\"\"\"\n")
            << QStringLiteral("line 2, column 1: a line-ending backslash cannot be followed by a non-ASCII character");
        QTest::newRow("escape of a non-ASCII character")
            << QByteArray("s = \"\"\"\\\xC2\xA7\"\"\"\n")
            << QStringLiteral("line 1, column 9: a non-ASCII character cannot follow a backslash");
        QTest::newRow("header with a control character") << QByteArray(
            "[\x01"
            "bench]\n") << QStringLiteral("line 1, column 2: expected a key in the table header");
        QTest::newRow("header without a key")
            << QByteArray("[ =]\n") << QStringLiteral("line 1, column 3: expected a key in the table header");
    }
    void refused()
    {
        QFETCH(QByteArray, toml);
        QFETCH(QString, error);
        for (const ExperimentFormat f : { ExperimentFormat::Auto, ExperimentFormat::TomlBench }) {
            const ExperimentReadResult r = importExperiment(toml, f, QStringLiteral("t"));
            QVERIFY(!r.ok);
            QCOMPARE(r.errors, QStringList { error });
        }
    }

    void nonAsciiTextStillReads()
    {
        const QByteArray toml = "\xEF\xBB\xBF# r\xC3\xA9sum\xC3\xA9 \xC2\xA7\n"
                                "[bench]\n"
                                "name = \"caf\xC3\xA9 \xC2\xA7\"  # \xE3\x80\x80\n"
                                "base_url = 'http://127.0.0.1:8000'\n"
                                "model = \"\"\"m\xC2\xA7\\\n  \"\"\"\n"
                                "[bench.load]\n"
                                "concurrency = [1, 4]\nnum_prompts = 20\n";
        const ExperimentReadResult r = importExperiment(toml, ExperimentFormat::Auto, QStringLiteral("t"));
        QVERIFY2(r.ok, qPrintable(r.errors.join(u'\n')));
        QCOMPARE(r.experiment.name, QString::fromUtf8("caf\xC3\xA9 \xC2\xA7"));
        QCOMPARE(r.experiment.endpoint.model, QString::fromUtf8("m\xC2\xA7"));
    }
};

QTEST_GUILESS_MAIN(TestTomlGuard)
#include "tst_tomlguard.moc"
