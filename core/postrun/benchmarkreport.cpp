// SPDX-License-Identifier: MIT
// A stored run as llm-d Benchmark Reports v0.2, one per (variant, point, repeat).
#include "benchmarkreport.h"
#include "compare/storedrun.h"

#include "io/experimentfile.h"
#include "io/jsontree.h"
#include "metrics/aggregate.h"
#include "metrics/numpystats.h"
#include "metrics/requestmetrics.h"
#include "model/variables.h"
#include "run/runtext.h"
#include "storage/projectstore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ServeScope {

namespace {

JsonNode str(const QString &s)
{
    return JsonNode::makeString(s);
}

JsonNode num(double d)
{
    return JsonNode::makeNumber(d);
}

// 32 hex digits naming `text`, as the report's ids are written.
QString hashId(const QString &text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Md5).toHex());
}

// The statistics the schema names, with the percentile each one is.
struct Stat {
    const char *key;
    double percentile;
};
constexpr Stat kStats[] = { { "min", 0 }, { "p0p1", 0.1 }, { "p1", 1 }, { "p5", 5 }, { "p10", 10 }, { "p25", 25 },
    { "p50", 50 }, { "p75", 75 }, { "p90", 90 }, { "p95", 95 }, { "p99", 99 }, { "p99p9", 99.9 }, { "max", 100 } };
const QVector<double> kRecomputed = { 0, 0.1, 5, 95, 99.9, 100 };

// One latency distribution in ms: the stored summary's figures, those it lacks from the recomputed one.
JsonNode latencyStatistics(const Distribution &stored, const Distribution *recomputed, const char *units)
{
    JsonNode o = JsonNode::makeObject();
    o.add(QStringLiteral("units"), str(QLatin1String(units)));
    o.add(QStringLiteral("mean"), num(stored.mean));
    if (std::isfinite(stored.std))
        o.add(QStringLiteral("stddev"), num(stored.std));
    for (const Stat &s : kStats) {
        double v = s.percentile == 50 ? stored.median : stored.percentile(s.percentile);
        if (!std::isfinite(v) && recomputed)
            v = recomputed->percentile(s.percentile);
        if (std::isfinite(v))
            o.add(QLatin1String(s.key), num(v));
    }
    return o;
}

// Token counts of the successful measured requests: mean, stddev and every percentile; the mean
// alone (total / completed) without stored requests.
JsonNode lengthStatistics(std::vector<double> values, double fallbackMean)
{
    JsonNode o = JsonNode::makeObject();
    o.add(QStringLiteral("units"), str(QStringLiteral("count")));
    if (values.empty()) {
        o.add(QStringLiteral("mean"), num(fallbackMean));
        return o;
    }
    o.add(QStringLiteral("mean"), num(Stats::mean(values)));
    o.add(QStringLiteral("stddev"), num(Stats::populationStd(values)));
    std::sort(values.begin(), values.end());
    for (const Stat &s : kStats)
        o.add(QLatin1String(s.key), num(Stats::percentileSorted(values, s.percentile)));
    return o;
}

JsonNode rate(double value, const char *units)
{
    JsonNode o = JsonNode::makeObject();
    o.add(QStringLiteral("units"), str(QLatin1String(units)));
    o.add(QStringLiteral("mean"), num(value));
    return o;
}

// The target length; a dataset without one (ShareGPT's own lengths) gives the achieved mean as "other".
JsonNode sequenceLength(int value, double rangeRatio, double achievedMean)
{
    JsonNode o = JsonNode::makeObject();
    if (value <= 0) {
        o.add(QStringLiteral("distribution"), str(QStringLiteral("other")));
        o.add(QStringLiteral("value"), num(std::max(1.0, std::round(achievedMean))));
        return o;
    }
    o.add(QStringLiteral("distribution"), str(rangeRatio > 0 ? QStringLiteral("random") : QStringLiteral("fixed")));
    o.add(QStringLiteral("value"), num(value));
    if (rangeRatio > 0) {
        o.add(QStringLiteral("min"), num(std::max(0.0, std::floor(value * (1 - rangeRatio)))));
        o.add(QStringLiteral("max"), num(std::max(1.0, std::ceil(value * (1 + rangeRatio)))));
    }
    return o;
}

