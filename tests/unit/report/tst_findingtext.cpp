// SPDX-License-Identifier: MIT
// The run findings in words: each says the numbers it used and, for a hypothesis, how to confirm it.
#include "report/findingtext.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;
using namespace ServeScope::Report;

Q_DECLARE_METATYPE(ServeScope::RunFinding)

class TestFindingText final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void wordsCarryTheNumbers_data()
    {
        QTest::addColumn<RunFinding>("finding");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QStringList>("parts");
        const RunFinding prefill { QStringLiteral("prefill-interference"), RunFinding::Kind::Problem,
            QStringLiteral("b"), { QStringLiteral("r8"), QStringLiteral("r16") },
            { { QStringLiteral("itl_tail_ratio"), 10 }, { QStringLiteral("itl_tail_lightest"), 2 },
                { QStringLiteral("itl_p99_ms"), 250 }, { QStringLiteral("itl_p50_ms"), 25 },
                { QStringLiteral("prompt_tokens_mean"), 2048 } },
            RunFinding::Confirmation::NoEvidence };
        QTest::newRow("prefill interference without a known budget")
            << prefill << QStringLiteral("Prefill interference")
            << QStringList { QStringLiteral("From r8, r16, ITL p99 is ×10.0 its p50 (250.0 ms against 25.00 ms; ×2.0"),
                   QStringLiteral("joining prompts (2048 tokens on average)"),
                   QStringLiteral("vLLM --max-num-batched-tokens, SGLang --chunked-prefill-size") };
        RunFinding vllm = prefill;
        vllm.evidence.append({ QStringLiteral("max_num_batched_tokens"), 8192 });
        QTest::newRow("prefill interference names vLLM's budget")
            << vllm << QStringLiteral("Prefill interference")
            << QStringList { QStringLiteral("smaller max_num_batched_tokens than this variant's 8192") };
        RunFinding sglang = prefill;
        sglang.evidence.append({ QStringLiteral("chunked_prefill_size"), 4096 });
        QTest::newRow("prefill interference names SGLang's budget")
            << sglang << QStringLiteral("Prefill interference")
            << QStringList { QStringLiteral("smaller chunked_prefill_size than this variant's 4096") };
        QTest::newRow("rate-limited")
            << RunFinding { QStringLiteral("rate-limited"), RunFinding::Kind::Problem, QStringLiteral("b"),
                   { QStringLiteral("c64") },
                   { { QStringLiteral("rate_limited"), 120 }, { QStringLiteral("rate_limited_share"), 0.057 } },
                   RunFinding::Confirmation::NotApplicable }
            << QStringLiteral("Rate-limited (HTTP 429)")
            << QStringList { QStringLiteral("At c64 the server answered 120 requests with HTTP 429 (up to 5.7%"),
                   QStringLiteral("latencies there leave those requests out") };
        QTest::newRow("role chunk") << RunFinding { QStringLiteral("role-chunk-before-token"), RunFinding::Kind::Caveat,
            QString(), { QStringLiteral("c8"), QStringLiteral("c16") }, { { QStringLiteral("role_gap_ms"), 12.5 } },
            RunFinding::Confirmation::NotApplicable }
                                    << QStringLiteral("Role chunk before the first token")
                                    << QStringList { QStringLiteral(
                                           "At c8, c16 the role-only first chunk arrives up to 12.5 ms") };
        QTest::newRow("ignore_eos") << RunFinding { QStringLiteral("ignore-eos-not-honoured"), RunFinding::Kind::Caveat,
            QString(), { QStringLiteral("c8") }, { { QStringLiteral("short_share"), 0.05 } },
            RunFinding::Confirmation::NotApplicable }
                                    << QStringLiteral("ignore_eos not honoured")
                                    << QStringList { QStringLiteral(
                                           "At c8 up to 5.0% of requests stopped before the requested length") };
        QTest::newRow("usage-mismatch")
            << RunFinding { QStringLiteral("usage-mismatch"), RunFinding::Kind::Caveat, QStringLiteral("gw"),
                   { QStringLiteral("c4") },
                   { { QStringLiteral("requests"), 24 }, { QStringLiteral("usage_output_tokens"), 0 },
                       { QStringLiteral("counted_output_tokens"), 1152 }, { QStringLiteral("usage_input_tokens"), 0 },
                       { QStringLiteral("counted_input_tokens"), 936 } },
                   RunFinding::Confirmation::NotApplicable }
            << QStringLiteral("Usage contradicts the stream")
            << QStringList { QStringLiteral("At c4 the server's usage contradicted the stream on 24 requests."),
                   QStringLiteral("It said 0 output tokens where 1152 were counted"),
                   QStringLiteral("It said 0 input tokens where the prompts had 936") };
        QTest::newRow("server-exited")
            << RunFinding { QStringLiteral("server-exited"), RunFinding::Kind::Problem, QStringLiteral("b"),
                   { QStringLiteral("c16") }, { { QStringLiteral("signal"), 9 } },
                   RunFinding::Confirmation::NotApplicable }
            << QStringLiteral("The server exited during the run")
            << QStringList { QStringLiteral("The launched server was killed by signal 9 while the run used it, "
                                            "during c16"),
                   QStringLiteral("not called healthy") };
    }
    void wordsCarryTheNumbers()
    {
        QFETCH(RunFinding, finding);
        QFETCH(QString, title);
        QFETCH(QStringList, parts);
        QCOMPARE(findingTitle(finding), title);
        const QString text = findingText(finding);
        for (const QString &part : parts)
            QVERIFY2(text.contains(part), qPrintable(text));
    }

    void thresholdsNameTheNewOnes()
    {
        const QString text = findingThresholdsText();
        for (const char *part : { "prefill interference when ITL p99 reaches ×3 its p50 and ×1.5 its ratio at the "
                                  "lightest load with joining "
                                  "prefill chunks of 256 tokens or more",
                 "rate-limited above 0.0% of requests answered 429", "by more than 5 ms (median)",
                 "ignore_eos not honoured above 1.0% shorter outputs" })
            QVERIFY2(text.contains(QString::fromUtf8(part)), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestFindingText)
#include "tst_findingtext.moc"
