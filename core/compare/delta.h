// SPDX-License-Identifier: MIT
// Comparing two sides point by point: matching their points, the delta of each metric with its
// verdict, definitions that keep a verdict back, and the gate conditions of `compare --fail-if`.
#pragma once

#include "metrics/definitions.h"
#include "metrics/estimates.h"
#include "metrics/noisefloor.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <limits>
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

/// Two-sided level of the Welch test on the repeats' values (two or more repeats a side).
inline constexpr double kRepeatTestLevel = 0.99;
/// A success rate's change is called only when its two-proportion z reaches kFailureZ and it moved
/// by kFailureFloor (metrics/noisefloor.h) or more.
inline constexpr double kFailureZ = 3.0;

struct DeltaRow {
    QString variant, label;
    QString metric;
    MetricEstimate a, b;
    double change = 0; ///< b - a (medians across repeats); NaN when censored
    double relative = 0; ///< change / |a|; NaN when a is 0 or censored
    Verdict verdict = Verdict::Undecided;
    QString reason; ///< why the verdict is what it is (machine words, docs/metrics.md)
    /// The smallest relative change this row could have been called at (requiredChange(); for the
    /// success rate, in fractions of the requests); NaN when no change could be called.
    double floor = std::numeric_limits<double>::quiet_NaN();
    /// For the success rate: the error class most of B's failed requests had (records.h code), when known.
    QString failureClass;

    bool decided() const { return verdict == Verdict::Better || verdict == Verdict::Worse; }
    /// Whether the row's values mean nothing to compare: a side without the value, with no successful
    /// request, or with only a file's statistics; shown as "—".
    bool blank() const;
};

/// One metric's change between two sides (docs/metrics.md, "Comparing two runs"): with
/// kRepeatsForSpread repeats or more a side, better or worse when a Welch test on the repeats' values
/// (their medians and coefficients of variation) separates them at kRepeatTestLevel and the change
/// reaches requiredChange(); with fewer, when the change reaches requiredChange() (the family's noise
/// floor; a median or percentile too few requests give no interval for takes the tail's) and the
/// requests' intervals, where both sides have one, do not overlap. A latency that moved
/// less than kJitterMs is noise either way ("below-jitter"). Noise otherwise;
/// undecided when a side lacks the value. `*floor` (may be null) gets the change required.
Verdict verdictFor(const MetricEstimate &a, const MetricEstimate &b, double practicalThreshold, QString *reason,
    const NoiseFloors &floors = defaultNoiseFloors(), double *floor = nullptr);

/// B against A at one place: the change of the medians, relative to A's, and verdictFor().
DeltaRow deltaRow(const QString &variant, const QString &label, const QString &metric, const MetricEstimate &a,
    const MetricEstimate &b, double practicalThreshold = kReproducibleSpread,
    const NoiseFloors &floors = defaultNoiseFloors());

/// The success rate of B against A from their requests' counts (completed and failed summed over the
/// repeats): worse ("failures-rose") or better ("failures-fell") when the failed share moved by
/// kFailureFloor or more and by kFailureZ standard errors of a two-proportion test; noise otherwise.
DeltaRow successRow(const PointRepeats &a, const PointRepeats &b);

/// Every metric of every matched point, in A's order. A point judged as a whole first: a side with
/// only a file's statistics leaves every row undecided ("statistics-only"); a side without a
/// successful request leaves the latencies undecided and blank ("censored"); the success rate comes
/// from successRow().
QList<DeltaRow> deltaTable(const QList<PointRepeats> &a, const QList<PointRepeats> &b, const PointMatching &matching,
    const QStringList &metrics, double practicalThreshold = kReproducibleSpread,
    const NoiseFloors &floors = defaultNoiseFloors());

/// One comparison stated as a whole: B against A, every matched point.
struct DeltaSection {
    QString title; ///< e.g. "B: run 2 vs A: run 1" or "B: seqs-8 vs A: baseline", in the UI's language
    QList<DeltaRow> rows;
    /// When A and B follow different conventions (another tool's file, the other profile): per
    /// metric family both definitions and whether they compare; the rows of families that are not
    /// comparable as published carry Verdict::NotComparable. Empty for one convention.
    QList<DefinitionRow> definitions;
    /// The noise floors the rows were judged by, and the pairs of the project's reruns they were
    /// refined from (0: the defaults).
    NoiseFloors floors = defaultNoiseFloors();
    int rerunPairs = 0;
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
    bool significant = false; ///< the row's verdict is decided (better or worse)
    QString message; ///< baseline, candidate and change, for a person and for JUnit
};
/// Evaluates one condition on one matched point (a DeltaRow of the condition's metric). A relative
/// condition fails only when the change is beyond the bound and the row's verdict is decided (the
/// verdict of every other output); an absolute one when the candidate's value is beyond it. A
/// candidate without a successful request there fails every condition.
GateOutcome evaluateGate(const GateCondition &condition, const DeltaRow &row);

/// Sets Verdict::NotComparable, with the reason, on the rows of families whose definitions differ.
/// Delta rows whose family is not comparable as published lose their verdict: NotComparable,
/// the reason naming what differs ("not comparable: clock, tokens").
void withholdIncomparable(QList<DeltaRow> &rows, const QList<DefinitionRow> &definitions);

} // namespace ServeScope
