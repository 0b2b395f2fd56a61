// SPDX-License-Identifier: MIT
#pragma once

#include "compare/delta.h"
#include "metrics/findings.h"
#include "metrics/servingcost.h"
#include "report/chartbuilders.h"

#include <QDateTime>
#include <QHash>
#include <QSet>

namespace ServeScope::Report {

using KeyValues = QList<QPair<QString, QString>>;

/// What served a variant: its GPUs and their price per hour (0: none given).
struct VariantServing {
    ServingGpus gpus;
    double gpuHourPrice = 0;
};

/// One stored run as a report shows it (filled from the project store by the caller).
struct ReportRun {
    qint64 id = 0;
    QString name;
    QString baseUrl, model, servedModel; ///< servedModel: what the server answered with, when known
    /// https only: how the server's certificate was checked ("system", a CA file's path, or
    /// "none" for tls_skip_verify); empty for http and the simulator.
    QString tlsVerify;
    QString origin; ///< RunOrigin::describe() and its note for an imported run; empty for a measured one
    /// For a run that did not finish (interrupted, cancelled, failed): how it ended and that only the
    /// points it completed are reported; empty otherwise.
    QString ended;
    QDateTime started, finished; ///< UTC
    QString definitions = QStringLiteral("vllm");
    KeyValues envSnapshot; ///< GPU, engine version, server flags, ... with their source when known
    KeyValues clientHost; ///< CPU model, governor, ServeScope version, proxy, round-trip time
    KeyValues variants; ///< each variant and what it changes from the baseline ("path: a → b; …")
    QList<PointSummary> points; ///< every (variant, point, repeat)
    /// The stored statistics across repeats of each (variant, point, headline metric) of vLLM's set;
    /// empty for a run stored before they were kept (pointEstimates() then derives them from the
    /// summaries).
    QList<PointEstimate> estimates;
    QList<RunFinding> findings; ///< what the run's curves say (runFindings)
    /// Per variant name; a variant not in it (an imported run) is served by one GPU, assumed.
    QHash<QString, VariantServing> serving;
    /// load.capacity: the search's settings, the loop it searched, and each variant's result.
    std::optional<CapacitySearch> capacitySearch;
    ServeScope::LoadMode capacityOver = ServeScope::LoadMode::Concurrency;
    QList<CapacityResult> capacities;
    /// Prompts each (variant, point) was to send by its configuration, keyed by plannedKey(); absent
    /// when the point stops on time only or the configuration is unknown (an imported run).
    QHash<QString, qint64> plannedPrompts;
    QString status; ///< how the run ended, as the project stores it: finished, interrupted, cancelled, failed
    /// (variant, point, repeat) summaries made when the run was read, from the requests an interrupted
    /// run stored of the point it was running (keyed partialKey()); the run kept no summary of them.
    QSet<QString> partialPoints;
};

inline QString partialKey(const QString &variant, int point, int repeat)
{
    return variant + u'\n' + QString::number(point) + u'\n' + QString::number(repeat);
}

inline QString plannedKey(const QString &variant, int point)
{
    return variant + u'\n' + QString::number(point);
}

struct ReportInput {
    QString title;
    QList<ReportRun> runs; ///< A first, then B, ...
    QList<DeltaSection> deltas; ///< computed by the caller from the runs' requests; empty: no delta section
    QList<DeltaSection> steadyDeltas; ///< the same over the steady window's set (the GUI's result-set switch)
    QDateTime generated; ///< UTC; now when invalid
};

struct ReportChart {
    QString id; ///< file-name friendly, e.g. "ttft-vs-load"
    ChartSpec spec;
};

/// The statistics across repeats of one (variant, point) of a run, by headline metric: the stored
/// ones, else the median, min, max and CV of the stored summaries (no interval).
QList<PointEstimate> pointEstimates(const ReportRun &run, const QString &variant, int point);

/// The report's title: the given one, or "ServeScope report".
QString reportTitle(const ReportInput &input);
/// The charts a report holds, in order (throughput, latency bands, latency vs throughput).
QList<ReportChart> reportCharts(const ReportInput &input);
/// One chart series input per run and variant, palette colours in run order.
QList<RunSeriesInput> reportSeriesInputs(const ReportInput &input);
/// Each run of several by its letter (by age: the runs come oldest first) beside its number, as the
/// project panel lists it: "A #3", "B #7". Empty for one run, whose variants are named instead.
QStringList runTags(const ReportInput &input);
ChartFooter reportFooter(const ReportRun &run);
/// The report's text part as HTML that QTextDocument can lay out: a summary first (the runs compared,
/// the headline changes as the Results page shows them, the findings' headlines), then each run's
/// details (metadata, variants, per-point tables, findings, env snapshot, client host); the writers
/// add styles and the charts around it.
QString reportBodyHtml(const ReportInput &input);
/// "Why the numbers differ": per metric family, A's and B's definitions and whether they compare,
/// as an HTML table (the report's section and the window's Changes tab); empty when the section
/// compares one convention.
QString definitionsTable(const DeltaSection &section);
/// Every point summary of the runs as summary.csv; with several runs the variant column reads `run/variant`.
QByteArray reportSummaryCsv(const ReportInput &input);

} // namespace ServeScope::Report

Q_DECLARE_METATYPE(ServeScope::Report::ReportInput)
Q_DECLARE_METATYPE(ServeScope::Report::TimeSeriesInput)
