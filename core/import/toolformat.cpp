// SPDX-License-Identifier: MIT
// Which tool wrote a result file, sniffed from its keys, and the helpers every tool's reader shares.
#include "import/toolformat.h"

#include "import/yamlsubset.h"
#include "resultfiles/quotedjson.h"
#include "resultfiles/resultsax.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ServeScope {

namespace ToolRead {

bool numberOf(const QJsonValue &v, double *out)
{
    if (v.isDouble()) {
        *out = v.toDouble();
        return std::isfinite(*out);
    }
    if (v.isString()) {
        bool ok = false;
        const double d = v.toString().trimmed().toDouble(&ok);
        if (ok && std::isfinite(d)) {
            *out = d;
            return true;
        }
    }
    return false;
}

double numberOr(const QJsonValue &v, double fallback)
{
    double d = 0;
    return numberOf(v, &d) ? d : fallback;
}

bool putNumber(ResultRun &run, const QString &key, const QJsonValue &v)
{
    double d = 0;
    if (!numberOf(v, &d))
        return false;
    run.numbers.insert(key, d);
    return true;
}

ToolFile readOf(const QString &tool, const QString &version)
{
    ToolFile t;
    t.kind = ToolFile::Kind::Read;
    t.tool = tool;
    t.version = version;
    return t;
}

void addPoint(ToolFile &t, ResultRun run, const QString &note, const QString &toolVersion)
{
    run.source = t.tool;
    run.strings.insert(QStringLiteral("servescope_tool_version"), toolVersion.isEmpty() ? t.version : toolVersion);
    run.strings.insert(QStringLiteral("servescope_import_note"), note);
    t.runs << std::move(run);
}

double msPerUnit(const QString &unit)
{
    const QString u = unit.trimmed().toLower();
    if (u == QLatin1String("ms") || u == QLatin1String("milliseconds") || u == QLatin1String("ms/token"))
        return 1;
    if (u == QLatin1String("s") || u == QLatin1String("sec") || u == QLatin1String("seconds")
        || u == QLatin1String("s/token"))
        return 1000;
    if (u == QLatin1String("us") || u == QLatin1String("microseconds"))
        return 1e-3;
    if (u == QLatin1String("ns") || u == QLatin1String("nanoseconds"))
        return 1e-6;
    return 0;
}

void putStatistic(ResultRun &run, const QString &metric, QString stat, double valueMs, bool servescope)
{
    if (!std::isfinite(valueMs))
        return;
    if (stat == QLatin1String("avg"))
        stat = QStringLiteral("mean");
    else if (stat == QLatin1String("stddev") || stat == QLatin1String("std_dev"))
        stat = QStringLiteral("std");
    else if (stat == QLatin1String("p50"))
        stat = QStringLiteral("median");
    else if (stat.startsWith(QLatin1String("quantiles_p")))
        stat = stat.mid(10);
    if (stat != QLatin1String("mean") && stat != QLatin1String("std") && stat != QLatin1String("median")) {
        if (!stat.startsWith(u'p'))
            return; // min, max, mode, variance, sum, count: ServeScope keeps none of them
        QString digits = stat.mid(1);
        bool ok = false;
        // llm-d writes 99.9 as p99p9, GuideLLM 0.1 as p001 and 99.9 as p999.
        if (digits.contains(u'p'))
            digits.replace(u'p', u'.');
        else if (digits.size() == 3 && !digits.contains(u'.'))
            digits = digits.left(2) + u'.' + digits.mid(2);
        const double p = digits.toDouble(&ok);
        if (!ok || p <= 0 || p >= 100)
            return;
        if (p == 50)
            stat = QStringLiteral("median");
        else
            stat = u'p' + percentileKey(p);
    }
    const QString key
        = (servescope ? QStringLiteral("servescope_") : QString()) + stat + u'_' + metric + QStringLiteral("_ms");
    run.numbers.insert(key, valueMs);
    if (stat == QLatin1String("median"))
        run.numbers.insert((servescope ? QStringLiteral("servescope_") : QString()) + QStringLiteral("p50_") + metric
                + QStringLiteral("_ms"),
            valueMs);
}

void putDistribution(ResultRun &run, const QString &metric, const QJsonObject &dist, double unitMs, bool servescope,
    const QString &percentileObject)
{
    for (auto it = dist.constBegin(); it != dist.constEnd(); ++it) {
        double v = 0;
        if (numberOf(it.value(), &v))
            putStatistic(run, metric, it.key(), v * unitMs, servescope);
    }
    if (!percentileObject.isEmpty()) {
        const QJsonObject p = dist.value(percentileObject).toObject();
        for (auto it = p.constBegin(); it != p.constEnd(); ++it) {
            double v = 0;
            if (numberOf(it.value(), &v))
                putStatistic(run, metric, it.key(), v * unitMs, servescope);
        }
    }
}

QString siblingOf(const QString &path, const QString &suffix, const QString &sibling)
{
    const QFileInfo fi(path);
    const QString name = fi.fileName();
    if (!name.endsWith(suffix))
        return {};
    const QString other = fi.dir().filePath(name.left(name.size() - suffix.size()) + sibling);
    return QFileInfo::exists(other) ? other : QString();
}

ToolFile refuse(const QString &tool, const QString &version, const QString &key, const QString &found)
{
    ToolFile t;
    t.kind = ToolFile::Kind::Refused;
    t.tool = tool;
    t.version = version;
    t.refusal = Reason::in(kCtx,
        QT_TRANSLATE_NOOP("ServeScope::Import",
            "looks like a result of %1 (%2), but its layout is not one ServeScope reads: key \"%3\" %4; "
            "nothing was imported"),
        { tool, version.isEmpty() ? QStringLiteral("version unknown") : version, key, found });
    return t;
}

} // namespace ToolRead

