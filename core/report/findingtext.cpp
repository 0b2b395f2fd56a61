// SPDX-License-Identifier: MIT
#include "report/findingtext.h"

#include <QCoreApplication>

namespace ServeScope::Report {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ServeScope::Report", text);
}

QString num(double v, int decimals = 1)
{
    return QString::number(v, 'f', decimals);
}

QString pct(double fraction)
{
    return QString::number(fraction * 100, 'f', 1);
}

// A capacity search's answer: the largest level meeting the SLOs and the first missing them.
QString capacityText(const RunFinding &f)
{
    const auto v = [&f](const char *key) { return f.value(QLatin1String(key)); };
    QString text;
    const bool rate = v("rate") > 0;
    const QString capacity = num(v("capacity"), rate ? 2 : 0), upper = num(v("upper"), rate ? 2 : 0);
    if (v("capacity") <= 0)
        text = tr("No level the search tried meets the SLOs; the smallest was %1.").arg(upper);
    else if (v("upper") < 0)
        text = (rate ? tr("Every level up to %1 req/s meets the SLOs: the capacity is at least that.")
                     : tr("Every level up to concurrency %1 meets the SLOs: the capacity is at least that."))
                   .arg(capacity);
    else
        text = (rate ? tr("The largest request rate that meets the SLOs is %1 req/s; %2 misses them.")
                     : tr("The largest concurrency that meets the SLOs is %1; %2 misses them."))
                   .arg(capacity, upper);
    const int reused = int(v("reused"));
    const int levels = int(v("levels")) - reused;
    text += QLatin1Char(' ')
        + QCoreApplication::translate("ServeScope::Report", "%n level(s) measured.", nullptr, levels);
    if (reused > 0)
        text += QLatin1Char(' ')
            + QCoreApplication::translate(
                "ServeScope::Report", "%n level(s) reused from an earlier run.", nullptr, reused);
    return text;
}

// What limits how far a point's numbers can be read: failures, spread, contamination, estimates, an early stop,
// the client. Empty for another code.
QString caveatText(const RunFinding &f, const QString &at)
{
    const auto v = [&f](const char *key) { return f.value(QLatin1String(key)); };
    QString text;
    if (f.code == QLatin1String("censored")) {
        text = tr("At %1 up to %2% of requests failed: latencies describe only the survivors.")
                   .arg(at, pct(v("failed_share")));
    } else if (f.code == QLatin1String("noisy-repeats")) {
        text = tr("At %1 a headline metric spreads up to %2% across repeats (more than 5%): rerun or add repeats "
                  "before concluding.")
                   .arg(at, pct(v("spread")));
    } else if (f.code == QLatin1String("cache-contaminated")) {
        text = tr("Prefix-cache hits up to %1% at %2 on prompts meant to share nothing: the results flatter the "
                  "server. Reset the prefix cache before each point.")
                   .arg(num(v("prefix_cache_hit_rate")), at);
    } else if (f.code == QLatin1String("output-estimated")) {
        text = tr("At %1 up to %2% of requests had an output count that is an estimate (no usage and no /tokenize, "
                  "or usage that contradicted the stream): output tokens, TPOT and throughput are estimates.")
                   .arg(at, pct(v("estimated_share")));
    } else if (f.code == QLatin1String("input-estimated")) {
        text = tr("At %1 up to %2% of requests had no usage and the server no /tokenize: their input tokens are "
                  "estimates (calibrated with max_tokens 1 probes when the server reports usage for them, else the "
                  "target length), and so is total-token throughput.")
                   .arg(at, pct(v("estimated_share")));
    } else if (f.code == QLatin1String("stopped-early")) {
        if (v("verdict_points") <= 0)
            text = tr("At %1 the point stopped sending once its TTFT, TPOT and E2EL medians were known within %2% "
                      "(95% interval), as the experiment asks (load.stop_when_settled): it measured fewer requests "
                      "than planned.")
                       .arg(at, num(100 * v("settled_width"), 1));
        else if (v("settled_width") <= 0)
            text = tr("At %1 the capacity search's level stopped sending once its SLO verdict was decided (95% "
                      "intervals), as the experiment asks (load.stop_when_settled): it measured fewer requests than "
                      "planned.")
                       .arg(at);
        else
            text = tr("At %1 points stopped sending once their medians were known within %2% (95% interval) or "
                      "their SLO verdict was decided, as the experiment asks (load.stop_when_settled): they measured "
                      "fewer requests than planned.")
                       .arg(at, num(100 * v("settled_width"), 1));
    } else if (f.code == QLatin1String("client-limited")) {
        text = tr("At %1 requests were sent up to %2 ms late (p99) with the client at %3% CPU: the numbers there "
                  "describe this machine as much as the server. Use fewer streams per client host, or shard the "
                  "load.")
                   .arg(at, num(v("dispatch_lag_p99_ms"), 2), num(v("cpu_percent"), 0));
    }
    return text;
}

