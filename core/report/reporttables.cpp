// SPDX-License-Identifier: MIT
// A run's tables in the report body: its points, steady window, serving cost, capacity, reasoning,
// sessions and findings.
#include "report/reporthtml.h"

#include "metrics/repeats.h"
#include "report/findingtext.h"
#include "report/metricnames.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope::Report {

using namespace Html;

namespace {

// A metric's median across repeats at its precision, with the range the repeats spanned.
QString withRange(const MetricName &name, const RepeatStat &s)
{
    if (s.n == 0)
        return QString();
    if (s.n < 2)
        return name.format(s.median);
    return name.format(s.median) + QStringLiteral(" (") + name.format(s.min) + QStringLiteral("–") + name.format(s.max)
        + u')';
}

QString withRange(const RepeatStat &s, int decimals)
{
    if (s.n == 0)
        return QString();
    if (s.n < 2)
        return num(s.median, decimals);
    return num(s.median, decimals) + QStringLiteral(" (") + num(s.min, decimals) + QStringLiteral("–")
        + num(s.max, decimals) + u')';
}

// One key of a point's repeats in one of its key-value sets (server, steady); a repeat without the
// key is left out.
RepeatStat acrossRepeatsOf(
    const ReportRun &run, const PointSummary &point, QMap<QString, double> PointSummary::*set, const char *key)
{
    std::vector<double> perRepeat;
    for (const PointSummary &p : run.points) {
        if (p.variant == point.variant && p.point == point.point)
            perRepeat.push_back((p.*set).value(QLatin1String(key), std::nan("")));
    }
    return acrossRepeats(perRepeat);
}

} // namespace

// One row per point, medians across repeats: what engineers put in their reports (the load, the
// headline metrics of the Results page with the range the repeats spanned), the request counts, the
// other latency percentiles and the server's side.
QString pointTable(const ReportRun &run)
{
    // The server side beside the client's figures, where the server's /metrics answered.
    const std::pair<const char *, QString> serverColumns[]
        = { { "running_mean", tr("Server running (mean)") }, { "waiting_max", tr("Server waiting (max)") },
              { "kv_usage_max", tr("KV cache (max %)") }, { "gpu_util_mean", tr("GPU util (%)") } };
    QList<const char *> serverKeys;
    QStringList heads { tr("Variant"), tr("Point"), tr("Load"), tr("Input/output (tokens)"), tr("Repeats"),
        tr("Completed"), tr("Failed"), tr("Requests/s") };
    for (const QString &key : headlineKeys())
        heads << MetricName::of(key).title();
    heads << tr("TTFT p99 (ms)") << tr("TPOT p99 (ms)") << tr("ITL p50 (ms)") << tr("ITL p99 (ms)")
          << tr("E2EL p50 (ms)") << tr("E2EL p99 (ms)");
    for (const auto &[key, head] : serverColumns) {
        if (std::any_of(run.points.cbegin(), run.points.cend(),
                [key = key](const PointSummary &p) { return p.server.contains(QLatin1String(key)); })) {
            serverKeys << key;
            heads << head;
        }
    }
    heads << tr("Repeats agree within 5%");
    QString out = tableHead(heads);
    for (const PointSummary &m : medianAcrossRepeats(run.points)) {
        QMap<QString, RepeatStat> stats;
        QStringList spread;
        for (const PointEstimate &e : pointEstimates(run, m.variant, m.point)) {
            stats.insert(e.metric, metricEstimate(e).repeats);
            if (!reproducible(stats.value(e.metric)))
                spread << tr("%1 %2%").arg(MetricName::of(e.metric).name, num(e.spread() * 100, 1));
        }
        const QString agree = m.repeat < 2 ? tr("one repeat")
            : spread.isEmpty()             ? tr("yes")
                                           : tr("no: %1").arg(spread.join(QStringLiteral(", ")));
        QStringList cells { esc(m.variant), esc(m.label), esc(loadCell(m)),
            QStringLiteral("%1/%2").arg(m.inputLen).arg(m.outputLen), QString::number(m.repeat),
            QString::number(m.completed), QString::number(m.failed), num(m.requestThroughput, 2) };
        for (const QString &key : headlineKeys()) {
            QString cell = withRange(MetricName::of(key), stats.value(key));
            if (key == QLatin1String("output_throughput") && m.outputEstimated > 0)
                cell.prepend(QStringLiteral("≈ "));
            if (key == QLatin1String("success_rate") && censored(m))
                cell += QStringLiteral(" *");
            cells << esc(cell);
        }
        cells << num(m.ttft.p99) << num(m.tpot.p99, 2) << num(m.itl.p50, 2) << num(m.itl.p99, 2) << num(m.e2el.p50)
              << num(m.e2el.p99);
        for (const char *key : std::as_const(serverKeys))
            cells << esc(withRange(acrossRepeatsOf(run, m, &PointSummary::server, key), 1));
        cells << esc(agree);
        // Names and single numbers never wrap; a range or a sentence may, at its spaces.
        out += censored(m) ? QStringLiteral("<tr class=\"censored\">") : QStringLiteral("<tr>");
        for (const QString &c : std::as_const(cells)) {
            out += c.size() > 16 ? QStringLiteral("<td>%1</td>").arg(c)
                                 : QStringLiteral("<td nowrap>%1</td>").arg(QString(c).replace(u' ', QChar(0x00a0)));
        }
        out += QStringLiteral("</tr>\n");
    }
    out += QStringLiteral("</table>\n");
    if (std::any_of(run.findings.cbegin(), run.findings.cend(),
            [](const RunFinding &f) { return f.code == QLatin1String("buffered-stream"); }))
        out += QStringLiteral("<p class=\"muted\">%1</p>\n")
                   .arg(esc(tr("—: withheld. Something between client and server buffered the stream, so its "
                               "decode timings (TPOT, ITL, answer TPOT) say nothing of the server; TTFT and E2EL "
                               "stand (Findings).")));
    if (std::any_of(run.points.cbegin(), run.points.cend(),
            [](const PointSummary &p) { return p.server.contains(QStringLiteral("from_log")); }))
        out += QStringLiteral("<p class=\"muted\">%1</p>\n")
                   .arg(esc(tr("The launched server had no /metrics: its server columns come from its scheduler log "
                               "lines (vLLM's engine line, SGLang's batch lines).")));
    return out;
}

