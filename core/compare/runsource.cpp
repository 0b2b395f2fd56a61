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

QMap<QString, QString> flatten(const RunSource &s)
{
    QMap<QString, QString> out;
    for (const QJsonValue &e : s.envSnapshot) {
        const QJsonArray a = e.toArray();
        out.insert(QStringLiteral("env.") + a.at(0).toString(), a.at(1).toVariant().toString());
    }
    for (auto it = s.clientHost.begin(); it != s.clientHost.end(); ++it)
        out.insert(QStringLiteral("client_host.") + it.key(), it.value().toVariant().toString());
    return out;
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

bool keepVariant(RunSource *source, const QString &variant)
{
    QList<PointRepeats> kept;
    for (const PointRepeats &p : std::as_const(source->points)) {
        if (p.variant == variant)
            kept << p;
    }
    source->points = kept;
    source->capacities.removeIf([&variant](const CapacityResult &c) { return c.variant != variant; });
    return !kept.isEmpty();
}

QList<DeltaRow> capacityRows(
    const RunSource &a, const RunSource &b, double practicalThreshold, const QString &variantA, const QString &variantB)
{
    QList<DeltaRow> rows;
    for (const CapacityResult &ca : a.capacities) {
        if (!variantA.isEmpty() && ca.variant != variantA)
            continue;
        const QString wanted = variantB.isEmpty() ? ca.variant : variantB;
        for (const CapacityResult &cb : b.capacities) {
            if (cb.variant != wanted)
                continue;
            rows << deltaRow(cb.variant, QStringLiteral("capacity"), QStringLiteral("capacity"), capacityEstimate(ca),
                capacityEstimate(cb), practicalThreshold);
        }
    }
    return rows;
}

QList<DeltaSection> deltaSections(
    const QList<RunSource> &runs, ResultSet set, const NoiseFloors &floors, int rerunPairs)
{
    QList<DeltaSection> out;
    const QStringList metrics = headlineMetrics(
        set, std::any_of(runs.begin(), runs.end(), reasoned), std::any_of(runs.begin(), runs.end(), ranSessions));
    for (qsizetype k = 1; k < runs.size(); ++k) {
        const PointMatching m = matchPoints(runs[0].points, runs[k].points);
        DeltaSection section { QCoreApplication::translate("ServeScope::Compare", "%1: %2 vs A: %3")
                                   .arg(QChar(char16_t(u'A' + k)))
                                   .arg(runs[k].name, runs[0].name),
            deltaTable(runs[0].points, runs[k].points, m, metrics, kReproducibleSpread, floors)
                + capacityRows(runs[0], runs[k]),
            comparedDefinitions(runs[0], runs[k]), floors, rerunPairs };
        withholdIncomparable(section.rows, section.definitions);
        section.rows << costRows(runs[0], runs[k], section.rows);
        out << section;
    }
    if (runs.size() != 1)
        return out;
    QStringList variants;
    for (const PointRepeats &p : runs[0].points) {
        if (!variants.contains(p.variant))
            variants << p.variant;
    }
    for (qsizetype v = 1; v < variants.size(); ++v) {
        RunSource base = runs[0], other = runs[0];
        keepVariant(&base, variants[0]);
        keepVariant(&other, variants[v]);
        const PointMatching m = matchPoints(base.points, other.points);
        QList<DeltaRow> rows = deltaTable(base.points, other.points, m, metrics, kReproducibleSpread, floors);
        for (DeltaRow &r : rows)
            r.variant = variants[v];
        rows << capacityRows(base, other, kReproducibleSpread, variants[0], variants[v])
             << costRows(base, other, rows, kReproducibleSpread, variants[0], variants[v]);
        out << DeltaSection {
            QCoreApplication::translate("ServeScope::Compare", "B: %1 vs A: %2").arg(variants[v], variants[0]), rows,
            {}, floors, rerunPairs
        };
    }
    return out;
}

QList<DeltaRow> costRows(const RunSource &a, const RunSource &b, const QList<DeltaRow> &rows, double practicalThreshold,
    const QString &variantA, const QString &variantB)
{
    // A side of one variant is matched whatever its name (matchPoints()): its price stands for the row's.
    const auto priceOf = [](const RunSource &s, const QString &variant) {
        if (s.hourPrice.contains(variant))
            return s.hourPrice.value(variant);
        const bool oneVariant = std::all_of(s.points.cbegin(), s.points.cend(),
            [&s](const PointRepeats &p) { return p.variant == s.points.first().variant; });
        return oneVariant && s.hourPrice.size() == 1 ? s.hourPrice.first() : 0.0;
    };
    QList<DeltaRow> out;
    for (const DeltaRow &r : rows) {
        if (r.metric != QLatin1String("output_throughput"))
            continue;
        const double priceA = priceOf(a, variantA.isEmpty() ? r.variant : variantA);
        const double priceB = priceOf(b, variantB.isEmpty() ? r.variant : variantB);
        if (!(priceA > 0) || !(priceB > 0))
            continue;
        DeltaRow c = deltaRow(r.variant, r.label, QString::fromLatin1(kCostKey), costEstimate(r.a, priceA),
            costEstimate(r.b, priceB), practicalThreshold);
        if (r.verdict == Verdict::NotComparable) {
            c.verdict = r.verdict;
            c.reason = r.reason;
        }
        out << c;
    }
    return out;
}

QList<DefinitionRow> comparedDefinitions(const RunSource &a, const RunSource &b)
{
    return compareDefinitions(a.convention, a.measured, b.convention, b.measured);
}

bool RerunCheck::allAgree() const
{
    return extraPoints == 0 && !points.isEmpty() && std::all_of(points.cbegin(), points.cend(), [](const Point &p) {
        return p.outcome == QLatin1String("agree");
    });
}

RerunCheck checkRerun(const RunSource &earlier, const RunSource &now)
{
    RerunCheck check;
    const PointMatching matching = matchPoints(earlier.points, now.points);
    const QList<DeltaRow> rows = deltaTable(earlier.points, now.points, matching, headlineMetrics());
    for (const auto &[i, j] : matching.pairs) {
        RerunCheck::Point p { earlier.points[i].variant, earlier.points[i].label, QString(), {} };
        for (const DeltaRow &r : rows) {
            if (r.variant == p.variant && r.label == p.label && !agrees(r))
                p.differing << QStringLiteral("%1 %2%3%")
                                   .arg(r.metric, r.relative >= 0 ? QStringLiteral("+") : QString())
                                   .arg(r.relative * 100, 0, 'f', 1);
        }
        p.outcome = p.differing.isEmpty() ? QStringLiteral("agree") : QStringLiteral("differ");
        check.points << p;
    }
    for (int i : matching.unmatchedA)
        check.points << RerunCheck::Point { earlier.points[i].variant, earlier.points[i].label,
            QStringLiteral("missing"), {} };
    check.extraPoints = int(matching.unmatchedB.size());
    check.environment = environmentDifferences(earlier, now);
    return check;
}

const PointRepeats *matchingPoint(const RunSource &earlier, const PointKey &key)
{
    PointRepeats probe;
    probe.setKey(key);
    const PointMatching matching = matchPoints(earlier.points, { probe });
    return matching.pairs.isEmpty() ? nullptr : &earlier.points[matching.pairs.first().first];
}

QStringList PointVerdict::changes() const
{
    QStringList out;
    for (const DeltaRow &r : rows)
        out << QStringLiteral("%1 %2%3% %4")
                   .arg(r.metric, r.relative >= 0 ? QStringLiteral("+") : QString())
                   .arg(r.relative * 100, 0, 'f', 1)
                   .arg(verdictCode(r.verdict));
    return out;
}

PointVerdict pointVerdict(
    const RunSource &earlier, const PointRepeats &now, const QString &convention, const NoiseFloors &floors)
{
    PointVerdict v { now.variant, now.label, QStringLiteral("missing"), {}, false, floors };
    RunSource current;
    current.convention = convention;
    current.points = { now };
    const PointMatching matching = matchPoints(earlier.points, current.points);
    if (matching.pairs.isEmpty())
        return v;
    QList<DeltaRow> rows = deltaTable(earlier.points, current.points, matching,
        headlineMetrics(ResultSet::Vllm, reasoned(earlier) || reasoned(current)), kReproducibleSpread, floors);
    withholdIncomparable(rows, comparedDefinitions(earlier, current));
    int better = 0, worse = 0;
    bool failing = false;
    for (const DeltaRow &r : std::as_const(rows)) {
        v.oneRun = v.oneRun || std::min(r.a.repeats.n, r.b.repeats.n) < kRepeatsForSpread;
        if (!r.decided())
            continue;
        (r.verdict == Verdict::Better ? better : worse) += 1;
        failing = failing || (r.metric == QLatin1String("success_rate") && r.verdict == Verdict::Worse);
        v.rows << r;
    }
    // Failures first: more failed requests make the point worse whatever its latencies did.
    std::stable_partition(
        v.rows.begin(), v.rows.end(), [](const DeltaRow &r) { return r.metric == QLatin1String("success_rate"); });
    v.outcome = failing   ? QStringLiteral("worse")
        : better && worse ? QStringLiteral("mixed")
        : better          ? QStringLiteral("better")
        : worse           ? QStringLiteral("worse")
                          : QStringLiteral("noise");
    return v;
}

QStringList environmentDifferences(const RunSource &a, const RunSource &b)
{
    const QMap<QString, QString> fa = flatten(a), fb = flatten(b);
    QStringList keys = fa.keys() + fb.keys();
    keys.removeDuplicates();
    keys.sort();
    QStringList out;
    for (const QString &k : std::as_const(keys)) {
        const QString va = fa.value(k, QStringLiteral("(none)")), vb = fb.value(k, QStringLiteral("(none)"));
        if (va != vb)
            out << QStringLiteral("%1: %2 -> %3").arg(k, va, vb);
    }
    return out;
}

} // namespace ServeScope
