// SPDX-License-Identifier: MIT
#include "runsource.h"
#include "storedrun.h"

#include "io/experimentfile.h"
#include "metrics/aggregate.h"
#include "metrics/capacity.h"
#include "metrics/servingcost.h"
#include "model/clock.h"
#include "model/runorigin.h"
#include "model/variables.h"
#include "resultfiles/resultfile.h"
#include "storage/projectstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace ServeScope {

namespace {

PointRepeats *pointFor(QList<PointRepeats> &points, const QString &variant, const QString &label)
{
    for (PointRepeats &p : points) {
        if (p.variant == variant && p.label == label)
            return &p;
    }
    return nullptr;
}

/// The steady set of a result file, from its servescope_steady_* keys.
QMap<QString, double> steadyOfFile(const ResultRun &file)
{
    static const QString prefix = QStringLiteral("servescope_steady_");
    QMap<QString, double> out;
    for (auto it = file.numbers.cbegin(); it != file.numbers.cend(); ++it) {
        if (it.key().startsWith(prefix))
            out.insert(it.key().mid(prefix.size()), it.value());
    }
    return out;
}

/// A result file's requests as samples: failed requests (an error text) are left out, and for the
/// steady set those that started outside its window (start_times count from the point's clock, the
/// window from its first measured start).
void appendSamples(const ResultRun &file, std::vector<RequestSample> *samples, ResultSet set)
{
    const QMap<QString, double> steady = set == ResultSet::Steady ? steadyOfFile(file) : QMap<QString, double>();
    const double firstStart
        = file.startTimes.isEmpty() ? 0 : *std::min_element(file.startTimes.cbegin(), file.startTimes.cend());
    for (qsizetype i = 0; i < file.ttfts.size() && i < file.latencies.size(); ++i) {
        if (i < file.errors.size() && !file.errors[i].isEmpty())
            continue;
        if (set == ResultSet::Steady
            && (i >= file.startTimes.size() || !inSteadyWindow(steady, file.startTimes[i] - firstStart)))
            continue;
        RequestSample s;
        s.ttft = file.ttfts[i];
        s.e2el = file.latencies[i];
        const qint64 out = i < file.outputLens.size() ? file.outputLens[i] : 0;
        if (out > 1)
            s.tpot = (s.e2el - s.ttft) / double(out - 1);
        if (i < file.itls.size()) {
            for (double gap : file.itls[i])
                s.itlNs.append(secondsToNs(gap));
        }
        samples->push_back(std::move(s));
    }
}

/// Per (variant, point, repeat): the first measured start, the origin of the steady window's edges.
using RepeatKey = std::tuple<QString, int, int>;
QMap<RepeatKey, qint64> firstStarts(const QVector<RequestRecord> &records)
{
    QMap<RepeatKey, qint64> out;
    for (const RequestRecord &r : records) {
        if (!r.measured())
            continue;
        const RepeatKey k { r.variant, r.point, r.repeat };
        const auto it = out.find(k);
        if (it == out.end())
            out.insert(k, r.startNs);
        else
            *it = std::min(*it, r.startNs);
    }
    return out;
}

} // namespace

QString resultSetCode(ResultSet set)
{
    return set == ResultSet::Steady ? QStringLiteral("steady") : QStringLiteral("vllm");
}

bool resultSetFromCode(const QString &code, ResultSet *out)
{
    for (ResultSet s : { ResultSet::Vllm, ResultSet::Steady }) {
        if (code == resultSetCode(s)) {
            *out = s;
            return true;
        }
    }
    return false;
}

QStringList headlineMetrics(ResultSet set, bool reasoning, bool sessions)
{
    QStringList keys = headlineMetrics();
    if (set == ResultSet::Steady) {
        keys.removeAll(QStringLiteral("total_token_throughput"));
        keys.removeAll(QStringLiteral("success_rate"));
    }
    if (reasoning) {
        qsizetype at = keys.indexOf(QStringLiteral("p99_ttft_ms")) + 1;
        for (const char *stat : { "mean", "median", "p90", "p99" })
            keys.insert(at++, QLatin1String(stat) + QLatin1String("_ttfo_ms"));
    }
    if (sessions && set == ResultSet::Vllm)
        keys << turnMetrics();
    return keys;
}

