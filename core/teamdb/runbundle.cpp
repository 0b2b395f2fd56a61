// SPDX-License-Identifier: MIT
#include "runbundle.h"

#include "storage/projectstore.h"
#include "storage/storewriter.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

namespace ServeScope {

namespace {

// Each field with its length first, so no two different runs give the same bytes.
void addField(QCryptographicHash &hash, const QByteArray &field)
{
    hash.addData(QByteArray(QByteArray::number(field.size()) + ':'));
    hash.addData(field);
}

QString envField(const QByteArray &envSnapshot, const QString &name)
{
    for (const QJsonValue &entry : QJsonDocument::fromJson(envSnapshot).array()) {
        const QJsonArray e = entry.toArray();
        if (e.at(0).toString() == name)
            return e.at(1).toVariant().toString();
    }
    return {};
}

} // namespace

QString stableRunId(const RunRow &run, qint64 requests)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    addField(hash, QByteArrayLiteral("servescope-run-v1"));
    addField(hash, run.started.toUTC().toString(Qt::ISODateWithMs).toUtf8());
    addField(hash, run.finished.isValid() ? run.finished.toUTC().toString(Qt::ISODateWithMs).toUtf8() : QByteArray());
    addField(hash, run.resolvedConfig);
    addField(hash, run.clientHost);
    addField(hash, run.definitions.toUtf8());
    addField(hash, run.variants.join(QLatin1Char('\n')).toUtf8());
    addField(hash, QByteArray::number(run.points));
    addField(hash, QByteArray::number(requests));
    return QString::fromLatin1(hash.result().toHex());
}

RunFacets runFacets(const RunRow &run)
{
    const QJsonObject config = QJsonDocument::fromJson(run.resolvedConfig).object();
    RunFacets f;
    f.experiment = config.value(QStringLiteral("name")).toString();
    f.model = config.value(QStringLiteral("endpoint")).toObject().value(QStringLiteral("model")).toString();
    if (f.model.isEmpty())
        f.model = envField(run.envSnapshot, QStringLiteral("served_model"));
    f.engine = config.value(QStringLiteral("server")).toObject().value(QStringLiteral("engine")).toString();
    if (f.engine.isEmpty())
        f.engine = envField(run.envSnapshot, QStringLiteral("engine"));
    return f;
}

bool readRunBundle(const QString &projectPath, const QString &idOrName, RunBundle *out, QString *error)
{
    ProjectStore store;
    if (!store.open(projectPath, ProjectStore::Check::Full, ProjectStore::Follow::Snapshot)) {
        *error = store.errorString();
        return false;
    }
    const qint64 id = store.resolveRun(idOrName);
    const std::optional<RunRow> row = id > 0 ? store.run(id) : std::nullopt;
    if (!row) {
        *error = store.errorString();
        return false;
    }
    if (row->status == RunStatus::Running) {
        *error = QStringLiteral("run %1 is still running; publish it once it has ended").arg(id);
        return false;
    }
    out->run = *row;
    if (!store.pointSummaries(id, &out->summaries) || !store.pointEstimates(id, &out->estimates)
        || !store.requests(id, RequestFilter {}, &out->requests) || !store.serverMetricSamples(id, &out->samples)
        || !store.serverLogs(id, &out->logs)) {
        *error = QStringLiteral("%1: %2").arg(projectPath, store.errorString());
        return false;
    }
    QSet<PromptHash> seen;
    for (const RequestRecord &r : std::as_const(out->requests)) {
        if (r.promptHash.isEmpty() || seen.contains(r.promptHash))
            continue;
        seen.insert(r.promptHash);
        if (std::optional<PromptRow> p = store.prompt(r.promptHash))
            out->prompts << *p;
    }
    return true;
}

qint64 findLocalRun(const QString &projectPath, const QString &stableId, QString *error)
{
    if (!QFileInfo::exists(projectPath))
        return 0;
    ProjectStore store;
    QVector<RunListing> runs;
    if (!store.open(projectPath, ProjectStore::Check::Full, ProjectStore::Follow::Snapshot) || !store.listRuns(&runs)) {
        *error = store.errorString();
        return -1;
    }
    for (const RunListing &l : std::as_const(runs)) {
        const std::optional<RunRow> row = store.run(l.run.id);
        if (row && stableRunId(*row, l.requests) == stableId)
            return l.run.id;
    }
    return 0;
}

qint64 writeRunBundle(const QString &projectPath, const RunBundle &bundle, QString *error)
{
    StoreWriter writer;
    if (!writer.open(projectPath, error))
        return 0;
    RunRow row = bundle.run;
    row.id = 0;
    row.experimentId = 0; // the run carries its resolved configuration; the experiment row stays behind
    const qint64 id = writer.createRun(row, error);
    if (id == 0)
        return 0;
    for (PromptRow p : bundle.prompts)
        writer.enqueue(std::move(p));
    for (RequestRecord r : bundle.requests) {
        r.runId = id;
        writer.enqueue(std::move(r));
    }
    for (PointSummary s : bundle.summaries) {
        s.runId = id;
        writer.enqueue(std::move(s));
    }
    for (PointEstimate e : bundle.estimates) {
        e.runId = id;
        writer.enqueue(std::move(e));
    }
    for (ServerMetricSample s : bundle.samples) {
        s.runId = id;
        writer.enqueue(std::move(s));
    }
    for (ServerLogLine l : bundle.logs) {
        l.runId = id;
        writer.enqueue(std::move(l));
    }
    writer.finishRun(id, bundle.run.status, bundle.run.finished, bundle.run.envSnapshot);
    const bool ok = writer.flush(120000) && writer.failedItems() == 0;
    writer.close();
    if (!ok) {
        *error = QStringLiteral("run %1 could not be stored whole in %2").arg(id).arg(projectPath);
        return 0;
    }
    return id;
}

} // namespace ServeScope
