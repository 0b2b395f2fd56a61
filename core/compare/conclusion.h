// SPDX-License-Identifier: MIT
// What a comparison concludes about each variant, before any table: the decided changes that matter
// most (more failed requests first), or that nothing changed beyond run-to-run noise, or why nothing
// can be said. The Run page, Results, the report and `compare` state it from the same rows.
#pragma once

#include "compare/delta.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace ServeScope {

struct Conclusion {
    /// "worse" (failures rose, or every decided change is worse), "better", "mixed", "noise" (nothing
    /// decided), "statistics-only" (no side has requests to judge), "no-verdict" (nothing comparable).
    QString outcome;
    QString variant;
    /// One decided metric: its largest change among the points where it was decided in its direction.
    struct Change {
        QString metric;
        Verdict verdict = Verdict::Undecided;
        double relative = 0; ///< at `at`
        double ratio = 1; ///< B / A at `at`
        double least = 0; ///< the smallest |relative| among `points`
        QString at; ///< the point of the largest change
        QStringList points; ///< every point where the metric was decided this way, in the rows' order
    };
    /// At most kConclusionChanges: the success rate, then throughput, TTFT, decode and tail figures, one
    /// metric each (the first decided of its family in the order of conclusionMetrics()).
    QList<Change> changes;
    int points = 0; ///< matched points
    int decided = 0, noise = 0, undecided = 0, notComparable = 0; ///< rows
    int minRepeats = 0; ///< the fewest repeats of either side at any point
    double worstFailedShare = 0; ///< B's failed share where its failures rose (largest), 0 when none did
    /// The error class (records.h code) most of B's failures had where they rose; empty when unknown.
    QString failureClass;
};

inline constexpr int kConclusionChanges = 3;

/// The metrics a conclusion names, in the order their families are named.
const QStringList &conclusionMetrics();

/// One conclusion per variant of `rows`, in their order of first appearance.
QList<Conclusion> concludeVariants(const QList<DeltaRow> &rows);

/// The machine line of a conclusion (never translated): "OUTCOME\tmetric +12.3% at c16 (c4,c16); …".
QString conclusionChanges(const Conclusion &c);

} // namespace ServeScope
