// SPDX-License-Identifier: MIT
#include "runoutput.h"

#include "io/resultfile.h"

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

namespace {

/// The steady result set as `servescope_steady_*` keys beside vLLM's set.
QVector<QPair<QString, double>> steadyNumbers(const SteadyResult &steady)
{
    QVector<QPair<QString, double>> n { { QStringLiteral("steady_valid"), steady.valid ? 1.0 : 0.0 } };
    if (!steady.valid)
        return n;
    const PointSummary &s = steady.point.summary;
    n.append({ { QStringLiteral("steady_window_s"), steady.windowSeconds },
        { QStringLiteral("steady_output_throughput"), steady.outputThroughput },
        { QStringLiteral("steady_request_throughput"), steady.requestThroughput },
        { QStringLiteral("steady_completed"), double(s.completed) } });
    const std::pair<const char *, const Distribution *> metrics[]
        = { { "ttft", &s.ttft }, { "tpot", &s.tpot }, { "itl", &s.itl }, { "e2el", &s.e2el } };
    for (const auto &[name, d] : metrics) {
        const QString m = QLatin1String(name);
        n.append({ { QStringLiteral("steady_mean_") + m + QStringLiteral("_ms"), d->mean },
            { QStringLiteral("steady_median_") + m + QStringLiteral("_ms"), d->median },
            { QStringLiteral("steady_p90_") + m + QStringLiteral("_ms"), d->p90 },
            { QStringLiteral("steady_p99_") + m + QStringLiteral("_ms"), d->p99 } });
    }
    return n;
}

} // namespace

bool RunOutput::writePoint(const Experiment &resolved, const PointSummary &summary,
    std::span<const RequestRecord> records, qint64 measuredStartNs, const SteadyResult &steady, QString *error)
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
    setup.extraNumbers = steadyNumbers(steady);

    const QString path = QDir(m_dir).filePath(resultFileRelativePath(summary.variant, summary.label, summary.repeat));
    if (!QDir().mkpath(QFileInfo(path).path())) {
        *error = QStringLiteral("cannot create %1").arg(QFileInfo(path).path());
        return false;
    }
    if (!saveVllmResult(path, setup, records, summary, error))
        return false;
    m_summary.write(summaryCsvRow(summary));
    m_summary.flush();
    return true;
}

bool RunOutput::writeRepeats(const PointRepeats &repeats, const QList<MetricEstimate> &estimates, QString *error)
{
    const auto num = [](double v) { return QByteArray::number(v, 'g', QLocale::FloatingPointShortest); };
    const auto csv = [](const QString &s) {
        QByteArray b = s.toUtf8();
        return b.contains(',') || b.contains('"') ? '"' + b.replace("\"", "\"\"") + '"' : b;
    };
    QJsonObject o { { QStringLiteral("servescope_variant"), repeats.variant },
        { QStringLiteral("servescope_label"), repeats.label },
        { QStringLiteral("servescope_repeats"), int(repeats.repeats.size()) } };
    for (const MetricEstimate &e : estimates) {
        if (e.repeats.n == 0)
            continue;
        const QString k = QStringLiteral("servescope_") + e.key + u'_';
        o.insert(k + QStringLiteral("median"), e.repeats.median);
        o.insert(k + QStringLiteral("min"), e.repeats.min);
        o.insert(k + QStringLiteral("max"), e.repeats.max);
        o.insert(k + QStringLiteral("cv"), e.repeats.cv);
        o.insert(k + QStringLiteral("reproducible"), reproducible(e.repeats));
        if (e.ci.valid) {
            o.insert(k + QStringLiteral("ci_low"), e.ci.low);
            o.insert(k + QStringLiteral("ci_high"), e.ci.high);
            o.insert(k + QStringLiteral("ci_method"), e.method);
        }
        m_repeats.write(csv(repeats.variant) + ',' + csv(repeats.label) + ',' + e.key.toUtf8() + ','
            + QByteArray::number(e.repeats.n) + ',' + num(e.repeats.median) + ',' + num(e.repeats.min) + ','
            + num(e.repeats.max) + ',' + num(e.repeats.cv) + ',' + num(e.repeats.spread()) + ','
            + (e.ci.valid ? num(e.ci.low) + ',' + num(e.ci.high) : QByteArray(",")) + ',' + e.method.toUtf8() + ','
            + (reproducible(e.repeats) ? "true" : "false") + '\n');
    }
    m_repeats.flush();
    QString path = QDir(m_dir).filePath(resultFileRelativePath(repeats.variant, repeats.label, 1));
    path.replace(QRegularExpression(QStringLiteral("-r1\\.json$")), QStringLiteral("-repeats.json"));
    QSaveFile f(path);
    const QByteArray data = QJsonDocument(o).toJson(QJsonDocument::Indented);
    if (!QDir().mkpath(QFileInfo(path).path()) || !f.open(QIODevice::WriteOnly) || f.write(data) != data.size()
        || !f.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
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
