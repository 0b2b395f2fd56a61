// SPDX-License-Identifier: MIT
#include "teamdbpublish.h"

#include "teamdbconnection.h"
#include "teamdbschema.h"
#include "valuesbatch.h"

#include "storage/eventblob.h"
#include "storage/rowcodec.h"

#include <QHash>
#include <QSqlQuery>
#include <QThread>

namespace ServeScope {

namespace {

QVariant nullable(qint64 v)
{
    return v < 0 ? QVariant(QMetaType::fromType<qint64>()) : QVariant(v);
}

QVariant textOrNull(const QString &s)
{
    return s.isNull() ? QVariant(QMetaType::fromType<QString>()) : QVariant(ValuesBatch::text(s));
}

QVariant bytesOrNull(const QByteArray &b)
{
    return b.isEmpty() ? QVariant(QMetaType::fromType<QByteArray>()) : QVariant(b);
}

/// One try: everything inside one transaction of one connection.
class Publisher {
public:
    Publisher(TeamDbConnection &db, const RunBundle &bundle, const QString &uid)
        : m_db(db)
        , m_bundle(bundle)
        , m_uid(uid)
    {
    }

    bool run(const QStringList &tags, PublishResult *result, QString *error)
    {
        if (!m_db.begin(error) || !TeamDbSchema::ensure(m_db, error))
            return false;
        QSqlQuery q(m_db.database());
        if (!m_db.select(q, QStringLiteral("SELECT id FROM runs WHERE uid = ?"), { m_uid }, error))
            return false;
        result->existed = q.next();
        m_runId = result->existed ? q.value(0).toLongLong() : 0;
        if (!result->existed
            && !(insertRun(error) && insertVariants(error) && insertPrompts(error) && insertRequests(error)
                && insertSummaries(error) && insertEstimates(error) && insertSeries(error)))
            return false;
        if (!insertTags(tags, error))
            return false;
        m_committing = true;
        if (!m_db.commit(error))
            return false;
        result->requests = result->existed ? 0 : m_bundle.requests.size();
        return true;
    }

    /// The failure was the COMMIT itself: on a lost connection the server may have committed.
    bool failedCommitting() const { return m_committing; }

private:
    bool insertRun(QString *error)
    {
        const RunRow &r = m_bundle.run;
        const RunFacets f = runFacets(r);
        const QString started = r.started.toUTC().toString(Qt::ISODateWithMs);
        const QString sql = QStringLiteral(
            "INSERT INTO runs (uid, name, status, started, started_at, finished, resolved_config, definitions,"
            " points, client_host, env_snapshot, origin, experiment, model, engine, requests)"
            " VALUES (?,?,?,?,CAST(? AS TIMESTAMPTZ),?,?,?,?,?,?,?,?,?,?,?) RETURNING id");
        const QVariantList values { m_uid, ValuesBatch::text(r.name), runStatusCode(r.status), started, started,
            r.finished.isValid() ? QVariant(r.finished.toUTC().toString(Qt::ISODateWithMs))
                                 : QVariant(QMetaType::fromType<QString>()),
            QString::fromUtf8(r.resolvedConfig), r.definitions, r.points, QString::fromUtf8(r.clientHost),
            QString::fromUtf8(r.envSnapshot), QString::fromUtf8(r.origin), f.experiment, f.model, f.engine,
            qint64(m_bundle.requests.size()) };
        QSqlQuery q(m_db.database());
        if (!m_db.select(q, sql, values, error) || !q.next())
            return false;
        m_runId = q.value(0).toLongLong();
        return true;
    }

    bool insertVariants(QString *error)
    {
        QSqlQuery q(m_db.database());
        for (int i = 0; i < m_bundle.run.variants.size(); ++i) {
            if (!m_db.select(q,
                    QStringLiteral("INSERT INTO variants (run_id, ordinal, name) VALUES (?,?,?) RETURNING id"),
                    { m_runId, i, m_bundle.run.variants.at(i) }, error)
                || !q.next())
                return false;
            m_variants.insert(m_bundle.run.variants.at(i), q.value(0).toLongLong());
        }
        return true;
    }

