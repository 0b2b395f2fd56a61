// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"
#include "model/records.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// One shard's stored run: a project file and a run in it (empty: its latest run).
struct ShardSource {
    QString projectPath;
    QString run;
};

/// What `servescope-cli merge` made of a set of shard runs (docs/shards.md).
struct ShardMerge {
    bool ok = false;
    QString error; ///< why the shards were refused or the merged run not written
    qint64 runId = 0; ///< the merged run in the target project
    int shards = 0;
    double startSpreadMs = 0; ///< latest minus earliest first measured request of the shards, in UTC
    /// The same spread at the point (any variant, point, repeat) where it is widest, and that point
    /// ("VARIANT LABEL rN"); later points start together only with `--point-slot`.
    double pointSpreadMs = 0;
    QString pointSpreadAt;
    double pointSlotS = 0; ///< the shards' `--point-slot`, 0 without
    /// "shard-start-spread ...", "shard-point-start-spread ..." and "clock-unsynchronized ..." lines,
    /// each starting with its code (context "ServeScope::Merge")
    QList<Reason> findings;
    QStringList findingTexts() const; ///< C locale: what the CLI prints and the merged run records
    QList<PointSummary> points;
    int completed = 0, failed = 0;
};

/// Start spreads beyond this are flagged: a point's load then ramps up unevenly across shards.
inline constexpr double kShardSkewBoundMs = 50.0;

/// Reads every shard run, checks they are the N shards of one configuration, and writes one run to
/// `targetProject` with their records on one time base and aggregates recomputed over the union.
ShardMerge mergeShards(const QList<ShardSource> &sources, const QString &targetProject, const QString &runName);

} // namespace ServeScope
