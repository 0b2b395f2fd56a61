// SPDX-License-Identifier: MIT
// Constructed runs, each with the findings it must and must not produce.
#include "metrics/findings.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>

using namespace ServeScope;

namespace {

// A concurrency point with medians in ms and the server's summary.
PointSummary point(const QString &variant, int c, double ttft, double tpot, double tput,
    const QMap<QString, double> &server = {}, int repeat = 1)
{
    PointSummary p;
    p.variant = variant;
    p.point = c;
    p.repeat = repeat;
    p.label = QStringLiteral("c%1").arg(c);
    p.mode = QStringLiteral("concurrency");
    p.concurrency = c;
    p.inputLen = 512;
    p.outputLen = 128;
    p.completed = 2000;
    p.ttft.p50 = ttft;
    p.ttft.p99 = ttft * 1.2;
    p.ttft.count = 2000;
    p.tpot.p50 = tpot;
    p.outputThroughput = tput;
    p.server = server;
    return p;
}

// An open-loop point at `rate` requests/s whose ITL has `p50` and `p99` (ms) over `gaps` gaps.
PointSummary ratePoint(const QString &variant, double rate, double p50, double p99, int gaps = 20000)
{
    PointSummary p = point(variant, int(rate), 100, 20, 100 * rate);
    p.mode = QStringLiteral("rate");
    p.concurrency = 0;
    p.requestRate = rate;
    p.label = QStringLiteral("r%1").arg(rate);
    p.itl.p50 = p50;
    p.itl.p99 = p99;
    p.itl.count = gaps;
    return p;
}

QStringList codes(const QList<RunFinding> &f)
{
    QStringList out;
    for (const RunFinding &x : f)
        out << x.code + u'@' + x.variant;
    return out;
}

const RunFinding *find(const QList<RunFinding> &f, const QString &code)
{
    for (const RunFinding &x : f) {
        if (x.code == code)
            return &x;
    }
    return nullptr;
}

} // namespace

