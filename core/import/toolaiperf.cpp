// SPDX-License-Identifier: MIT
// NVIDIA AIPerf: profile_export_aiperf.json (the layout before schema_version and schema 1.x) and
// the per-request profile_export.jsonl beside it.
#include "import/toolformat.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ServeScope::ToolRead {

namespace {

const QString kTool = QStringLiteral("aiperf");

// AIPerf's tag -> ServeScope's distribution, by formula (docs/import.md, AIPerf).
struct Mapped {
    const char *tag;
    const char *metric;
    bool servescope;
};
constexpr Mapped kDistributions[] = {
    { "time_to_first_token", "ttft", false }, // first response with content, reasoning included
    { "time_to_first_token", "ttfc", true }, // the same clock: first content, reasoning or tool call
    { "time_to_first_output_token", "ttfo", true }, // first non-reasoning token
    { "inter_token_latency", "tpot", false }, // (request_latency - TTFT) / (OSL - 1), per request
    { "inter_chunk_latency", "itl", false }, // every gap between chunks, pooled
    { "request_latency", "e2el", false },
};

double avgOf(const QJsonObject &o, const char *tag, double fallback = std::numeric_limits<double>::quiet_NaN())
{
    return numberOr(o.value(QLatin1String(tag)).toObject().value(QLatin1String("avg")), fallback);
}

// A phase of the later layouts' `phases`, by name: a list of {name, type, ...} or an object keyed by name. The
// profiling phase is the one named so, else the last one that is not the warmup.
QJsonObject phaseOf(const QJsonValue &phases, const QString &name)
{
    if (phases.isObject())
        return phases.toObject().value(name).toObject();
    QJsonObject last;
    for (const QJsonValue &v : phases.toArray()) {
        const QJsonObject p = v.toObject();
        const QString own = p.value(QLatin1String("name")).toString();
        if (own == name)
            return p;
        if (own != QLatin1String("warmup"))
            last = p;
    }
    return name == QLatin1String("profiling") ? last : QJsonObject();
}

// The load AIPerf ran into `run` (rate, concurrency, requests); returns its warmup requests. From `loadgen`, or in
// the later layouts from the config's phases (the profiling phase, the warmup phase's requests).
int readLoad(const QJsonObject &config, ResultRun &run)
{
    QJsonObject load = config.value(QLatin1String("loadgen")).toObject();
    QJsonValue requests = load.value(QLatin1String("request_count"));
    int warmup = int(numberOr(load.value(QLatin1String("warmup_request_count")), 0));
    const QJsonValue phases = config.value(QLatin1String("phases"));
    if (const QJsonObject profiling = phaseOf(phases, QStringLiteral("profiling")); !profiling.isEmpty()) {
        load = profiling;
        requests = profiling.contains(QLatin1String("requests")) ? profiling.value(QLatin1String("requests"))
                                                                 : profiling.value(QLatin1String("request_count"));
        const QJsonObject warm = phaseOf(phases, QStringLiteral("warmup"));
        warmup = std::max(warmup, int(numberOr(warm.value(QLatin1String("requests")), 0)));
    }
    // Concurrency alone is AIPerf's burst mode, as fast as the concurrency allows: a closed loop, whatever
    // rate the file also names.
    const QString mode = load.contains(QLatin1String("type"))
        ? load.value(QLatin1String("type")).toString()
        : load.value(QLatin1String("request_rate_mode")).toString();
    const bool closed = mode == QLatin1String("concurrency") || mode == QLatin1String("concurrency_burst");
    double rate = 0;
    if (!closed
        && (numberOf(load.value(QLatin1String("request_rate")), &rate)
            || numberOf(load.value(QLatin1String("rate")), &rate))
        && rate > 0)
        run.requestRate = rate;
    else
        run.requestRate = std::numeric_limits<double>::infinity();
    putNumber(run, QStringLiteral("max_concurrency"), load.value(QLatin1String("concurrency")));
    putNumber(run, QStringLiteral("num_prompts"), requests);
    return warmup;
}

QString dateOf(const QString &iso)
{
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return t.isValid() ? t.toString(QStringLiteral("yyyyMMdd-HHmmss")) : QString();
}

struct Records {
    ResultRun arrays;
    int warmup = 0, cancelled = 0, lines = 0;
    QString error; ///< "line N: ..." when a line is not a record
};

// One record per line; warmup and cancelled records are counted and left out, as AIPerf's
// aggregates leave them out.
Records readRecords(const QString &path)
{
    Records r;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        r.error = f.errorString();
        return r;
    }
    QVector<qint64> startsNs;
    int lineNo = 0;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        ++lineNo;
        if (line.isEmpty())
            continue;
        QJsonParseError pe;
        const QJsonDocument d = QJsonDocument::fromJson(line, &pe);
        const QJsonObject meta = d.object().value(QLatin1String("metadata")).toObject();
        const QJsonObject metrics = d.object().value(QLatin1String("metrics")).toObject();
        if (!d.isObject() || meta.isEmpty()) {
            r.error = QStringLiteral("line %1: not an AIPerf record (no \"metadata\")").arg(lineNo);
            return r;
        }
        ++r.lines;
        if (meta.value(QLatin1String("benchmark_phase")).toString() == QLatin1String("warmup")) {
            ++r.warmup;
            continue;
        }
        if (meta.value(QLatin1String("was_cancelled")).toBool()) {
            ++r.cancelled;
            continue;
        }
        const auto value = [&](const char *tag, double fallback) {
            const QJsonObject m = metrics.value(QLatin1String(tag)).toObject();
            double v = 0;
            if (!numberOf(m.value(QLatin1String("value")), &v))
                return fallback;
            const double unit = msPerUnit(m.value(QLatin1String("unit")).toString());
            return unit > 0 ? v * unit / 1000.0 : v; // latencies to seconds; counts stay counts
        };
        const QJsonValue error = d.object().value(QLatin1String("error"));
        QString errorText;
        if (!error.isNull() && !error.isUndefined()) {
            const QJsonObject e = error.toObject();
            errorText = e.value(QLatin1String("message")).toString();
            if (errorText.isEmpty())
                errorText = QString::fromUtf8(QJsonDocument(e).toJson(QJsonDocument::Compact));
            if (errorText.isEmpty())
                errorText = QStringLiteral("error");
        }
        ResultRun &a = r.arrays;
        a.errors << errorText;
        a.ttfts << value("time_to_first_token", 0);
        a.latencies << value("request_latency", 0);
        a.inputLens << qint64(value("input_sequence_length", 0));
        a.outputLens << qint64(value("output_sequence_length", value("output_token_count", 0)));
        QVector<double> gaps;
        const QJsonObject icl = metrics.value(QLatin1String("inter_chunk_latency")).toObject();
        const double unit = msPerUnit(icl.value(QLatin1String("unit")).toString());
        for (const QJsonValue &g : icl.value(QLatin1String("value")).toArray()) {
            double v = 0;
            if (numberOf(g, &v))
                gaps << v * (unit > 0 ? unit : 1) / 1000.0;
        }
        a.itls << gaps;
        startsNs << qint64(numberOr(meta.value(QLatin1String("request_start_ns")), 0));
    }
    if (!startsNs.isEmpty()) {
        const qint64 first = *std::min_element(startsNs.cbegin(), startsNs.cend());
        for (qint64 s : std::as_const(startsNs))
            r.arrays.startTimes << double(s - first) / 1e9;
    }
    r.arrays.hasArrays = !r.arrays.ttfts.isEmpty();
    return r;
}

