// SPDX-License-Identifier: MIT
#include "rowcodec.h"

#include "eventblob.h"
#include "schema.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QVariant>

#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

constexpr int RequestColumnCount = 32;

QString placeholders(int n)
{
    QString s;
    s.reserve(n * 2);
    for (int i = 0; i < n; ++i)
        s += i ? QLatin1String(",?") : QLatin1String("?");
    return s;
}

} // namespace

qint64 RowCodec::firstTokenNs(const RequestRecord &r)
{
    for (qsizetype i = 0; i < r.eventKinds.size() && i < r.eventNs.size(); ++i) {
        if (isTokenEvent(r.eventKinds[i]))
            return r.startNs + r.eventNs[i];
    }
    return -1;
}

qint64 RowCodec::firstContentNs(const RequestRecord &r)
{
    for (qsizetype i = 0; i < r.eventKinds.size() && i < r.eventNs.size(); ++i) {
        if (isContentEvent(r.eventKinds[i]))
            return r.startNs + r.eventNs[i];
    }
    return -1;
}

QString RowCodec::insertRequestSql()
{
    return QStringLiteral("INSERT INTO requests (run_id, variant_id, point, repeat, idx, warmup, slot,"
                          " scheduled_ns, slot_ns, start_ns, end_ns, connect_ns, tls_ns, first_token_ns,"
                          " first_content_ns, http_status, status, error_class, error_text, prompt_tokens,"
                          " completion_tokens, output_estimated, target_input_len, target_output_len, protocol,"
                          " prompt_hash, generated_text, id, input_estimated, reasoning_tokens, reasoning_estimated,"
                          " cached_tokens) VALUES (")
        % placeholders(RequestColumnCount) % QLatin1Char(')');
}

QString RowCodec::requestColumns(int schemaVersion)
{
    return QStringLiteral("r.id, v.name, r.point, r.repeat, r.idx, r.warmup, r.slot, r.scheduled_ns, r.slot_ns,"
                          " r.start_ns, r.end_ns, r.connect_ns, r.tls_ns, r.http_status, r.status, r.error_class,"
                          " r.error_text, r.prompt_tokens, r.completion_tokens, r.output_estimated,"
                          " r.target_input_len, r.target_output_len, r.protocol, r.prompt_hash, r.generated_text,"
                          " e.blob, ")
        % (schemaVersion >= 3 ? QStringLiteral("r.input_estimated") : QStringLiteral("0"))
        % (schemaVersion >= 6 ? QStringLiteral(", r.reasoning_tokens, r.reasoning_estimated, r.cached_tokens")
                              : QStringLiteral(", 0, 0, -1"));
}

bool RowCodec::readRequest(const QSqlQuery &q, qint64 runId, bool withEvents, RequestRecord *r, QString *error)
{
    int i = 1;
    r->runId = runId;
    r->variant = q.value(i++).toString();
    r->point = q.value(i++).toInt();
    r->repeat = q.value(i++).toInt();
    r->index = q.value(i++).toInt();
    r->warmup = q.value(i++).toInt() != 0;
    r->slot = q.value(i++).toInt();
    r->scheduledNs = q.value(i++).toLongLong();
    r->slotNs = q.value(i++).toLongLong();
    r->startNs = q.value(i++).toLongLong();
    r->endNs = q.value(i++).toLongLong();
    r->connectNs = q.value(i++).toLongLong();
    r->tlsNs = q.value(i++).toLongLong();
    r->httpStatus = q.value(i++).toInt();
    r->status = RequestStatus(q.value(i++).toInt());
    r->errorClass = errorClassFromCode(q.value(i++).toString());
    r->errorText = q.value(i++).toString();
    r->promptTokens = q.value(i++).toInt();
    r->completionTokens = q.value(i++).toInt();
    r->outputEstimated = q.value(i++).toInt() != 0;
    r->targetInputLen = q.value(i++).toInt();
    r->targetOutputLen = q.value(i++).toInt();
    r->protocol = q.value(i++).toString();
    r->promptHash = PromptHash(q.value(i++).toByteArray());
    r->generatedText = q.value(i++).toString().toUtf8();
    r->eventNs.clear();
    r->eventKinds.clear();
    const QVariant blob = q.value(i++);
    r->inputEstimated = q.value(i++).toInt() != 0;
    r->reasoningTokens = q.value(i++).toInt();
    r->reasoningEstimated = q.value(i++).toInt() != 0;
    r->cachedTokens = q.value(i).toInt();
    if (!withEvents || blob.isNull())
        return true;
    const QByteArray bytes = blob.toByteArray();
    if (!EventBlob::decode(bytes, &r->eventNs, &r->eventKinds, error)) {
        *error = QStringLiteral("request %1: %2").arg(q.value(0).toLongLong()).arg(*error);
        return false;
    }
    return true;
}