    bool variantId(const QString &name, qint64 *id, QString *error)
    {
        const auto it = m_variants.constFind(name);
        if (it == m_variants.cend()) {
            *error = QStringLiteral("the run has rows of an undeclared variant '%1'").arg(name);
            return false;
        }
        *id = it.value();
        return true;
    }

    bool insertTags(const QStringList &tags, QString *error)
    {
        ValuesBatch batch(
            m_db, QStringLiteral("INSERT INTO run_tags (run_id, tag)"), QStringLiteral("ON CONFLICT DO NOTHING"));
        for (const QString &tag : tags) {
            if (!batch.add({ m_runId, tag }, error))
                return false;
        }
        return batch.finish(error);
    }

    bool insertPrompts(QString *error)
    {
        ValuesBatch batch(m_db, QStringLiteral("INSERT INTO prompts (hash, text, tokens)"),
            QStringLiteral("ON CONFLICT (hash) DO NOTHING"), 500);
        for (const PromptRow &p : m_bundle.prompts) {
            if (!batch.add({ p.hash, textOrNull(p.text), bytesOrNull(p.tokens) }, error))
                return false;
        }
        return batch.finish(error);
    }

    bool insertRequests(QString *error)
    {
        ValuesBatch rows(m_db,
            QStringLiteral("INSERT INTO requests (run_id, id, variant_id, point, repeat, idx, warmup, slot,"
                           " scheduled_ns, slot_ns, start_ns, end_ns, connect_ns, tls_ns, first_token_ns,"
                           " first_content_ns, http_status, status, error_class, error_text, prompt_tokens,"
                           " completion_tokens, output_estimated, target_input_len, target_output_len, protocol,"
                           " prompt_hash, generated_text, input_estimated, reasoning_tokens, reasoning_estimated,"
                           " cached_tokens)"));
        ValuesBatch events(m_db, QStringLiteral("INSERT INTO request_events (run_id, request_id, blob)"));
        int id = 0;
        for (const RequestRecord &r : m_bundle.requests) {
            qint64 variant = 0;
            if (!variantId(r.variant, &variant, error))
                return false;
            ++id;
            const QVariantList row { m_runId, id, variant, r.point, r.repeat, r.index, int(r.warmup), r.slot,
                r.scheduledNs, r.slotNs, r.startNs, r.endNs, r.connectNs, r.tlsNs, nullable(RowCodec::firstTokenNs(r)),
                nullable(RowCodec::firstContentNs(r)), r.httpStatus, int(r.status), errorClassCode(r.errorClass),
                textOrNull(r.errorText), r.promptTokens, r.completionTokens, int(r.outputEstimated), r.targetInputLen,
                r.targetOutputLen, textOrNull(r.protocol), bytesOrNull(r.promptHash.toByteArray()),
                textOrNull(QString::fromUtf8(r.generatedText)), int(r.inputEstimated), r.reasoningTokens,
                int(r.reasoningEstimated), r.cachedTokens };
            if (!rows.add(row, error))
                return false;
            if (r.eventNs.isEmpty())
                continue;
            // The project file's encoding (docs/project-file.md#event-blob-version-1).
            const QByteArray blob = EventBlob::encode(r.eventNs, r.eventKinds);
            if (!blob.isEmpty() && !events.add({ m_runId, id, blob }, error))
                return false;
        }
        // Events refer to their request: all requests first.
        return rows.finish(error) && events.finish(error);
    }

    bool insertSummaries(QString *error)
    {
        ValuesBatch batch(m_db,
            QStringLiteral("INSERT INTO point_repeats (") % RowCodec::summaryInsertColumns().join(QLatin1Char(','))
                % QLatin1Char(')'),
            {}, 100);
        for (PointSummary s : m_bundle.summaries) {
            qint64 variant = 0;
            if (!variantId(s.variant, &variant, error))
                return false;
            s.runId = m_runId;
            if (!batch.add(RowCodec::summaryValues(s, variant), error))
                return false;
        }
        return batch.finish(error);
    }

