// SPDX-License-Identifier: MIT
#pragma once

#include "report/chartspec.h"

#include <QDateTime>

namespace ServeScope::Report {

using KeyValues = QList<QPair<QString, QString>>;

/// One stored run as a report shows it (filled from the project store by the caller).
struct ReportRun {
    qint64 id = 0;
    QString name;
    QString baseUrl, model, servedModel; ///< servedModel: what the server answered with, when known
    QDateTime started, finished; ///< UTC
    QString definitions = QStringLiteral("vllm");
    KeyValues envSnapshot; ///< GPU, engine version, server flags, ... with their source when known
    KeyValues clientHost; ///< CPU model, governor, ServeScope version, proxy, round-trip time
    QList<PointSummary> points; ///< every (variant, point, repeat)
};

struct ReportInput {
    QString title;
    QList<ReportRun> runs; ///< A first, then B, ...
    QDateTime generated; ///< UTC; now when invalid
};

/// Self-contained reports: HTML with inline SVG charts and no external resource, or a vector PDF.
class ReportWriter final {
public:
    struct Chart {
        QString id; ///< file-name friendly, e.g. "ttft-vs-load"
        ChartSpec spec;
    };
    /// The charts a report holds, in order (throughput, latency bands, latency vs throughput).
    static QList<Chart> charts(const ReportInput &input);
    /// One chart series input per run and variant, palette colours in run order.
    static QList<RunSeriesInput> seriesInputs(const ReportInput &input);
    static ChartFooter footerFor(const ReportRun &run);

    static QByteArray html(const ReportInput &input);
    static QByteArray pdf(const ReportInput &input);
    /// By suffix (.html, .htm, .pdf); false with *error set on an unknown suffix or a write error.
    static bool writeFile(const ReportInput &input, const QString &path, QString *error);

    /// The report's text part (metadata, env snapshots, client host, per-point tables) as HTML that
    /// QTextDocument can lay out; html() adds styles and the charts around it.
    static QString bodyHtml(const ReportInput &input);
};

} // namespace ServeScope::Report
