// SPDX-License-Identifier: MIT
#include "compare/rerunnoise.h"

#include "storage/projectstore.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ServeScope {

RerunNoise rerunNoise(const QList<RunSource> &reruns, const NoiseFloors &defaults, double floorAtLeast)
{
    RerunNoise out;
    out.floors = defaults;
    out.runs = int(reruns.size());
    std::map<NoiseFamily, double> largest;
    for (qsizetype i = 1; i < reruns.size(); ++i) {
        const RunSource &a = reruns[i - 1], &b = reruns[i];
        ++out.pairs;
        for (const DeltaRow &r : deltaTable(a.points, b.points, matchPoints(a.points, b.points), headlineMetrics())) {
            const NoiseFamily family = noiseFamily(r.metric);
            if (family == NoiseFamily::Success || r.blank() || !std::isfinite(r.relative))
                continue;
            // What timing jitter explains, and percentiles of too few requests for an interval (judged by
            // the tail's floor), say nothing of the family's run-to-run noise.
            const bool latency = r.metric.endsWith(QLatin1String("_ms"));
            if (latency
                && (std::abs(r.change) < kJitterMs
                    || (!r.metric.startsWith(QLatin1String("mean_")) && (!r.a.ci.valid || !r.b.ci.valid))))
                continue;
            // The medians of n repeats a side vary sqrt(n) times less than single runs.
            const double n = std::min(r.a.repeats.n, r.b.repeats.n);
            const double single = std::abs(r.relative) * std::sqrt(std::max(1.0, n));
            largest[family] = std::max(largest[family], single);
        }
    }
    for (const auto &[family, seen] : largest) {
        const double refined = std::max(floorAtLeast, kRerunMargin * seen);
        double *floor = family == NoiseFamily::Ttft ? &out.floors.ttft
            : family == NoiseFamily::Decode         ? &out.floors.decode
            : family == NoiseFamily::Tail           ? &out.floors.tail
                                                    : &out.floors.throughput;
        *floor = out.pairs >= kRerunPairsToLower ? refined : std::max(*floor, refined);
    }
    return out;
}

RerunNoise projectRerunNoise(const QString &projectPath, const QString &baselineSpec, const QStringList &excludeSpecs)
{
    RerunNoise none;
    none.floors = defaultNoiseFloors();
    ProjectStore store;
    QVector<RunListing> listing;
    if (!store.open(projectPath, ProjectStore::Check::Header, ProjectStore::Follow::Snapshot)
        || !store.listRuns(&listing))
        return none;
    const qint64 baselineRun = store.resolveRun(baselineSpec);
    QList<qint64> exclude;
    for (const QString &spec : excludeSpecs)
        exclude << store.resolveRun(spec);
    const std::optional<RunRow> baseline = baselineRun > 0 ? store.run(baselineRun) : std::nullopt;
    if (!baseline || baseline->resolvedConfig.isEmpty())
        return none;
    QList<qint64> ids;
    for (const RunListing &l : std::as_const(listing)) {
        const RunStatus status = l.run.status;
        if (exclude.contains(l.run.id) || (status != RunStatus::Finished && status != RunStatus::Interrupted))
            continue;
        if (l.run.id == baselineRun) {
            ids << l.run.id;
            continue;
        }
        if (const std::optional<RunRow> row = store.run(l.run.id);
            row && row->resolvedConfig == baseline->resolvedConfig)
            ids << l.run.id;
    }
    store.close();
    if (ids.size() < 2)
        return none;
    QList<RunSource> reruns;
    for (qint64 id : std::as_const(ids)) {
        RunSource source;
        QString error;
        if (loadStoredRun(projectPath, QString::number(id), &source, &error))
            reruns << source;
    }
    return rerunNoise(reruns);
}

} // namespace ServeScope