namespace {

using namespace ToolRead;

constexpr qint64 kMaxWholeBytes = qint64(128) << 20;

bool hasUnitMetric(const QJsonObject &o, const char *tag)
{
    const QJsonObject m = o.value(QLatin1String(tag)).toObject();
    return m.contains(QLatin1String("unit")) && (m.contains(QLatin1String("avg")) || m.contains(QLatin1String("p50")));
}

ToolFile sniffObject(const QString &path, const QJsonObject &o)
{
    if (o.contains(QLatin1String("completed")))
        return {}; // vLLM and SGLang
    if (o.value(QLatin1String("benchmarks")).isArray())
        return readGuidellm(path, o);
    if (o.contains(QLatin1String("aggregated_metrics"))
        || (o.contains(QLatin1String("benchmark_version")) && o.contains(QLatin1String("traffic_scenario"))))
        return readGenaiBench(path, o);
    if (o.contains(QLatin1String("load_summary")) && o.contains(QLatin1String("successes")))
        return readInferencePerf(path, o);
    if (o.contains(QLatin1String("results_ttft_s_mean")) || o.contains(QLatin1String("results_num_completed_requests"))
        || o.value(QLatin1String("version")).toString() == QLatin1String("2023-08-31"))
        return readLlmperf(path, o);
    const QJsonObject records = o.value(QLatin1String("records")).toObject();
    if (o.contains(QLatin1String("aiperf_version")) || hasUnitMetric(o, "time_to_first_token")
        || hasUnitMetric(o, "request_latency") || hasUnitMetric(records, "request_latency")
        || o.value(QLatin1String("input_config")).isObject())
        return readAiperf(path, o);
    // A Benchmark Report: v0.2 keeps results.request_performance, v0.1 metrics; both describe a scenario.
    if (o.value(QLatin1String("version")).isString()
        && (o.value(QLatin1String("scenario")).isObject()
            || o.value(QLatin1String("results")).toObject().contains(QLatin1String("request_performance"))))
        return readBenchmarkReport(path, o);
    if (o.contains(QLatin1String("Time taken for tests (s)")) || o.contains(QLatin1String("Average latency (s)")))
        return refuse(QStringLiteral("EvalScope perf"), {}, QStringLiteral("Time taken for tests (s)"),
            QStringLiteral("is EvalScope's summary, which ServeScope does not read yet"));
    return {};
}

QByteArray firstLine(QFile &f)
{
    f.seek(0);
    QByteArray line = f.readLine(qint64(16) << 20);
    f.seek(0);
    return line;
}

ToolFile sniffFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {}; // the stream reports it
    const QByteArray head = f.peek(4096);
    qsizetype i = head.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (i < head.size() && QChar::isSpace(uchar(head.at(i))))
        ++i;
    if (i >= head.size())
        return {};
    const char c = head.at(i);
    if (c == '[') {
        if (f.size() > kMaxWholeBytes)
            return {};
        const QJsonDocument d = QJsonDocument::fromJson(f.readAll());
        const QJsonArray a = d.array();
        const QJsonObject first = a.isEmpty() ? QJsonObject() : a.first().toObject();
        if (first.contains(QLatin1String("ttft_s")) || first.contains(QLatin1String("end_to_end_latency_s")))
            return readLlmperfRecords(path, a);
        return {};
    }
    if (c == '{') {
        // A vLLM or SGLang file (its count among the first object's keys, and not an AIPerf record's
        // two) is the stream's: read here as it streams, never as a document of its first line.
        QuotedJson first(&f, 0, f.size());
        QList<QByteArray> keys;
        if (firstObjectKeys(first, { "completed", "metadata", "metrics" }, &keys) && keys.contains("completed")
            && !(keys.contains("metadata") && keys.contains("metrics")))
            return {};
        const QJsonDocument line = QJsonDocument::fromJson(firstLine(f));
        const QJsonObject lo = line.object();
        if (lo.value(QLatin1String("metadata")).isObject() && lo.value(QLatin1String("metrics")).isObject())
            return readAiperfRecords(path);
        if (line.isObject())
            return sniffObject(path, lo); // one object per line, or the whole file on one line
        // A pretty-printed vLLM object names its count near the top: not parsed twice.
        static const QRegularExpression completed(QStringLiteral("\"completed\"\\s*:"));
        if (completed.match(QString::fromUtf8(f.peek(64 * 1024))).hasMatch() || f.size() > kMaxWholeBytes)
            return {};
        const QJsonDocument whole = QJsonDocument::fromJson(f.readAll());
        return whole.isObject() ? sniffObject(path, whole.object()) : ToolFile {};
    }
    // Not JSON: an llm-d Benchmark Report in YAML is the one other layout read.
    if (f.size() > kMaxWholeBytes)
        return {};
    const QByteArray text = f.readAll();
    if (!text.contains("version:"))
        return {};
    QString error;
    int errorLine = 0;
    const QJsonValue v = Yaml::parse(text, &error, &errorLine);
    if (!error.isEmpty()) {
        if (!text.contains("\nscenario:") && !text.contains("\nresults:") && !text.contains("\nmetrics:"))
            return {};
        ToolFile t;
        t.kind = ToolFile::Kind::Refused;
        t.tool = QStringLiteral("llm-d Benchmark Report");
        t.refusal = Reason::in(kCtx,
            QT_TRANSLATE_NOOP("ServeScope::Import",
                "looks like an llm-d Benchmark Report, but its YAML is not read at line %1: %2; nothing was "
                "imported"),
            { QString::number(errorLine), error });
        return t;
    }
    return v.isObject() ? sniffObject(path, v.toObject()) : ToolFile {};
}

