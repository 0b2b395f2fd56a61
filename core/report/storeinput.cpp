// SPDX-License-Identifier: MIT
#include "report/storeinput.h"

#include "io/experimentfile.h"
#include "metrics/capacity.h"
#include "metrics/pointsummary.h"
#include "metrics/servingcost.h"
#include "model/runorigin.h"
#include "model/variables.h"
#include "storage/projectstore.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace ServeScope::Report {

namespace {

QString scalarText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isNull() || v.isUndefined())
        return QString();
    return QString::fromUtf8(QJsonDocument(v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject()))
                                 .toJson(QJsonDocument::Compact));
}

// Accepts `[[key, value, source?], ...]` (as runs store it) or a plain object.
// Where an environment entry came from, in the report's language: typed, captured (from the server) or probe.
QString sourceWords(const QString &source)
{
    [[maybe_unused]] static const char *const words[] = { QT_TRANSLATE_NOOP("ServeScope::Report", "typed"),
        QT_TRANSLATE_NOOP("ServeScope::Report", "captured"), QT_TRANSLATE_NOOP("ServeScope::Report", "probe") };
    return QCoreApplication::translate("ServeScope::Report", source.toUtf8().constData());
}

KeyValues keyValues(const QByteArray &json)
{
    KeyValues out;
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    if (doc.isArray()) {
        for (const QJsonValue &e : doc.array()) {
            const QJsonArray a = e.toArray();
            if (a.size() < 2)
                continue;
            QString value = scalarText(a.at(1));
            if (a.size() > 2 && !a.at(2).toString().isEmpty())
                value += QStringLiteral(" (") + sourceWords(a.at(2).toString()) + QLatin1Char(')');
            out.append({ a.at(0).toString(), value });
        }
    } else if (doc.isObject()) {
        const QJsonObject o = doc.object();
        for (auto it = o.begin(); it != o.end(); ++it)
            out.append({ it.key(), scalarText(it.value()) });
    }
    return out;
}

} // namespace

static KeyValues variantChanges(const StoredRun &run)
{
    KeyValues out;
    if (!run.experiment())
        return out;
    const Experiment &x = *run.experiment();
    const int baseline = x.baselineIndex();
    for (int i = 0; i < x.variants.size(); ++i) {
        const Variant &v = x.variants[i];
        if (i == baseline) {
            out.append({ v.name, QCoreApplication::translate("ServeScope::Report", "the baseline") });
            continue;
        }
        QStringList changes;
        for (const VariableDifference &d : diffVariants(x, i))
            changes << QStringLiteral("%1: %2 → %3").arg(d.path, describeValue(d.baseline), describeValue(d.variant));
        if (!v.reason.isEmpty())
            changes << v.reason;
        out.append({ v.name,
            changes.isEmpty() ? QCoreApplication::translate("ServeScope::Report", "no change")
                              : changes.join(QStringLiteral("; ")) });
    }
    return out;
}

QList<ServerExit> serverExits(const QVector<ServerLogLine> &logs)
{
    QList<ServerExit> out;
    for (const ServerLogLine &l : logs) {
        if (l.stream != QLatin1String("exit"))
            continue;
        if (const std::optional<ServerExit> exit = serverExitFromLine(l.line))
            out << *exit;
    }
    return out;
}