class TestFindings final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void findingsOfConstructedRuns_data()
    {
        QTest::addColumn<QList<PointSummary>>("points");
        QTest::addColumn<QStringList>("must");
        QTest::addColumn<QStringList>("mustNot");
        const QMap<QString, double> queue { { QStringLiteral("waiting_max"), 40 },
            { QStringLiteral("running_max"), 8 } };
        const QMap<QString, double> idle { { QStringLiteral("waiting_max"), 0 },
            { QStringLiteral("running_max"), 64 } };
        QTest::newRow("healthy: throughput rises, TTFT with the load")
            << QList<PointSummary> { point(QStringLiteral("a"), 1, 10, 5, 200),
                   point(QStringLiteral("a"), 8, 40, 6, 1500), point(QStringLiteral("a"), 64, 300, 8, 9000) }
            << QStringList { QStringLiteral("healthy@a") }
            << QStringList { QStringLiteral("queueing@a"), QStringLiteral("capacity-knee@a") };
        QTest::newRow("queueing confirmed by the waiting queue")
            << QList<PointSummary> { point(QStringLiteral("q"), 1, 10, 5, 200),
                   point(QStringLiteral("q"), 8, 12, 5, 1500), point(QStringLiteral("q"), 16, 200, 5.2, 1520, queue),
                   point(QStringLiteral("q"), 32, 600, 5.1, 1530, queue) }
            << QStringList { QStringLiteral("queueing@q"), QStringLiteral("capacity-knee@q") }
            << QStringList { QStringLiteral("healthy@q"), QStringLiteral("bandwidth-bound-decode@q") };
        QTest::newRow("the pattern with an empty waiting queue is refuted") << QList<PointSummary> {
            point(QStringLiteral("r"), 1, 10, 5, 200), point(QStringLiteral("r"), 16, 400, 5.5, 3000, idle)
        } << QStringList { QStringLiteral("healthy@r") } << QStringList { QStringLiteral("queueing@r") };
        QTest::newRow("bandwidth: TPOT doubles while throughput falls")
            << QList<PointSummary> { point(QStringLiteral("b"), 1, 10, 5, 200),
                   point(QStringLiteral("b"), 8, 30, 7, 1400), point(QStringLiteral("b"), 16, 60, 14, 1100) }
            << QStringList { QStringLiteral("bandwidth-bound-decode@b") }
            << QStringList { QStringLiteral("healthy@b") };
        QTest::newRow("one point: no curve, no curve finding")
            << QList<PointSummary> { point(QStringLiteral("one"), 8, 10, 5, 1000) } << QStringList {}
            << QStringList { QStringLiteral("healthy@one"), QStringLiteral("queueing@one") };
        PointSummary late = point(QStringLiteral("l"), 64, 100, 6, 8000);
        late.client = { { QStringLiteral("dispatch_lag_p99_ms"), 12.5 }, { QStringLiteral("cpu_percent"), 40 },
            { QStringLiteral("cores"), 2 } };
        PointSummary busy = point(QStringLiteral("l"), 128, 150, 7, 9000);
        busy.client = { { QStringLiteral("dispatch_lag_p99_ms"), 0.2 }, { QStringLiteral("cpu_percent"), 185 },
            { QStringLiteral("cores"), 2 } };
        QTest::newRow("client-limited: requests sent late, or every core busy")
            << QList<PointSummary> { point(QStringLiteral("l"), 1, 10, 5, 200), late, busy }
            << QStringList { QStringLiteral("client-limited@l") } << QStringList {};
        PointSummary calm = point(QStringLiteral("m"), 64, 100, 6, 8000);
        calm.client = { { QStringLiteral("dispatch_lag_p99_ms"), 0.05 }, { QStringLiteral("cpu_percent"), 30 },
            { QStringLiteral("cores"), 2 } };
        QTest::newRow("a calm client limits nothing")
            << QList<PointSummary> { point(QStringLiteral("m"), 1, 10, 5, 200), calm } << QStringList {}
            << QStringList { QStringLiteral("client-limited@m") };
        QTest::newRow("KV-cache pressure: preemptions with a full cache")
            << QList<PointSummary> { point(QStringLiteral("k"), 1, 10, 5, 200),
                   point(QStringLiteral("k"), 64, 100, 6, 8000,
                       { { QStringLiteral("preemptions"), 12 }, { QStringLiteral("kv_usage_max"), 97 } }) }
            << QStringList { QStringLiteral("kv-cache-pressure@k") } << QStringList { QStringLiteral("healthy@k") };
        QTest::newRow("prefill interference: ITL's tail grows with the arrival rate") << QList<PointSummary> {
            ratePoint(QStringLiteral("p"), 1, 18, 30), ratePoint(QStringLiteral("p"), 4, 19, 45),
            ratePoint(QStringLiteral("p"), 8, 20, 140), ratePoint(QStringLiteral("p"), 16, 22, 400)
        } << QStringList { QStringLiteral("prefill-interference@p") } << QStringList { QStringLiteral("healthy@p") };
        QTest::newRow("a steady ITL tail is no interference")
            << QList<PointSummary> { ratePoint(QStringLiteral("s"), 1, 18, 36),
                   ratePoint(QStringLiteral("s"), 8, 20, 42), ratePoint(QStringLiteral("s"), 16, 22, 48) }
            << QStringList { QStringLiteral("healthy@s") } << QStringList { QStringLiteral("prefill-interference@s") };
        QTest::newRow("a wide tail from the lightest load on did not grow") << QList<PointSummary> {
            ratePoint(QStringLiteral("w"), 1, 18, 90), ratePoint(QStringLiteral("w"), 16, 20, 110)
        } << QStringList {} << QStringList { QStringLiteral("prefill-interference@w") };
        // The demo at --sim-time-scale 10: steps of 2 ms, where host jitter alone triples the ratio;
        // 128-token prompts cannot stall a step.
        QTest::newRow("short prompts: a wider tail is not prefill interference") << [] {
            QList<PointSummary> jittery { ratePoint(QStringLiteral("j"), 1, 1.8, 4.3),
                ratePoint(QStringLiteral("j"), 16, 2.2, 8.2) };
            for (PointSummary &p : jittery) {
                p.inputLen = 128;
                p.totalInputTokens = 128LL * p.completed;
            }
            return jittery;
        }() << QStringList { QStringLiteral("healthy@j") } << QStringList { QStringLiteral("prefill-interference@j") };
        QTest::newRow("too few ITL gaps for a p99: abstains") << QList<PointSummary> {
            ratePoint(QStringLiteral("f"), 1, 18, 30, 400), ratePoint(QStringLiteral("f"), 16, 22, 400, 900)
        } << QStringList {} << QStringList { QStringLiteral("prefill-interference@f") };
        QTest::newRow("ITL tails of different lengths are not one curve")
            << QList<PointSummary> { ratePoint(QStringLiteral("x"), 1, 18, 30),
                   [] {
                       PointSummary longer = ratePoint(QStringLiteral("x"), 16, 22, 400);
                       longer.inputLen = 4096;
                       return longer;
                   }() }
            << QStringList {} << QStringList { QStringLiteral("prefill-interference@x") };
        PointSummary limited = point(QStringLiteral("z"), 64, 100, 6, 8000);
        limited.failed = 120;
        limited.rateLimited = 120;
        QTest::newRow("rate-limited: requests answered 429")
            << QList<PointSummary> { point(QStringLiteral("z"), 1, 10, 5, 200), limited }
            << QStringList { QStringLiteral("rate-limited@z"), QStringLiteral("censored@z") } << QStringList {};
        PointSummary failedOtherwise = point(QStringLiteral("n"), 64, 100, 6, 8000);
        failedOtherwise.failed = 120;
        QTest::newRow("failures that are not 429 are not rate limiting")
            << QList<PointSummary> { point(QStringLiteral("n"), 1, 10, 5, 200), failedOtherwise }
            << QStringList { QStringLiteral("censored@n") } << QStringList { QStringLiteral("rate-limited@n") };
        PointSummary early = point(QStringLiteral("e"), 8, 40, 6, 1500);
        early.roleGapMs = 12.5;
        PointSummary onTime = point(QStringLiteral("o"), 8, 40, 6, 1500);
        onTime.roleGapMs = 0.2;
        QTest::newRow("role chunk ahead of the first token: one note for the run")
            << QList<PointSummary> { point(QStringLiteral("e"), 1, 10, 5, 200), early, onTime }
            << QStringList { QStringLiteral("role-chunk-before-token@") } << QStringList {};
        QTest::newRow("role chunk with the first token: no note")
            << QList<PointSummary> { point(QStringLiteral("o"), 1, 10, 5, 200), onTime } << QStringList {}
            << QStringList { QStringLiteral("role-chunk-before-token@") };
        PointSummary shortened = point(QStringLiteral("i"), 8, 40, 6, 1500);
        shortened.shortOutputs = 50; // 2.5% of 2000
        PointSummary nearlyAll = point(QStringLiteral("i"), 16, 80, 6, 2500);
        nearlyAll.shortOutputs = 10; // 0.5%
        PointSummary notAsked = point(QStringLiteral("j"), 16, 80, 6, 2500);
        notAsked.shortOutputs = -1;
        QTest::newRow("ignore_eos dropped: one note for the run")
            << QList<PointSummary> { shortened, nearlyAll, notAsked }
            << QStringList { QStringLiteral("ignore-eos-not-honoured@") } << QStringList {};
        // Every request failed at once: no wall time, CPU around it; nothing said about the client.
        PointSummary allFailed = point(QStringLiteral("d"), 64, 0, 0, 0);
        allFailed.completed = 0;
        allFailed.failed = 312;
        allFailed.client = { { QStringLiteral("cpu_percent"), 200 }, { QStringLiteral("cores"), 2 },
            { QStringLiteral("dispatch_lag_p99_ms"), 40 } };
        QTest::newRow("a point that failed at once limits nothing")
            << QList<PointSummary> { allFailed } << QStringList { QStringLiteral("censored@d") }
            << QStringList { QStringLiteral("client-limited@d") };
        const auto arrival = [](PointSummary p, double perRead, double zeroShare) {
            p.client.insert(QStringLiteral("stream_events_per_read"), perRead);
            p.client.insert(QStringLiteral("stream_same_read_share"), zeroShare);
            p.client.insert(QStringLiteral("stream_ttft_e2el_p50"), 0.97);
            return p;
        };
        QTest::newRow("buffered stream: named, and the curve is not healthy")
            << QList<PointSummary> { arrival(point(QStringLiteral("g"), 1, 10, 0.1, 200), 60, 0.98),
                   arrival(point(QStringLiteral("g"), 8, 40, 0.1, 1500), 20, 0.95) }
            << QStringList { QStringLiteral("buffered-stream@g") } << QStringList { QStringLiteral("healthy@g") };
        QTest::newRow("events one per read, some pairs: not buffered")
            << QList<PointSummary> { arrival(point(QStringLiteral("h"), 1, 10, 5, 200), 1.0, 0.0),
                   arrival(point(QStringLiteral("h"), 8, 40, 6, 1500), 1.6, 0.35) }
            << QStringList { QStringLiteral("healthy@h") } << QStringList { QStringLiteral("buffered-stream@h") };
        QTest::newRow("ignore_eos honoured, or not asked for: no note") << QList<PointSummary> { nearlyAll,
            notAsked } << QStringList {} << QStringList { QStringLiteral("ignore-eos-not-honoured@") };
        // A point that stopped early in its second repeat only still says so (the median's record is the first's).
        PointSummary ran = point(QStringLiteral("s"), 8, 100, 20, 1000, {}, 1);
        PointSummary stopped = point(QStringLiteral("s"), 8, 100, 20, 1000, {}, 2);
        stopped.client.insert(QStringLiteral("settled_requests"), 120);
        stopped.client.insert(QStringLiteral("settled_width"), 0.05);
        QTest::newRow("stopped early in one repeat")
            << QList<PointSummary> { ran, stopped } << QStringList { QStringLiteral("stopped-early@s") }
            << QStringList {};
        QTest::newRow("no repeat stopped early")
            << QList<PointSummary> { ran, ran } << QStringList {} << QStringList { QStringLiteral("stopped-early@s") };
    }
    void findingsOfConstructedRuns()
    {
        QFETCH(QList<PointSummary>, points);
        QFETCH(QStringList, must);
        QFETCH(QStringList, mustNot);
        const QStringList got = codes(runFindings(points, {}, true));
        for (const QString &m : must)
            QVERIFY2(got.contains(m), qPrintable(got.join(u' ')));
        for (const QString &m : mustNot)
            QVERIFY2(!got.contains(m), qPrintable(got.join(u' ')));
    }

    void queueingCarriesItsNumbers()
    {
        const QList<RunFinding> f = runFindings(
            { point(QStringLiteral("q"), 1, 10, 5, 200),
                point(QStringLiteral("q"), 16, 200, 5.5, 1500, { { QStringLiteral("waiting_max"), 9 } }) },
            {}, true);
        const RunFinding *q = find(f, QStringLiteral("queueing"));
        QVERIFY(q);
        QCOMPARE(q->kind, RunFinding::Kind::Problem);
        QCOMPARE(q->points, QStringList { QStringLiteral("c16") });
        QCOMPARE(q->value(QStringLiteral("ttft_ratio")), 20.0);
        QCOMPARE(q->value(QStringLiteral("tpot_ratio")), 1.1);
        QCOMPARE(q->confirmation, RunFinding::Confirmation::Confirmed);
        QCOMPARE(findingLine(*q),
            QStringLiteral("queueing\tq\tc16\tttft_ratio=20\ttpot_ratio=1.1\twaiting_max=9\tconfirmed"));
        // Without the server's series it is a hypothesis that says so.
        const QList<RunFinding> bare = runFindings(
            { point(QStringLiteral("q"), 1, 10, 5, 200), point(QStringLiteral("q"), 16, 200, 5.5, 1500) }, {}, true);
        QCOMPARE(find(bare, QStringLiteral("queueing"))->confirmation, RunFinding::Confirmation::NoEvidence);
    }

    void prefillInterferenceCarriesItsNumbers()
    {
        const QList<PointSummary> curve { ratePoint(QStringLiteral("p"), 1, 20, 40),
            ratePoint(QStringLiteral("p"), 4, 20, 50), ratePoint(QStringLiteral("p"), 8, 20, 160),
            ratePoint(QStringLiteral("p"), 16, 25, 250) };
        const QList<RunFinding> f = runFindings(
            curve, {}, true, {}, { { QStringLiteral("p"), { QStringLiteral("max_num_batched_tokens"), 8192 } } });
        const RunFinding *p = find(f, QStringLiteral("prefill-interference"));
        QVERIFY(p);
        QCOMPARE(p->kind, RunFinding::Kind::Problem);
        QCOMPARE(p->points, QStringList({ QStringLiteral("r8"), QStringLiteral("r16") }));
        QCOMPARE(p->confirmation, RunFinding::Confirmation::NoEvidence);
        QCOMPARE(findingLine(*p),
            QStringLiteral("prefill-interference\tp\tr8,r16\titl_tail_ratio=10\titl_tail_lightest=2\titl_p99_ms=250"
                           "\titl_p50_ms=25\tprompt_tokens_mean=512\tmax_num_batched_tokens=8192\tno-evidence"));
        // Without the variant's budget the finding still stands, naming none.
        const RunFinding *bare = find(runFindings(curve, {}, true), QStringLiteral("prefill-interference"));
        QVERIFY(bare);
        QCOMPARE(bare->value(QStringLiteral("max_num_batched_tokens"), -1), -1.0);
        // A budget of 128 tokens cuts every 512-token prompt into chunks too short to stall a step.
        QVERIFY(!find(runFindings(curve, {}, true, {},
                          { { QStringLiteral("p"), { QStringLiteral("max_num_batched_tokens"), 128 } } }),
            QStringLiteral("prefill-interference")));
    }

    // The budget comes from each variant's server.args, under vLLM's or SGLang's name.
    void prefillBudgetsFromServerArgs()
    {
        Experiment x;
        x.server.args.set(QStringLiteral("max_num_batched_tokens"), 4096);
        Variant base;
        base.name = QStringLiteral("base");
        Variant sglang;
        sglang.name = QStringLiteral("sglang");
        sglang.changes.set(QStringLiteral("server.args.chunked_prefill_size"), 2048);
        x.variants = { base, sglang };
        const PrefillBudgets b = prefillBudgets(x);
        QCOMPARE(b.value(QStringLiteral("base")), qMakePair(QStringLiteral("max_num_batched_tokens"), 4096.0));
        QCOMPARE(b.value(QStringLiteral("sglang")).second, 4096.0); // vLLM's name first for a vllm server
        x.server.engine = QStringLiteral("sglang");
        QCOMPARE(prefillBudgets(x).value(QStringLiteral("sglang")),
            qMakePair(QStringLiteral("chunked_prefill_size"), 2048.0));
        Experiment none;
        none.variants = { base };
        QVERIFY(prefillBudgets(none).isEmpty());
    }

    void rateLimitedCarriesItsNumbers()
    {
        PointSummary a = point(QStringLiteral("z"), 32, 100, 6, 8000), b = point(QStringLiteral("z"), 64, 150, 6, 8000);
        a.failed = a.rateLimited = 40; // 40 / 2040
        b.failed = 500; // 400 of them 429: 400 / 2500
        b.rateLimited = 400;
        const QList<RunFinding> f = runFindings({ a, b }, {}, true);
        const RunFinding *r = find(f, QStringLiteral("rate-limited"));
        QVERIFY(r);
        QCOMPARE(r->points, QStringList({ QStringLiteral("c32"), QStringLiteral("c64") }));
        QCOMPARE(r->value(QStringLiteral("rate_limited")), 440.0);
        QCOMPARE(r->value(QStringLiteral("rate_limited_share")), 0.16);
        // Repeats are summed: two repeats of 10 each are 20 at the point.
        PointSummary r1 = point(QStringLiteral("y"), 8, 40, 6, 1500, {}, 1),
                     r2 = point(QStringLiteral("y"), 8, 40, 6, 1500, {}, 2);
        r1.failed = r1.rateLimited = r2.failed = r2.rateLimited = 10;
        QCOMPARE(find(runFindings({ r1, r2 }, {}, true), QStringLiteral("rate-limited"))
                     ->value(QStringLiteral("rate_limited")),
            20.0);
    }

    // Stream caveats are one note for the whole run, listing each point once (repeats and variants merged).
    void streamNotesAreOnePerRun()
    {
        QList<PointSummary> points;
        for (const QString &v : { QStringLiteral("a"), QStringLiteral("b") }) {
            for (int repeat : { 1, 2 }) {
                PointSummary p = point(v, 8, 40, 6, 1500, {}, repeat), q = point(v, 16, 80, 6, 2500, {}, repeat);
                p.roleGapMs = q.roleGapMs = v == QLatin1String("a") ? 7 : 9;
                p.shortOutputs = q.shortOutputs = 100;
                points << p << q;
            }
        }
        const QList<RunFinding> f = runFindings(points, {}, true);
        QCOMPARE(codes(f).count(QStringLiteral("role-chunk-before-token@")), 1);
        QCOMPARE(codes(f).count(QStringLiteral("ignore-eos-not-honoured@")), 1);
        const RunFinding *role = find(f, QStringLiteral("role-chunk-before-token"));
        QCOMPARE(role->points, QStringList({ QStringLiteral("c8"), QStringLiteral("c16") }));
        QCOMPARE(role->kind, RunFinding::Kind::Caveat);
        QCOMPARE(role->value(QStringLiteral("role_gap_ms")), 9.0);
        // 200 short of 4000 across the two repeats.
        QCOMPARE(find(f, QStringLiteral("ignore-eos-not-honoured"))->value(QStringLiteral("short_share")), 0.05);
    }

    // A buffered point withholds every timing between its events, the answer's TPOT among them; the timings
    // to a first event and to the end stay as measured.
    void bufferedPointWithholdsEveryDecodeTiming()
    {
        PointSummary p = point(QStringLiteral("a"), 4, 900, 20, 1000);
        for (Distribution *d : { &p.ttft, &p.ttfc, &p.ttfo, &p.tpot, &p.atpot, &p.itl, &p.citl, &p.e2el })
            d->median = d->p99 = 6.28;
        QVERIFY(!withholdBufferedDecode(&p)); // no stream evidence: not buffered, nothing withheld
        QCOMPARE(p.atpot.median, 6.28);
        p.client.insert(QStringLiteral("stream_events_per_read"), 16);
        p.client.insert(QStringLiteral("stream_same_read_share"), 0.9);
        QVERIFY(withholdBufferedDecode(&p));
        for (const Distribution *d : { &p.tpot, &p.atpot, &p.itl, &p.citl })
            QVERIFY(std::isnan(d->median) && std::isnan(d->p99));
        for (const Distribution *d : { &p.ttft, &p.ttfc, &p.ttfo, &p.e2el })
            QCOMPARE(d->median, 6.28);
    }

    // Usage set aside for contradicting the stream: one finding per variant naming what usage said beside what
    // was counted, summed over every repeat; the input pair only where prompt counts were set aside.
    void usageMismatchNamesBothCounts()
    {
        QList<PointSummary> points;
        for (int repeat : { 1, 2 }) {
            PointSummary p = point(QStringLiteral("gw"), 4, 40, 6, 1500, {}, repeat);
            p.client = { { QStringLiteral("usage_mismatch_requests"), 24 },
                { QStringLiteral("usage_mismatch_output_said"), 0 },
                { QStringLiteral("usage_mismatch_output_counted"), 1152 } };
            points << p << point(QStringLiteral("direct"), 4, 40, 6, 1500, {}, repeat);
        }
        points[2].client.insert(QStringLiteral("usage_mismatch_input_said"), 0);
        points[2].client.insert(QStringLiteral("usage_mismatch_input_counted"), 936);
        const QList<RunFinding> f = runFindings(points, {}, true);
        QCOMPARE(codes(f).count(QStringLiteral("usage-mismatch@gw")), 1);
        QVERIFY(!codes(f).contains(QStringLiteral("usage-mismatch@direct")));
        const RunFinding *u = find(f, QStringLiteral("usage-mismatch"));
        QCOMPARE(u->kind, RunFinding::Kind::Caveat);
        QCOMPARE(u->points, QStringList { QStringLiteral("c4") });
        QCOMPARE(findingLine(*u),
            QStringLiteral("usage-mismatch\tgw\tc4\trequests=48\tusage_output_tokens=0\tcounted_output_tokens=2304\t"
                           "usage_input_tokens=0\tcounted_input_tokens=936"));
    }

    // A launched server that died while the run used it is a problem on its variant, with the signal or exit code,
    // and that variant's curve is not healthy however its points look; the other variant's is.
    void serverExitIsNamedAndNeverHealthy()
    {
        const QList<PointSummary> points { point(QStringLiteral("a"), 1, 20, 10, 100),
            point(QStringLiteral("a"), 8, 30, 11, 700), point(QStringLiteral("b"), 1, 20, 10, 100),
            point(QStringLiteral("b"), 8, 30, 11, 700) };
        QCOMPARE(codes(runFindings(points, {}, true)).count(QStringLiteral("healthy@a")), 1);
        const ServerExit killed { QStringLiteral("a"), 4242, -1, 9 };
        const QList<RunFinding> f = runFindings(points, {}, true, {}, {}, { killed });
        QVERIFY(!codes(f).contains(QStringLiteral("healthy@a")));
        QVERIFY(codes(f).contains(QStringLiteral("healthy@b")));
        const RunFinding *exit = find(f, QStringLiteral("server-exited"));
        QVERIFY(exit);
        QCOMPARE(exit->kind, RunFinding::Kind::Problem);
        QCOMPARE(exit->variant, QStringLiteral("a"));
        QCOMPARE(exit->points, QStringList { QStringLiteral("c8") }); // the point running when it died
        QCOMPARE(findingLine(*exit), QStringLiteral("server-exited\ta\tc8\tsignal=9"));
        const ServerExit exited { QStringLiteral("b"), 7, 3, 0 };
        QCOMPARE(findingLine(*find(runFindings(points, {}, true, {}, {}, { exited }), QStringLiteral("server-exited"))),
            QStringLiteral("server-exited\tb\tc8\texit_code=3"));
        // The project's record of an exit reads back as it was written.
        const std::optional<ServerExit> back = serverExitFromLine(serverExitLine(killed));
        QVERIFY(back);
        QCOMPARE(back->variant, QStringLiteral("a"));
        QCOMPARE(back->pid, qint64(4242));
        QCOMPARE(back->signal, 9);
        QCOMPARE(back->exitCode, -1);
        QCOMPARE(serverExitFromLine(serverExitLine(exited))->exitCode, 3);
        QVERIFY(!serverExitFromLine(QStringLiteral("pid 7: servescope-cli sim")));
    }

    // Caveats of whole runs: grouped, one per variant (unreliable percentiles one per run).
    void caveatsAreGrouped()
    {
        PointSummary a = point(QStringLiteral("a"), 1, 10, 5, 200), b = point(QStringLiteral("b"), 1, 10, 5, 200);
        a.ttft.count = b.ttft.count = 40;
        a.failed = 30; // 1.5% of finished requests
        b.outputEstimated = 20;
        b.server = { { QStringLiteral("prefix_cache_hit_rate"), 12.5 } };
        PointEstimate noisy;
        noisy.variant = QStringLiteral("a");
        noisy.point = 1;
        noisy.metric = QStringLiteral("p90_ttft_ms");
        noisy.repeats = 3;
        noisy.median = 10;
        noisy.min = 9;
        noisy.max = 12;
        const QList<RunFinding> f = runFindings({ a, b }, { noisy }, true);
        QStringList got = codes(f);
        got.sort();
        QCOMPARE(got,
            QStringList({ QStringLiteral("cache-contaminated@b"), QStringLiteral("censored@a"),
                QStringLiteral("noisy-repeats@a"), QStringLiteral("output-estimated@b"),
                QStringLiteral("unreliable-percentiles@") }));
        QCOMPARE(find(f, QStringLiteral("noisy-repeats"))->value(QStringLiteral("spread")), 0.3);
        QCOMPARE(find(f, QStringLiteral("unreliable-percentiles"))->value(QStringLiteral("fewest_requests")), 40.0);
        // A workload that shares prefixes on purpose is not contaminated by its hits.
        QVERIFY(!codes(runFindings({ a, b }, {}, false)).contains(QStringLiteral("cache-contaminated@b")));
    }
};

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
