// SPDX-License-Identifier: MIT
// Comparing two sides point by point: matching their points, the delta of each metric with its
// verdict, definitions that keep a verdict back, and the gate conditions of `compare --fail-if`.
#pragma once

#include "metrics/definitions.h"
#include "metrics/estimates.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace ServeScope {

/// NotComparable: the two sides define the metric differently (metrics/definitions.h), so no verdict.
enum class Verdict { Better, Worse, Noise, Undecided, NotComparable };
QString verdictCode(Verdict v); ///< "better", "worse", "noise", "undecided", "not-comparable"

/// Points of B matched to points of A: by label, then by (mode, concurrency or rate, input and
/// output length); within the same variant unless each side has a single variant.
struct PointMatching {
    QList<QPair<int, int>> pairs; ///< (index in A, index in B)
    QList<int> unmatchedA, unmatchedB;
};
PointMatching matchPoints(const QList<PointRepeats> &a, const QList<PointRepeats> &b);

struct DeltaRow {
    QString variant, label;
    QString metric;
    MetricEstimate a, b;
    double change = 0; ///< b - a (medians across repeats)
    double relative = 0; ///< change / |a|; NaN when a is 0
    Verdict verdict = Verdict::Undecided;
    QString reason; ///< why the verdict is what it is (machine words)
};

/// Better or worse only when the intervals separate and |relative change| reaches the practical
/// threshold; noise when the intervals overlap or the change is smaller; undecided without intervals.
Verdict verdictFor(const MetricEstimate &a, const MetricEstimate &b, double practicalThreshold, QString *reason);

/// B against A at one place: the change of the medians, relative to A's, and verdictFor().
DeltaRow deltaRow(const QString &variant, const QString &label, const QString &metric, const MetricEstimate &a,
    const MetricEstimate &b, double practicalThreshold = kReproducibleSpread);

/// Every metric of every matched point, in A's order.
QList<DeltaRow> deltaTable(const QList<PointRepeats> &a, const QList<PointRepeats> &b, const PointMatching &matching,
    const QStringList &metrics, double practicalThreshold = kReproducibleSpread);

/// One comparison stated as a whole: B against A, every matched point.
struct DeltaSection {
    QString title; ///< e.g. "B: run 2 vs A: run 1" or "B: seqs-8 vs A: baseline", in the UI's language
    QList<DeltaRow> rows;
    /// When A and B follow different conventions (another tool's file, the other profile): per
    /// metric family both definitions and whether they compare; the rows of families that are not
    /// comparable as published carry Verdict::NotComparable. Empty for one convention.
    QList<DefinitionRow> definitions;
};

/// Two runs of one configuration agree at a metric when the change is within `limit` of the
/// baseline or within noise (overlapping intervals).
bool agrees(const DeltaRow &row, double limit = kReproducibleSpread);

/// `--fail-if METRIC (>|<) [+|-]NUMBER[%]`: with % a change relative to the baseline, without an
/// absolute bound on the candidate.
struct GateCondition {
    QString text;
    QString metric;
    char op = '>';
    double value = 0;
    bool relative = false;
};
std::optional<GateCondition> parseGateCondition(const QString &text, QString *error);

struct GateOutcome {
    bool failed = false;
    bool significant = false; ///< the intervals separate (or there are none to test)
    QString message; ///< baseline, candidate and change, for a person and for JUnit
};
/// Evaluates one condition on one matched point (a DeltaRow of the condition's metric). A relative
/// condition fails only when the change is beyond the bound and the intervals separate; without
/// intervals on either side the values decide, and the message says so.
GateOutcome evaluateGate(const GateCondition &condition, const DeltaRow &row);

/// Sets Verdict::NotComparable, with the reason, on the rows of families whose definitions differ.
/// Delta rows whose family is not comparable as published lose their verdict: NotComparable,
/// the reason naming what differs ("not comparable: clock, tokens").
void withholdIncomparable(QList<DeltaRow> &rows, const QList<DefinitionRow> &definitions);

} // namespace ServeScope