// A folder of llm-d Benchmark Reports (one per stage or point, as llm-d and `export
// --benchmark-report` write them), in name order; the other files are left out and named.
ToolFile readReportFolder(const QString &path)
{
    const QString name = QStringLiteral("llm-d Benchmark Report");
    ToolFile all;
    QStringList skipped;
    const QFileInfoList files = QDir(path).entryInfoList(
        { QStringLiteral("*.yaml"), QStringLiteral("*.yml"), QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    for (const QFileInfo &fi : files) {
        ToolFile one = sniffFile(fi.filePath());
        if (one.kind == ToolFile::Kind::Refused)
            return one;
        if (one.kind != ToolFile::Kind::Read || one.tool != QLatin1String("llm-d")) {
            skipped << fi.fileName();
            continue;
        }
        all.kind = ToolFile::Kind::Read;
        all.tool = one.tool;
        if (!all.version.isEmpty() && all.version != one.version)
            return refuse(name, one.version, fi.fileName(),
                QStringLiteral("has another version than the folder's other reports (%1)").arg(all.version));
        all.version = one.version;
        all.runs += one.runs;
        for (const Reason &w : std::as_const(one.warnings)) {
            const bool known = std::any_of(all.warnings.cbegin(), all.warnings.cend(),
                [&](const Reason &seen) { return seen.text() == w.text(); });
            if (!known)
                all.warnings << w;
        }
    }
    if (all.kind != ToolFile::Kind::Read)
        return refuse(name, {}, QStringLiteral("*.yaml"), QStringLiteral("matches no report in the folder"));
    // The points in load order: by stage, not by file name (c16 sorts before c4).
    std::stable_sort(all.runs.begin(), all.runs.end(), [](const ResultRun &a, const ResultRun &b) {
        return a.number(QString::fromLatin1(kStageKey), 0) < b.number(QString::fromLatin1(kStageKey), 0);
    });
    if (!skipped.isEmpty())
        all.warnings << Reason::in(kCtx,
            QT_TRANSLATE_NOOP(
                "ServeScope::Import", "files in the folder that are not Benchmark Reports were left out: %1"),
            { skipped.join(QLatin1String(", ")) });
    return all;
}

} // namespace

ToolFile readToolFile(const QString &path)
{
    ToolFile t = QFileInfo(path).isDir() ? readReportFolder(path) : sniffFile(path);
    if (t.kind != ToolFile::Kind::Read)
        return t;
    for (ResultRun &r : t.runs) {
        r.numbers.remove(QLatin1String(kStageKey));
        // SGLang's and vLLM's average concurrency, sum(E2EL) / duration, is request throughput x mean E2EL.
        const double rps = r.number(QStringLiteral("request_throughput"));
        const double e2el = r.number(QStringLiteral("mean_e2el_ms"));
        if (!r.numbers.contains(QStringLiteral("concurrency")) && std::isfinite(rps) && std::isfinite(e2el))
            r.numbers.insert(QStringLiteral("concurrency"), rps * e2el / 1000.0);
    }
    return t;
}

} // namespace ServeScope