bool ranSessions(const RunSource &run)
{
    for (const PointRepeats &p : run.points) {
        for (const QMap<QString, double> &r : p.repeats) {
            if (r.contains(QStringLiteral("later_turn_requests")))
                return true;
        }
    }
    return false;
}

bool reasoned(const RunSource &run)
{
    for (const PointRepeats &p : run.points) {
        for (const QMap<QString, double> &r : p.repeats) {
            if (r.value(QStringLiteral("reasoning_tokens")) > 0)
                return true;
        }
    }
    return false;
}

namespace {

// Per variant with a price: an hour of all its GPUs (RunSource::hourPrice).
QMap<QString, double> hourPrices(const Experiment &x)
{
    QMap<QString, double> out;
    for (int v = 0; v < x.variants.size(); ++v) {
        if (const double price = hourPrice(resolveVariant(x, v)); price > 0)
            out.insert(x.variants[v].name, price);
    }
    return out;
}

// One result set of a stored run from its summaries (and, for the vLLM set, the estimates stored
// when each point finished); no request samples yet.
void buildStoredPoints(const QString &projectPath, const RunRow &row, const QVector<PointSummary> &summaries,
    const QVector<PointEstimate> &estimates, ResultSet set, RunSource *out)
{
    out->name = row.name;
    out->origin = QStringLiteral("project %1 run %2").arg(projectPath).arg(row.id);
    if (const RunOrigin imported = RunOrigin::fromJson(row.origin); imported.isImported())
        out->origin += QStringLiteral(", ") + imported.describe();
    out->definitions = row.definitions;
    out->convention = conventionOf(row.definitions, row.origin);
    const RunOrigin origin = RunOrigin::fromJson(row.origin);
    out->measured = !origin.isImported();
    out->clientHost = QJsonDocument::fromJson(row.clientHost).object();
    out->envSnapshot = QJsonDocument::fromJson(row.envSnapshot).array();
    if (const StoredRun run(row); run.experiment())
        out->hourPrice = hourPrices(*run.experiment());
    for (const PointSummary &s : summaries) {
        if (set == ResultSet::Steady && s.steady.value(QStringLiteral("valid")) != 1.0)
            continue;
        PointRepeats *p = pointFor(out->points, s.variant, s.label);
        if (!p) {
            out->points.append(PointRepeats {});
            p = &out->points.last();
            p->setKey(s.key());
            // An import without arrays stored no request: only the file's statistics are known.
            p->statisticsOnly = origin.isImported() && !origin.arrays;
        }
        p->repeats << (set == ResultSet::Steady ? s.steady : summaryValues(s));
    }
    // Each set's estimates: the steady window's under their servescope_steady_ keys.
    for (const PointEstimate &e : estimates) {
        if (const std::optional<CapacityResult> c = capacityOf(e)) {
            out->capacities << *c;
            continue;
        }
        const QString steadyKey = steadyKeyOf(e.metric);
        if ((set == ResultSet::Steady) != !steadyKey.isEmpty())
            continue;
        MetricEstimate m = metricEstimate(e);
        if (set == ResultSet::Steady)
            m.key = steadyKey;
        for (PointRepeats &p : out->points) {
            if (p.variant == e.variant && p.point == e.point)
                p.stored.insert(m.key, m);
        }
    }
}

// Whether every point of `source` has a stored estimate of every key, so no request must be read.
bool storedCover(const RunSource &source, ResultSet set, const QStringList &keys)
{
    if (keys.contains(QLatin1String(kEveryRequest)))
        return false;
    QStringList needed = headlineMetrics(set, reasoned(source));
    for (const QString &k : keys) {
        if (!needed.contains(k))
            needed << k;
    }
    for (const PointRepeats &p : source.points) {
        for (const QString &k : std::as_const(needed)) {
            if (!p.stored.contains(k) && !isTurnKey(k)) // a turn key is read off the repeats, never the requests
                return false;
        }
    }
    return true;
}

// The requests of a stored run as samples of one result set's points.
void addStoredSamples(const QVector<PointSummary> &summaries, const QVector<RequestRecord> &records,
    DefinitionsProfile profile, ResultSet set, RunSource *out)
{
    QMap<RepeatKey, QMap<QString, double>> steadyOf;
    // Records carry the point's index, summaries its label as well.
    QMap<QPair<QString, int>, QString> labels;
    for (const PointSummary &s : summaries) {
        labels.insert({ s.variant, s.point }, s.label);
        if (set == ResultSet::Steady && s.steady.value(QStringLiteral("valid")) == 1.0)
            steadyOf.insert({ s.variant, s.point, s.repeat }, s.steady);
    }
    const QMap<RepeatKey, qint64> origins = set == ResultSet::Steady ? firstStarts(records) : QMap<RepeatKey, qint64>();
    for (const RequestRecord &r : records) {
        if (set == ResultSet::Steady) {
            const RepeatKey k { r.variant, r.point, r.repeat };
            const auto steady = steadyOf.constFind(k);
            if (steady == steadyOf.cend() || !inSteadyWindow(*steady, nsToSeconds(r.startNs - origins.value(k))))
                continue;
        }
        const std::optional<RequestSample> sample = requestSample(r, profile);
        PointRepeats *p = sample ? pointFor(out->points, r.variant, labels.value({ r.variant, r.point })) : nullptr;
        if (p)
            p->samples.push_back(*sample);
    }
}

} // namespace

