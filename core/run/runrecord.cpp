// SPDX-License-Identifier: MIT
#include "runrecord.h"

#include "io/experimentfile.h"

#include <cmath>
#include <QDateTime>
#include <QJsonDocument>

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
    m.insert(QStringLiteral("completed"), result.completed);
    m.insert(QStringLiteral("failed"), result.failed);
    m.insert(QStringLiteral("cancelled"), result.cancelled);
    return m;
}

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

} // namespace ServeScope