QString isoDuration(double seconds)
{
    return QStringLiteral("PT%1S").arg(QString::number(seconds, 'g', QLocale::FloatingPointShortest));
}

struct Place {
    const RunRow &row;
    const Experiment *resolved; ///< the variant's experiment; null when the stored config does not read
    const PointSummary &p;
    QString label;
};

JsonNode stack(const Place &at)
{
    const Experiment *x = at.resolved;
    JsonNode metadata = JsonNode::makeObject();
    metadata.add(QStringLiteral("kind"), str(QStringLiteral("generic")));
    metadata.add(QStringLiteral("schema_version"), str(QStringLiteral("0.0.1")));
    metadata.add(QStringLiteral("label"), str(at.p.variant));
    // The experiment's server arguments are named as its templates name them, not as flags.
    JsonNode args = JsonNode::makeObject();
    if (x) {
        for (const auto &[name, value] : x->server.args.items())
            args.add(name, JsonNode::fromJsonValue(value));
    }
    metadata.add(QStringLiteral("cfg_id"), str(hashId(QString::fromUtf8(writeJsonTree(args)))));
    metadata.add(QStringLiteral("description"), str(QStringLiteral("the server of variant %1").arg(at.p.variant)));
    // Generic: the inference_engine kind requires the accelerator's model and count, which a run
    // does not know for sure; a generic component carries the model beside its tool.
    JsonNode standardized = JsonNode::makeObject();
    standardized.add(QStringLiteral("tool"), str(x ? x->server.engine : QStringLiteral("other")));
    standardized.add(QStringLiteral("tool_version"), str(QStringLiteral("unknown")));
    if (x && !x->endpoint.model.isEmpty()) {
        JsonNode model = JsonNode::makeObject();
        model.add(QStringLiteral("name"), str(x->endpoint.model));
        standardized.add(QStringLiteral("model"), std::move(model));
    }
    JsonNode config = JsonNode::makeObject();
    config.add(QStringLiteral("server_args"), std::move(args));
    JsonNode native = JsonNode::makeObject();
    native.add(QStringLiteral("config"), std::move(config));
    JsonNode component = JsonNode::makeObject();
    component.add(QStringLiteral("metadata"), std::move(metadata));
    component.add(QStringLiteral("standardized"), std::move(standardized));
    component.add(QStringLiteral("native"), std::move(native));
    JsonNode list = JsonNode::makeArray();
    list.children.push_back(std::move(component));
    return list;
}

JsonNode load(const Place &at, bool yaml)
{
    const PointSummary &p = at.p;
    const Experiment *x = at.resolved;
    JsonNode metadata = JsonNode::makeObject();
    metadata.add(QStringLiteral("schema_version"), str(QStringLiteral("0.0.1")));
    metadata.add(QStringLiteral("description"),
        str(QStringLiteral("%1: variant %2, point %3, repeat %4").arg(at.row.name, p.variant, at.label).arg(p.repeat)));
    JsonNode standardized = JsonNode::makeObject();
    standardized.add(QStringLiteral("tool"), str(QStringLiteral("servescope")));
    standardized.add(QStringLiteral("tool_version"), str(QStringLiteral(SERVESCOPE_VERSION)));
    const QString dataset = x ? x->dataset.name : QStringLiteral("random");
    standardized.add(QStringLiteral("source"),
        str(dataset == QLatin1String("random") ? QStringLiteral("random") : QStringLiteral("sampled")));
    standardized.add(QStringLiteral("stage"), num(p.point));
    const double spread = x ? x->dataset.rangeRatio : 0;
    const double completed = std::max(p.completed, 1);
    standardized.add(
        QStringLiteral("input_seq_len"), sequenceLength(p.inputLen, spread, p.totalInputTokens / completed));
    if (p.outputLen > 0)
        standardized.add(
            QStringLiteral("output_seq_len"), sequenceLength(p.outputLen, spread, p.totalOutputTokens / completed));
    if (p.mode == QLatin1String("rate")) {
        if (std::isfinite(p.requestRate) && p.requestRate > 0)
            standardized.add(QStringLiteral("rate_qps"), num(p.requestRate));
        if (p.concurrency > 0)
            standardized.add(QStringLiteral("concurrency"), num(p.concurrency));
        else if (yaml) // JSON has no infinity
            standardized.add(QStringLiteral("concurrency"), num(std::numeric_limits<double>::infinity()));
    } else {
        standardized.add(QStringLiteral("concurrency"), num(std::max(p.concurrency, 1)));
    }
    JsonNode config = JsonNode::makeObject();
    config.add(QStringLiteral("definitions"), str(at.row.definitions));
    config.add(QStringLiteral("run"), str(at.row.name));
    config.add(QStringLiteral("variant"), str(p.variant));
    config.add(QStringLiteral("point"), str(at.label));
    config.add(QStringLiteral("repeat"), num(p.repeat));
    config.add(QStringLiteral("dataset"), str(dataset));
    if (x)
        config.add(QStringLiteral("endpoint_path"), str(x->endpoint.path));
    JsonNode native = JsonNode::makeObject();
    native.add(QStringLiteral("config"), std::move(config));
    JsonNode o = JsonNode::makeObject();
    o.add(QStringLiteral("metadata"), std::move(metadata));
    o.add(QStringLiteral("standardized"), std::move(standardized));
    o.add(QStringLiteral("native"), std::move(native));
    return o;
}

