// SPDX-License-Identifier: MIT
#include "report/reportdocument.h"

#include "report/reporthtml.h"

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

using namespace Html;

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

QStringList runTags(const ReportInput &input)
{
    QStringList tags;
    for (qsizetype i = 0; input.runs.size() > 1 && i < input.runs.size(); ++i)
        tags << QStringLiteral("%1 #%2").arg(QChar(char16_t(u'A' + i))).arg(input.runs.at(i).id);
    return tags;
}

QList<RunSeriesInput> reportSeriesInputs(const ReportInput &input)
{
    QList<RunSeriesInput> out;
    // One run: its variants are the series, named by variant. Several runs: by letter and number,
    // "A #3 / baseline", "B #7 / seqs-8", and each chart footer line says which run a letter is.
    const bool several = input.runs.size() > 1;
    const QStringList tags = runTags(input);
    for (qsizetype i = 0; i < input.runs.size(); ++i) {
        const ReportRun &run = input.runs.at(i);
        const QString letter = several ? tags.at(i) : QString();
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
    const QStringList tags = runTags(input);
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
        // Compared runs are known by their letters and numbers (the table above); one run's variants by name.
        const QString title
            = several ? tr("%1 against %2").arg(tags.value(k + 1), tags.value(0)) : input.deltas[k].title;
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