// The steady window's result set (docs/metrics.md), medians across repeats; empty when no point
// of the run has a valid window.
QString steadyTable(const ReportRun &run)
{
    const char *keys[] = { "window_s", "completed", "request_throughput", "output_throughput", "median_ttft_ms",
        "p99_ttft_ms", "median_tpot_ms", "p99_tpot_ms", "median_itl_ms", "p99_itl_ms" };
    QString body;
    for (const PointSummary &m : medianAcrossRepeats(run.points)) {
        QStringList cells { esc(m.variant), esc(m.label) };
        bool any = false;
        for (const char *key : keys) {
            // A repeat without a valid window holds only "valid": it is left out.
            const RepeatStat s = acrossRepeatsOf(run, m, &PointSummary::steady, key);
            any = any || s.n > 0;
            cells << (s.n > 0 ? num(s.median, key[0] == 'm' || key[0] == 'p' ? 2 : 1) : QStringLiteral("—"));
        }
        if (any)
            body += row(cells, false);
    }
    if (body.isEmpty())
        return QString();
    return QStringLiteral("<h3>%1</h3>\n<p class=\"muted\">%2</p>\n")
               .arg(esc(tr("Steady window per point")),
                   esc(tr("Requests that started while every slot was busy, throughput from the tokens inside the "
                          "window; medians across repeats. Beside vLLM's set, not instead of it.")))
        + tableHead({ tr("Variant"), tr("Point"), tr("Window (s)"), tr("Completed"), tr("Requests/s"),
            tr("Output (tok/s)"), tr("TTFT p50 (ms)"), tr("TTFT p99 (ms)"), tr("TPOT p50 (ms)"), tr("TPOT p99 (ms)"),
            tr("ITL p50 (ms)"), tr("ITL p99 (ms)") })
        + body + QStringLiteral("</table>\n");
}