// What the server's answers said about themselves: refused load, stream caveats, counts it got wrong. Empty for
// another code.
QString answerText(const RunFinding &f, const QString &at)
{
    const auto v = [&f](const char *key) { return f.value(QLatin1String(key)); };
    QString text;
    if (f.code == QLatin1String("rate-limited")) {
        text = tr("At %1 the server answered %2 requests with HTTP 429 (up to %3% of a point's requests): it refused "
                  "load, and the latencies there leave those requests out.")
                   .arg(at, num(v("rate_limited"), 0), pct(v("rate_limited_share")));
    } else if (f.code == QLatin1String("role-chunk-before-token")) {
        text = tr("At %1 the role-only first chunk arrives up to %2 ms (median) before the first content: TTFT "
                  "under vLLM's definitions is then early, and the prefill time shows up in ITL. Read time to first "
                  "content there.")
                   .arg(at, num(v("role_gap_ms")));
    } else if (f.code == QLatin1String("ignore-eos-not-honoured")) {
        text = tr("At %1 up to %2% of requests stopped before the requested length although ignore_eos was sent: the "
                  "endpoint drops or ignores it, so TPOT and throughput are not comparable across servers.")
                   .arg(at, pct(v("short_share")));
    } else if (f.code == QLatin1String("buffered-stream")) {
        text = tr("At %1 the stream arrived in blocks: %2 token events per socket read, %3% of the gaps between "
                  "them zero, TTFT %4% of the end-to-end latency (median). Something between the client and the "
                  "server (a gateway, proxy or load balancer) buffers the stream, so TPOT and ITL there describe "
                  "its buffer, not the server, and TTFT is late. Turn buffering off for this route (nginx: "
                  "proxy_buffering off) or measure the server directly.")
                   .arg(at, num(v("events_per_read")), pct(v("same_read_share")), pct(v("ttft_e2el_p50")));
    } else if (f.code == QLatin1String("usage-mismatch")) {
        text = tr("At %1 the server's usage contradicted the stream on %2 requests.").arg(at, num(v("requests"), 0));
        if (f.value(QStringLiteral("usage_output_tokens"), -1) >= 0)
            text += u' '
                + tr("It said %1 output tokens where %2 were counted from the streamed text (its /tokenize count, "
                     "else its content events); the counted ones are used and marked estimated, so output throughput "
                     "and TPOT do not fall to the usage's 0 or near it.")
                      .arg(num(v("usage_output_tokens"), 0), num(v("counted_output_tokens"), 0));
        if (f.value(QStringLiteral("usage_input_tokens"), -1) >= 0)
            text += u' '
                + tr("It said %1 input tokens where the prompts had %2; the prompts' own counts are used.")
                      .arg(num(v("usage_input_tokens"), 0), num(v("counted_input_tokens"), 0));
        text += u' ' + tr("A gateway that rewrites or drops usage is the usual cause.");
    } else if (f.code == QLatin1String("server-exited")) {
        const QString how = f.value(QStringLiteral("signal"), 0) > 0
            ? tr("was killed by signal %1").arg(num(v("signal"), 0))
            : tr("exited with code %1").arg(num(v("exit_code"), 0));
        text = tr("The launched server %1 while the run used it%2: the run stopped there, that point's failures are "
                  "the exit's, and this variant is not called healthy. Its last lines are in the run's server log.")
                   .arg(how, at.isEmpty() ? QString() : tr(", during %1").arg(at));
    }
    return text;
}

} // namespace

