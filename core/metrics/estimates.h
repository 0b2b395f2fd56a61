// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/definitions.h"
#include "metrics/intervals.h"
#include "metrics/repeats.h"
#include "metrics/requestmetrics.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace ServeScope {

/// Per-request values of one successful measured request, in seconds.
struct RequestSample {
    double ttft = 0, e2el = 0;
    double tpot = std::numeric_limits<double>::quiet_NaN(); ///< NaN with a single output token
    double ttfo = std::numeric_limits<double>::quiet_NaN(); ///< NaN when the request never answered
    /// Its inter-token latencies in ns (4 bytes each while they fit; a result file's seconds to the
    /// nearest ns, as its import stores them), shared by the copies of one request's sample (a point's
    /// set and its steady window's), so a request's gaps are held once however many sets count it.
    NsList itlNs;

    /// The gaps in seconds (nsToSeconds of each), as a point's summary computes with them.
    std::vector<double> itlSeconds() const;
};

/// The sample of a stored record under a definitions profile; nullopt for a request that does not count.
std::optional<RequestSample> requestSample(const RequestRecord &record, DefinitionsProfile profile);

/// Every result-file key of a summary ("output_throughput", "p99_ttft_ms", "success_rate", ...).
QMap<QString, double> summaryValues(const PointSummary &summary);

/// A latency key's statistic and metric: "p99_ttft_ms" is ("p99", "ttft"); false for any other key.
bool splitLatencyKey(const QString &key, QString *stat, QString *metric);

/// A headline metric of one point: the median across repeats with its spread, and a 95% interval.
struct MetricEstimate {
    QString key;
    RepeatStat repeats;
    Interval ci;
    /// "order-statistic" (medians, percentiles), "bootstrap" or "normal" (means over requests, by
    /// their number: clusterMeanInterval()), "repeat-range"
    /// (throughputs and success rate: min..max across repeats, a distribution-free interval for
    /// their median), or empty when there is none.
    QString method;
};

/// One (variant, point) of a run with all its repeats, read from a project or a results folder.
struct PointRepeats : PointKey {
    QList<QMap<QString, double>> repeats; ///< per repeat: result-file key -> value
    std::vector<RequestSample> samples; ///< measured successful requests, pooled across repeats
    /// Estimates stored when the point finished, by key: estimateMetric() reads these, not the samples.
    QMap<QString, MetricEstimate> stored;
    /// Only a file's statistics are known (an imported file without per-request arrays): its figures
    /// are shown, but no change against it is decided.
    bool statisticsOnly = false;
    /// How its measured requests failed: error class code (records.h) -> count over the repeats; empty
    /// when none failed or the side does not say (a results folder).
    QMap<QString, int> failures;
};

/// The metrics a comparison shows by default: throughputs, success rate, mean/median/p90/p99 of
/// TTFT, TPOT, ITL and E2EL.
QStringList headlineMetrics();
/// A multi_turn point's keys a comparison shows beside the headline (PointSummary::turns): first turns' and later
/// turns' median TTFT, and the later turns' prefix-cache hit rate.
QStringList turnMetrics();
/// For a key PointSummary::turns may hold ("first_turn_median_ttft_ms", "later_turn_cache_hit_rate", …) its figure
/// ("median_ttft_ms") and, in *first, whether it is the first turns'; empty for any other key.
QString turnFigure(const QString &key, bool *first = nullptr);
inline bool isTurnKey(const QString &key)
{
    return !turnFigure(key).isEmpty();
}
/// Latencies are better lower; throughputs and success rates higher.
bool lowerIsBetter(const QString &key);
/// Estimate of one key at one point; the bootstrap seed derives from the key, so it is repeatable.
MetricEstimate estimateMetric(const PointRepeats &point, const QString &key);

/// The estimate as stored with the run's aggregates.
PointEstimate storedEstimate(qint64 runId, const PointRepeats &point, const MetricEstimate &estimate);
/// Back from storage: the estimate a report or table reads (no request samples needed).
MetricEstimate metricEstimate(const PointEstimate &stored);
/// The statistics across repeats of every key a point's repeats hold: the stored estimates where
/// there are some, the rest from the repeats' values (keys without a value are left out).
QMap<QString, RepeatStat> repeatStats(const QList<PointEstimate> &stored, const QList<QMap<QString, double>> &repeats);
/// Of the headline metrics in `stats`, the one whose repeats spread widest ((max − min) / median);
/// empty when there is none.
QString widestSpread(const QMap<QString, RepeatStat> &stats);

/// Spread across repeats above which a point's metric is "not reproducible at this point".
constexpr double kReproducibleSpread = 0.05;
/// Whether the repeats of a metric agree: CV and (max - min) / median both within the limit.
bool reproducible(const RepeatStat &s, double limit = kReproducibleSpread);
/// The samples of a point's records: every measured request that counts under `profile`.
std::vector<RequestSample> requestSamples(std::span<const RequestRecord> records, DefinitionsProfile profile);
/// A point's samples (requestSamples) and those of its requests that started inside its steady
/// window (`steady`: its summary's steady set; window edges from the first measured start; none
/// when the window is not valid), sharing each request's ITLs.
struct PointSamples {
    std::vector<RequestSample> all, steady;
};
PointSamples pointSamples(
    std::span<const RequestRecord> records, const QMap<QString, double> &steady, DefinitionsProfile profile);
/// One more repeat of a point: its key, its result-file values and its measured requests' samples.
void addRepeat(PointRepeats *point, const PointSummary &summary, const std::vector<RequestSample> &samples);
/// The same, the samples moved in rather than copied (a point of many requests holds them once).
void addRepeat(PointRepeats *point, const PointSummary &summary, std::vector<RequestSample> &&samples);
/// The same for the steady window's set: the repeat's `summary.steady` and its steadySamples(); a
/// repeat without a valid window is left out, as comparisons of that set leave it out.
void addSteadyRepeat(PointRepeats *point, const PointSummary &summary, const std::vector<RequestSample> &samples);
/// Every headline metric of a point across its repeats (and TTFO's mean, median, p90 and p99 when a
/// repeat reasoned): the estimates stored when the point finishes — by a run, an import or a merge —
/// and the not-reproducible finding lines (with two repeats or more).
struct RepeatEstimates {
    QList<PointEstimate> stored;
    QStringList findings;
};
RepeatEstimates estimateRepeats(qint64 runId, const PointRepeats &point);
/// The steady window's set of a point (its repeats' `summary.steady` with a valid window and the
/// requests started inside it): its headline estimates, stored beside vLLM's under
/// steadyEstimateKey() so a comparison of that set reads no request either. Empty when no repeat
/// has a valid window.
QList<PointEstimate> estimateSteady(qint64 runId, const PointRepeats &steady);
/// "servescope_steady_p99_ttft_ms": a steady-set estimate's key in `point_estimates`, as the steady
/// figures are named in result files.
QString steadyEstimateKey(const QString &key);
/// The key of a stored estimate of the steady set without its prefix; empty for vLLM's set.
QString steadyKeyOf(const QString &storedKey);
/// The run's `finding` line for an estimate whose repeats spread too far ("baseline c8: not-reproducible
/// p99_ttft_ms (spread 12.0%, cv 5.1% over 3 repeats)"); empty when it is reproducible.
QString notReproducibleLine(const PointRepeats &point, const MetricEstimate &estimate);

} // namespace ServeScope
