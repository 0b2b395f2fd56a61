// SPDX-License-Identifier: MIT
// llm-d Benchmark Report v0.2 (YAML or JSON): results.request_performance.aggregate, every metric
// with its units; v0.1's metrics section read in v0.2's places.
#include "import/toolformat.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <utility>

namespace ServeScope::ToolRead {

namespace {

const QString kTool = QStringLiteral("llm-d");
const QString kName = QStringLiteral("llm-d Benchmark Report");

QJsonValue at(const QJsonObject &o, const QString &dotted)
{
    QJsonValue v = o;
    for (const QString &part : dotted.split(u'.'))
        v = v.toObject().value(part);
    return v;
}

// ISO 8601 "PT49.97S", "PT1M2.5S", "PT1H": seconds; NaN otherwise.
double isoSeconds(const QString &s)
{
    static const QRegularExpression re(
        QStringLiteral("^PT(?:(\\d+(?:\\.\\d+)?)H)?(?:(\\d+(?:\\.\\d+)?)M)?(?:(\\d+(?:\\.\\d+)?)S)?$"));
    const QRegularExpressionMatch m = re.match(s.trimmed());
    if (!m.hasMatch() || s.trimmed() == QLatin1String("PT"))
        return std::numeric_limits<double>::quiet_NaN();
    return m.captured(1).toDouble() * 3600 + m.captured(2).toDouble() * 60 + m.captured(3).toDouble();
}

QJsonObject object(std::initializer_list<QPair<QString, QJsonValue>> items)
{
    QJsonObject o;
    for (const auto &[key, value] : items) {
        if (!value.isUndefined() && !value.isNull())
            o.insert(key, value);
    }
    return o;
}

// A v0.1 report in v0.2's places: metrics.{requests, latency} as the aggregate, its flat
// throughputs as rates' means, its seconds and epoch time as ISO text, scenario.model and
// scenario.load.name as the stack's model and the harness. Its load arguments are the harness's
// own (no rate or concurrency is standardised), so none is read.
QJsonObject fromV01(const QJsonObject &o)
{
    const QJsonObject metrics = o.value(QLatin1String("metrics")).toObject();
    const QJsonObject flat = metrics.value(QLatin1String("throughput")).toObject();
    QJsonObject throughput;
    for (const auto &[from, to] :
        { std::pair { "requests_per_sec", "request_rate" }, std::pair { "output_tokens_per_sec", "output_token_rate" },
            std::pair { "total_tokens_per_sec", "total_token_rate" } }) {
        if (flat.contains(QLatin1String(from)))
            throughput.insert(
                QLatin1String(to), object({ { QStringLiteral("mean"), flat.value(QLatin1String(from)) } }));
    }
    const QJsonObject time = metrics.value(QLatin1String("time")).toObject();
    double v = 0;
    QJsonValue duration, start;
    if (numberOf(time.value(QLatin1String("duration")), &v))
        duration = QStringLiteral("PT%1S").arg(QString::number(v, 'g', 17));
    if (numberOf(time.value(QLatin1String("start")), &v))
        start = QDateTime::fromMSecsSinceEpoch(qint64(v * 1000), Qt::UTC).toString(Qt::ISODate);
    const QJsonObject scenario = o.value(QLatin1String("scenario")).toObject();
    const QJsonObject engine = at(scenario, QStringLiteral("platform.engine")).toArray().first().toObject();
    const QJsonObject component = object(
        { { QStringLiteral("metadata"), object({ { QStringLiteral("kind"), QStringLiteral("inference_engine") } }) },
            { QStringLiteral("standardized"),
                object({ { QStringLiteral("model"),
                             object({ { QStringLiteral("name"), at(scenario, QStringLiteral("model.name")) } }) },
                    { QStringLiteral("tool_version"),
                        engine.isEmpty() ? QJsonValue()
                                         : QJsonValue(engine.value(QLatin1String("name")).toString() + u' '
                                             + engine.value(QLatin1String("version")).toVariant().toString()) } }) } });
    return object({ { QStringLiteral("version"), o.value(QLatin1String("version")) },
        { QStringLiteral("run"),
            object({ { QStringLiteral("description"), scenario.value(QLatin1String("description")) },
                { QStringLiteral("time"),
                    object({ { QStringLiteral("start"), start }, { QStringLiteral("duration"), duration } }) } }) },
        { QStringLiteral("scenario"),
            object({ { QStringLiteral("stack"), QJsonArray { component } },
                { QStringLiteral("load"),
                    object({ { QStringLiteral("standardized"),
                        object({ { QStringLiteral("tool"), at(scenario, QStringLiteral("load.name")) } }) } }) } }) },
        { QStringLiteral("results"),
            object({ { QStringLiteral("request_performance"),
                object({ { QStringLiteral("aggregate"),
                    object({ { QStringLiteral("requests"), metrics.value(QLatin1String("requests")) },
                        { QStringLiteral("latency"), metrics.value(QLatin1String("latency")) },
                        { QStringLiteral("throughput"), throughput } }) } }) } }) } });
}

// The harness that measured the report, as its load section names it.
struct Harness {
    QString name;
    QString named; // name and version, as the warning and the note show it
    QJsonObject nativeConfig; // ServeScope's own reports: the run, the variant and the definitions
    bool servescope = false;
    QString definitions;
    bool vllmItl = false; // its ITL is vLLM's
};

Harness harnessOf(const QJsonObject &o)
{
    Harness h;
    h.name = at(o, QStringLiteral("scenario.load.standardized.tool")).toString();
    const QString harnessVersion
        = at(o, QStringLiteral("scenario.load.standardized.tool_version")).toVariant().toString();
    h.named = QString(h.name + u' ' + harnessVersion).trimmed();
    // ServeScope's own reports name the definitions they were measured under; under vLLM's, its ITL
    // is vLLM's.
    h.nativeConfig = at(o, QStringLiteral("scenario.load.native.config")).toObject();
    h.servescope = h.name == QLatin1String("servescope");
    h.definitions = h.nativeConfig.value(QLatin1String("definitions")).toString();
    h.vllmItl = h.name.startsWith(QLatin1String("vllm")) || (h.servescope && h.definitions == QLatin1String("vllm"));
    return h;
}

// The report carries its harness's figures unchanged; TTFT, TPOT and latency are stored, ITL only
// from vLLM's own benchmark (others pool one gap per token or per chunk differently). A refusal when
// a distribution's units are not of time.
std::optional<ToolFile> putLatencies(
    ResultRun &run, const QJsonObject &latency, bool vllmItl, const QString &place, const QString &shownVersion)
{
    struct Mapped {
        const char *key;
        const char *metric;
        bool servescope;
    };
    const Mapped mapped[] = { { "time_to_first_token", "ttft", false }, { "time_per_output_token", "tpot", false },
        { "request_latency", "e2el", false }, { vllmItl ? "inter_token_latency" : "", "itl", false } };
    for (const Mapped &m : mapped) {
        if (!*m.key)
            continue;
        const QJsonObject dist = latency.value(QLatin1String(m.key)).toObject();
        if (dist.isEmpty())
            continue;
        const QString units = dist.value(QLatin1String("units")).toString();
        const double unit = msPerUnit(units);
        if (unit <= 0)
            return refuse(kName, shownVersion, QStringLiteral("%1.latency.%2.units").arg(place, QLatin1String(m.key)),
                QStringLiteral("is \"%1\", not a unit of time").arg(units));
        putDistribution(run, QLatin1String(m.metric), dist, unit, m.servescope);
    }
    return std::nullopt;
}

// The request counts, the throughputs' means, the duration and the token totals.
void putTotals(ResultRun &run, const QJsonObject &o, const QJsonObject &requests, const QJsonObject &throughput)
{
    const double total = numberOr(requests.value(QLatin1String("total")), 0);
    const double failures = numberOr(requests.value(QLatin1String("failures")), 0);
    const double incomplete = numberOr(requests.value(QLatin1String("incomplete")), 0);
    run.numbers.insert(QStringLiteral("completed"), total - failures - incomplete);
    run.numbers.insert(QStringLiteral("failed"), failures);
    run.numbers.insert(QStringLiteral("num_prompts"), total);
    const auto mean = [&](const char *key, const char *to) {
        putNumber(run, QLatin1String(to), throughput.value(QLatin1String(key)).toObject().value(QLatin1String("mean")));
    };
    mean("request_rate", "request_throughput");
    mean("output_token_rate", "output_throughput");
    mean("total_token_rate", "total_token_throughput");
    const double duration = isoSeconds(at(o, QStringLiteral("run.time.duration")).toString());
    if (std::isfinite(duration) && duration > 0)
        run.numbers.insert(QStringLiteral("duration"), duration);
    const auto lengthTotal = [&](const char *key, const char *to) {
        double v = 0;
        if (numberOf(requests.value(QLatin1String(key)).toObject().value(QLatin1String("mean")), &v))
            run.numbers.insert(QLatin1String(to), std::round(v * (total - failures - incomplete)));
    };
    lengthTotal("input_length", "total_input_tokens");
    lengthTotal("output_length", "total_output_tokens");
}

// The model: an inference engine's, else any component's that names one. The kind is in
// metadata since the schema's later revisions, in standardized before.
void putModel(ResultRun &run, const QJsonObject &o)
{
    for (const bool engineOnly : { true, false }) {
        if (run.strings.contains(QStringLiteral("model_id")))
            break;
        for (const QJsonValue &c : at(o, QStringLiteral("scenario.stack")).toArray()) {
            const QJsonObject standard = c.toObject().value(QLatin1String("standardized")).toObject();
            const QString kind = at(c.toObject(), QStringLiteral("metadata.kind"))
                                     .toString(standard.value(QLatin1String("kind")).toString());
            const QString model = at(standard, QStringLiteral("model.name")).toString();
            if ((!engineOnly || kind == QLatin1String("inference_engine")) && !model.isEmpty()) {
                run.strings.insert(QStringLiteral("model_id"), model);
                run.strings.insert(QStringLiteral("llm_d_engine"),
                    standard.value(QLatin1String("tool_version")).toVariant().toString());
                break;
            }
        }
    }
}

// The standardized load: its rate, stage, concurrency and lengths.
void putLoad(ResultRun &run, const QJsonObject &o)
{
    const QJsonObject load = at(o, QStringLiteral("scenario.load.standardized")).toObject();
    double v = 0;
    // Without a rate the load is closed: vLLM's infinite rate under a concurrency.
    run.requestRate = numberOf(load.value(QLatin1String("rate_qps")), &v) ? v : std::numeric_limits<double>::infinity();
    putNumber(run, QLatin1String(kStageKey), load.value(QLatin1String("stage")));
    if (numberOf(load.value(QLatin1String("concurrency")), &v) && std::isfinite(v) && v > 0)
        run.numbers.insert(QStringLiteral("max_concurrency"), v);
    putNumber(run, QStringLiteral("random_input_len"), at(load, QStringLiteral("input_seq_len.value")));
    putNumber(run, QStringLiteral("random_output_len"), at(load, QStringLiteral("output_seq_len.value")));
}

// The run's name: ServeScope's run and variant, else the description, else the experiment id
// (shared by the reports of one experiment, so a folder of its stages becomes one run's points);
// and the date it started.
void putLabelAndDate(ResultRun &run, const QJsonObject &o, const Harness &harness)
{
    QString label = harness.servescope && harness.nativeConfig.contains(QLatin1String("variant"))
        ? harness.nativeConfig.value(QLatin1String("run")).toString() + u'/'
            + harness.nativeConfig.value(QLatin1String("variant")).toString()
        : at(o, QStringLiteral("run.description")).toString();
    for (const char *id : { "run.eid", "run.uid" }) {
        if (label.isEmpty())
            label = at(o, QLatin1String(id)).toVariant().toString();
    }
    if (!label.isEmpty())
        run.strings.insert(QStringLiteral("label"), label);
    const QDateTime start = QDateTime::fromString(at(o, QStringLiteral("run.time.start")).toString(), Qt::ISODate);
    if (start.isValid())
        run.strings.insert(QStringLiteral("date"), start.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss")));
}

} // namespace

ToolFile readBenchmarkReport(const QString &path, const QJsonObject &file)
{
    Q_UNUSED(path)
    const QString version = file.value(QLatin1String("version")).toVariant().toString();
    const QString shownVersion = QStringLiteral("v") + version;
    const bool v01 = version == QLatin1String("0.1") || version.startsWith(QLatin1String("0.1."));
    if (!v01 && version != QLatin1String("0.2") && !version.startsWith(QLatin1String("0.2.")))
        return refuse(kName, shownVersion, QStringLiteral("version"),
            QStringLiteral("is \"%1\"; the layouts read are 0.1 and 0.2").arg(version));
    if (v01 && !file.value(QLatin1String("metrics")).isObject())
        return refuse(kName, shownVersion, QStringLiteral("metrics"), QStringLiteral("is missing"));
    const QJsonObject o = v01 ? fromV01(file) : file;
    const QString place = v01 ? QStringLiteral("metrics") : QStringLiteral("results.request_performance.aggregate");
    const QJsonObject aggregate = at(o, QStringLiteral("results.request_performance.aggregate")).toObject();
    if (aggregate.isEmpty())
        return refuse(kName, shownVersion, place, QStringLiteral("is missing"));
    const QJsonObject latency = aggregate.value(QLatin1String("latency")).toObject();
    const QJsonObject requests = aggregate.value(QLatin1String("requests")).toObject();
    for (const char *needed : { "time_to_first_token", "request_latency" }) {
        if (!latency.value(QLatin1String(needed)).isObject())
            return refuse(kName, shownVersion, QStringLiteral("%1.latency.%2").arg(place, QLatin1String(needed)),
                QStringLiteral("is missing"));
    }
    if (!requests.contains(QLatin1String("total")))
        return refuse(kName, shownVersion, place + QStringLiteral(".requests.total"), QStringLiteral("is missing"));

    ToolFile t = readOf(kTool, shownVersion);
    ResultRun run;
    const Harness harness = harnessOf(o);
    if (harness.servescope && !harness.definitions.isEmpty())
        run.strings.insert(QStringLiteral("servescope_definitions"), harness.definitions);
    if (std::optional<ToolFile> refused = putLatencies(run, latency, harness.vllmItl, place, shownVersion))
        return *std::move(refused);
    putTotals(run, o, requests, aggregate.value(QLatin1String("throughput")).toObject());
    putModel(run, o);
    if (!harness.name.isEmpty())
        run.strings.insert(QStringLiteral("llm_d_harness"), harness.named);
    putLoad(run, o);
    putLabelAndDate(run, o, harness);
    t.warnings << Reason::in(kCtx,
        QT_TRANSLATE_NOOP("ServeScope::Import",
            "an llm-d Benchmark Report carries its harness's figures as that harness defines them (%1): TTFT, "
            "TPOT and latency are stored; ITL only from vLLM's benchmark or ServeScope under vLLM's definitions; "
            "throughput is the report's mean rate"),
        { harness.name.isEmpty() ? QStringLiteral("harness not named") : harness.named });
    addPoint(t, std::move(run),
        QStringLiteral("llm-d Benchmark Report: figures as the harness defined them, converted by units; "
                       "normalized_time_per_output_token includes TTFT and is not stored; no per-request records"),
        shownVersion + (harness.name.isEmpty() ? QString() : QStringLiteral(", harness ") + harness.named));
    return t;
}

} // namespace ServeScope::ToolRead
