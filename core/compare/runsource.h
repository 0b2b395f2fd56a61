// SPDX-License-Identifier: MIT
#pragma once

#include "compare/delta.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace ServeScope {

/// One side of a comparison: a run stored in a project, or a results folder of `run --out-dir`
/// (kept in git beside the experiment), reduced to its points with every repeat and the pooled
/// per-request samples.
struct RunSource {
    QString name; ///< the run's name
    QString origin; ///< "project FILE run ID" or the folder
    QString definitions;
    /// conventionOf(): how its figures are defined (ServeScope's profile, or the tool it was imported from).
    QString convention = QStringLiteral("vllm");
    bool measured = true; ///< measured by ServeScope: its requests hold every event
    QJsonObject clientHost;
    QJsonArray envSnapshot; ///< [[key, value, source], ...]
    QList<PointRepeats> points;
    /// load.capacity: each variant's search (a results folder's from its manifest.json `capacity`).
    QList<CapacityResult> capacities;
    /// Per variant with a server.gpu_hour_price: the price of an hour of all its GPUs (the price ×
    /// servingGpus()), from which a comparison states what a million output tokens cost.
    QMap<QString, double> hourPrice;
};

/// Which result set a comparison reads (docs/metrics.md, "Two result sets"): vLLM's over every
/// measured request, or the steady window's (requests started inside it; repeats without a valid
/// window are left out).
enum class ResultSet { Vllm, Steady };
QString resultSetCode(ResultSet set); ///< "vllm", "steady"
bool resultSetFromCode(const QString &code, ResultSet *out);
/// The headline metrics a set holds: the steady set has no total-token throughput or success rate.
/// With `reasoning`, TTFO's (mean, median, p90, p99) after TTFT's.
QStringList headlineMetrics(ResultSet set, bool reasoning = false, bool sessions = false);
/// Whether a point of `run` produced reasoning tokens: its comparisons show TTFO beside TTFT.
bool reasoned(const RunSource &run);
/// True when a point of the run measured multi_turn sessions (its repeats carry turnMetrics()).
bool ranSessions(const RunSource &run);

/// As one of the `keys` of the loaders below: every point's request samples are read, whatever is stored.
inline constexpr char kEveryRequest[] = "requests";

/// RUN|DIR: a folder holding manifest.json is a results folder; anything else names a run (id or
/// unique name) of `projectPath`. False with *error on a missing run, folder or file.
/// A stored run's vLLM set carries the estimates stored when each point finished
/// (PointRepeats::stored); its requests are read only when a point lacks the estimate of a headline
/// metric or of one of `keys`, or for the steady set.
bool loadRunSource(const QString &spec, const QString &projectPath, RunSource *out, QString *error,
    ResultSet set = ResultSet::Vllm, const QStringList &keys = {});
bool loadStoredRun(const QString &projectPath, const QString &run, RunSource *out, QString *error,
    ResultSet set = ResultSet::Vllm, const QStringList &keys = {});
/// Both result sets of a stored run from one read of its rows (either pointer may be null).
bool loadStoredRunSets(const QString &projectPath, const QString &run, RunSource *vllm, RunSource *steady,
    QString *error, const QStringList &keys = {});
bool loadResultsFolder(const QString &dir, RunSource *out, QString *error, ResultSet set = ResultSet::Vllm);

/// One row per variant both sides searched the capacity of (metric and label "capacity"; the
/// interval is the search's bracket), `variantB` of b against `variantA` of a, or every variant by
/// name when both are empty.
QList<DeltaRow> capacityRows(const RunSource &a, const RunSource &b, double practicalThreshold = kReproducibleSpread,
    const QString &variantA = {}, const QString &variantB = {});

/// One cost row (kCostKey) per output-throughput row of `rows` whose variant has a price on both
/// sides (`variantA` of a and `variantB` of b, or the row's variant when empty): the cost of a million
/// output tokens at each side's throughput, its change and verdict (lower is better; a throughput row
/// without a verdict for differing definitions leaves its cost row without one too).
QList<DeltaRow> costRows(const RunSource &a, const RunSource &b, const QList<DeltaRow> &rows,
    double practicalThreshold = kReproducibleSpread, const QString &variantA = {}, const QString &variantB = {});

/// Keeps only one variant's points; false when the source has no such variant.
bool keepVariant(RunSource *source, const QString &variant);

/// The comparisons a report of these runs states: every later run against the first (variants
/// matched by name), or for one run every variant against its first. Unmatched points are left out.
/// Runs of different conventions carry their definitions, and the rows of families not comparable
/// as published have no verdict (comparedDefinitions()).
/// `floors` (and the `rerunPairs` they were refined from, rerunnoise.h) judge every row.
QList<DeltaSection> deltaSections(const QList<RunSource> &runs, ResultSet set = ResultSet::Vllm,
    const NoiseFloors &floors = defaultNoiseFloors(), int rerunPairs = 0);

/// compareDefinitions() of two sides' conventions.
QList<DefinitionRow> comparedDefinitions(const RunSource &a, const RunSource &b);

/// A rerun checked against the run it repeats (`run --check-against`, the window's *Rerun to
/// check*): per point of the earlier run, `agree` when every headline metric agrees (agrees(): within
/// 5% or within noise), `differ` with the metrics that do not, or `missing` from the rerun; and how
/// the environments differ.
struct RerunCheck {
    struct Point {
        QString variant, label;
        QString outcome; ///< "agree", "differ" or "missing" (machine words)
        QStringList differing; ///< "median_ttft_ms +7.2%", in the headline metrics' order
    };
    QList<Point> points;
    QStringList environment; ///< environmentDifferences(earlier, now)
    int extraPoints = 0; ///< points of the rerun the earlier run does not have
    /// Every point agrees, none is missing and the rerun has no other point.
    bool allAgree() const;
};
RerunCheck checkRerun(const RunSource &earlier, const RunSource &now);

/// Differences between two sources' environment snapshots and client hosts, one "key: a -> b" each
/// (keys present on one side only say "(none)").
QStringList environmentDifferences(const RunSource &a, const RunSource &b);

/// A point just measured against the same point of an earlier run (the Run page's live baseline,
/// `run --vs`), by deltaTable() as every comparison. `outcome` (machine words): `worse` when more of
/// its requests failed, whatever else; `better` or `worse` when the headline metrics with a verdict
/// all go that way, `mixed` when some are better and some worse, `noise` when none is decided,
/// `missing` when the earlier run has no such point.
struct PointVerdict {
    QString variant, label;
    QString outcome;
    /// The headline metrics with a verdict (better or worse): the success rate first, then in the headline order.
    QList<DeltaRow> rows;
    bool oneRun = false; ///< a side has a single repeat: changes below the noise floors cannot be told
    NoiseFloors floors = defaultNoiseFloors(); ///< the floors it was judged by
    /// The rows in machine words: "median_ttft_ms +7.2% worse".
    QStringList changes() const;
};
/// `now` (its estimates in `stored`) against `earlier`'s matching point (matchPoints()); `convention`
/// is how `now` is defined (conventionOf()), so families defined differently give no verdict.
PointVerdict pointVerdict(const RunSource &earlier, const PointRepeats &now, const QString &convention,
    const NoiseFloors &floors = defaultNoiseFloors());
/// The earlier run's point that `key` matches (matchPoints()), or null.
const PointRepeats *matchingPoint(const RunSource &earlier, const PointKey &key);

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::PointVerdict)