JsonNode results(const Place &at, const QVector<RequestRecord> &records)
{
    const PointSummary &p = at.p;
    std::optional<PointSummary> again;
    std::vector<double> inputs, outputs;
    if (!records.isEmpty()) {
        AggregateOptions opts;
        opts.profile = definitionsFromCode(at.row.definitions);
        opts.percentiles = kRecomputed;
        again = aggregatePoint(records, opts).summary;
        for (const RequestRecord &r : records) {
            if (!r.warmup && r.ok()) {
                inputs.push_back(r.promptTokens);
                outputs.push_back(r.completionTokens);
            }
        }
    }
    JsonNode requests = JsonNode::makeObject();
    requests.add(QStringLiteral("total"), num(p.completed + p.failed + p.cancelled));
    requests.add(QStringLiteral("failures"), num(p.failed));
    requests.add(QStringLiteral("incomplete"), num(p.cancelled));
    const double completed = std::max(p.completed, 1);
    requests.add(QStringLiteral("input_length"), lengthStatistics(std::move(inputs), p.totalInputTokens / completed));
    requests.add(
        QStringLiteral("output_length"), lengthStatistics(std::move(outputs), p.totalOutputTokens / completed));

    JsonNode latency = JsonNode::makeObject();
    const auto put = [&](const char *key, Distribution PointSummary::*member, const char *units) {
        // An imported summary leaves what its file lacked NaN; the schema requires a mean.
        if (std::isfinite((p.*member).mean) && ((p.*member).count > 0 || (p.*member).mean != 0))
            latency.add(QLatin1String(key), latencyStatistics(p.*member, again ? &((*again).*member) : nullptr, units));
    };
    put("time_to_first_token", &PointSummary::ttft, "ms");
    put("time_per_output_token", &PointSummary::tpot, "ms/token");
    put("inter_token_latency", &PointSummary::itl, "ms/token");
    put("request_latency", &PointSummary::e2el, "ms");

    JsonNode throughput = JsonNode::makeObject();
    const auto putRate = [&](const char *key, double value, const char *units) {
        if (std::isfinite(value))
            throughput.add(QLatin1String(key), rate(value, units));
    };
    if (p.duration > 0)
        putRate("input_token_rate", p.totalInputTokens / p.duration, "tokens/s");
    putRate("output_token_rate", p.outputThroughput, "tokens/s");
    putRate("total_token_rate", p.totalTokenThroughput, "tokens/s");
    putRate("request_rate", p.requestThroughput, "queries/s");

    JsonNode aggregate = JsonNode::makeObject();
    aggregate.add(QStringLiteral("requests"), std::move(requests));
    aggregate.add(QStringLiteral("latency"), std::move(latency));
    aggregate.add(QStringLiteral("throughput"), std::move(throughput));
    JsonNode performance = JsonNode::makeObject();
    performance.add(QStringLiteral("aggregate"), std::move(aggregate));
    JsonNode o = JsonNode::makeObject();
    o.add(QStringLiteral("request_performance"), std::move(performance));
    return o;
}