// What each point gives per GPU and per user, and at what price when one was given: the numbers
// behind the per-GPU chart.
QString servingTable(const ReportRun &run)
{
    bool priced = false;
    QStringList sources;
    for (auto it = run.serving.cbegin(); it != run.serving.cend(); ++it) {
        priced = priced || it->gpuHourPrice > 0;
        sources << QStringLiteral("%1: %2 (%3)").arg(it.key()).arg(it->gpus.count).arg(it->gpus.source);
    }
    QString body;
    for (const PointSummary &m : medianAcrossRepeats(run.points)) {
        const VariantServing serving = run.serving.value(m.variant);
        const ServingPoint s = servingPoint(m, serving.gpus.count, serving.gpuHourPrice);
        QStringList cells { esc(m.variant), esc(m.label), QString::number(serving.gpus.count), num(s.perGpu, 1),
            std::isfinite(s.perUser) ? num(s.perUser, 1) : QStringLiteral("—") };
        if (priced)
            cells << (std::isfinite(s.costPerMillion) ? num(s.costPerMillion, 2) : QStringLiteral("—"));
        body += row(cells, false);
    }
    if (body.isEmpty())
        return QString();
    QStringList heads { tr("Variant"), tr("Point"), tr("GPUs"), tr("Output tok/s per GPU"),
        tr("Output tok/s per user") };
    if (priced)
        heads << tr("Price per million output tokens");
    std::sort(sources.begin(), sources.end());
    return QStringLiteral("<h3>%1</h3>\n<p class=\"muted\">%2</p>\n")
               .arg(esc(tr("Throughput per GPU and cost")),
                   esc(tr("Per user: 1000 / TPOT p50. Price: the GPU-hour price × GPUs over the output tokens of an "
                          "hour. GPUs per variant: %1.")
                           .arg(sources.isEmpty() ? tr("one assumed (the run names none)")
                                                  : sources.join(QStringLiteral("; ")))))
        + tableHead(heads) + body + QStringLiteral("</table>\n");
}

// Why a capacity search ended, in words.
QString capacityStop(const QString &stop)
{
    if (stop == QLatin1String("converged"))
        return tr("bracket within the resolution");
    if (stop == QLatin1String("max"))
        return tr("the largest level allowed meets the SLOs: capacity is at least this");
    if (stop == QLatin1String("none"))
        return tr("the smallest level tried misses the SLOs");
    if (stop == QLatin1String("points"))
        return tr("stopped at the cap on levels");
    if (stop == QLatin1String("time"))
        return tr("stopped at the time cap");
    return tr("the run was cancelled");
}

// load.capacity: each variant's capacity under the SLOs, what it serves there and at what price.
QString capacityTable(const ReportRun &run)
{
    if (!run.capacitySearch || run.capacities.isEmpty())
        return QString();
    const CapacitySearch &search = *run.capacitySearch;
    QStringList slos;
    for (const Slo &slo : search.slos)
        slos << QStringLiteral("%1 ≤ %2 ms").arg(slo.key(), formatNumber(slo.maxMs));
    if (search.attainment > 0)
        slos << tr("%1% of requests meeting all of them").arg(formatNumber(search.attainment * 100));
    bool priced = false;
    for (const VariantServing &v : run.serving)
        priced = priced || v.gpuHourPrice > 0;
    const QList<PointSummary> medians = medianAcrossRepeats(run.points);
    const bool rate = run.capacityOver == ServeScope::LoadMode::Rate;
    QString body;
    for (const CapacityResult &c : run.capacities) {
        const VariantServing serving = run.serving.value(c.variant);
        const auto at = std::find_if(medians.cbegin(), medians.cend(), [&](const PointSummary &p) {
            return p.variant == c.variant && (rate ? p.requestRate == c.capacity : p.concurrency == c.capacity);
        });
        QStringList cells { esc(c.variant), c.found() ? num(c.capacity, rate ? 2 : 0) : QStringLiteral("—"),
            std::isfinite(c.upper) ? num(c.upper, rate ? 2 : 0) : QStringLiteral("—"), esc(capacityStop(c.stop)),
            c.reused > 0 ? tr("%1 + %2 reused").arg(c.levels - c.reused).arg(c.reused) : QString::number(c.levels) };
        const ServingPoint s = at != medians.cend() ? servingPoint(*at, serving.gpus.count, serving.gpuHourPrice)
                                                    : ServingPoint { qQNaN(), qQNaN(), qQNaN() };
        cells << (at != medians.cend() ? num(at->outputThroughput, 1) : QStringLiteral("—"))
              << (std::isfinite(s.perGpu) ? num(s.perGpu, 1) : QStringLiteral("—"));
        if (priced)
            cells << (std::isfinite(s.costPerMillion) ? num(s.costPerMillion, 2) : QStringLiteral("—"));
        body += row(cells, false);
    }
    QStringList heads { tr("Variant"), rate ? tr("Capacity (requests/s)") : tr("Capacity (concurrency)"),
        tr("Next level, failing"), tr("Search ended"), tr("Levels measured"), tr("Output tok/s there"), tr("Per GPU") };
    if (priced)
        heads << tr("Price per million output tokens there");
    return QStringLiteral("<h3>%1</h3>\n<p class=\"muted\">%2</p>\n")
               .arg(esc(tr("Capacity under the SLOs")),
                   esc(tr("The largest level measured that meets %1, found by bracketing and refining to %2%; the "
                          "next level above it misses them. Every level is a point of the tables above.")
                           .arg(slos.join(QStringLiteral(", ")), formatNumber(search.resolution * 100))))
        + tableHead(heads) + body + QStringLiteral("</table>\n");
}

