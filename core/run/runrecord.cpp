// SPDX-License-Identifier: MIT
#include "runrecord.h"

#include "io/experimentfile.h"
#include "run/clienthost.h"
#include "run/runoutput.h"
#include "run/runtext.h"
#include "run/shard.h"
#include "storage/storewriter.h"

#include <cmath>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStorageInfo>

namespace ServeScope {

QJsonArray envSnapshotJson(const Experiment &experiment)
{
    QJsonArray env;
    for (const EnvEntry &e : experiment.envSnapshot)
        env.append(QJsonArray { e.key, e.value, envSourceName(e.source) });
    return env;
}

RunRow newRunRow(const Experiment &experiment, const RunIdentity &identity)
{
    RunRow row;
    row.name = identity.name;
    row.started = QDateTime::currentDateTimeUtc();
    // The experiment JSON names the key's variable or keychain entry, never the key.
    row.resolvedConfig = serializeExperiment(experiment);
    row.definitions = definitionsName(experiment.metrics.definitions);
    row.variants = identity.variants;
    row.points = int(experiment.load.points.size());
    row.clientHost = QJsonDocument(identity.clientHost).toJson(QJsonDocument::Compact);
    row.envSnapshot = QJsonDocument(envSnapshotJson(experiment)).toJson(QJsonDocument::Compact);
    return row;
}

namespace {

// `manifest.json` of the results folder, with the run's status and totals.
QJsonObject runManifest(
    const Experiment &experiment, const RunIdentity &identity, const RunResult &result, const QString &status)
{
    QJsonObject m;
    m.insert(QStringLiteral("servescope_version"), QStringLiteral(SERVESCOPE_VERSION));
    m.insert(QStringLiteral("run_id"), double(result.runId));
    m.insert(QStringLiteral("status"), status);
    m.insert(QStringLiteral("started"), identity.started);
    m.insert(QStringLiteral("finished"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    m.insert(QStringLiteral("definitions"), definitionsName(experiment.metrics.definitions));
    m.insert(QStringLiteral("experiment"), QJsonDocument::fromJson(serializeExperiment(experiment)).object());
    m.insert(QStringLiteral("env_snapshot"), envSnapshotJson(experiment));
    m.insert(QStringLiteral("client_host"), identity.clientHost);
    if (!identity.simulatorArguments.isEmpty())
        m.insert(QStringLiteral("simulator_arguments"), QJsonArray::fromStringList(identity.simulatorArguments));
    // load.capacity: what each variant's search found, so a results folder gates on it as a project does.
    QJsonArray capacities;
    for (const CapacityResult &c : result.capacities)
        capacities.append(
            QJsonObject { { QStringLiteral("variant"), c.variant }, { QStringLiteral("capacity"), c.capacity },
                { QStringLiteral("next_failing"), std::isfinite(c.upper) ? QJsonValue(c.upper) : QJsonValue() },
                { QStringLiteral("stop"), c.stop }, { QStringLiteral("levels"), c.levels },
                { QStringLiteral("measurements"), c.measurements }, { QStringLiteral("reused"), c.reused } });
    if (!capacities.isEmpty())
        m.insert(QStringLiteral("capacity"), capacities);
    m.insert(QStringLiteral("completed"), result.completed);
    m.insert(QStringLiteral("failed"), result.failed);
    m.insert(QStringLiteral("cancelled"), result.cancelled);
    return m;
}

} // namespace

qint64 estimatedRunBytes(const Experiment &experiment, int variants)
{
    // Per stored request: the row (~200 bytes), its event blob and generated text (~9 bytes per
    // output token together); per measured prompt, once for every variant: its text and token ids
    // (~10 bytes per input token). Plus the -wal file's default checkpoint size.
    constexpr double kRowBytes = 200, kPerOutputToken = 9, kPerInputToken = 10;
    constexpr qint64 kWalBytes = 8 << 20;
    const LoadMatrix &load = experiment.load;
    double bytes = 0;
    for (int i = 0; i < load.points.size(); ++i) {
        const LoadPoint &p = load.points[i];
        double n = p.numPrompts;
        if (n <= 0) {
            const PointKey key = pointKey(experiment, i);
            const double perSecond = key.requestRate > 0 && std::isfinite(key.requestRate)
                ? key.requestRate
                : std::max(1, key.concurrency);
            n = perSecond * p.maxSeconds;
        }
        n += load.warmupRequests;
        bytes += std::max(1, load.repeat) * n
            * (variants * (kRowBytes + kPerOutputToken * std::max(1, p.outputLen)) + kPerInputToken * p.inputLen);
    }
    return qint64(bytes) + kWalBytes;
}

namespace {

// Adds what the servers answered with (per variant: served_model, system_fingerprint) to the env
// snapshot: one entry when every variant's server said the same, else one per variant; it
// replaces what was typed or captured under the same name.
void addAnswered(QList<EnvEntry> *envSnapshot, const QMap<QString, QPair<QString, QString>> &answered)
{
    for (const auto &[key, pick] : { std::pair { QStringLiteral("served_model"), &QPair<QString, QString>::first },
             std::pair { QStringLiteral("system_fingerprint"), &QPair<QString, QString>::second } }) {
        QMap<QString, QString> byVariant;
        for (auto it = answered.cbegin(); it != answered.cend(); ++it) {
            if (!((*it).*pick).isEmpty())
                byVariant.insert(it.key(), (*it).*pick);
        }
        QStringList values = byVariant.values();
        values.removeDuplicates();
        if (!byVariant.isEmpty())
            envSnapshot->removeIf(
                [&key](const EnvEntry &e) { return e.key == key || e.key.startsWith(key + QStringLiteral(" (")); });
        if (values.size() == 1)
            envSnapshot->append({ key, values.first(), EnvSource::Captured });
        else
            for (auto it = byVariant.cbegin(); it != byVariant.cend(); ++it)
                envSnapshot->append({ key + QStringLiteral(" (") + it.key() + u')', *it, EnvSource::Captured });
    }
}

} // namespace

QList<int> selectVariants(const Experiment &experiment, const QStringList &names, QString *error)
{
    for (const QString &name : names) {
        if (experiment.variantIndex(name) < 0) {
            *error = RunText::tr("no variant named '%1'").arg(name);
            return {};
        }
    }
    QList<int> out;
    for (int i = 0; i < experiment.variants.size(); ++i) {
        if (names.isEmpty() || names.contains(experiment.variants[i].name))
            out << i;
    }
    if (out.isEmpty())
        *error = RunText::tr("the experiment has no variants to run");
    return out;
}

namespace {

// The identity a run starts with, now: its name (the given one, else the experiment's and the start
// time), the client host (with a simulator's time scale and the shard), the variants in order.
RunIdentity newRunIdentity(const Experiment &experiment, const RunOptions &options, const QList<int> &variants)
{
    RunIdentity identity;
    identity.started = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    identity.name = options.runName.isEmpty() ? experiment.name + QLatin1Char(' ') + identity.started : options.runName;
    identity.clientHost = clientHostInfo();
    if (experiment.endpoint.isLocalSimulator()) {
        // Every time measured against a time-scaled simulator is that many times shorter: say so
        // wherever the run is shown.
        identity.clientHost.insert(QStringLiteral("simulator_time_scale"), options.simulatorTimeScale);
    }
    if (options.shard.active()) {
        const QJsonObject shard = shardHostInfo(options.shard);
        for (auto it = shard.begin(); it != shard.end(); ++it)
            identity.clientHost.insert(it.key(), it.value());
    }
    for (int v : variants)
        identity.variants << experiment.variants[v].name;
    return identity;
}

} // namespace

DiskSpaceVerdict checkDiskSpace(const Experiment &experiment, int variants, const QString &projectPath)
{
    const qint64 needed = estimatedRunBytes(experiment, variants);
    const qint64 free = QStorageInfo(QFileInfo(projectPath).absolutePath()).bytesAvailable();
    const auto mib = [](qint64 bytes) { return QString::number(double(bytes) / (1 << 20), 'f', 1); };
    DiskSpaceVerdict verdict;
    if (free >= 0 && needed > free)
        verdict.error = RunText::tr("the disk of %1 has %2 MiB free and this run needs about %3 MiB: free space or "
                                    "choose another project file; nothing was sent")
                            .arg(projectPath, mib(free), mib(needed));
    else if (free >= 0 && needed > free / 2)
        verdict.warning = RunText::tr("the disk of %1 has %2 MiB free and this run needs about %3 MiB")
                              .arg(projectPath, mib(free), mib(needed));
    return verdict;
}

qint64 recordRun(StoreWriter &writer, const Experiment &experiment, const RunOptions &options,
    const QList<int> &variants, RunIdentity *identity, QString *error)
{
    *identity = newRunIdentity(experiment, options, variants);
    // The run keeps the configuration it ran with in its own row; the project's editable experiment
    // is only what the user saves, so discarding edits really discards them.
    const qint64 id = writer.createRun(newRunRow(experiment, *identity), error);
    if (id == 0)
        *error = RunText::tr("cannot record the run: %1").arg(*error);
    return id;
}

void settleRunStatus(
    RunResult *result, bool ok, bool cancelled, const std::optional<QString> &storageFailure, quint64 keptRequests)
{
    if (storageFailure) {
        result->status = RunResult::Status::Failed;
        result->message = RunText::tr("the project could not store the run (%1): the load was stopped; %2 "
                                      "requests are kept")
                              .arg(*storageFailure)
                              .arg(keptRequests);
    } else if (cancelled) {
        result->status = RunResult::Status::Cancelled;
        result->message = RunText::tr("cancelled; everything measured so far is kept");
    } else if (!ok) {
        result->status = RunResult::Status::Failed;
    } else if (result->completed == 0 && (!result->points.isEmpty() || result->capacities.isEmpty())) {
        // (A capacity search its reused levels answered sends nothing and is finished.)
        result->status = RunResult::Status::Failed;
        result->message = RunText::tr("no request succeeded");
    }
}

namespace {

RunStatus storedStatus(RunResult::Status status)
{
    switch (status) {
    case RunResult::Status::Finished:
        return RunStatus::Finished;
    case RunResult::Status::Cancelled:
        return RunStatus::Cancelled;
    case RunResult::Status::Failed:
        break;
    }
    return RunStatus::Failed;
}

// A run whose results folder is incomplete is not a success, whatever it measured.
void failOnOutputError(const RunOutput &output, RunResult *result)
{
    if (output.firstError().isEmpty() || result->status != RunResult::Status::Finished)
        return;
    result->status = RunResult::Status::Failed;
    result->message = RunText::tr("the results folder is incomplete: %1").arg(output.firstError());
}

} // namespace

QStringList closeRun(StoreWriter &writer, RunOutput &output, Experiment &experiment, const RunIdentity &identity,
    const QMap<QString, QPair<QString, QString>> &answered, RunResult *result)
{
    QStringList errors;
    failOnOutputError(output, result);
    const qsizetype envBefore = experiment.envSnapshot.size();
    addAnswered(&experiment.envSnapshot, answered);
    QString error;
    if (output.isOpen()
        && !output.writeManifest(
            runManifest(experiment, identity, *result, runStatusCode(storedStatus(result->status))), &error))
        errors << error;
    failOnOutputError(output, result); // the manifest itself may have failed
    const QByteArray env = experiment.envSnapshot.size() == envBefore
        ? QByteArray()
        : QJsonDocument(envSnapshotJson(experiment)).toJson(QJsonDocument::Compact);
    const quint64 failedBefore = writer.failedItems();
    writer.finishRun(result->runId, storedStatus(result->status), QDateTime::currentDateTimeUtc(), env);
    if (!writer.flush(30000) || writer.failedItems() != failedBefore) {
        errors << RunText::tr("storage: the last records could not be committed");
        result->status = RunResult::Status::Failed;
    }
    return errors;
}

} // namespace ServeScope