bool loadStoredRunSets(const QString &projectPath, const QString &run, RunSource *vllm, RunSource *steady,
    QString *error, const QStringList &keys)
{
    ProjectStore store;
    if (!store.open(projectPath, ProjectStore::Check::Header, ProjectStore::Follow::Snapshot)) {
        *error = store.errorString();
        return false;
    }
    const qint64 id = store.resolveRun(run);
    const std::optional<RunRow> row = id > 0 ? store.run(id) : std::nullopt;
    QVector<PointSummary> summaries;
    QVector<PointEstimate> estimates;
    QHash<QPair<QString, int>, QMap<QString, int>> failures;
    if (!row || !store.pointSummaries(id, &summaries) || !store.pointEstimates(id, &estimates)
        || !store.failureClasses(id, &failures)) {
        *error = store.errorString();
        return false;
    }
    if (vllm) {
        *vllm = RunSource {};
        buildStoredPoints(projectPath, *row, summaries, estimates, ResultSet::Vllm, vllm);
        for (PointRepeats &p : vllm->points)
            p.failures = failures.value({ p.variant, p.point });
    }
    if (steady) {
        *steady = RunSource {};
        buildStoredPoints(projectPath, *row, summaries, estimates, ResultSet::Steady, steady);
    }
    // The stored estimates are read, not recomputed: the requests are read only for what they lack.
    const bool vllmStored = !vllm || storedCover(*vllm, ResultSet::Vllm, keys);
    const bool steadyStored = !steady || storedCover(*steady, ResultSet::Steady, keys);
    if (vllmStored && steadyStored)
        return true;
    QVector<RequestRecord> records;
    RequestFilter filter;
    filter.includeWarmup = false;
    if (!store.requests(id, filter, &records)) {
        *error = store.errorString();
        return false;
    }
    bool known = false;
    const DefinitionsProfile profile = definitionsFromCode(row->definitions, &known);
    if (!vllmStored)
        addStoredSamples(summaries, records, profile, ResultSet::Vllm, vllm);
    if (!steadyStored)
        addStoredSamples(summaries, records, profile, ResultSet::Steady, steady);
    return true;
}

bool loadStoredRun(const QString &projectPath, const QString &run, RunSource *out, QString *error, ResultSet set,
    const QStringList &keys)
{
    return loadStoredRunSets(projectPath, run, set == ResultSet::Vllm ? out : nullptr,
        set == ResultSet::Steady ? out : nullptr, error, keys);
}