static QStringList summaryScalarColumns()
{
    return { QStringLiteral("label"), QStringLiteral("mode"), QStringLiteral("concurrency"),
        QStringLiteral("request_rate"), QStringLiteral("input_len"), QStringLiteral("output_len"),
        QStringLiteral("completed"), QStringLiteral("failed"), QStringLiteral("cancelled"), QStringLiteral("warmup"),
        QStringLiteral("discarded"), QStringLiteral("duration"), QStringLiteral("total_input_tokens"),
        QStringLiteral("total_output_tokens"), QStringLiteral("request_throughput"),
        QStringLiteral("output_throughput"), QStringLiteral("total_token_throughput"),
        QStringLiteral("request_goodput"), QStringLiteral("max_concurrent_requests"),
        QStringLiteral("average_concurrency"), QStringLiteral("max_output_tokens_per_s"),
        QStringLiteral("success_rate") };
}

// The distributions' columns; those a file of `schemaVersion` does not have read as NULL.
static QStringList summaryDistColumns(int schemaVersion = Schema::Version, const QString &table = {})
{
    const QStringList stored = Schema::distributionMetrics(schemaVersion);
    QStringList cols;
    for (const DistributionField &f : distributionFields()) {
        const QString m = QLatin1String(f.code);
        for (const QString &s : Schema::distributionStats())
            cols << (stored.contains(m) ? QString(table % m % QLatin1Char('_') % s) : QStringLiteral("NULL"));
    }
    return cols;
}

// The summaries' key-value sets (steady, server) as compact JSON objects; NaN and infinities, which
// JSON cannot hold, are left out.
static QString mapJson(const QMap<QString, double> &values)
{
    QJsonObject o;
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        if (std::isfinite(it.value()))
            o.insert(it.key(), it.value());
    }
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

static QMap<QString, double> jsonMap(const QString &json)
{
    QMap<QString, double> out;
    const QJsonObject o = QJsonDocument::fromJson(json.toUtf8()).object();
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        if (it.value().isDouble())
            out.insert(it.key(), it.value().toDouble());
    }
    return out;
}

QStringList RowCodec::summaryInsertColumns()
{
    return QStringList { QStringLiteral("run_id"), QStringLiteral("variant_id"), QStringLiteral("point"),
        QStringLiteral("repeat") }
    + summaryScalarColumns() + summaryDistColumns()
        + QStringList { QStringLiteral("extra_percentiles"), QStringLiteral("derivation_version"),
              QStringLiteral("definitions"), QStringLiteral("steady"), QStringLiteral("server"),
              QStringLiteral("output_estimated"), QStringLiteral("client"), QStringLiteral("input_estimated"),
              QStringLiteral("usage_output_tokens"), QStringLiteral("rate_limited"), QStringLiteral("short_outputs"),
              QStringLiteral("role_gap_ms"), QStringLiteral("reasoning_tokens"), QStringLiteral("reasoning_estimated"),
              QStringLiteral("cached_tokens"), QStringLiteral("cached_prompt_tokens"), QStringLiteral("turns") };
}

QString RowCodec::insertSummarySql()
{
    const QStringList cols = summaryInsertColumns();
    return QStringLiteral("INSERT OR REPLACE INTO point_repeats (") % cols.join(QLatin1Char(','))
        % QStringLiteral(") VALUES (") % placeholders(int(cols.size())) % QLatin1Char(')');
}

