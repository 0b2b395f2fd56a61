// SPDX-License-Identifier: MIT
#include "report/reportdocument.h"

#include "compare/delta.h"
#include "metrics/repeats.h"
#include "report/chartbuilders.h"
#include "report/conclusiontext.h"
#include "report/findingtext.h"
#include "report/metricnames.h"
#include "resultfiles/resultfile.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope::Report {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ServeScope::Report", text);
}

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

// A value the point does not have (withheld for a buffered stream, never measured) is "—", never "nan".
QString num(double v, int decimals = 1)
{
    if (std::isinf(v))
        return QStringLiteral("inf");
    if (std::isnan(v))
        return QStringLiteral("—");
    return QString::number(v, 'f', decimals);
}

QString isoUtc(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODate) : QString();
}

// `pairs` key-value pairs side by side on a row keep a short list short.
QString keyValueTable(const KeyValues &kv, int pairs = 1)
{
    if (kv.isEmpty())
        return QStringLiteral("<p class=\"muted\">") + tr("Not recorded.") + QStringLiteral("</p>\n");
    QString out = QStringLiteral("<table class=\"kv\" border=\"1\" cellspacing=\"0\" cellpadding=\"1\">\n");
    for (qsizetype i = 0; i < kv.size(); i += pairs) {
        out += QStringLiteral("<tr>");
        for (qsizetype j = i; j < i + pairs; ++j) {
            if (j < kv.size())
                out += QStringLiteral("<th nowrap>%1</th><td>%2</td>").arg(esc(kv[j].first), esc(kv[j].second));
            else
                out += QStringLiteral("<th></th><td></td>");
        }
        out += QStringLiteral("</tr>\n");
    }
    return out + QStringLiteral("</table>\n");
}

QString loadCell(const PointSummary &p)
{
    if (p.mode == QLatin1String("rate"))
        return num(p.requestRate, 2) + QStringLiteral(" req/s")
            + (p.concurrency > 0 ? QStringLiteral(" (cap %1)").arg(p.concurrency) : QString());
    return QStringLiteral("c=%1").arg(p.concurrency);
}

// A table whose header row repeats on every page it runs over (<thead>: the PDF's header rows).
QString tableHead(const QStringList &head, const QString &cls = QStringLiteral("points"))
{
    QString out = QStringLiteral("<table class=\"%1\" border=\"1\" cellspacing=\"0\" cellpadding=\"1\"%2>\n"
                                 "<thead><tr>")
                      .arg(cls, cls == QLatin1String("runs") ? QString() : QStringLiteral(" width=\"100%\""));
    for (const QString &h : head)
        out += QStringLiteral("<th>%1</th>").arg(esc(h));
    return out + QStringLiteral("</tr></thead>\n");
}

QString row(const QStringList &cells, bool censored)
{
    QString out = censored ? QStringLiteral("<tr class=\"censored\">") : QStringLiteral("<tr>");
    for (const QString &c : cells)
        out += QStringLiteral("<td nowrap>%1</td>").arg(c);
    return out + QStringLiteral("</tr>\n");
}

// More than 0.5% failed requests marks a point as censored (docs/metrics.md).
bool censored(const PointSummary &p)
{
    const int total = p.completed + p.failed;
    return total > 0 && double(p.failed) / total > 0.005;
}

} // namespace

QString reportTitle(const ReportInput &input)
{
    return input.title.isEmpty() ? tr("ServeScope report") : input.title;
}

ChartFooter reportFooter(const ReportRun &run)
{
    ChartFooter f { {}, {}, run.baseUrl,
        run.servedModel.isEmpty() || run.servedModel == run.model
            ? run.model
            : tr("%1 (served: %2)").arg(run.model, run.servedModel),
        isoUtc(run.started), run.definitions, {} };
    int estimated = 0, inputEstimated = 0, completed = 0;
    qint64 counted = 0, usage = 0; // output tokens as the definitions count them, and as the server did
    for (const PointSummary &p : run.points) {
        estimated += p.outputEstimated;
        inputEstimated += p.inputEstimated;
        completed += p.completed;
        if (p.usageOutputTokens >= 0) {
            counted += p.totalOutputTokens;
            usage += p.usageOutputTokens;
        }
    }
    QStringList notes;
    if (estimated > 0)
        notes << tr("output tokens estimated for %1 of %2 requests (no usage, no /tokenize)")
                     .arg(estimated)
                     .arg(completed);
    if (inputEstimated > 0)
        notes << tr("input tokens estimated for %1 of %2 requests (no usage, no /tokenize)")
                     .arg(inputEstimated)
                     .arg(completed);
    // SGLang's client counts the requested max_tokens: say how far that is from the server's count.
    if (run.definitions == QLatin1String("sglang") && usage > 0 && counted != usage)
        notes << tr("output tokens counted as SGLang does (the requested max_tokens): %1; the server counted %2 "
                    "(%3%)")
                     .arg(counted)
                     .arg(usage)
                     .arg(QString::number(100.0 * double(counted - usage) / double(usage), 'f', 1));
    f.note = notes.join(QStringLiteral("; "));
    return f;
}