void attachRecords(ResultRun &run, const Records &rec)
{
    run.hasArrays = rec.arrays.hasArrays;
    run.ttfts = rec.arrays.ttfts;
    run.latencies = rec.arrays.latencies;
    run.inputLens = rec.arrays.inputLens;
    run.outputLens = rec.arrays.outputLens;
    run.itls = rec.arrays.itls;
    run.errors = rec.arrays.errors;
    run.startTimes = rec.arrays.startTimes;
}

// The first releases kept the metric tags under "records"; later ones at the top level.
QJsonObject withRecordsMerged(const QJsonObject &file, bool *nested)
{
    QJsonObject o = file;
    *nested = !file.contains(QLatin1String("request_count")) && file.value(QLatin1String("records")).isObject();
    if (*nested) {
        const QJsonObject records = file.value(QLatin1String("records")).toObject();
        for (auto it = records.constBegin(); it != records.constEnd(); ++it)
            o.insert(it.key(), it.value());
    }
    return o;
}

// The layout's name, and a refusal of a layout not known or of a file without the figures needed.
std::optional<ToolFile> refusedLayout(const QJsonObject &o, bool nested, QString *version)
{
    const QString schema = o.value(QLatin1String("schema_version")).toString();
    const QString aiperfVersion = o.value(QLatin1String("aiperf_version")).toString();
    *version = schema.isEmpty() ? (nested ? QStringLiteral("layout with records, without schema_version")
                                          : QStringLiteral("layout without schema_version"))
                                : QStringLiteral("aiperf %1, schema %2")
                                      .arg(aiperfVersion.isEmpty() ? QStringLiteral("?") : aiperfVersion, schema);
    if (!schema.isEmpty() && !schema.startsWith(QLatin1String("1.")))
        return refuse(QStringLiteral("AIPerf"), *version, QStringLiteral("schema_version"),
            QStringLiteral("is \"%1\"; the layouts read are the one before schema_version and 1.x").arg(schema));
    if (o.value(QLatin1String("metadata")).toObject().contains(QLatin1String("aggregation_type")))
        return refuse(QStringLiteral("AIPerf"), *version, QStringLiteral("metadata.aggregation_type"),
            QStringLiteral("marks a summary over several profile runs, not one run's profile_export_aiperf.json"));
    for (const char *needed : { "request_count", "request_latency", "time_to_first_token" }) {
        const QJsonObject m = o.value(QLatin1String(needed)).toObject();
        if (m.isEmpty() || !m.contains(QLatin1String("avg")))
            return refuse(QStringLiteral("AIPerf"), *version, QString::fromLatin1(needed),
                QStringLiteral("is missing or has no \"avg\""));
    }
    return std::nullopt;
}