QVariantList RowCodec::summaryValues(const PointSummary &s, qint64 variantId)
{
    QVariantList values = { s.runId, variantId, s.point, s.repeat, s.label, s.mode, s.concurrency, s.requestRate,
        s.inputLen, s.outputLen, s.completed, s.failed, s.cancelled, s.warmup, s.discarded, s.duration,
        s.totalInputTokens, s.totalOutputTokens, s.requestThroughput, s.outputThroughput, s.totalTokenThroughput,
        s.requestGoodput, s.maxConcurrentRequests, s.averageConcurrency, s.maxOutputTokensPerS, s.successRate };
    QJsonObject extra;
    for (const DistributionField &f : distributionFields()) {
        const Distribution &d = s.*f.member;
        for (double v : { double(d.count), d.mean, d.median, d.std, d.p1, d.p10, d.p25, d.p50, d.p75, d.p90, d.p99 })
            values << v;
        if (d.extra.isEmpty())
            continue;
        QJsonArray pairs;
        for (const auto &[p, v] : d.extra)
            pairs.append(QJsonArray { p, v });
        extra.insert(QLatin1String(f.code), pairs);
    }
    values << QString::fromUtf8(QJsonDocument(extra).toJson(QJsonDocument::Compact)) << s.derivationVersion
           << s.definitions << mapJson(s.steady) << mapJson(s.server) << s.outputEstimated << mapJson(s.client)
           << s.inputEstimated << s.usageOutputTokens << s.rateLimited << s.shortOutputs << s.roleGapMs
           << s.reasoningTokens << s.reasoningEstimated << s.cachedTokens << s.cachedPromptTokens << mapJson(s.turns);
    return values;
}

void RowCodec::bindSummary(QSqlQuery &q, const PointSummary &s, qint64 variantId)
{
    const QVariantList values = summaryValues(s, variantId);
    for (int i = 0; i < values.size(); ++i)
        q.bindValue(i, values.at(i));
}

QString RowCodec::summaryColumns(int schemaVersion)
{
    QStringList cols = { QStringLiteral("v.name"), QStringLiteral("p.run_id"), QStringLiteral("p.point"),
        QStringLiteral("p.repeat") };
    for (const QString &c : summaryScalarColumns())
        cols << QStringLiteral("p.") % c;
    cols << summaryDistColumns(schemaVersion, QStringLiteral("p."));
    cols << QStringLiteral("p.extra_percentiles") << QStringLiteral("p.derivation_version")
         << QStringLiteral("p.definitions")
         << (schemaVersion >= 2 ? QStringLiteral("p.steady, p.server, p.output_estimated, p.client")
                                : QStringLiteral("'{}', '{}', 0, '{}'"))
         << (schemaVersion >= 3 ? QStringLiteral("p.input_estimated, p.usage_output_tokens") : QStringLiteral("0, -1"))
         << (schemaVersion >= 5 ? QStringLiteral("p.rate_limited, p.short_outputs, p.role_gap_ms")
                                : QStringLiteral("0, -1, 0"))
         << (schemaVersion >= 6 ? QStringLiteral(
                 "p.reasoning_tokens, p.reasoning_estimated, p.cached_tokens, p.cached_prompt_tokens")
                                : QStringLiteral("0, 0, -1, 0"))
         << (schemaVersion >= 7 ? QStringLiteral("p.turns") : QStringLiteral("'{}'"));
    return cols.join(QLatin1Char(','));
}

