// SPDX-License-Identifier: MIT
#include "metrics/requestmetrics.h"
#include "model/clock.h"
#include "recordbuilder.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;
using namespace ServeScope::Test;
using K = EventKind;

Q_DECLARE_METATYPE(ServeScope::DefinitionsProfile)

class TestRequestMetrics final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void derive_data()
    {
        QTest::addColumn<RequestRecord>("record");
        QTest::addColumn<DefinitionsProfile>("profile");
        QTest::addColumn<bool>("counted");
        QTest::addColumn<double>("ttftMs");
        QTest::addColumn<double>("ttfcMs");
        QTest::addColumn<double>("e2elMs");
        QTest::addColumn<int>("outputTokens");
        QTest::addColumn<QVector<double>>("itlMs");
        QTest::addColumn<QVector<double>>("citlMs");

        // Role chunk sent 40 ms before the first token: vLLM's TTFT counts it, SGLang's does not.
        const RequestRecord early = makeRecord(0, 0,
            { { 10, K::RoleOnly }, { 50, K::Content }, { 60, K::Content }, { 70, K::FinishOnly }, { 71, K::Usage },
                { 72, K::Done } },
            3);
        QTest::newRow("vllm-role-first") << early << DefinitionsProfile::Vllm << true << 10.0 << 50.0 << 70.0 << 3
                                         << QVector<double> { 40, 10, 10 } << QVector<double> { 10 };
        QTest::newRow("sglang-role-first") << early << DefinitionsProfile::Sglang << true << 50.0 << 50.0 << 72.0 << 3
                                           << QVector<double> { 10 } << QVector<double> { 10 };
        const RequestRecord multi
            = makeRecord(1, 5, { { 20, K::Content }, { 30, K::Content }, { 45, K::Reasoning }, { 46, K::Usage } }, 9);
        QTest::newRow("multi-token-chunks") << multi << DefinitionsProfile::Vllm << true << 20.0 << 20.0 << 45.0 << 9
                                            << QVector<double> { 10, 15 } << QVector<double> { 10, 15 };
        QTest::newRow("failed-status") << makeFailed(2, 0, 30) << DefinitionsProfile::Vllm << false << 0.0 << 0.0 << 0.0
                                       << 0 << QVector<double> {} << QVector<double> {};
        // A 2xx stream without any token event is failed.
        const RequestRecord empty = makeRecord(3, 0, { { 5, K::Usage }, { 6, K::Done } }, 0);
        QTest::newRow("no-token-event") << empty << DefinitionsProfile::Vllm << false << 0.0 << 0.0 << 0.0 << 0
                                        << QVector<double> {} << QVector<double> {};
    }

    // TTFO: the first content or tool-call event, never reasoning; TTFC: the first event with any text.
    void ttfo_data()
    {
        QTest::addColumn<RequestRecord>("record");
        QTest::addColumn<bool>("hasTtfo");
        QTest::addColumn<double>("ttfoMs");
        QTest::addColumn<double>("ttfcMs");
        QTest::newRow("reasoning, then the answer") << makeRecord(0, 0,
            { { 5, K::RoleOnly }, { 10, K::Reasoning }, { 20, K::Reasoning }, { 50, K::Content }, { 60, K::Content } },
            4) << true << 50.0 << 10.0;
        QTest::newRow("reasoning, then a tool call")
            << makeRecord(1, 0, { { 10, K::Reasoning }, { 30, K::ToolCall }, { 40, K::Content } }, 3) << true << 30.0
            << 10.0;
        QTest::newRow("only reasoning") << makeRecord(2, 0, { { 10, K::Reasoning }, { 20, K::FinishOnly } }, 2) << false
                                        << 0.0 << 10.0;
        QTest::newRow("no reasoning: the first content")
            << makeRecord(3, 0, { { 5, K::RoleOnly }, { 8, K::Content }, { 9, K::Content } }, 2) << true << 8.0 << 8.0;
    }
    void ttfo()
    {
        QFETCH(RequestRecord, record);
        QFETCH(bool, hasTtfo);
        QFETCH(double, ttfoMs);
        QFETCH(double, ttfcMs);
        for (DefinitionsProfile p : { DefinitionsProfile::Vllm, DefinitionsProfile::Sglang }) {
            const RequestMetrics m = deriveRequest(record, p);
            QVERIFY(m.counted);
            QCOMPARE(m.hasTtfo, hasTtfo);
            QCOMPARE(m.ttfo * 1000, ttfoMs);
            QCOMPARE(m.ttfc * 1000, ttfcMs);
        }
    }

    void derive()
    {
        QFETCH(RequestRecord, record);
        QFETCH(DefinitionsProfile, profile);
        QFETCH(bool, counted);
        QFETCH(double, ttftMs);
        QFETCH(double, ttfcMs);
        QFETCH(double, e2elMs);
        QFETCH(int, outputTokens);
        QFETCH(QVector<double>, itlMs);
        QFETCH(QVector<double>, citlMs);
        NsList itl, citl;
        const RequestMetrics m = deriveRequest(record, profile);
        appendTokenGapsNs(record, profile, &itl, &citl);
        QCOMPARE(m.counted, counted);
        QCOMPARE(m.failed, !counted);
        if (!counted) {
            QVERIFY(itl.isEmpty());
            return;
        }
        QCOMPARE(m.ttft, ttftMs / 1000);
        QCOMPARE(m.ttfc, ttfcMs / 1000);
        QCOMPARE(m.e2el, e2elMs / 1000);
        QCOMPARE(m.outputTokens, outputTokens);
        QCOMPARE(m.hasTpot, outputTokens > 1);
        QCOMPARE(m.tpot, (m.e2el - m.ttft) / (outputTokens - 1));
        QCOMPARE(itl.size(), itlMs.size());
        for (int i = 0; i < itlMs.size(); ++i)
            QCOMPARE(nsToSeconds(itl.at(i)), double(qint64(itlMs[i] * Ms)) / 1e9);
        QCOMPARE(citl.size(), citlMs.size());
    }

    void cancelledIsNotFailed()
    {
        RequestRecord r = makeStream(0, 0, 10, 5, 4);
        r.status = RequestStatus::Cancelled;
        const RequestMetrics m = deriveRequest(r, DefinitionsProfile::Vllm);
        QVERIFY(m.cancelled);
        QVERIFY(!m.failed);
        QVERIFY(!m.counted);
    }

    void tokenCountRules_data()
    {
        QTest::addColumn<DefinitionsProfile>("profile");
        QTest::addColumn<bool>("estimated");
        QTest::addColumn<int>("expectedOut");
        QTest::addColumn<int>("expectedIn");
        QTest::newRow("vllm-usage") << DefinitionsProfile::Vllm << false << 7 << 130;
        QTest::newRow("vllm-estimated") << DefinitionsProfile::Vllm << true << 7 << 130;
        // SGLang's client never asks for usage: it counts the requested max_tokens even when usage came.
        QTest::newRow("sglang-usage-still-max-tokens") << DefinitionsProfile::Sglang << false << 64 << 128;
        QTest::newRow("sglang-no-usage-uses-max-tokens") << DefinitionsProfile::Sglang << true << 64 << 128;
    }

    void tokenCountRules()
    {
        QFETCH(DefinitionsProfile, profile);
        QFETCH(bool, estimated);
        QFETCH(int, expectedOut);
        QFETCH(int, expectedIn);
        RequestRecord r = makeStream(0, 0, 10, 5, 7);
        r.promptTokens = 130;
        r.targetInputLen = 128;
        r.targetOutputLen = 64;
        r.outputEstimated = estimated;
        const RequestMetrics m = deriveRequest(r, profile);
        QCOMPARE(m.outputTokens, expectedOut);
        QCOMPARE(m.inputTokens, expectedIn);
        QCOMPARE(m.outputEstimated, profile == DefinitionsProfile::Vllm && estimated);
        // The server's own count stands beside whatever the profile counts.
        QCOMPARE(m.serverOutputTokens, estimated ? -1 : 7);
    }

    void profileCodes()
    {
        bool ok = false;
        QCOMPARE(definitionsFromCode(u"sglang", &ok), DefinitionsProfile::Sglang);
        QVERIFY(ok);
        QCOMPARE(definitionsFromCode(u"other", &ok), DefinitionsProfile::Vllm);
        QVERIFY(!ok);
        QCOMPARE(definitionsCode(DefinitionsProfile::Vllm), QStringLiteral("vllm"));
    }
};

QTEST_GUILESS_MAIN(TestRequestMetrics)
#include "tst_requestmetrics.moc"