// Every distribution of kDistributions the file has; a refusal when one's unit is not of time.
std::optional<ToolFile> putDistributions(ResultRun &run, const QJsonObject &o, const QString &version)
{
    for (const Mapped &m : kDistributions) {
        const QJsonObject dist = o.value(QLatin1String(m.tag)).toObject();
        if (dist.isEmpty())
            continue;
        const QString unitText = dist.value(QLatin1String("unit")).toString();
        const double unit = msPerUnit(unitText);
        if (unit <= 0)
            return refuse(QStringLiteral("AIPerf"), version, QStringLiteral("%1.unit").arg(QLatin1String(m.tag)),
                QStringLiteral("is \"%1\", not a unit of time").arg(unitText));
        putDistribution(run, QLatin1String(m.metric), dist, unit, m.servescope);
    }
    return std::nullopt;
}

// The counts, duration, token totals and throughputs; returns the completed requests (NaN unknown).
double putTotals(ResultRun &run, const QJsonObject &o)
{
    const double completed = avgOf(o, "request_count");
    run.numbers.insert(QStringLiteral("completed"), completed);
    run.numbers.insert(QStringLiteral("failed"), avgOf(o, "error_request_count", 0));
    const double duration = avgOf(o, "benchmark_duration");
    if (std::isfinite(duration))
        run.numbers.insert(QStringLiteral("duration"), duration);
    const double in = avgOf(o, "total_isl"), out = avgOf(o, "total_osl", avgOf(o, "total_output_tokens"));
    if (std::isfinite(in))
        run.numbers.insert(QStringLiteral("total_input_tokens"), in);
    if (std::isfinite(out))
        run.numbers.insert(QStringLiteral("total_output_tokens"), out);
    const double rps = avgOf(o, "request_throughput"), tps = avgOf(o, "output_token_throughput");
    if (std::isfinite(rps))
        run.numbers.insert(QStringLiteral("request_throughput"), rps);
    if (std::isfinite(tps))
        run.numbers.insert(QStringLiteral("output_throughput"), tps);
    const double total = avgOf(o, "total_token_throughput");
    if (std::isfinite(total))
        run.numbers.insert(QStringLiteral("total_token_throughput"), total);
    else if (std::isfinite(in) && std::isfinite(out) && duration > 0)
        run.numbers.insert(QStringLiteral("total_token_throughput"), (in + out) / duration);
    return completed;
}

