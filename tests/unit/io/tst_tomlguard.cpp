// SPDX-License-Identifier: MIT
// TOML that Debian's toml++ 3.3.0 cannot parse without undefined behaviour (found by
// fuzz_experiment_toml) is refused with a position and a reason before toml++ sees it; valid
// TOML with non-ASCII text in string values and comments still reads.
#include "io/experimentfile.h"
#include "io/importers.h"

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
        QTest::newRow("quote right after a bare value")
            << QByteArray("n=1\"x\xC5\xBC\"\n")
            << QStringLiteral("line 1, column 6: non-ASCII character outside a string or comment");
        QTest::newRow("non-ASCII right after a string value")
            << QByteArray("a = \"x\"\xC3\xA9\n")
            << QStringLiteral("line 1, column 8: non-ASCII character outside a string or comment");
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

    // Valid TOML with non-ASCII text where TOML allows it passes the guard and parses.
    void validTomlParses_data()
    {
        QTest::addColumn<QByteArray>("toml");
        QTest::newRow("inline table values") << QByteArray("t = { a=\"\xC3\xA9\", b = [\"\xC2\xA7\", 1] }\n");
        QTest::newRow("multi-line array") << QByteArray("a = [\n  '\xC3\xA9',\n  \"\xC2\xA7\",\n]\n");
        QTest::newRow("dotted key, value") << QByteArray("a.\"b\".c = \"\xE3\x80\x80\"\n");
        QTest::newRow("quoted header, comment") << QByteArray("[\"x y\"] # \xC2\xA7\nk = '''\xC2\xA7'''\n");
        QTest::newRow("multi-line with closing quotes") << QByteArray("s = \"\"\"\xC2\xA7\"\"\"\"\"\nt = 1\n");
        QTest::newRow("escapes and line-ending backslash")
            << QByteArray("s = \"\"\"\\t\xC2\xA7\\\n   x\xC2\xA7\"\"\"\n");
        QTest::newRow("byte-order mark") << QByteArray("\xEF\xBB\xBF"
                                                       "a = \"\xC3\xA9\"\n");
    }
    void validTomlParses()
    {
        QFETCH(QByteArray, toml);
        JsonNode root;
        QString error;
        QVERIFY2(parseTomlTree(toml, &root, &error), qPrintable(error));
        QVERIFY(root.isObject());
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
