// SPDX-License-Identifier: MIT
// What `check` prints is read by scripts: each diagnosis has its own stable code and a fix in words, and
// each capability answer says what it means for a run.
#include "diagnosis/capabilities.h"
#include "diagnosis/preflight.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace ServeScope;

class TestDiagnosisCodes final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void everyDiagnosisHasItsOwnCodeAndFix()
    {
        QSet<QString> codes;
        for (int d = int(Diagnosis::Ok); d <= int(Diagnosis::Other); ++d) {
            const QString code = diagnosisCode(Diagnosis(d));
            QVERIFY2(QRegularExpression(QStringLiteral("^[a-z][a-z0-9_]*$")).match(code).hasMatch(), qPrintable(code));
            QVERIFY2(!codes.contains(code), qPrintable(code));
            codes.insert(code);
            QCOMPARE(diagnosisFix(Diagnosis(d)).isEmpty(), Diagnosis(d) == Diagnosis::Ok);
        }
        // The codes scripts already read stay as they were.
        QCOMPARE(diagnosisCode(Diagnosis::Ok), QStringLiteral("ok"));
        QCOMPARE(diagnosisCode(Diagnosis::ConnectionRefused), QStringLiteral("connection_refused"));
        QCOMPARE(diagnosisCode(Diagnosis::StreamTruncated), QStringLiteral("stream_truncated"));
        QCOMPARE(diagnosisCode(Diagnosis::StreamStalled), QStringLiteral("stream_stalled"));
        QCOMPARE(diagnosisCode(Diagnosis::NotStreamed), QStringLiteral("not_streamed"));
        QCOMPARE(diagnosisCode(Diagnosis::Other), QStringLiteral("other"));
    }

    void everyCapabilityAnswerSaysWhatItMeans_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("value");
        QTest::addColumn<bool>("hasFix");
        QTest::newRow("usage sent") << "usage_sent" << 1 << false;
        QTest::newRow("no usage") << "usage_sent" << 0 << true;
        QTest::newRow("no /tokenize") << "tokenize" << 0 << true;
        QTest::newRow("ignore_eos honoured") << "ignore_eos" << 1 << false;
        QTest::newRow("ignore_eos dropped") << "ignore_eos" << 0 << true;
    }

    void everyCapabilityAnswerSaysWhatItMeans()
    {
        QFETCH(QString, key);
        QFETCH(int, value);
        QFETCH(bool, hasFix);
        const CapabilityNote note = capabilityNote(key, value);
        QVERIFY2(note.means.size() > 20, qPrintable(note.means));
        QCOMPARE(!note.fix.isEmpty(), hasFix);
    }
};

QTEST_GUILESS_MAIN(TestDiagnosisCodes)
#include "tst_diagnosiscodes.moc"