// What the input config names: the model, the endpoint's type, the command, the artifacts' folder as the
// label; the start time as the date.
void putConfigStrings(ResultRun &run, const QJsonObject &o, const QJsonObject &config)
{
    const QJsonObject endpoint = config.value(QLatin1String("endpoint")).toObject();
    const QJsonArray models = endpoint.value(QLatin1String("model_names")).toArray();
    if (!models.isEmpty())
        run.strings.insert(QStringLiteral("model_id"), models.first().toString());
    const QString type = endpoint.value(QLatin1String("type")).toString();
    if (!type.isEmpty())
        run.strings.insert(QStringLiteral("backend"), QStringLiteral("openai-") + type);
    const QString command = config.value(QLatin1String("cli_command")).toString();
    if (!command.isEmpty())
        run.strings.insert(QStringLiteral("aiperf_command"), command);
    const QString artifacts
        = config.value(QLatin1String("output")).toObject().value(QLatin1String("artifact_directory")).toString();
    if (!artifacts.isEmpty())
        run.strings.insert(QStringLiteral("label"), QFileInfo(artifacts).fileName());
    const QString date = dateOf(o.value(QLatin1String("start_time")).toString());
    if (!date.isEmpty())
        run.strings.insert(QStringLiteral("date"), date);
}

// The per-request file beside `path`, when there is one: its arrays attached to `run`, its warmup
// records counted into `warmup`, what it lacks said in `t`'s warnings.
void attachRecordsBeside(ToolFile &t, ResultRun &run, const QString &path, double completed, int *warmup)
{
    const QString jsonl
        = siblingOf(path, QStringLiteral("profile_export_aiperf.json"), QStringLiteral("profile_export.jsonl"));
    if (jsonl.isEmpty())
        return;
    const Records rec = readRecords(jsonl);
    if (!rec.error.isEmpty()) {
        t.warnings << Reason::in(kCtx,
            QT_TRANSLATE_NOOP("ServeScope::Import", "%1: %2; the per-request records were not imported"),
            { QFileInfo(jsonl).fileName(), rec.error });
    } else if (rec.arrays.hasArrays) {
        attachRecords(run, rec);
        *warmup = std::max(*warmup, rec.warmup);
        run.numbers.insert(QStringLiteral("servescope_cancelled_requests"), rec.cancelled);
        run.strings.insert(QStringLiteral("servescope_records_file"), jsonl);
        const int stored = int(rec.arrays.ttfts.size());
        if (std::isfinite(completed) && stored < int(completed))
            t.warnings << Reason::in(kCtx,
                QT_TRANSLATE_NOOP("ServeScope::Import",
                    "%1 holds %2 of the run's %3 requests: the statistics stored are the file's own; the "
                    "requests, and what ServeScope draws from them (bands, scatter, peaks), cover those %2 only"),
                { QFileInfo(jsonl).fileName(), QString::number(stored), QString::number(int(completed)) });
    }
}

} // namespace