namespace {

// The endpoint as every footer names it: the base URL (noting a scaled simulator or an unverified
// certificate), the model and how TLS was verified.
void putEndpoint(ReportRun &r, const RunRow &row, const QJsonObject &config)
{
    const QJsonObject endpoint = config.value(QLatin1String("endpoint")).toObject();
    r.baseUrl = endpoint.value(QLatin1String("base_url")).toString();
    const double timeScale
        = QJsonDocument::fromJson(row.clientHost).object().value(QLatin1String("simulator_time_scale")).toDouble(1);
    if (timeScale != 1)
        r.baseUrl += QCoreApplication::translate("ServeScope::Report", " (simulator at %1x speed: times are scaled)")
                         .arg(timeScale);
    r.model = endpoint.value(QLatin1String("model")).toString();
    if (r.baseUrl.startsWith(QLatin1String("https://"), Qt::CaseInsensitive)) {
        const QString ca = endpoint.value(QLatin1String("ca_file")).toString();
        r.tlsVerify = endpoint.value(QLatin1String("tls_skip_verify")).toBool() ? QStringLiteral("none")
            : ca.isEmpty()                                                      ? QStringLiteral("system")
                                                                                : ca;
        // Every chart footer carries the base URL: an unverified one says so there too.
        if (r.tlsVerify == QLatin1String("none"))
            r.baseUrl += QCoreApplication::translate("ServeScope::Report", " (TLS certificate not verified)");
    }
}

// What the streams said the server ran (the run adds served_model, or one per variant, when it ends).
QString servedModelOf(const KeyValues &envSnapshot)
{
    QString served;
    QStringList perVariant;
    for (const auto &[key, value] : envSnapshot) {
        if (key == QLatin1String("served_model"))
            served = value;
        else if (key.startsWith(QLatin1String("served_model (")))
            perVariant << key.mid(14).chopped(1) + QStringLiteral(": ") + value;
    }
    return served.isEmpty() ? perVariant.join(QStringLiteral(", ")) : served;
}

// How a run that did not finish ended, and that only its completed points are reported.
void putEnded(ReportRun &r, RunStatus status)
{
    const auto endedAs = [](const char *how) {
        return QCoreApplication::translate(
            "ServeScope::Report", "%1 before its end: only the points it completed are reported")
            .arg(QCoreApplication::translate("ServeScope::Report", how));
    };
    if (status == RunStatus::Interrupted)
        r.ended = endedAs(QT_TRANSLATE_NOOP("ServeScope::Report", "interrupted (its process stopped)"));
    else if (status == RunStatus::Cancelled)
        r.ended = endedAs(QT_TRANSLATE_NOOP("ServeScope::Report", "cancelled"));
    else if (status == RunStatus::Failed)
        r.ended = endedAs(QT_TRANSLATE_NOOP("ServeScope::Report", "failed"));
}

// What the experiment planned: each variant's changes and serving, the capacity search, and the prompts
// each point was to send.
void putPlan(ReportRun &r, const StoredRun &run, const Experiment *x)
{
    r.variants = variantChanges(run);
    if (x && x->load.capacity) {
        r.capacitySearch = x->load.capacity;
        r.capacityOver = x->load.mode;
    }
    // The prompts each point was to send, as the variant resolved them: a cancelled point reads
    // completed/planned.
    for (int v = 0; x && v < x->variants.size(); ++v) {
        const Experiment &resolved = *run.variant(v);
        r.serving.insert(x->variants[v].name, VariantServing { servingGpus(resolved), resolved.server.gpuHourPrice });
        for (int i = 0; i < resolved.load.points.size(); ++i) {
            if (resolved.load.points[i].numPrompts > 0)
                r.plannedPrompts.insert(plannedKey(x->variants[v].name, i), qint64(resolved.load.points[i].numPrompts));
        }
    }
}

} // namespace

ReportRun reportRunFromStore(const StoredRun &run, const QList<PointSummary> &points,
    const QList<PointEstimate> &estimates, const QList<ServerExit> &exits)
{
    const RunRow &row = run.row();
    ReportRun r;
    r.id = row.id;
    r.name = row.name;
    r.started = row.started;
    r.finished = row.finished;
    r.definitions = row.definitions;
    const QJsonObject config = QJsonDocument::fromJson(row.resolvedConfig).object();
    putEndpoint(r, row, config);
    r.envSnapshot = keyValues(row.envSnapshot);
    r.servedModel = servedModelOf(r.envSnapshot);
    r.status = runStatusCode(row.status);
    putEnded(r, row.status);
    if (const RunOrigin origin = RunOrigin::fromJson(row.origin); origin.isImported())
        r.origin = origin.note.isEmpty() ? origin.describe() : origin.describe() + QStringLiteral("; ") + origin.note;
    r.clientHost = keyValues(row.clientHost);
    r.points = points;
    // vLLM's set: the steady window's estimates are read by comparisons of that set (runsource).
    for (const PointEstimate &e : estimates) {
        if (const std::optional<CapacityResult> c = capacityOf(e))
            r.capacities << *c;
        else if (steadyKeyOf(e.metric).isEmpty())
            r.estimates << e;
    }
    const QString dataset = config.value(QLatin1String("dataset"))
                                .toObject()
                                .value(QLatin1String("name"))
                                .toString(QStringLiteral("random"));
    const Experiment *x = run.experiment();
    r.findings = runFindings(
        points, r.estimates, dataset == QLatin1String("random"), {}, x ? prefillBudgets(*x) : PrefillBudgets(), exits);
    for (const CapacityResult &c : std::as_const(r.capacities)) // what the run set out to find, first
        r.findings.prepend(capacityFinding(c, x ? x->load.mode : ServeScope::LoadMode::Concurrency));
    putPlan(r, run, x);
    return r;
}