// A reasoning model's answers per point, when one reasoned: when the answer started against the first token, and
// how much of the output was thinking (≈ where a count is an estimate).
QString reasoningTable(const ReportRun &run)
{
    if (std::none_of(
            run.points.cbegin(), run.points.cend(), [](const PointSummary &p) { return p.reasoningTokens > 0; }))
        return QString();
    QString body;
    for (const PointSummary &m : medianAcrossRepeats(run.points)) {
        const QString share = m.totalOutputTokens > 0 ? (m.reasoningEstimated > 0 ? QStringLiteral("≈ ") : QString())
                + num(100.0 * double(m.reasoningTokens) / double(m.totalOutputTokens), 1)
                                                      : QStringLiteral("—");
        body += row({ esc(m.variant), esc(m.label), num(m.ttft.p50, 2), num(m.ttfo.p50, 2), num(m.ttfo.p90, 2),
                        num(m.ttfo.p99, 2), num(m.tpot.p50, 2), num(m.atpot.p50, 2), esc(share) },
            false);
    }
    return QStringLiteral("<h3>%1</h3>\n<p class=\"muted\">%2</p>\n")
               .arg(esc(tr("Reasoning per point")),
                   esc(tr("TTFO: time to the first output token, the answer's first after the reasoning (TTFT counts "
                          "the reasoning's first); answer TPOT: time per output token after it (TPOT counts the "
                          "reasoning's too); medians across repeats.")))
        + tableHead({ tr("Variant"), tr("Point"), tr("TTFT p50 (ms)"), tr("TTFO p50 (ms)"), tr("TTFO p90 (ms)"),
            tr("TTFO p99 (ms)"), tr("TPOT p50 (ms)"), tr("Answer TPOT p50 (ms)"), tr("Reasoning (% of output)") })
        + body + QStringLiteral("</table>\n");
}

// multi_turn sessions per point: the first turns against the later ones, whose prompts carry the conversation so
// far and find it in the prefix cache.
QString sessionsTable(const ReportRun &run)
{
    if (std::all_of(run.points.cbegin(), run.points.cend(), [](const PointSummary &p) { return p.turns.isEmpty(); }))
        return QString();
    const auto cell = [](const PointSummary &m, const char *key, int decimals) {
        const auto it = m.turns.constFind(QLatin1String(key));
        return it == m.turns.cend() ? QStringLiteral("—") : num(*it, decimals);
    };
    QString body;
    for (const PointSummary &m : medianAcrossRepeats(run.points)) {
        body += row({ esc(m.variant), esc(m.label), cell(m, "first_turn_median_ttft_ms", 2),
                        cell(m, "later_turn_median_ttft_ms", 2), cell(m, "first_turn_p99_ttft_ms", 2),
                        cell(m, "later_turn_p99_ttft_ms", 2), cell(m, "first_turn_cache_hit_rate", 1),
                        cell(m, "later_turn_cache_hit_rate", 1) },
            false);
    }
    return QStringLiteral("<h3>%1</h3>\n<p class=\"muted\">%2</p>\n")
               .arg(esc(tr("Sessions per point")),
                   esc(tr("A session's first turns against its later ones, whose prompts carry the conversation so "
                          "far (the server's answers included); prompt cached: the share of the prompt tokens the "
                          "server's usage reported as cached; medians across repeats.")))
        + tableHead({ tr("Variant"), tr("Point"), tr("First turns' TTFT p50 (ms)"), tr("Later turns' TTFT p50 (ms)"),
            tr("First turns' TTFT p99 (ms)"), tr("Later turns' TTFT p99 (ms)"), tr("First turns' prompt cached (%)"),
            tr("Later turns' prompt cached (%)") })
        + body + QStringLiteral("</table>\n");
}

QString findingsSection(const ReportRun &run, bool thresholds)
{
    if (run.findings.isEmpty())
        return QString();
    QString out = QStringLiteral("<h3>%1</h3>\n<ul>\n").arg(esc(tr("Findings")));
    for (const RunFinding &f : run.findings) {
        const QString who = f.variant.isEmpty() ? QString() : f.variant + QStringLiteral(": ");
        out += QStringLiteral("<li><b>%1</b> — %2%3</li>\n").arg(esc(findingTitle(f)), esc(who), esc(findingText(f)));
    }
    out += QStringLiteral("</ul>\n");
    if (thresholds)
        out += QStringLiteral("<p class=\"muted\">%1</p>\n").arg(esc(findingThresholdsText()));
    return out;
}

} // namespace ServeScope::Report