bool loadResultsFolder(const QString &dir, RunSource *out, QString *error, ResultSet set)
{
    QFile manifestFile(QDir(dir).filePath(QStringLiteral("manifest.json")));
    if (!manifestFile.open(QIODevice::ReadOnly)) {
        *error = Reason::shown("ServeScope::Compare",
            QT_TRANSLATE_NOOP("ServeScope::Compare", "%1: no manifest.json (not a results folder of `run --out-dir`)"),
            { dir });
        return false;
    }
    const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
    const ExperimentReadResult read
        = readExperimentJson(QJsonDocument(manifest.value(QLatin1String("experiment")).toObject()).toJson());
    if (!read.ok) {
        *error = Reason::shown("ServeScope::Compare",
            QT_TRANSLATE_NOOP("ServeScope::Compare", "%1/manifest.json: the experiment does not read: %2"),
            { dir, read.shownLine(read.errors.value(0)) });
        return false;
    }
    const Experiment &x = read.experiment;
    out->hourPrice = hourPrices(x);
    out->name = x.name;
    out->origin = dir;
    out->definitions = manifest.value(QLatin1String("definitions")).toString();
    out->convention = conventionOf(out->definitions, {});
    out->clientHost = manifest.value(QLatin1String("client_host")).toObject();
    out->envSnapshot = manifest.value(QLatin1String("env_snapshot")).toArray();
    for (const QJsonValue &v : manifest.value(QLatin1String("capacity")).toArray()) {
        const QJsonObject o = v.toObject();
        CapacityResult c;
        c.variant = o.value(QLatin1String("variant")).toString();
        c.capacity = o.value(QLatin1String("capacity")).toDouble();
        if (o.value(QLatin1String("next_failing")).isDouble())
            c.upper = o.value(QLatin1String("next_failing")).toDouble();
        c.stop = o.value(QLatin1String("stop")).toString();
        c.levels = o.value(QLatin1String("levels")).toInt();
        c.measurements = o.value(QLatin1String("measurements")).toInt();
        c.reused = o.value(QLatin1String("reused")).toInt();
        out->capacities << c;
    }
    static const QRegularExpression repeatFile(QStringLiteral("^(.*)-r([0-9]+)\\.json$"));
    for (int v = 0; v < x.variants.size(); ++v) {
        const Experiment resolved = resolveVariant(x, v);
        for (int i = 0; i < resolved.load.points.size(); ++i) {
            PointRepeats p;
            p.setKey(pointKey(resolved, i, x.variants[v].name));
            for (int r = 1;; ++r) {
                const QString path = QDir(dir).filePath(resultFileRelativePath(p.variant, p.label, r));
                if (!QFileInfo::exists(path))
                    break;
                const QVector<ResultRun> files = readResultFilePath(path, error);
                if (files.isEmpty())
                    return false;
                QMap<QString, double> values = files.first().numbers;
                if (values.contains(QStringLiteral("servescope_success_rate")))
                    values.insert(
                        QStringLiteral("success_rate"), values.value(QStringLiteral("servescope_success_rate")));
                if (set == ResultSet::Steady) {
                    values = steadyOfFile(files.first());
                    if (values.value(QStringLiteral("valid")) != 1.0)
                        continue;
                }
                p.repeats << values;
                p.statisticsOnly = p.statisticsOnly || !files.first().hasArrays;
                appendSamples(files.first(), &p.samples, set);
            }
            if (!p.repeats.isEmpty())
                out->points << p;
        }
    }
    if (out->points.isEmpty()) {
        *error = Reason::shown("ServeScope::Compare",
            QT_TRANSLATE_NOOP("ServeScope::Compare", "%1: no result files (<variant>/<point>-r<k>.json)"), { dir });
        return false;
    }
    return true;
}

bool loadRunSource(const QString &spec, const QString &projectPath, RunSource *out, QString *error, ResultSet set,
    const QStringList &keys)
{
    if (QFileInfo(QDir(spec).filePath(QStringLiteral("manifest.json"))).isFile())
        return loadResultsFolder(spec, out, error, set);
    if (QFileInfo(spec).isDir()) {
        *error = Reason::shown("ServeScope::Compare",
            QT_TRANSLATE_NOOP("ServeScope::Compare", "%1: no manifest.json (not a results folder of `run --out-dir`)"),
            { spec });
        return false;
    }
    if (projectPath.isEmpty()) {
        *error = Reason::shown("ServeScope::Compare",
            QT_TRANSLATE_NOOP("ServeScope::Compare", "'%1' is not a results folder; a stored run needs --project"),
            { spec });
        return false;
    }
    return loadStoredRun(projectPath, spec, out, error, set, keys);
}

} // namespace ServeScope
