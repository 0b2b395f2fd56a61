// SPDX-License-Identifier: MIT
// A reader's schema messages: the C-locale line is what the CLI prints and tests compare, whatever
// translator is installed; the window shows the translated line the result carries beside it.
#include "io/experimentfile.h"

#include <QCoreApplication>
#include <QObject>
#include <QTest>
#include <QTranslator>

using namespace ServeScope;

class TestReaderText final : public QObject {
    Q_OBJECT

    static ExperimentReadResult readBad()
    {
        return readExperimentJson(QByteArrayLiteral("{\"name\": \"x\",\n"
                                                    " \"endpoint\": {\"base_url\": \"sim:\", \"model\": \"m\"},\n"
                                                    " \"load\": {\"mode\": \"concurrency\", \"points\": [\n"
                                                    "   {\"concurrency\": 2.5, \"bogus\": 1}]}}\n"));
    }

private Q_SLOTS:
    void cLineAndShownLine()
    {
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/servescope_zh_CN.qm")));
        QVERIFY(QCoreApplication::installTranslator(&zh));
        const ExperimentReadResult r = readBad();
        QCoreApplication::removeTranslator(&zh);
        QVERIFY(!r.ok);
        QCOMPARE(r.errors,
            QStringList({ QStringLiteral("load.points[0].bogus: unknown key (line 4)"),
                QStringLiteral("load.points[0].concurrency: must be an integer (line 4)") }));
        QCOMPARE(r.shownLines(r.errors),
            QStringList({ QStringLiteral("load.points[0].bogus: 未知的键（第 4 行）"),
                QStringLiteral("load.points[0].concurrency: 必须是整数（第 4 行）") }));
        // A line with no translation is shown as it is.
        QCOMPARE(r.shownLine(QStringLiteral("anything else")), QStringLiteral("anything else"));
    }

    void withoutTranslatorBothAreEnglish()
    {
        const ExperimentReadResult r = readBad();
        QCOMPARE(r.shownLines(r.errors), r.errors);
    }
};

QTEST_GUILESS_MAIN(TestReaderText)
#include "tst_readertext.moc"