QString findingTitle(const RunFinding &f)
{
    static const std::pair<const char *, const char *> titles[] = {
        { "queueing", QT_TRANSLATE_NOOP("ServeScope::Report", "Queueing") },
        { "bandwidth-bound-decode", QT_TRANSLATE_NOOP("ServeScope::Report", "Memory-bandwidth-bound decode") },
        { "kv-cache-pressure", QT_TRANSLATE_NOOP("ServeScope::Report", "KV-cache pressure") },
        { "capacity-knee", QT_TRANSLATE_NOOP("ServeScope::Report", "Capacity knee") },
        { "capacity", QT_TRANSLATE_NOOP("ServeScope::Report", "Capacity under the SLOs") },
        { "healthy", QT_TRANSLATE_NOOP("ServeScope::Report", "Healthy, decode-bound") },
        { "censored", QT_TRANSLATE_NOOP("ServeScope::Report", "Censored points") },
        { "noisy-repeats", QT_TRANSLATE_NOOP("ServeScope::Report", "Not reproducible") },
        { "cache-contaminated", QT_TRANSLATE_NOOP("ServeScope::Report", "Prefix cache contaminates the workload") },
        { "output-estimated", QT_TRANSLATE_NOOP("ServeScope::Report", "Estimated output counts") },
        { "input-estimated", QT_TRANSLATE_NOOP("ServeScope::Report", "Estimated input counts") },
        { "unreliable-percentiles", QT_TRANSLATE_NOOP("ServeScope::Report", "Unreliable p99") },
        { "client-limited", QT_TRANSLATE_NOOP("ServeScope::Report", "The client limited the measurement") },
        { "stopped-early", QT_TRANSLATE_NOOP("ServeScope::Report", "Points stopped once settled") },
        { "prefill-interference", QT_TRANSLATE_NOOP("ServeScope::Report", "Prefill interference") },
        { "rate-limited", QT_TRANSLATE_NOOP("ServeScope::Report", "Rate-limited (HTTP 429)") },
        { "role-chunk-before-token", QT_TRANSLATE_NOOP("ServeScope::Report", "Role chunk before the first token") },
        { "ignore-eos-not-honoured", QT_TRANSLATE_NOOP("ServeScope::Report", "ignore_eos not honoured") },
        { "buffered-stream", QT_TRANSLATE_NOOP("ServeScope::Report", "Buffered stream: TPOT and ITL invalid") },
        { "usage-mismatch", QT_TRANSLATE_NOOP("ServeScope::Report", "Usage contradicts the stream") },
        { "server-exited", QT_TRANSLATE_NOOP("ServeScope::Report", "The server exited during the run") },
    };
    for (const auto &[code, title] : titles) {
        if (f.code == QLatin1String(code))
            return tr(title);
    }
    return f.code;
}

