// SPDX-License-Identifier: MIT
// genai-bench: a scenario result file ({aggregated_metrics, individual_request_metrics, _time_unit})
// with the experiment_metadata.json of its folder; the metadata file itself imports every scenario
// file of the folder.
#include "import/toolformat.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ServeScope::ToolRead {

namespace {

const QString kTool = QStringLiteral("genai-bench");
const QString kName = QStringLiteral("genai-bench");
const QString kMetadata = QStringLiteral("experiment_metadata.json");

QJsonObject readObject(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() > (qint64(128) << 20))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// "X__D100_100...json" keeps its metadata as "X__experiment_metadata.json" when files of several
// experiments share a folder; otherwise it is experiment_metadata.json.
QString metadataBeside(const QString &path)
{
    const QFileInfo fi(path);
    const QString plain = fi.dir().filePath(kMetadata);
    if (QFileInfo::exists(plain))
        return plain;
    const int cut = fi.fileName().indexOf(QLatin1String("__"));
    if (cut > 0) {
        const QString prefixed = fi.dir().filePath(fi.fileName().left(cut + 2) + kMetadata);
        if (QFileInfo::exists(prefixed))
            return prefixed;
    }
    return {};
}

// The scenario files of a metadata file's folder (the same prefix when it has one).
QStringList scenariosBeside(const QString &metadataPath)
{
    const QFileInfo fi(metadataPath);
    const QString prefix = fi.fileName().left(fi.fileName().size() - kMetadata.size());
    QStringList out;
    const QStringList names = fi.dir().entryList({ prefix + QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    for (const QString &name : names) {
        const QString p = fi.dir().filePath(name);
        if (p != fi.filePath() && readObject(p).contains(QLatin1String("aggregated_metrics")))
            out << p;
    }
    return out;
}

QString unitOf(const QJsonObject &scenario, const QJsonObject &metadata, bool *assumed)
{
    QString u = scenario.value(QLatin1String("_time_unit")).toString();
    if (u.isEmpty())
        u = metadata.value(QLatin1String("metrics_time_unit")).toString();
    *assumed = u.isEmpty();
    return u.isEmpty() ? QStringLiteral("s") : u;
}

// A refusal of a scenario without the statistics and counts a point needs.
std::optional<ToolFile> refusedLayout(const QJsonObject &agg, const QString &version)
{
    const QJsonObject stats = agg.value(QLatin1String("stats")).toObject();
    for (const char *needed : { "ttft", "tpot", "e2e_latency" }) {
        if (!stats.value(QLatin1String(needed)).isObject())
            return refuse(kName, version, QStringLiteral("aggregated_metrics.stats.%1").arg(QLatin1String(needed)),
                QStringLiteral("is missing"));
    }
    for (const char *needed : { "num_completed_requests", "run_duration" }) {
        if (!agg.contains(QLatin1String(needed)))
            return refuse(kName, version, QStringLiteral("aggregated_metrics.%1").arg(QLatin1String(needed)),
                QStringLiteral("is missing"));
    }
    return std::nullopt;
}

// The aggregated metrics: distributions in `unit` milliseconds per value, counts, throughputs, token
// totals, the concurrency and the scenario's lengths.
void putAggregates(ResultRun &run, const QJsonObject &agg, double unit)
{
    const QJsonObject stats = agg.value(QLatin1String("stats")).toObject();
    putDistribution(run, QStringLiteral("ttft"), stats.value(QLatin1String("ttft")).toObject(), unit);
    putDistribution(run, QStringLiteral("ttfc"), stats.value(QLatin1String("ttft")).toObject(), unit, true);
    putDistribution(run, QStringLiteral("tpot"), stats.value(QLatin1String("tpot")).toObject(), unit);
    putDistribution(run, QStringLiteral("e2el"), stats.value(QLatin1String("e2e_latency")).toObject(), unit);
    const auto copy
        = [&](const char *from, const char *to) { putNumber(run, QLatin1String(to), agg.value(QLatin1String(from))); };
    copy("num_completed_requests", "completed");
    copy("num_error_requests", "failed");
    copy("run_duration", "duration");
    copy("requests_per_second", "request_throughput");
    copy("mean_output_throughput_tokens_per_s", "output_throughput");
    copy("mean_total_tokens_throughput_tokens_per_s", "total_token_throughput");
    copy("num_requests", "num_prompts");
    putNumber(run, QStringLiteral("total_input_tokens"),
        stats.value(QLatin1String("num_input_tokens")).toObject().value(QLatin1String("sum")));
    putNumber(run, QStringLiteral("total_output_tokens"),
        stats.value(QLatin1String("num_output_tokens")).toObject().value(QLatin1String("sum")));
    run.requestRate = std::numeric_limits<double>::infinity();
    putNumber(run, QStringLiteral("max_concurrency"), agg.value(QLatin1String("num_concurrency")));
    const QString scenario = agg.value(QLatin1String("scenario")).toString();
    if (!scenario.isEmpty()) {
        run.strings.insert(QStringLiteral("genai_bench_scenario"), scenario);
        static const QRegularExpression re(QStringLiteral("^[A-Z]\\((\\d+),(\\d+)\\)$"));
        const QRegularExpressionMatch m = re.match(scenario);
        if (m.hasMatch()) {
            run.numbers.insert(QStringLiteral("random_input_len"), m.captured(1).toDouble());
            run.numbers.insert(QStringLiteral("random_output_len"), m.captured(2).toDouble());
        }
    }
}

// What experiment_metadata.json names: the model, tokenizer, backend, task, command and folder.
void putMetadata(ResultRun &run, const QJsonObject &metadata)
{
    const auto meta = [&](const char *from, const char *to) {
        const QString s = metadata.value(QLatin1String(from)).toString();
        if (!s.isEmpty())
            run.strings.insert(QLatin1String(to), s);
    };
    meta("api_model_name", "model_id");
    meta("server_model_tokenizer", "tokenizer_id");
    meta("api_backend", "genai_bench_api_backend");
    meta("task", "genai_bench_task");
    meta("cmd", "genai_bench_command");
    const QString folder = metadata.value(QLatin1String("experiment_folder_name")).toString();
    if (!folder.isEmpty())
        run.strings.insert(QStringLiteral("label"), QFileInfo(folder).fileName());
}

// Per-request records: TTFT and latency, no chunk times.
void putRecords(ResultRun &run, const QJsonObject &o, double unit)
{
    const QJsonArray records = o.value(QLatin1String("individual_request_metrics")).toArray();
    for (const QJsonValue &rv : records) {
        const QJsonObject r = rv.toObject();
        const QJsonValue code = r.value(QLatin1String("error_code"));
        QString error;
        if (!code.isNull() && !code.isUndefined()) {
            error = r.value(QLatin1String("error_message")).toString();
            if (error.isEmpty())
                error = QStringLiteral("error %1").arg(code.toVariant().toString());
        }
        run.errors << error;
        run.ttfts << numberOr(r.value(QLatin1String("ttft")), 0) * unit / 1000.0;
        run.latencies << numberOr(r.value(QLatin1String("e2e_latency")), 0) * unit / 1000.0;
        run.inputLens << qint64(numberOr(r.value(QLatin1String("num_input_tokens")), 0));
        run.outputLens << qint64(numberOr(r.value(QLatin1String("num_output_tokens")), 0));
    }
    run.hasArrays = !records.isEmpty();
}

ToolFile readScenario(const QString &path, const QJsonObject &o, const QJsonObject &metadata, const QString &version)
{
    const QJsonObject agg = o.value(QLatin1String("aggregated_metrics")).toObject();
    if (std::optional<ToolFile> refused = refusedLayout(agg, version))
        return *std::move(refused);
    bool assumed = false;
    const QString unitText = unitOf(o, metadata, &assumed);
    const double unit = msPerUnit(unitText);
    if (unit <= 0)
        return refuse(kName, version, QStringLiteral("_time_unit"),
            QStringLiteral("is \"%1\", not a unit of time").arg(unitText));

    ToolFile t = readOf(kTool, version);
    if (assumed)
        t.warnings << Reason::in(kCtx,
            QT_TRANSLATE_NOOP("ServeScope::Import",
                "genai-bench file without _time_unit and no experiment_metadata.json beside it: times read as "
                "seconds, genai-bench's default"),
            {});
    ResultRun run;
    putAggregates(run, agg, unit);
    putMetadata(run, metadata);
    putRecords(run, o, unit);
    addPoint(t, std::move(run),
        QStringLiteral("genai-bench: tpot is (e2e_latency - ttft) / (output tokens - 1), vLLM's TPOT; TTFT includes "
                       "reasoning; no per-chunk times, so no ITL; times in %1 (_time_unit)")
            .arg(unitText));
    Q_UNUSED(path)
    return t;
}

} // namespace

ToolFile readGenaiBench(const QString &path, const QJsonObject &o)
{
    if (o.contains(QLatin1String("aggregated_metrics"))) {
        const QString metaPath = metadataBeside(path);
        const QJsonObject metadata = metaPath.isEmpty() ? QJsonObject() : readObject(metaPath);
        const QString bv = metadata.value(QLatin1String("benchmark_version")).toString();
        const QString version = bv.isEmpty() ? QStringLiteral("version unknown (no experiment_metadata.json)") : bv;
        return readScenario(path, o, metadata, version);
    }
    // experiment_metadata.json: every scenario file of its folder.
    const QString version = o.value(QLatin1String("benchmark_version")).toString();
    const QStringList scenarios = scenariosBeside(path);
    if (scenarios.isEmpty())
        return refuse(kName, version, QStringLiteral("aggregated_metrics"),
            QStringLiteral("is in no scenario file beside this experiment_metadata.json"));
    ToolFile all;
    all.kind = ToolFile::Kind::Read;
    all.tool = kTool;
    all.version = version;
    for (const QString &s : scenarios) {
        ToolFile one = readScenario(s, readObject(s), o, version);
        if (one.kind != ToolFile::Kind::Read)
            return one;
        all.runs << one.runs;
        for (const Reason &w : std::as_const(one.warnings)) {
            const bool seen = std::any_of(
                all.warnings.cbegin(), all.warnings.cend(), [&](const Reason &r) { return r.text() == w.text(); });
            if (!seen)
                all.warnings << w;
        }
    }
    return all;
}

} // namespace ServeScope::ToolRead