QList<RunSeriesInput> reportSeriesInputs(const ReportInput &input)
{
    QList<RunSeriesInput> out;
    // One run: its variants are the series, named by variant. Several runs: lettered "A / baseline",
    // "B / seqs-8", and each chart footer line says which run a letter is, so legends stay short.
    const bool several = input.runs.size() > 1;
    for (qsizetype i = 0; i < input.runs.size(); ++i) {
        const ReportRun &run = input.runs.at(i);
        const QString letter = several ? QString(QChar(char16_t(u'A' + i))) : QString();
        QList<RunSeriesInput> parts = inputsPerVariant(letter, run.points, int(out.size()));
        for (RunSeriesInput &p : parts) {
            for (const RunFinding &f : run.findings) {
                if (f.code == QLatin1String("capacity-knee") && f.variant == p.points.first().variant)
                    p.kneeLabel = f.points.value(0);
            }
        }
        ChartFooter footer = reportFooter(run);
        if (several) {
            footer.label = letter;
            footer.runName = run.name;
        }
        for (RunSeriesInput &p : parts) {
            p.footer = footer;
            const VariantServing serving = run.serving.value(p.points.first().variant);
            p.gpus = serving.gpus.count;
            p.gpusAssumed = serving.gpus.source == QLatin1String("assumed");
            p.gpuHourPrice = serving.gpuHourPrice;
        }
        out += parts;
    }
    return out;
}

QList<ReportChart> reportCharts(const ReportInput &input)
{
    const QList<RunSeriesInput> runs = reportSeriesInputs(input);
    QList<ReportChart> out {
        { QStringLiteral("output-throughput-vs-load"), throughputVsLoad(runs, ThroughputKind::OutputTokens) },
        { QStringLiteral("request-throughput-vs-load"), throughputVsLoad(runs, ThroughputKind::Requests) },
    };
    // TTFO beside TTFT when a model reasoned: otherwise the answer's first token is the first token.
    bool reasoned = false;
    for (const ReportRun &r : input.runs) {
        for (const PointSummary &p : r.points)
            reasoned = reasoned || p.reasoningTokens > 0;
    }
    QList<Metric> latencies { Metric::Ttft, Metric::Tpot, Metric::Itl, Metric::E2el };
    if (reasoned) {
        latencies.insert(1, Metric::Ttfo);
        latencies.insert(3, Metric::Atpot);
    }
    for (Metric m : latencies)
        out << ReportChart { metricCode(m) + QStringLiteral("-vs-load"), latencyVsLoad(runs, m) };
    // multi_turn sessions: their first turns against their later ones.
    bool sessions = false;
    for (const ReportRun &r : input.runs) {
        for (const PointSummary &p : r.points)
            sessions = sessions || !p.turns.isEmpty();
    }
    if (sessions)
        out << ReportChart { QStringLiteral("turns-ttft-vs-load"), turnsVsLoad(runs) };
    out << ReportChart { QStringLiteral("tpot-vs-throughput"), latencyVsThroughput(runs, Metric::Tpot) };
    out << ReportChart { QStringLiteral("output-per-gpu-vs-per-user"),
        throughputPerGpu(runs, std::numeric_limits<double>::quiet_NaN()) };
    // The steady window's set beside vLLM's, when any point had one.
    bool anySteady = false;
    for (const ReportRun &r : input.runs) {
        for (const PointSummary &p : r.points)
            anySteady = anySteady || p.steady.value(QStringLiteral("valid")) == 1.0;
    }
    if (anySteady) {
        LoadChartOptions steady;
        steady.steady = true;
        out << ReportChart { QStringLiteral("output-throughput-vs-load-steady"),
            throughputVsLoad(runs, ThroughputKind::OutputTokens, steady) };
        out << ReportChart { QStringLiteral("tpot-vs-load-steady"), latencyVsLoad(runs, Metric::Tpot, steady) };
    }
    return out;
}

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