QString findingText(const RunFinding &f)
{
    const QString at = f.points.join(QStringLiteral(", "));
    const auto v = [&f](const char *key) { return f.value(QLatin1String(key)); };
    QString text;
    if (f.code == QLatin1String("queueing")) {
        text = tr("From %1, TTFT p50 grows ×%2 while TPOT p50 grows ×%3: requests wait before the scheduler takes "
                  "them; the GPU is not the limit.")
                   .arg(at, num(v("ttft_ratio")), num(v("tpot_ratio"), 2));
        text += u' '
            + (f.confirmation == RunFinding::Confirmation::Confirmed
                    ? tr("Confirmed: up to %1 requests waited in the server's queue (at most %2 running).")
                          .arg(num(v("waiting_max"), 0), num(v("running_max"), 0))
                    : tr("To confirm: the server's waiting queue (/metrics) or max-running-requests saturated in its "
                         "log."));
    } else if (f.code == QLatin1String("bandwidth-bound-decode")) {
        text = tr("From %1, TPOT p50 grows ×%2 while output throughput falls %3% below its peak: decode looks "
                  "limited by memory bandwidth.")
                   .arg(at, num(v("tpot_ratio"), 2), pct(v("throughput_drop")));
        text += u' '
            + (f.confirmation == RunFinding::Confirmation::Confirmed
                    ? tr("Confirmed: DRAM active up to %1%.").arg(num(v("dram_active_mean")))
                    : f.confirmation == RunFinding::Confirmation::NotConfirmed
                    ? tr("Not confirmed: DRAM active stayed at %1%.").arg(num(v("dram_active_mean")))
                    : tr("To confirm: the GPU's DRAM activity (a DCGM exporter)."));
    } else if (f.code == QLatin1String("kv-cache-pressure")) {
        text = tr("%1 preemptions at %2 with the KV cache up to %3% full: requests are evicted and recomputed. "
                  "Give the cache more memory or admit fewer sequences.")
                   .arg(num(v("preemptions"), 0), at, num(v("kv_usage_max")));
    } else if (f.code == QLatin1String("capacity")) {
        text = capacityText(f);
    } else if (f.code == QLatin1String("capacity-knee")) {
        text = tr("The knee is at %1 (%2 tok/s): past it a doubling of load adds %3% throughput while TTFT p99 keeps "
                  "rising.")
                   .arg(at, num(v("output_throughput"), 0), pct(v("gain_per_doubling")));
    } else if (f.code == QLatin1String("healthy")) {
        text = tr("Along %1 output throughput grows ×%2 with the load, with no sign of queueing, bandwidth limits or "
                  "cache pressure.")
                   .arg(at, num(v("throughput_ratio")));
    } else if (f.code == QLatin1String("prefill-interference")) {
        text = tr("From %1, ITL p99 is ×%2 its p50 (%3 ms against %4 ms; ×%5 at the lightest load): prefills of "
                  "joining prompts (%6 tokens on average) look like they stall the decode steps of running requests.")
                   .arg(at, num(v("itl_tail_ratio")), num(v("itl_p99_ms")), num(v("itl_p50_ms"), 2),
                       num(v("itl_tail_lightest")), num(v("prompt_tokens_mean"), 0));
        text += u' ';
        if (f.value(QStringLiteral("max_num_batched_tokens"), -1) >= 0)
            text += tr("To confirm: rerun with a smaller max_num_batched_tokens than this variant's %1 (vLLM's "
                       "chunked-prefill budget per step); ITL p99 should fall while TTFT rises.")
                        .arg(num(v("max_num_batched_tokens"), 0));
        else if (f.value(QStringLiteral("chunked_prefill_size"), -1) >= 0)
            text += tr("To confirm: rerun with a smaller chunked_prefill_size than this variant's %1 (SGLang's "
                       "chunked-prefill budget); ITL p99 should fall while TTFT rises.")
                        .arg(num(v("chunked_prefill_size"), 0));
        else
            text += tr("To confirm: rerun with a smaller chunked-prefill budget (vLLM --max-num-batched-tokens, SGLang "
                       "--chunked-prefill-size); ITL p99 should fall while TTFT rises.");
    } else if (const QString answer = answerText(f, at); !answer.isEmpty()) {
        text = answer;
    } else if (const QString caveat = caveatText(f, at); !caveat.isEmpty()) {
        text = caveat;
    } else if (f.code == QLatin1String("unreliable-percentiles")) {
        text = tr("p99 needs 1,000 requests; %1 had fewer (the fewest %2): read p90 or the median there.")
                   .arg(at, num(v("fewest_requests"), 0));
    } else {
        text = findingLine(f);
    }
    return text;
}

QString findingThresholdsText(const FindingThresholds &t)
{
    return tr("Thresholds: queueing when TTFT p50 grows ×%1 or more, faster than the load, while TPOT p50 grows less "
              "than ×%2; bandwidth-bound when TPOT p50 grows ×%3 while throughput falls; KV pressure at %4% usage "
              "with preemptions; the knee where a doubling adds less than %5%; cache contamination above %6% hits; "
              "censored above %7% failed; p99 reliable from %8 requests; the client limited a point whose requests "
              "left more than %9 ms late (p99) or whose process used %10% of the host's cores; prefill "
              "interference when ITL p99 reaches ×%11 its p50 and ×%12 its ratio at the lightest load with joining "
              "prefill chunks of %16 tokens or more; rate-limited "
              "above %13% of requests answered 429; the role chunk ahead when it leads the first content by more "
              "than %14 ms (median); ignore_eos not honoured above %15% shorter outputs. Findings are hypotheses "
              "along curves where only the load changes.")
        .arg(num(t.queueTtftRatio, 0), num(t.queueTpotRatio, 0), num(t.bandwidthTpotRatio, 0), num(t.kvUsageHigh, 0),
            pct(t.kneeGain), num(t.cacheHitRate, 0), pct(t.censoredShare), num(t.reliableP99Requests, 0),
            num(t.clientLagP99Ms, 0))
        .arg(pct(t.clientCpuShare), num(t.prefillItlTail, 0), num(t.prefillItlGrowth), pct(t.rateLimitedShare),
            num(t.roleGapMs, 0), pct(t.shortOutputShare), num(t.prefillMinChunkTokens, 0));
}

} // namespace ServeScope::Report
