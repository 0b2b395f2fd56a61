// SPDX-License-Identifier: MIT
#include "runoutput.h"

#include "metrics/estimates.h"
#include "metrics/servingcost.h"
#include "resultfiles/resultfile.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>
#include <QSaveFile>

namespace ServeScope {

bool RunOutput::open(const QString &dir, QString *error)
{
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("cannot create the results folder %1").arg(dir);
        return false;
    }
    m_summary.setFileName(QDir(dir).filePath(QStringLiteral("summary.csv")));
    if (!m_summary.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *error = QStringLiteral("cannot write %1: %2").arg(m_summary.fileName(), m_summary.errorString());
        return false;
    }
    m_summary.write(summaryCsvHeader());
    m_summary.flush();
    m_repeats.setFileName(QDir(dir).filePath(QStringLiteral("repeats.csv")));
    if (!m_repeats.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *error = QStringLiteral("cannot write %1: %2").arg(m_repeats.fileName(), m_repeats.errorString());
        return false;
    }
    m_repeats.write("variant,label,metric,repeats,median,min,max,cv,spread,ci_low,ci_high,ci_method,reproducible\n");
    m_repeats.flush();
    m_dir = dir;
    return true;
}

bool RunOutput::fail(const QString &error)
{
    if (m_firstError.isEmpty())
        m_firstError = error;
    return false;
}

bool RunOutput::writePoint(const Experiment &resolved, const PointSummary &summary, const PointSummary &vllm,
    std::span<const RequestRecord> records, qint64 measuredStartNs,
    const std::function<QByteArray(int index)> &generatedTexts, QString *error)
{
    const LoadPoint &lp = resolved.load.points.at(summary.point);
    ResultFileSetup setup;
    setup.date = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    setup.backend = resolved.endpoint.api() == Api::Chat ? QStringLiteral("openai-chat") : QStringLiteral("vllm");
    setup.label = summary.label;
    setup.modelId = resolved.endpoint.model;
    setup.tokenizerId = resolved.endpoint.model;
    setup.numPrompts = summary.completed + summary.failed;
    setup.maxConcurrency = summary.concurrency;
    if (resolved.load.mode == LoadMode::Rate) {
        setup.requestRate = summary.requestRate;
        setup.burstiness = lp.burstiness;
    }
    setup.percentiles = QVector<double>(resolved.metrics.percentiles.cbegin(), resolved.metrics.percentiles.cend());
    setup.measuredStartNs = measuredStartNs;
    setup.discarded = summary.discarded;
    setup.generatedTexts = generatedTexts;
    // The steady set under vLLM's definitions, like the file's own keys (under another profile the
    // caller computes it so).
    for (auto it = vllm.steady.cbegin(); it != vllm.steady.cend(); ++it)
        setup.extraNumbers.append({ QStringLiteral("steady_") + it.key(), it.value() });
    setup.extraNumbers.append({ QStringLiteral("output_estimated"), double(summary.outputEstimated) });
    setup.extraNumbers.append({ QStringLiteral("input_estimated"), double(summary.inputEstimated) });
    if (summary.usageOutputTokens >= 0)
        setup.extraNumbers.append({ QStringLiteral("usage_output_tokens"), double(summary.usageOutputTokens) });
    // What the run's grouped findings read, so a results folder gives them too.
    setup.extraNumbers.append({ QStringLiteral("rate_limited"), double(summary.rateLimited) });
    if (summary.shortOutputs >= 0)
        setup.extraNumbers.append({ QStringLiteral("short_outputs"), double(summary.shortOutputs) });
    setup.extraNumbers.append({ QStringLiteral("role_gap_ms"), summary.roleGapMs });
    setup.extraNumbers.append({ QStringLiteral("reasoning_tokens"), double(summary.reasoningTokens) });
    setup.extraNumbers.append({ QStringLiteral("reasoning_estimated"), double(summary.reasoningEstimated) });
    if (summary.cachedTokens >= 0) {
        setup.extraNumbers.append({ QStringLiteral("cached_tokens"), double(summary.cachedTokens) });
        setup.extraNumbers.append({ QStringLiteral("cached_prompt_tokens"), double(summary.cachedPromptTokens) });
    }
    for (auto it = summary.client.cbegin(); it != summary.client.cend(); ++it)
        setup.extraNumbers.append({ QStringLiteral("client_") + it.key(), it.value() });
    for (auto it = summary.server.cbegin(); it != summary.server.cend(); ++it)
        setup.extraNumbers.append({ QStringLiteral("server_") + it.key(), it.value() });
    for (auto it = summary.turns.cbegin(); it != summary.turns.cend(); ++it)
        setup.extraNumbers.append({ it.key(), it.value() });
    const bool otherProfile = summary.definitions != vllm.definitions;
    if (otherProfile) {
        setup.profile = summary.definitions;
        const QMap<QString, double> figures = summaryValues(summary);
        for (auto it = figures.cbegin(); it != figures.cend(); ++it)
            setup.extraNumbers.append({ summary.definitions + u'_' + it.key(), it.value() });
    }

    const QString path = QDir(m_dir).filePath(resultFileRelativePath(summary.variant, summary.label, summary.repeat));
    if (!QDir().mkpath(QFileInfo(path).path())) {
        *error = QStringLiteral("cannot create %1").arg(QFileInfo(path).path());
        return fail(*error);
    }
    if (!saveVllmResult(path, setup, records, vllm, error))
        return fail(*error);
    const double price = hourPrice(resolved);
    m_hourPrice.insert(summary.variant, price);
    m_summary.write(summaryCsvRows(vllm, {}, price));
    if (otherProfile) {
        PointSummary own = summary;
        own.steady.clear(); // written once, with vLLM's set
        m_summary.write(summaryCsvRows(own, {}, price));
    }
    if (!m_summary.flush())
        return fail(*error = QStringLiteral("cannot write %1: %2").arg(m_summary.fileName(), m_summary.errorString()));
    return true;
}

