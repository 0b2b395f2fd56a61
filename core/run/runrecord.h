// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "run/runtypes.h"
#include "storage/storetypes.h"

#include <QJsonArray>
#include <QJsonObject>

namespace ServeScope {

/// What a run says about itself, in the project and in its results folder.
struct RunIdentity {
    QString name;
    QString started; ///< ISO-8601 UTC
    QStringList variants; ///< the variants that run, in order
    QJsonObject clientHost;
    QStringList simulatorArguments; ///< of the last simulator started, when the endpoint is `sim:`
};

/// The environment snapshot as stored and written: `[[key, value, source], ...]`.
QJsonArray envSnapshotJson(const Experiment &experiment);
/// The run's row in the project: the experiment as run (never a key), variants, client host, env snapshot.
RunRow newRunRow(const Experiment &experiment, const RunIdentity &identity);
/// What a run of `variants` variants of the experiment adds to its project file, in bytes (a rough
/// upper estimate from the planned requests and their lengths, docs/project-file.md#disk-space);
/// a point limited by time alone counts one request per second per slot or its request rate.
qint64 estimatedRunBytes(const Experiment &experiment, int variants);
/// The identity a run starts with, now: its name (the given one, else the experiment's and the start
/// time), the client host (with a simulator's time scale and the shard), the variants in order.
RunIdentity newRunIdentity(const Experiment &experiment, const RunOptions &options, const QStringList &variants);
/// Whether the disk of `projectPath` holds the run (estimatedRunBytes): an error when it cannot
/// (nothing may be sent), a warning when it takes more than half of what is free; both empty when it
/// fits or the free space is unknown.
struct DiskSpaceVerdict {
    QString error, warning;
};
DiskSpaceVerdict checkDiskSpace(const Experiment &experiment, int variants, const QString &projectPath);
/// Adds what the servers answered with (per variant: served_model, system_fingerprint) to the env
/// snapshot: one entry when every variant's server said the same, else one per variant; it
/// replaces what was typed or captured under the same name.
void addAnswered(QList<EnvEntry> *envSnapshot, const QMap<QString, QPair<QString, QString>> &answered);
/// `manifest.json` of the results folder, with the run's status and totals.
QJsonObject runManifest(
    const Experiment &experiment, const RunIdentity &identity, const RunResult &result, const QString &status);

} // namespace ServeScope
