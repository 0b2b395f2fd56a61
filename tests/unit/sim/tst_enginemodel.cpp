// SPDX-License-Identifier: MIT
#include "sim/enginemodel.h"

#include <QRegularExpression>
#include <QTest>

#include <map>

using namespace ServeScope::Sim;

namespace {

SeqSpec seq(quint64 id, int prompt, int output, quint64 hashSeed = 0)
{
    SeqSpec s { id, prompt, output, {} };
    for (int b = 0; b < prompt / 16; ++b)
        s.blockHashes.push_back(hashSeed * 1000003ULL + quint64(b) + 1);
    return s;
}

struct Run {
    std::map<quint64, int> tokens; // per sequence
    std::map<quint64, int> finishedAtStep;
    std::map<quint64, double> firstTokenAt, finishedAt;
    std::vector<double> stepSeconds;
    int maxWaiting = 0, steps = 0;
};

Run runToEnd(EngineModel &e, int maxSteps = 100000)
{
    Run r;
    double t = 0;
    while (e.hasWork() && r.steps < maxSteps) {
        const StepResult &s = e.step();
        r.maxWaiting = std::max(r.maxWaiting, e.waiting());
        if (s.idle)
            break;
        t += s.seconds;
        r.stepSeconds.push_back(s.seconds);
        ++r.steps;
        for (const Emission &em : s.emissions) {
            if (r.tokens[em.id]++ == 0)
                r.firstTokenAt[em.id] = t;
            if (em.finished) {
                r.finishedAtStep[em.id] = r.steps;
                r.finishedAt[em.id] = t;
            }
        }
    }
    return r;
}

} // namespace

