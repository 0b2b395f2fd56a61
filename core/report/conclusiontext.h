// SPDX-License-Identifier: MIT
// A comparison's conclusions and verdicts in words, in the UI's language: the one sentence per
// variant that the Run page, Results and the report put before any table, and each row's verdict.
#pragma once

#include "compare/conclusion.h"
#include "report/reportdocument.h"

#include <QCoreApplication>
#include <QString>

namespace ServeScope::Report {

/// "seqs-8: worse — output throughput −79.6% at c64 and TTFT p50 ×17.0 at c16, c32, c64 (largest at
/// c64)", "sglang: no change beyond run-to-run noise at any point", "a: no verdict: statistics only".
QString conclusionSentence(const Conclusion &c);

/// One comparison's conclusions: its title when runs are compared ("B: demo rerun vs A: demo"),
/// then a sentence per variant, the variants with nothing decided named together in one. A variant
/// with a decided change is followed by the problems found in it ("— Queueing, confirmed by the
/// server's metrics"): `runs` are the compared runs, as deltaSections() took them (each later run
/// against the first; one run's variants against its first).
struct ConclusionBlock {
    QString title;
    /// Said before the sentences when the two runs ran different models or endpoints: the changes then
    /// compare those, not one change of configuration.
    QString caution;
    QStringList sentences;
};
QList<ConclusionBlock> conclusionBlocks(const QList<DeltaSection> &sections, const QList<ReportRun> &runs);
/// The blocks as the window and the report show them, in HTML: each title bold, a caution in orange,
/// the sentences, and after them, when a side had one repeat somewhere, oneRunLimit() once in grey;
/// empty when there is nothing to conclude.
QString conclusionsHtml(const QList<DeltaSection> &sections, const QList<ReportRun> &runs);
/// Whether a compared row has a single repeat on a side.
bool oneRunCompared(const QList<DeltaSection> &sections);

/// What a single repeat a side cannot tell, from the noise floors: "one run each: a change under 5% in
/// throughput, 15% in TPOT/ITL, 30% in TTFT or 60% in a p99 cannot be told from run-to-run noise;
/// rerun with 3 repeats to tell smaller ones".
/// `floors` are those the rows were judged by, `rerunPairs` the project's reruns they came from.
QString oneRunLimit(const NoiseFloors &floors = defaultNoiseFloors(), int rerunPairs = 0);

/// The rows a table folds behind its decided ones: "31 within noise, 12 undecided"; empty for none.
QString foldedRows(int noise, int undecided);

/// How requests failed, by error class code (records.h): "connection refused or unreachable",
/// "HTTP 5xx", … ; the code itself for one this version does not know.
QString failureWords(const QString &errorClass);

/// A row's verdict in words ("worse", "within run-to-run noise", "—: no successful request in B").
QString verdictText(const DeltaRow &row);

} // namespace ServeScope::Report
