// SPDX-License-Identifier: MIT
// A comparison's conclusions and verdicts in words, in the UI's language: the one sentence per
// variant that the Run page, Results and the report put before any table, and each row's verdict.
#pragma once

#include "compare/conclusion.h"

#include <QCoreApplication>
#include <QString>

namespace ServeScope::Report {

/// "seqs-8: worse — output throughput −79.6% at c64 and TTFT p50 ×17.0 at c8–c64", "sglang: no change
/// beyond run-to-run noise at any point (one run each: …)", "a: no verdict: statistics only".
QString conclusionSentence(const Conclusion &c);

/// Every comparison's conclusions, a sentence per variant in the sections' order; with `lettered` (runs
/// compared) each names its comparison's letter first ("B: sglang: …").
QStringList conclusionSentences(const QList<DeltaSection> &sections, bool lettered);

/// What a single repeat a side cannot tell, from the noise floors: "one run each: a change under 5% in
/// throughput, 10% in TPOT/ITL, 25% in TTFT or 60% in a p99 cannot be told from run-to-run noise;
/// rerun with 3 repeats to tell smaller ones".
QString oneRunLimit();

/// The rows a table folds behind its decided ones: "31 within noise, 12 undecided"; empty for none.
QString foldedRows(int noise, int undecided);

/// A row's verdict in words ("worse", "within run-to-run noise", "—: no successful request in B").
QString verdictText(const DeltaRow &row);

} // namespace ServeScope::Report