    bool insertEstimates(QString *error)
    {
        ValuesBatch batch(m_db,
            QStringLiteral("INSERT INTO point_estimates (run_id, variant_id, point, metric, repeats, median, min,"
                           " max, cv, ci_low, ci_high, ci_method)"));
        const QVariant none(QMetaType::fromType<double>());
        for (const PointEstimate &e : m_bundle.estimates) {
            qint64 variant = 0;
            if (!variantId(e.variant, &variant, error))
                return false;
            if (!batch.add({ m_runId, variant, e.point, e.metric, e.repeats, e.median, e.min, e.max, e.cv,
                               e.hasInterval() ? QVariant(e.ciLow) : none, e.hasInterval() ? QVariant(e.ciHigh) : none,
                               e.hasInterval() ? e.ciMethod : QString(QLatin1String("")) },
                    error))
                return false;
        }
        return batch.finish(error);
    }

    bool insertSeries(QString *error)
    {
        ValuesBatch samples(
            m_db, QStringLiteral("INSERT INTO server_metric_samples (run_id, seq, t_ns, name, labels, value, source)"));
        int seq = 0;
        for (const ServerMetricSample &s : m_bundle.samples) {
            if (!samples.add({ m_runId, ++seq, s.timeNs, s.name, s.labels, s.value, s.source }, error))
                return false;
        }
        ValuesBatch logs(m_db, QStringLiteral("INSERT INTO server_logs (run_id, seq, t_ns, stream, line)"));
        seq = 0;
        for (const ServerLogLine &l : m_bundle.logs) {
            if (!logs.add({ m_runId, ++seq, l.timeNs, l.stream, ValuesBatch::text(l.line) }, error))
                return false;
        }
        return samples.finish(error) && logs.finish(error);
    }

    TeamDbConnection &m_db;
    const RunBundle &m_bundle;
    QString m_uid;
    qint64 m_runId = 0;
    QHash<QString, qint64> m_variants;
    bool m_committing = false;
};

void waitBeforeRetry(const PublishOptions &options, int attempt, int attempts, const QString &why, int *delay)
{
    if (options.note)
        options.note(QStringLiteral("try %1 of %2 failed (%3); trying again in %4 s")
                         .arg(attempt)
                         .arg(attempts)
                         .arg(why)
                         .arg(QString::number(*delay / 1000.0, 'g', 3)));
    QThread::msleep(ulong(*delay));
    *delay *= 2;
}

} // namespace

PublishResult publishRun(
    const TeamDbUrl &url, const QByteArray &password, const RunBundle &bundle, const PublishOptions &options)
{
    PublishResult result;
    result.uid = stableRunId(bundle.run, bundle.requests.size());
    const int attempts = std::max(1, options.attempts);
    int delay = options.retryDelayMs;
    for (int attempt = 1; attempt <= attempts; ++attempt) {
        result.attempts = attempt;
        TeamDbConnection db;
        QString error;
        if (!db.open(url, password, &error)) {
            result.error = error;
            // A refused first connection is a setting to fix; after a lost one the server may be coming back.
            if (attempt == 1 || attempt == attempts)
                return result;
            waitBeforeRetry(options, attempt, attempts, error, &delay);
            continue;
        }
        Publisher publisher(db, bundle, result.uid);
        if (publisher.run(options.tags, &result, &error)) {
            result.ok = true;
            return result;
        }
        const bool retry = db.lastFailureRetryable();
        db.rollback();
        result.error = publisher.failedCommitting()
            ? QStringLiteral("the commit's outcome is unknown (publish again: a run is stored once): ") + error
            : QStringLiteral("publishing failed, nothing was stored: ") + error;
        if (!retry || attempt == attempts)
            return result;
        waitBeforeRetry(options, attempt, attempts, error, &delay);
    }
    return result;
}

} // namespace ServeScope