ToolFile readAiperf(const QString &path, const QJsonObject &file)
{
    bool nested = false;
    const QJsonObject o = withRecordsMerged(file, &nested);
    QString version;
    if (std::optional<ToolFile> refused = refusedLayout(o, nested, &version))
        return *std::move(refused);

    ResultRun run;
    ToolFile t = readOf(kTool, version);
    if (std::optional<ToolFile> refused = putDistributions(run, o, version))
        return *std::move(refused);
    const double completed = putTotals(run, o);

    const QJsonObject config = o.value(QLatin1String("input_config")).toObject();
    const QJsonObject prompt
        = config.value(QLatin1String("input")).toObject().value(QLatin1String("prompt")).toObject();
    putConfigStrings(run, o, config);
    int warmup = readLoad(config, run);
    putNumber(run, QStringLiteral("random_input_len"),
        prompt.value(QLatin1String("input_tokens")).toObject().value(QLatin1String("mean")));
    putNumber(run, QStringLiteral("random_output_len"),
        prompt.value(QLatin1String("output_tokens")).toObject().value(QLatin1String("mean")));
    if (o.value(QLatin1String("was_cancelled")).toBool())
        t.warnings << Reason::in(kCtx,
            QT_TRANSLATE_NOOP("ServeScope::Import",
                "AIPerf marks this run as cancelled: its figures cover the "
                "requests made before it stopped"),
            {});

    attachRecordsBeside(t, run, path, completed, &warmup);
    run.numbers.insert(QStringLiteral("servescope_warmup_requests"), warmup);
    addPoint(t, std::move(run),
        QStringLiteral("AIPerf: TTFT includes reasoning; inter_token_latency is stored as TPOT and "
                       "inter_chunk_latency as ITL; time_to_second_token, output_token_throughput_per_user, "
                       "prefill_throughput and GPU telemetry have no ServeScope metric and are not stored"));
    return t;
}

ToolFile readAiperfRecords(const QString &path)
{
    const Records rec = readRecords(path);
    if (!rec.error.isEmpty())
        return refuse(
            QStringLiteral("AIPerf"), QStringLiteral("profile_export.jsonl"), QStringLiteral("metadata"), rec.error);
    ToolFile t = readOf(kTool, QStringLiteral("per-request records"));
    ResultRun run;
    attachRecords(run, rec);
    const int failed = int(rec.arrays.errors.nonEmptyCount());
    run.numbers.insert(QStringLiteral("completed"), rec.arrays.ttfts.size() - failed);
    run.numbers.insert(QStringLiteral("failed"), failed);
    run.numbers.insert(QStringLiteral("servescope_warmup_requests"), rec.warmup);
    run.numbers.insert(QStringLiteral("servescope_cancelled_requests"), rec.cancelled);
    if (!rec.arrays.startTimes.isEmpty()) {
        double end = 0;
        for (qsizetype i = 0; i < rec.arrays.startTimes.size(); ++i)
            end = std::max(end, rec.arrays.startTimes.at(i) + rec.arrays.latencies.value(i));
        if (end > 0)
            run.numbers.insert(QStringLiteral("duration"), end);
    }
    run.requestRate = std::numeric_limits<double>::quiet_NaN();
    addPoint(t, std::move(run),
        QStringLiteral("AIPerf per-request records without profile_export_aiperf.json: every statistic is "
                       "recomputed from the records with vLLM's definitions; the duration is first start to last "
                       "end"));
    t.warnings << Reason::in(kCtx,
        QT_TRANSLATE_NOOP("ServeScope::Import",
            "AIPerf's per-request records alone: the statistics are recomputed from them (import "
            "profile_export_aiperf.json for the figures AIPerf published)"),
        {});
    return t;
}

} // namespace ServeScope::ToolRead