class TestEngineModel final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void defaultsMatchPublishedShape()
    {
        // 7B fp16 on an A100: ~18 ms per token alone, ~35 ms at batch 32 with ~1.3k-token contexts.
        const ModelParams m;
        const double alone = EngineModel::stepSeconds(m, 1024, 1);
        const double batch32 = EngineModel::stepSeconds(m, 32 * 1280, 32);
        QVERIFY2(alone > 0.0165 && alone < 0.0195, qPrintable(QString::number(alone)));
        QVERIFY2(batch32 > 0.032 && batch32 < 0.038, qPrintable(QString::number(batch32)));
        // A 4k-token prefill is compute-bound: 2 * 6.7e9 * 4096 / 1.9e14 s plus overhead.
        QCOMPARE(EngineModel::stepSeconds(m, 4096, 4096), m.overheadSeconds + 2 * m.activeParams * 4096 / m.peakFlops);
    }

    void tpotRisesByRooflineAmount()
    {
        SchedulerParams sp;
        sp.maxNumBatchedTokens = 65536; // every prefill in the first step
        const ModelParams m;
        auto meanDecodeStep = [&](int n) {
            EngineModel e(m, sp);
            for (int i = 0; i < n; ++i)
                e.add(seq(quint64(i + 1), 1024, 129));
            const Run r = runToEnd(e);
            // All prefills fit the first step; the remaining 128 steps are pure decode.
            double sum = 0;
            for (size_t i = 1; i < r.stepSeconds.size(); ++i)
                sum += r.stepSeconds[i];
            return sum / double(r.stepSeconds.size() - 1);
        };
        const double one = meanDecodeStep(1), many = meanDecodeStep(32);
        // Mean context over decode is 1024 + 65 tokens per sequence.
        const double expected = 31.0 * (1024 + 65) * m.kvBytesPerToken / m.memoryBandwidth;
        QVERIFY2(qAbs((many - one) - expected) < 0.02 * expected,
            qPrintable(QStringLiteral("%1 vs %2").arg(many - one).arg(expected)));
    }

    void maxNumSeqsQueuesTheRest()
    {
        SchedulerParams sp;
        sp.maxNumSeqs = 8;
        EngineModel e(ModelParams {}, sp);
        for (int i = 0; i < 32; ++i)
            e.add(seq(quint64(i + 1), 128, 20));
        e.step();
        QCOMPARE(e.running(), 8);
        QCOMPARE(e.waiting(), 24);
        const Run r = runToEnd(e);
        QCOMPARE(int(r.tokens.size()), 32);
        // Four waves: the last request's first token comes about three full generations later.
        QVERIFY(r.firstTokenAt.at(32) > r.finishedAt.at(8) - 1e-9);
        QVERIFY(r.firstTokenAt.at(32) > 10 * r.firstTokenAt.at(1));
    }

    void everySequenceGetsExactlyItsTokens()
    {
        EngineModel e(ModelParams {}, SchedulerParams {});
        for (int i = 0; i < 50; ++i)
            e.add(seq(quint64(i + 1), 10 + 37 * i, 1 + (i * 13) % 90));
        const Run r = runToEnd(e);
        for (int i = 0; i < 50; ++i)
            QCOMPARE(r.tokens.at(quint64(i + 1)), 1 + (i * 13) % 90);
        QCOMPARE(e.kvUsage(), 0.0);
        QCOMPARE(int(e.counters().finished), 50);
    }

    void chunkedPrefillSpreadsOverSteps()
    {
        SchedulerParams sp;
        sp.maxNumBatchedTokens = 1024;
        EngineModel e(ModelParams {}, sp);
        e.add(seq(1, 3000, 2));
        QVERIFY(e.step().emissions.empty());
        QCOMPARE(e.lastResult().scheduledTokens, 1024);
        QVERIFY(e.step().emissions.empty());
        const StepResult &third = e.step();
        QCOMPARE(third.scheduledTokens, 3000 - 2048);
        QCOMPARE(int(third.emissions.size()), 1);
    }

    void smallKvCachePreempts()
    {
        SchedulerParams sp;
        sp.kvCacheTokens = 1024; // 64 blocks
        EngineModel e(ModelParams {}, sp);
        for (int i = 0; i < 8; ++i)
            e.add(seq(quint64(i + 1), 100, 200));
        const Run r = runToEnd(e);
        QVERIFY(e.counters().preemptions > 0);
        for (int i = 0; i < 8; ++i)
            QCOMPARE(r.tokens.at(quint64(i + 1)), 200);
        QCOMPARE(e.kvUsage(), 0.0);
    }

    void prefixCacheHitsRepeatedPrompt()
    {
        SchedulerParams sp;
        sp.prefixCaching = true;
        EngineModel e(ModelParams {}, sp);
        e.add(seq(1, 200, 3, 7));
        runToEnd(e);
        QCOMPARE(int(e.counters().prefixHits), 0);
        e.add(seq(2, 200, 3, 7));
        const StepResult &first = e.step();
        QCOMPARE(int(e.counters().prefixHits), 192); // 12 full blocks
        QCOMPARE(first.scheduledTokens, 8);
        QCOMPARE(int(e.counters().prefixQueries), 400);
        e.resetPrefixCache();
        runToEnd(e);
        e.add(seq(3, 200, 3, 7));
        e.step();
        QCOMPARE(int(e.counters().prefixHits), 192);
    }

    void abortFreesSlotAndBlocks()
    {
        SchedulerParams sp;
        sp.maxNumSeqs = 1;
        EngineModel e(ModelParams {}, sp);
        e.add(seq(1, 500, 100));
        e.add(seq(2, 500, 100));
        e.step();
        QCOMPARE(e.running(), 1);
        QVERIFY(e.kvUsage() > 0);
        QVERIFY(e.abort(1));
        QCOMPARE(e.running(), 0);
        QCOMPARE(e.kvUsage(), 0.0);
        e.step();
        QCOMPARE(e.running(), 1);
        QVERIFY(!e.abort(99));
    }
};

QTEST_GUILESS_MAIN(TestEngineModel)
#include "tst_enginemodel.moc"