// The headline rows of one comparison (Report::headlineRows, as the Results page's headline panel
// lists them), a point per line and a metric per column: each cell the change and core's verdict,
// coloured by the verdict.
QString headlineChanges(const DeltaSection &delta)
{
    const QList<DeltaRow> rows = headlineRows(delta);
    QStringList keys;
    for (const QString &key : headlineChangeKeys()) {
        if (std::any_of(rows.cbegin(), rows.cend(), [&key](const DeltaRow &r) { return r.metric == key; }))
            keys << key;
    }
    QStringList heads { tr("Variant"), tr("Point") };
    for (const QString &key : std::as_const(keys))
        heads << MetricName::of(key).title();
    QString out = tableHead(heads, QStringLiteral("delta"));
    for (qsizetype i = 0; i < rows.size();) {
        const DeltaRow &first = rows[i];
        QString line
            = QStringLiteral("<tr><td nowrap>%1</td><td nowrap>%2</td>").arg(esc(first.variant), esc(first.label));
        for (const QString &key : std::as_const(keys)) {
            if (i < rows.size() && rows[i].metric == key && rows[i].variant == first.variant
                && rows[i].label == first.label) {
                const DeltaRow &r = rows[i++];
                const QColor bg = verdictColour(r.verdict);
                line += QStringLiteral(
                    "<td class=\"%1\"%2><span class=\"change\">%3</span><br><span class=\"verdict\">%4</span></td>")
                            .arg(verdictCode(r.verdict),
                                bg.isValid() ? QStringLiteral(" style=\"background-color: %1\"").arg(bg.name())
                                             : QString(),
                                esc(changeText(r)), esc(verdictText(r)));
            } else {
                line += QStringLiteral("<td></td>");
            }
        }
        out += line + QStringLiteral("</tr>\n");
    }
    return out + QStringLiteral("</table>\n");
}

QString definitionsTable(const DeltaSection &section)
{
    if (section.definitions.isEmpty())
        return {};
    QString out = tableHead({ tr("Metric"), tr("A"), tr("B"), tr("Comparable") }, QStringLiteral("delta"));
    for (const DefinitionRow &d : section.definitions) {
        QString verdict = comparabilityShown(d.comparability);
        if (!d.differences.isEmpty() && !d.differences.contains(QStringLiteral("absent"))) {
            QStringList what;
            for (const QString &w : d.differences)
                what << (w == QLatin1String("clock")      ? tr("when the clock starts or stops")
                        : w == QLatin1String("weighting") ? tr("how values are weighted")
                                                          : tr("where token counts come from"));
            verdict += QStringLiteral(" (%1)").arg(tr("differs in %1").arg(what.join(QStringLiteral(", "))));
        }
        const QColor bg = d.comparability == Comparability::AsPublished ? verdictColour(Verdict::Better)
                                                                        : verdictColour(Verdict::Noise);
        out += QStringLiteral("<tr><td nowrap>%1</td><td>%2</td><td>%3</td><td style=\"background-color: %4\">%5</td>"
                              "</tr>\n")
                   .arg(esc(familyShown(d.family)), esc(d.a.shown()), esc(d.b.shown()), bg.name(), esc(verdict));
    }
    return out + QStringLiteral("</table>\n");
}

