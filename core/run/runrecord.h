// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "run/runtypes.h"
#include "storage/storetypes.h"

#include <QJsonArray>
#include <QJsonObject>

#include <optional>

namespace ServeScope {

class RunOutput;
class StoreWriter;

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
/// The indexes of the variants named in `names` (all when empty), in the experiment's order;
/// empty with *error when a name is unknown or nothing is left to run.
QList<int> selectVariants(const Experiment &experiment, const QStringList &names, QString *error);
/// Whether the disk of `projectPath` holds a run of `variants` variants (estimatedRunBytes): an error
/// when it cannot, a warning when it takes more than half of what is free. Asked before the project or
/// the results folder is opened, so a refused run sends nothing and creates no file.
struct DiskSpaceVerdict {
    QString error, warning;
};
DiskSpaceVerdict checkDiskSpace(const Experiment &experiment, int variants, const QString &projectPath);
/// Records a new run of `variants` (indexes) in an open project writer; 0 and *error when it cannot.
/// Sets `*identity`.
qint64 recordRun(StoreWriter &writer, const Experiment &experiment, const RunOptions &options,
    const QList<int> &variants, RunIdentity *identity, QString *error);
/// A run's status and message once its load has ended: failed when the project could not store it
/// (`storageFailure`, with the requests kept), cancelled, failed when a variant could not run
/// (`ok` false, message already set) or nothing succeeded (but a capacity search answered by reused levels
/// alone sent nothing: finished); otherwise as it is.
void settleRunStatus(
    RunResult *result, bool ok, bool cancelled, const std::optional<QString> &storageFailure, quint64 keptRequests);
/// Ends a run's record once its load has ended: the results folder's manifest, what the servers
/// answered added to the env snapshot, and the run's row with its status, waited for until
/// committed. A finished run whose results folder is incomplete, or whose end did not go through
/// (which would leave it reading `running`), becomes failed. Returns the lines for the run's log.
QStringList closeRun(StoreWriter &writer, RunOutput &output, Experiment &experiment, const RunIdentity &identity,
    const QMap<QString, QPair<QString, QString>> &answered, RunResult *result);

} // namespace ServeScope
