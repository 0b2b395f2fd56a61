// SPDX-License-Identifier: MIT
#include "report/reportdocument.h"

#include "io/resultfile.h"
#include "metrics/delta.h"
#include "metrics/repeats.h"
#include "report/chartbuilders.h"
#include "report/findingtext.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

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

QString num(double v, int decimals = 1)
{
    if (std::isinf(v))
        return QStringLiteral("inf");
    return QString::number(v, 'f', decimals);
}

QString isoUtc(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODate) : QString();
}

QString keyValueTable(const KeyValues &kv)
{
    if (kv.isEmpty())
        return QStringLiteral("<p class=\"muted\">") + tr("Not recorded.") + QStringLiteral("</p>\n");
    QString out = QStringLiteral("<table class=\"kv\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n");
    for (const auto &[k, v] : kv)
        out += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>\n").arg(esc(k), esc(v));
    return out + QStringLiteral("</table>\n");
}

QString loadCell(const PointSummary &p)
{
    if (p.mode == QLatin1String("rate"))
        return num(p.requestRate, 2) + QStringLiteral(" req/s")
            + (p.concurrency > 0 ? QStringLiteral(" (cap %1)").arg(p.concurrency) : QString());
    return QStringLiteral("c=%1").arg(p.concurrency);
}