// Before the details: what is compared, the headline changes and what the findings say, on one page.
QString summarySection(const ReportInput &input)
{
    const bool several = input.runs.size() > 1;
    QString out = QStringLiteral("<h2>%1</h2>\n").arg(esc(tr("Summary")));
    QStringList heads;
    if (several)
        heads << QString();
    heads << tr("Run") << tr("Model") << tr("Base URL") << tr("Started (UTC)");
    out += tableHead(heads, QStringLiteral("runs"));
    for (qsizetype i = 0; i < input.runs.size(); ++i) {
        const ReportRun &run = input.runs[i];
        out += QStringLiteral("<tr>");
        if (several)
            out += QStringLiteral("<th nowrap>%1</th>").arg(QChar(char16_t(u'A' + i)));
        out += QStringLiteral("<td>%1</td><td>%2</td><td>%3</td><td nowrap>%4</td></tr>\n")
                   .arg(esc(tr("Run %1: %2").arg(run.id).arg(run.name)), esc(reportFooter(run).model), esc(run.baseUrl),
                       esc(isoUtc(run.started)));
    }
    out += QStringLiteral("</table>\n");
    // What each comparison concludes, a sentence per variant, before any table.
    if (const QString conclusions = conclusionsHtml(input.deltas, input.runs); !conclusions.isEmpty())
        out += QStringLiteral("<p class=\"conclusions\"><b>%1:</b> %2</p>\n").arg(esc(tr("Conclusions")), conclusions);
    for (qsizetype k = 0; k < input.deltas.size(); ++k) {
        // Compared runs are known by their letters (the table above); one run's variants by name.
        const QString title = several ? tr("%1 against A").arg(QChar(char16_t(u'B' + k))) : input.deltas[k].title;
        out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Changes: %1").arg(title)))
            + headlineChanges(input.deltas[k]);
        if (const QString definitions = definitionsTable(input.deltas[k]); !definitions.isEmpty())
            out += QStringLiteral("<h3>%1</h3>\n<p class=\"muted\">%2</p>\n")
                       .arg(esc(tr("Why the numbers differ: %1").arg(title)),
                           esc(tr("A and B define some metrics differently (another tool's figures, or the other "
                                  "definitions profile). Only metrics comparable as published have a verdict "
                                  "above.")))
                + definitions;
    }
    if (!input.deltas.isEmpty())
        out += QStringLiteral("<p class=\"muted\">%1</p>\n")
                   .arg(esc(tr("Change of B against A (×N from twice A on); better or worse only beyond the "
                               "run-to-run noise (docs/metrics.md); —: nothing to compare. compare --json has every "
                               "metric.")));
    // The findings' headlines, a line each with the runs and variants it was found in; their text is
    // in each run's details.
    QStringList titles;
    QMap<QString, QStringList> where;
    for (qsizetype i = 0; i < input.runs.size(); ++i) {
        for (const RunFinding &f : input.runs[i].findings) {
            const QString title = findingTitle(f);
            if (!titles.contains(title))
                titles << title;
            QStringList parts;
            if (several)
                parts << QString(QChar(char16_t(u'A' + i)));
            if (!f.variant.isEmpty())
                parts << f.variant;
            const QString who = parts.join(QStringLiteral(" · "));
            if (!who.isEmpty() && !where[title].contains(who))
                where[title] << who;
        }
    }
    if (!titles.isEmpty()) {
        QStringList items;
        for (const QString &title : std::as_const(titles)) {
            const QStringList who = where.value(title);
            items << (who.isEmpty()
                    ? QStringLiteral("<b>%1</b>").arg(esc(title))
                    : QStringLiteral("<b>%1</b> (%2)").arg(esc(title), esc(who.join(QStringLiteral(", ")))));
        }
        out += QStringLiteral("<p class=\"findings\"><b>%1:</b> %2</p>\n")
                   .arg(esc(tr("Findings")), items.join(QStringLiteral("; ")));
    }
    return out;
}

QList<PointEstimate> pointEstimates(const ReportRun &run, const QString &variant, int point)
{
    QList<PointEstimate> out;
    for (const PointEstimate &e : run.estimates) {
        if (e.variant == variant && e.point == point)
            out << e;
    }
    if (!out.isEmpty())
        return out;
    PointRepeats repeats;
    repeats.variant = variant;
    repeats.point = point;
    for (const PointSummary &p : run.points) {
        if (p.variant == variant && p.point == point)
            repeats.repeats << summaryValues(p);
    }
    if (repeats.repeats.isEmpty())
        return out;
    for (const QString &key : headlineMetrics())
        out << storedEstimate(run.id, repeats, estimateMetric(repeats, key));
    return out;
}