JsonNode report(const Place &at, const QVector<RequestRecord> &records, bool yaml)
{
    const PointSummary &p = at.p;
    const QString eid = hashId(QStringLiteral("%1/%2").arg(at.row.name, at.row.started.toString(Qt::ISODateWithMs)));
    JsonNode time = JsonNode::makeObject();
    if (at.row.started.isValid())
        time.add(QStringLiteral("start"), str(at.row.started.toUTC().toString(Qt::ISODate)));
    time.add(QStringLiteral("duration"), str(isoDuration(p.duration)));
    JsonNode run = JsonNode::makeObject();
    run.add(QStringLiteral("uid"),
        str(hashId(QStringLiteral("%1/%2/%3/%4").arg(eid, p.variant).arg(p.point).arg(p.repeat))));
    run.add(QStringLiteral("eid"), str(eid));
    run.add(QStringLiteral("time"), std::move(time));
    JsonNode scenario = JsonNode::makeObject();
    scenario.add(QStringLiteral("stack"), stack(at));
    scenario.add(QStringLiteral("load"), load(at, yaml));
    JsonNode o = JsonNode::makeObject();
    o.add(QStringLiteral("version"), str(QStringLiteral("0.2")));
    o.add(QStringLiteral("run"), std::move(run));
    o.add(QStringLiteral("scenario"), std::move(scenario));
    o.add(QStringLiteral("results"), results(at, records));
    return o;
}

// FILE for the only report; otherwise FILE's base name with the point's place before the suffix.
QString reportPath(const QString &path, const PointSummary &p, const QString &label, bool onePoint, bool repeats)
{
    if (onePoint)
        return path;
    const QFileInfo fi(path);
    QString place = sanitizeName(p.variant) + u'-' + sanitizeName(label);
    if (repeats)
        place += QStringLiteral("-r%1").arg(p.repeat);
    const QString suffix = fi.suffix();
    const QString base = suffix.isEmpty() ? fi.fileName() : fi.fileName().chopped(suffix.size() + 1);
    return fi.dir().filePath(base + u'-' + place + (suffix.isEmpty() ? QString() : u'.' + suffix));
}

} // namespace

bool writeBenchmarkReports(ProjectStore &store, qint64 runId, const QString &path, QStringList *written, QString *error)
{
    const std::optional<RunRow> row = store.run(runId);
    QVector<PointSummary> points;
    if (!row || !store.pointSummaries(runId, &points)) {
        *error = store.errorString();
        return false;
    }
    if (points.isEmpty()) {
        *error = RunText::tr("run %1 has no finished point to report").arg(runId);
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool yaml = suffix != QLatin1String("json");
    const StoredRun run(*row);
    const bool repeats
        = std::any_of(points.cbegin(), points.cend(), [](const PointSummary &p) { return p.repeat > 1; });
    for (const PointSummary &p : std::as_const(points)) {
        std::optional<Experiment> resolved;
        if (const Experiment *x = run.variantOrRun(p.variant))
            resolved = *x;
        const QString label = p.label.isEmpty() ? QStringLiteral("p%1").arg(p.point) : p.label;
        RequestFilter filter;
        filter.variant = p.variant;
        filter.point = p.point;
        filter.repeat = p.repeat;
        QVector<RequestRecord> records;
        if (!store.requests(runId, filter, &records)) {
            *error = store.errorString();
            return false;
        }
        const Place at { *row, resolved ? &*resolved : nullptr, p, label };
        const JsonNode doc = report(at, records, yaml);
        const QByteArray bytes = yaml
            ? QByteArrayLiteral("# llm-d Benchmark Report v0.2, written by ServeScope " SERVESCOPE_VERSION "\n")
                + writeYamlTree(doc)
            : writeJsonTree(doc);
        const QString file = reportPath(path, p, label, points.size() == 1, repeats);
        QSaveFile f(file);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
            *error = RunText::tr("cannot write %1: %2").arg(file, f.errorString());
            return false;
        }
        written->append(file);
    }
    return true;
}

} // namespace ServeScope