QString tableHead(const QStringList &head)
{
    QString out = QStringLiteral("<table class=\"points\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<tr>");
    for (const QString &h : head)
        out += QStringLiteral("<th nowrap>%1</th>").arg(esc(h));
    return out + QStringLiteral("</tr>\n");
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

// Two tables rather than one of twenty columns: each fits a landscape page without breaking a word.
QString pointTable(const ReportRun &run)
{
    QString out = tableHead({ tr("Variant"), tr("Point"), tr("Load"), tr("Input/output (tokens)"), tr("Repeats"),
        tr("Completed"), tr("Failed"), tr("Success (%)"), tr("Requests/s"), tr("Output (tok/s)") });
    const QList<PointSummary> points = medianAcrossRepeats(run.points);
    for (const PointSummary &p : points) {
        out += row(
            { esc(p.variant), esc(p.label), esc(loadCell(p)), QStringLiteral("%1/%2").arg(p.inputLen).arg(p.outputLen),
                QString::number(p.repeat), QString::number(p.completed), QString::number(p.failed),
                num(p.successRate * 100, 2) + (censored(p) ? QStringLiteral(" *") : QString()),
                num(p.requestThroughput, 2),
                (p.outputEstimated > 0 ? QStringLiteral("≈ ") : QString()) + num(p.outputThroughput) },
            censored(p));
    }
    out += QStringLiteral("</table>\n<h3>%1</h3>\n").arg(esc(tr("Latencies per point")));
    out += tableHead({ tr("Variant"), tr("Point"), tr("TTFT p50 (ms)"), tr("TTFT p90 (ms)"), tr("TTFT p99 (ms)"),
        tr("TPOT p50 (ms)"), tr("TPOT p90 (ms)"), tr("TPOT p99 (ms)"), tr("ITL p50 (ms)"), tr("ITL p99 (ms)"),
        tr("E2EL p50 (ms)"), tr("E2EL p99 (ms)") });
    for (const PointSummary &p : points) {
        out += row({ esc(p.variant), esc(p.label), num(p.ttft.p50), num(p.ttft.p90), num(p.ttft.p99),
                       num(p.tpot.p50, 2), num(p.tpot.p90, 2), num(p.tpot.p99, 2), num(p.itl.p50, 2), num(p.itl.p99, 2),
                       num(p.e2el.p50), num(p.e2el.p99) },
            censored(p));
    }
    return out + QStringLiteral("</table>\n");
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
        for (RunSeriesInput &p : parts)
            p.footer = footer;
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
    for (Metric m : { Metric::Ttft, Metric::Tpot, Metric::Itl, Metric::E2el })
        out << ReportChart { metricCode(m) + QStringLiteral("-vs-load"), latencyVsLoad(runs, m) };
    out << ReportChart { QStringLiteral("tpot-vs-throughput"), latencyVsThroughput(runs, Metric::Tpot) };
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

QString withRange(const RepeatStat &s, int decimals)
{
    if (s.n == 0)
        return QString();
    if (s.n < 2)
        return num(s.median, decimals);
    return num(s.median, decimals) + QStringLiteral(" (") + num(s.min, decimals) + QStringLiteral("–")
        + num(s.max, decimals) + u')';
}

// What engineers put in their reports: load, TTFT, TPOT, output throughput, medians across repeats
// with the range the repeats spanned.
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

QString headlineTable(const ReportRun &run)
{
    // The server side beside the client's figures, where the server's /metrics answered.
    const std::pair<const char *, QString> serverColumns[]
        = { { "running_mean", tr("Server running (mean)") }, { "waiting_max", tr("Server waiting (max)") },
              { "kv_usage_max", tr("KV cache (max %)") }, { "gpu_util_mean", tr("GPU util (%)") } };
    QList<const char *> serverKeys;
    QStringList heads { tr("Variant"), tr("Point"), tr("Load"), tr("Repeats"), tr("TTFT p50 (ms)"), tr("TTFT p90 (ms)"),
        tr("TPOT p50 (ms)"), tr("Output (tok/s)") };
    for (const auto &[key, head] : serverColumns) {
        if (std::any_of(run.points.cbegin(), run.points.cend(),
                [key = key](const PointSummary &p) { return p.server.contains(QLatin1String(key)); })) {
            serverKeys << key;
            heads << head;
        }
    }
    heads << tr("Repeats agree within 5%");
    QString out = QStringLiteral("<table class=\"points\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<tr>");
    for (const QString &h : std::as_const(heads))
        out += QStringLiteral("<th>%1</th>").arg(esc(h));
    out += QStringLiteral("</tr>\n");
    for (const PointSummary &m : medianAcrossRepeats(run.points)) {
        QMap<QString, RepeatStat> stats;
        QStringList spread;
        for (const PointEstimate &e : pointEstimates(run, m.variant, m.point)) {
            stats.insert(e.metric, metricEstimate(e).repeats);
            if (!reproducible(stats.value(e.metric)))
                spread << tr("%1 %2%").arg(e.metric, num(e.spread() * 100, 1));
        }
        const auto cell
            = [&](const char *key, int decimals) { return esc(withRange(stats.value(QLatin1String(key)), decimals)); };
        const QString agree = m.repeat < 2 ? tr("one repeat")
            : spread.isEmpty()             ? tr("yes")
                                           : tr("no: %1").arg(spread.join(QStringLiteral(", ")));
        QStringList cells { esc(m.variant), esc(m.label), esc(loadCell(m)), QString::number(m.repeat),
            cell("median_ttft_ms", 1), cell("p90_ttft_ms", 1), cell("median_tpot_ms", 2),
            cell("output_throughput", 0) };
        for (const char *key : std::as_const(serverKeys))
            cells << esc(withRange(acrossRepeatsOf(run, m, &PointSummary::server, key), 1));
        cells << esc(agree);
        out += QStringLiteral("<tr>");
        for (const QString &c : std::as_const(cells))
            out += QStringLiteral("<td>%1</td>").arg(c);
        out += QStringLiteral("</tr>\n");
    }
    out += QStringLiteral("</table>\n");
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

QString findingsSection(const ReportRun &run)
{
    if (run.findings.isEmpty())
        return QString();
    QString out = QStringLiteral("<h3>%1</h3>\n<ul>\n").arg(esc(tr("Findings")));
    for (const RunFinding &f : run.findings) {
        const QString who = f.variant.isEmpty() ? QString() : f.variant + QStringLiteral(": ");
        out += QStringLiteral("<li><b>%1</b> — %2%3</li>\n").arg(esc(findingTitle(f)), esc(who), esc(findingText(f)));
    }
    return out + QStringLiteral("</ul>\n<p class=\"muted\">%1</p>\n").arg(esc(findingThresholdsText()));
}

QString deltaSection(const DeltaSection &delta)
{
    // The metrics a reader scans first; compare --json has every headline metric.
    static const QStringList shown { QStringLiteral("output_throughput"), QStringLiteral("median_ttft_ms"),
        QStringLiteral("p90_ttft_ms"), QStringLiteral("median_tpot_ms"), QStringLiteral("p90_tpot_ms"),
        QStringLiteral("median_itl_ms"), QStringLiteral("median_e2el_ms"), QStringLiteral("success_rate") };
    QString out = QStringLiteral("<table class=\"delta\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<tr>");
    for (const QString &h : { tr("Variant"), tr("Point"), tr("Metric"), tr("A"), tr("B"), tr("Change"), tr("Verdict") })
        out += QStringLiteral("<th>%1</th>").arg(esc(h));
    out += QStringLiteral("</tr>\n");
    for (const DeltaRow &r : delta.rows) {
        if (!shown.contains(r.metric))
            continue;
        const QString change = std::isnan(r.relative)
            ? num(r.change, 2)
            : (r.relative >= 0 ? QStringLiteral("+") : QString()) + num(r.relative * 100, 1) + u'%';
        out += QStringLiteral("<tr class=\"%1\"><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td>"
                              "<td>%8</td></tr>\n")
                   .arg(verdictCode(r.verdict), esc(r.variant), esc(r.label), esc(r.metric), num(r.a.repeats.median, 2),
                       num(r.b.repeats.median, 2), esc(change), esc(verdictText(r)));
    }
    return out + QStringLiteral("</table>\n");
}

QString verdictText(const DeltaRow &r)
{
    switch (r.verdict) {
    case Verdict::Better:
        return tr("better");
    case Verdict::Worse:
        return tr("worse");
    case Verdict::Noise:
        return r.reason == QLatin1String("below-threshold") ? tr("within noise (small change)") : tr("within noise");
    case Verdict::Undecided:
        break;
    }
    return r.reason == QLatin1String("single-repeat") ? tr("undecided: one repeat") : tr("undecided: too few requests");
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
    QByteArray data = summaryCsvHeader();
    for (const ReportRun &run : input.runs) {
        for (qsizetype i = 0; i < run.points.size(); ++i) {
            PointSummary p = run.points.at(i);
            // Several runs share one file: the variant column names the run too.
            const QString variant = p.variant;
            if (input.runs.size() > 1)
                p.variant = run.name + QLatin1Char('/') + p.variant;
            data += summaryCsvRows(p);
            const bool lastRepeat = i + 1 == run.points.size() || run.points.at(i + 1).point != p.point
                || run.points.at(i + 1).variant != variant;
            if (lastRepeat)
                data += summaryCsvStatRows(p, pointEstimates(run, variant, p.point));
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
    for (const ReportRun &run : input.runs) {
        out += QStringLiteral("<h2>%1</h2>\n").arg(esc(tr("Run %1: %2").arg(run.id).arg(run.name)));
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
        out += keyValueTable(meta);
        if (!run.variants.isEmpty())
            out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Variants (what each changes from the baseline)")))
                + keyValueTable(run.variants);
        out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Headline (medians across repeats, min–max)")))
            + headlineTable(run) + findingsSection(run);
        out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Per-point results"))) + pointTable(run) + steadyTable(run);
        out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Environment snapshot"))) + keyValueTable(run.envSnapshot);
        out += QStringLiteral("<h3>%1</h3>\n").arg(esc(tr("Client host"))) + keyValueTable(run.clientHost);
    }
    for (const DeltaSection &d : input.deltas) {
        out += QStringLiteral("<h2>%1</h2>\n<p class=\"muted\">%2</p>\n")
                   .arg(esc(tr("Changes: %1").arg(d.title)),
                       esc(tr("Better or worse only when the 95% intervals separate and the change is at least 5%; "
                              "latencies in ms, throughput in tokens/s.")))
            + deltaSection(d);
    }
    return out;
}

} // namespace ServeScope::Report