QByteArray reportSummaryCsv(const ReportInput &input)
{
    // summary.csv's columns, then how the run ended and whether the row's point is partial (summarised
    // from an interrupted run's stored requests): a run that did not finish says so on every row. Then
    // the variant's GPUs and GPU-hour price (empty: none), from which the row's cost per million output
    // tokens (summary.csv's own column) is price x GPUs / 3600 / output_throughput x 10^6.
    QByteArray data = summaryCsvHeader(",run_status,partial,gpus,gpu_hour_price");
    for (const ReportRun &run : input.runs) {
        const QByteArray status = run.status.isEmpty() ? QByteArrayLiteral("finished") : run.status.toUtf8();
        for (qsizetype i = 0; i < run.points.size(); ++i) {
            PointSummary p = run.points.at(i);
            // Several runs share one file: the variant column names the run too.
            const QString variant = p.variant;
            if (input.runs.size() > 1)
                p.variant = run.name + QLatin1Char('/') + p.variant;
            const bool partial = run.partialPoints.contains(partialKey(variant, p.point, p.repeat));
            const VariantServing serving = run.serving.value(variant);
            const QByteArray extra = ',' + status + (partial ? ",1," : ",0,") + QByteArray::number(serving.gpus.count)
                + ',' + (serving.gpuHourPrice > 0 ? QByteArray::number(serving.gpuHourPrice, 'g', 15) : QByteArray());
            const double price = serving.gpuHourPrice * serving.gpus.count;
            data += summaryCsvRows(p, extra, price);
            const bool lastRepeat = i + 1 == run.points.size() || run.points.at(i + 1).point != p.point
                || run.points.at(i + 1).variant != variant;
            if (lastRepeat)
                data += summaryCsvStatRows(p, pointEstimates(run, variant, p.point), extra, price);
        }
    }
    return data;
}

QString reportBodyHtml(const ReportInput &input)
{
    const QDateTime generated = input.generated.isValid() ? input.generated : QDateTime::currentDateTimeUtc();
    QString out = QStringLiteral("<h1>%1</h1>\n<p class=\"muted\">%2</p>\n")
                      .arg(esc(reportTitle(input)),
                          esc(tr("Generated %1 by ServeScope %2. Rates and latencies per point are medians across "
                                 "repeats, request counts are totals; rows marked * have more than 0.5% failed "
                                 "requests (censored: latencies describe only the survivors).")
                                  .arg(isoUtc(generated), QStringLiteral(SERVESCOPE_VERSION))));
    out += summarySection(input);
    bool thresholdsShown = false; // the findings' thresholds, once: they are the same for every run
    for (qsizetype i = 0; i < input.runs.size(); ++i) {
        const ReportRun &run = input.runs[i];
        // The details start on a page of their own: the summary keeps the first.
        out += QStringLiteral("<h2%1>%2</h2>\n")
                   .arg(i == 0 ? QStringLiteral(" style=\"page-break-before: always\"") : QString(),
                       esc(tr("Run %1: %2").arg(run.id).arg(run.name)));
        KeyValues meta { { tr("Base URL"), run.baseUrl }, { tr("Model"), run.model } };
        if (!run.servedModel.isEmpty())
            meta.append({ tr("Model answered by the server"), run.servedModel });
        if (!run.origin.isEmpty())
            meta.append({ tr("Origin"), run.origin });
        if (!run.ended.isEmpty())
            meta.append({ tr("Ended"), run.ended });
        if (!run.tlsVerify.isEmpty())
            meta.append({ tr("TLS"),
                run.tlsVerify == QLatin1String("none")
                    ? tr("the server's certificate was NOT verified (tls_skip_verify)")
                    : run.tlsVerify == QLatin1String("system")
                    ? tr("certificate verified against the system's certificate authorities")
                    : tr("certificate verified against %1").arg(run.tlsVerify) });
        meta.append({ tr("Started (UTC)"), isoUtc(run.started) });
        meta.append({ tr("Finished (UTC)"), isoUtc(run.finished) });
        meta.append({ tr("Definitions profile"), run.definitions });
        out += keyValueTable(meta, 2);
        if (!run.variants.isEmpty())
            out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Variants (what each changes from the baseline)")))
                + keyValueTable(run.variants);
        out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Per-point results (medians across repeats, min–max)")))
            + pointTable(run) + reasoningTable(run) + sessionsTable(run) + steadyTable(run) + capacityTable(run)
            + servingTable(run) + findingsSection(run, !thresholdsShown);
        thresholdsShown = thresholdsShown || !run.findings.isEmpty();
        out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Environment snapshot"))) + keyValueTable(run.envSnapshot, 2);
        out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Client host"))) + keyValueTable(run.clientHost, 2);
    }
    return out;
}

} // namespace ServeScope::Report
