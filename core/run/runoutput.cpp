// SPDX-License-Identifier: MIT
#include "runoutput.h"

#include "io/resultfile.h"

#include <QDateTime>
#include <QDir>
#include <QJsonDocument>
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
    m_dir = dir;
    return true;
}

QString RunOutput::pointFileName(const QString &label, int repeat)
{
    return sanitizeName(label) + QStringLiteral("-r") + QString::number(repeat) + QStringLiteral(".json");
}

bool RunOutput::writePoint(const Experiment &resolved, const PointSummary &summary,
    std::span<const RequestRecord> records, qint64 measuredStartNs, QString *error)
{
    const LoadPoint &lp = resolved.load.points.at(summary.point);
    ResultFileSetup setup;
    setup.date = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    setup.backend = resolved.endpoint.path.contains(QLatin1String("chat")) ? QStringLiteral("openai-chat")
                                                                           : QStringLiteral("vllm");
    setup.label = summary.label;
    setup.modelId = resolved.endpoint.model;
    setup.tokenizerId = resolved.endpoint.model;
    setup.numPrompts = summary.completed + summary.failed;
    setup.maxConcurrency = lp.concurrencyFor(resolved.load.mode);
    if (resolved.load.mode == LoadMode::Rate) {
        setup.requestRate = lp.requestRate;
        setup.burstiness = lp.burstiness;
    }
    setup.percentiles = QVector<double>(resolved.metrics.percentiles.cbegin(), resolved.metrics.percentiles.cend());
    setup.measuredStartNs = measuredStartNs;
    setup.discarded = summary.discarded;

    const QString variantDir = QDir(m_dir).filePath(sanitizeName(summary.variant));
    if (!QDir().mkpath(variantDir)) {
        *error = QStringLiteral("cannot create %1").arg(variantDir);
        return false;
    }
    if (!saveVllmResult(
            QDir(variantDir).filePath(pointFileName(summary.label, summary.repeat)), setup, records, summary, error))
        return false;
    m_summary.write(summaryCsvRow(summary));
    m_summary.flush();
    return true;
}

bool RunOutput::writeManifest(const QJsonObject &manifest, QString *error)
{
    QSaveFile f(QDir(m_dir).filePath(QStringLiteral("manifest.json")));
    if (!f.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString());
        return false;
    }
    f.write(QJsonDocument(manifest).toJson(QJsonDocument::Indented));
    if (!f.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString());
        return false;
    }
    return true;
}

} // namespace ServeScope