void RowCodec::readSummary(const QSqlQuery &q, PointSummary *s)
{
    int i = 0;
    s->variant = q.value(i++).toString();
    s->runId = q.value(i++).toLongLong();
    s->point = q.value(i++).toInt();
    s->repeat = q.value(i++).toInt();
    s->label = q.value(i++).toString();
    s->mode = q.value(i++).toString();
    s->concurrency = q.value(i++).toInt();
    s->requestRate = q.value(i++).toDouble();
    s->inputLen = q.value(i++).toInt();
    s->outputLen = q.value(i++).toInt();
    for (int *f : { &s->completed, &s->failed, &s->cancelled, &s->warmup, &s->discarded })
        *f = q.value(i++).toInt();
    s->duration = q.value(i++).toDouble();
    s->totalInputTokens = q.value(i++).toLongLong();
    s->totalOutputTokens = q.value(i++).toLongLong();
    for (double *f : { &s->requestThroughput, &s->outputThroughput, &s->totalTokenThroughput, &s->requestGoodput })
        *f = q.value(i++).toDouble();
    s->maxConcurrentRequests = q.value(i++).toInt();
    for (double *f : { &s->averageConcurrency, &s->maxOutputTokensPerS, &s->successRate })
        *f = q.value(i++).toDouble();
    for (const DistributionField &f : distributionFields()) {
        Distribution &d = s->*f.member;
        d.count = q.value(i++).toInt();
        // NULL is a statistic the summary does not have (SQLite stores NaN as NULL; an imported
        // file without arrays gives only some): NaN, shown as a gap, never as 0 ms.
        for (double *f : { &d.mean, &d.median, &d.std, &d.p1, &d.p10, &d.p25, &d.p50, &d.p75, &d.p90, &d.p99 }) {
            const QVariant v = q.value(i++);
            *f = v.isNull() ? std::numeric_limits<double>::quiet_NaN() : v.toDouble();
        }
        d.extra.clear();
    }
    const QJsonObject extra = QJsonDocument::fromJson(q.value(i++).toString().toUtf8()).object();
    for (const DistributionField &f : distributionFields()) {
        const QJsonArray pairs = extra.value(QLatin1String(f.code)).toArray();
        for (const QJsonValue &pair : pairs)
            (s->*f.member).extra.append({ pair.toArray().at(0).toDouble(), pair.toArray().at(1).toDouble() });
    }
    s->derivationVersion = q.value(i++).toInt();
    s->definitions = q.value(i++).toString();
    s->steady = jsonMap(q.value(i++).toString());
    s->server = jsonMap(q.value(i++).toString());
    s->outputEstimated = q.value(i++).toInt();
    s->client = jsonMap(q.value(i++).toString());
    s->inputEstimated = q.value(i++).toInt();
    s->usageOutputTokens = q.value(i++).toLongLong();
    s->rateLimited = q.value(i++).toInt();
    s->shortOutputs = q.value(i++).toInt();
    s->roleGapMs = q.value(i++).toDouble();
    s->reasoningTokens = q.value(i++).toLongLong();
    s->reasoningEstimated = q.value(i++).toInt();
    s->cachedTokens = q.value(i++).toLongLong();
    s->cachedPromptTokens = q.value(i++).toLongLong();
    s->turns = jsonMap(q.value(i++).toString());
}

QString RowCodec::estimateSelectSql()
{
    return QStringLiteral("SELECT v.name, e.point, e.metric, e.repeats, e.median, e.min, e.max, e.cv, e.ci_low,"
                          " e.ci_high, e.ci_method FROM point_estimates e JOIN variants v ON v.id = e.variant_id"
                          " WHERE e.run_id = ? ORDER BY v.ordinal, e.point, e.metric");
}

PointEstimate RowCodec::readEstimate(const QSqlQuery &q, qint64 runId)
{
    PointEstimate e;
    e.runId = runId;
    e.variant = q.value(0).toString();
    e.point = q.value(1).toInt();
    e.metric = q.value(2).toString();
    e.repeats = q.value(3).toInt();
    e.median = q.value(4).toDouble();
    e.min = q.value(5).toDouble();
    e.max = q.value(6).toDouble();
    e.cv = q.value(7).toDouble();
    e.ciMethod = q.value(10).toString();
    e.ciLow = e.hasInterval() ? q.value(8).toDouble() : 0;
    e.ciHigh = e.hasInterval() ? q.value(9).toDouble() : 0;
    return e;
}

} // namespace ServeScope
