// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/estimates.h"
#include "metrics/findings.h"
#include "metrics/intervals.h"
#include "model/experiment.h"
#include "model/records.h"

#include <QList>
#include <QString>

#include <limits>
#include <optional>
#include <vector>

namespace ServeScope {

/// Whether a level meets the SLOs. Undecided: an interval straddles a bound.
enum class SloVerdict : qint8 { Fails = -1, Undecided = 0, Meets = 1 };

/// One SLO (or the attainment, metric "attainment") read at one level.
struct SloReading {
    QString key; ///< "p90_ttft_ms", or "attainment"
    double value = 0; ///< ms; a share (0..1) for the attainment
    double bound = 0;
    Interval ci; ///< 95%: order statistics for a percentile, Wilson for the attainment
    SloVerdict verdict = SloVerdict::Undecided;
};

/// One load level of a capacity search, its repeats pooled.
struct CapacityLevel {
    double load = 0; ///< concurrency, or requests/s
    int point = -1; ///< index of the run's point it was measured as; -1: reused, never measured in this run
    int repeats = 0;
    qint64 attempted = 0, failed = 0;
    QList<SloReading> readings;
    SloVerdict verdict = SloVerdict::Undecided;
    /// True when the verdict was taken from the estimates after max_repeats left it undecided.
    bool byEstimate = false;
};

/// Judges `level` (its attempted and failed counts set) on its successful requests `pooled`: each SLO's reading
/// with its 95% interval and verdict, the attainment's when the search has one, and the level's verdict (more than
/// 1% failed misses). Undecided stays undecided (the searcher then repeats the level or lets its estimates decide).
/// A reading too thin for an interval is judged by its estimate, or with `needIntervals` (a level still running)
/// left undecided.
void judgeLevel(
    const CapacitySearch &spec, CapacityLevel &level, const std::vector<RequestSample> &pooled, bool needIntervals);

/// The search for one variant: which level to measure next, from every measurement so far.
/// Brackets by doubling (or halving) from `start`, then refines inside the bracket, alternately at
/// the level where a line through the bracket's two readings crosses the tightest SLO (kept within
/// the bracket's middle 60%) and at its midpoint, until the bracket is narrower than the resolution. A level whose
/// interval straddles an SLO is measured again, up to max_repeats. Levels are assumed monotone:
/// the bracket is the largest level that meets below the smallest that fails.
class CapacitySearcher {
public:
    CapacitySearcher(const CapacitySearch &spec, LoadMode mode);

    /// One measurement (repeat) of `load`, run as point `point`: its successful requests and how
    /// many were sent in all. Requests are pooled with the level's earlier repeats.
    void add(double load, int point, const std::vector<RequestSample> &samples, qint64 attempted);
    /// A level an earlier run measured, judged by this search's SLOs: it counts as known, not as
    /// measured (neither in `measurements` nor against max_points). Only a decided level may be
    /// reused: its requests cannot be pooled with a repeat (judgeLevel() says which).
    void reuse(double load, const std::vector<RequestSample> &samples, qint64 attempted);

    struct Next {
        bool done = false;
        double load = 0; ///< the level to measure next (when not done)
        bool repeat = false; ///< it was measured already and is undecided
        QString stop; ///< when done: CapacityResult::stop
    };
    /// The next level, or done. `outOfTime`: the time cap has passed.
    Next next(bool outOfTime = false);

    /// The result so far; `stop` as returned by next() (or "cancelled" when given).
    CapacityResult result(const QString &variant, const QString &stop) const;
    /// The levels measured, by load.
    const QList<CapacityLevel> &levels() const { return m_levels; }
    /// A level's readings as one line: "p90_ttft_ms 412 (388..441) <= 500 meets; ...".
    static QString describe(const CapacityLevel &level);

private:
    CapacityLevel *levelAt(double load);
    /// Levels taken from an earlier run and not measured in this one (point -1).
    int reusedLevels() const;
    void judge(CapacityLevel &level, const std::vector<RequestSample> &pooled);
    void settle(CapacityLevel &level);
    double roundLevel(double load) const;
    double refine(const CapacityLevel &low, const CapacityLevel &high) const;
    double midpoint(const CapacityLevel &low, const CapacityLevel &high) const;
    /// The largest level that meets the SLOs below the smallest that misses them (either may be null).
    std::pair<const CapacityLevel *, const CapacityLevel *> bracket() const;
    bool converged(double low, double high) const;

    CapacitySearch m_spec;
    LoadMode m_mode;
    QList<CapacityLevel> m_levels; ///< sorted by load
    double m_last = 0; ///< the level measured last
    std::vector<RequestSample> m_pooled; ///< the last level's requests, while it may be repeated
    int m_measurements = 0;
    int m_refinements = 0;
};

/// The stored form of a result: one point estimate of point -1, metric kCapacityKey (median: the
/// capacity; ci: capacity..upper, upper 0 for none; repeats: levels measured; method "capacity-<stop>").
inline constexpr char kCapacityKey[] = "servescope_capacity";
PointEstimate storedCapacity(qint64 runId, const CapacityResult &result);
std::optional<CapacityResult> capacityOf(const PointEstimate &stored);
/// The capacity as a comparison row reads it: median the capacity, interval capacity..upper (none when
/// the upper end is open).
MetricEstimate capacityEstimate(const CapacityResult &result);

/// The result as a run finding (code "capacity", Info): evidence capacity, upper (-1: none missed),
/// levels, rate (1 for a request-rate search); points: the capacity's and the next level's labels.
RunFinding capacityFinding(const CapacityResult &result, LoadMode mode);

/// "capacity 12 (12..14, converged after 6 levels)": the CLI's and log's words for a result.
QString capacitySentence(const CapacityResult &result, LoadMode mode);

} // namespace ServeScope