bool loadReportRun(ProjectStore &store, qint64 runId, ReportRun *out)
{
    const std::optional<StoredRun> run = StoredRun::read(store, runId);
    const RunRow *row = run ? &run->row() : nullptr;
    QVector<PointSummary> stored;
    QVector<PointEstimate> estimates;
    QVector<ServerLogLine> logs;
    if (!row || !store.pointSummaries(runId, &stored) || !store.pointEstimates(runId, &estimates)
        || !store.serverLogs(runId, &logs))
        return false;
    QList<PointSummary> points(stored.cbegin(), stored.cend());
    QSet<QString> partial;
    const Experiment *x = run->experiment();
    if (row->status == RunStatus::Interrupted && x) {
        // The point the process was running when it stopped kept its requests but no summary.
        QSet<QString> summarised;
        for (const PointSummary &p : std::as_const(points))
            summarised.insert(partialKey(p.variant, p.point, p.repeat));
        for (int v = 0; v < x->variants.size(); ++v) {
            const Experiment &resolved = *run->variant(v);
            const QString name = x->variants[v].name;
            for (int point = 0; point < resolved.load.points.size(); ++point) {
                for (int repeat = 1; repeat <= std::max(1, resolved.load.repeat); ++repeat) {
                    if (summarised.contains(partialKey(name, point, repeat)))
                        continue;
                    RequestFilter filter;
                    filter.variant = name;
                    filter.point = point;
                    filter.repeat = repeat;
                    filter.includeWarmup = false;
                    QVector<RequestRecord> records;
                    if (!store.requests(runId, filter, &records))
                        return false;
                    if (records.isEmpty())
                        continue;
                    std::sort(records.begin(), records.end(),
                        [](const RequestRecord &a, const RequestRecord &b) { return a.index < b.index; });
                    PointSummary s
                        = summarisePoint(resolved, pointKey(resolved, point, name), repeat, records, 0).summary;
                    s.runId = runId;
                    points << s;
                    partial.insert(partialKey(name, point, repeat));
                }
            }
        }
    }
    // A capacity search measured its levels out of order: its tables read them by load. An interrupted run's
    // partial points join the stored ones in order.
    if (x && (row->status == RunStatus::Interrupted || x->load.capacity)) {
        const bool byLoad = x->load.capacity.has_value();
        const auto order = [x, byLoad](const PointSummary &p) {
            const double load = !byLoad ? p.point : p.mode == QLatin1String("rate") ? p.requestRate : p.concurrency;
            return std::tuple(x->variantIndex(p.variant), load, p.repeat);
        };
        std::stable_sort(points.begin(), points.end(),
            [&order](const PointSummary &a, const PointSummary &b) { return order(a) < order(b); });
    }
    *out = reportRunFromStore(
        *run, points, QList<PointEstimate>(estimates.cbegin(), estimates.cend()), serverExits(logs));
    out->partialPoints = partial;
    int partialRequests = 0;
    for (const PointSummary &p : std::as_const(points)) {
        if (partial.contains(partialKey(p.variant, p.point, p.repeat)))
            partialRequests += p.completed + p.failed;
    }
    if (!partial.isEmpty())
        out->ended = QCoreApplication::translate("ServeScope::Report",
            "interrupted (its process stopped) before its end: the point it was running is summarised from the "
            "%n request(s) it stored, marked partial",
            nullptr, partialRequests);
    return true;
}

} // namespace ServeScope::Report