bool RunOutput::writeRepeats(
    const PointSummary &identity, const PointRepeats &repeats, const QList<PointEstimate> &estimates, QString *error)
{
    const auto num = [](double v) { return QByteArray::number(v, 'g', QLocale::FloatingPointShortest); };
    const auto csv = [](const QString &s) {
        QByteArray b = s.toUtf8();
        return b.contains(',') || b.contains('"') ? '"' + b.replace("\"", "\"\"") + '"' : b;
    };
    QJsonObject o { { QStringLiteral("servescope_variant"), repeats.variant },
        { QStringLiteral("servescope_label"), repeats.label },
        { QStringLiteral("servescope_repeats"), int(repeats.repeats.size()) } };
    for (const PointEstimate &e : estimates) {
        if (e.repeats == 0)
            continue;
        const bool agree = reproducible(metricEstimate(e).repeats);
        const QString k = QStringLiteral("servescope_") + e.metric + u'_';
        o.insert(k + QStringLiteral("median"), e.median);
        o.insert(k + QStringLiteral("min"), e.min);
        o.insert(k + QStringLiteral("max"), e.max);
        o.insert(k + QStringLiteral("cv"), e.cv);
        o.insert(k + QStringLiteral("reproducible"), agree);
        if (e.hasInterval()) {
            o.insert(k + QStringLiteral("ci_low"), e.ciLow);
            o.insert(k + QStringLiteral("ci_high"), e.ciHigh);
            o.insert(k + QStringLiteral("ci_method"), e.ciMethod);
        }
        m_repeats.write(csv(repeats.variant) + ',' + csv(repeats.label) + ',' + e.metric.toUtf8() + ','
            + QByteArray::number(e.repeats) + ',' + num(e.median) + ',' + num(e.min) + ',' + num(e.max) + ','
            + num(e.cv) + ',' + num(e.spread()) + ','
            + (e.hasInterval() ? num(e.ciLow) + ',' + num(e.ciHigh) : QByteArray(",")) + ',' + e.ciMethod.toUtf8() + ','
            + (agree ? "true" : "false") + '\n');
    }
    m_summary.write(summaryCsvStatRows(identity, estimates, {}, m_hourPrice.value(identity.variant)));
    m_summary.flush();
    m_repeats.flush();
    QString path = QDir(m_dir).filePath(resultFileRelativePath(repeats.variant, repeats.label, 1));
    path.replace(QRegularExpression(QStringLiteral("-r1\\.json$")), QStringLiteral("-repeats.json"));
    QSaveFile f(path);
    const QByteArray data = QJsonDocument(o).toJson(QJsonDocument::Indented);
    if (!QDir().mkpath(QFileInfo(path).path()) || !f.open(QIODevice::WriteOnly) || f.write(data) != data.size()
        || !f.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return fail(*error);
    }
    return true;
}

bool RunOutput::writeManifest(const QJsonObject &manifest, QString *error)
{
    QSaveFile f(QDir(m_dir).filePath(QStringLiteral("manifest.json")));
    if (!f.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString());
        return fail(*error);
    }
    f.write(QJsonDocument(manifest).toJson(QJsonDocument::Indented));
    if (!f.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString());
        return fail(*error);
    }
    return true;
}

} // namespace ServeScope
