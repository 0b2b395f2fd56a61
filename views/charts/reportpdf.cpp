// SPDX-License-Identifier: MIT
#include "charts/chartexporter.h"
#include "charts/reportwriter.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QCoreApplication>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextCursor>
#include <QTextDocument>

namespace ServeScope::Report {

void ReportWriter::layoutPdfText(
    const ReportInput &input, QTextDocument *doc, QPaintDevice *device, const QSizeF &pageSize)
{
    // Point sizes at the device's resolution, not the screen's.
    doc->documentLayout()->setPaintDevice(device);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(7.5);
    doc->setDefaultFont(font);
    // Words break at spaces only, never inside: a column too narrow for a word widens instead.
    QTextOption option = doc->defaultTextOption();
    option.setWrapMode(QTextOption::WordWrap);
    doc->setDefaultTextOption(option);
    doc->setDefaultStyleSheet(QStringLiteral(
        "table { border-collapse: collapse; } td, th { font-size: 6.5pt; } th { background-color: #f3f3f3; } "
        "h1 { font-size: 12pt; margin-top: 0px; margin-bottom: 4px; } h2 { font-size: 10pt; margin-top: 8px; "
        "margin-bottom: 4px; } h3 { font-size: 8pt; margin-top: 6px; margin-bottom: 3px; } "
        "p { margin-top: 2px; margin-bottom: 4px; } .muted { color: #777; } "
        "tr.censored td { color: #a04000; } span.change { font-weight: bold; } span.verdict { font-size: 6pt; }"));
    doc->setHtml(reportBodyHtml(input));
    // "completions-api", "Requests/s", "server.args.max_num_seqs": a word joiner after a hyphen or a
    // slash inside a word keeps the line breaker from splitting the word there.
    QTextCursor at(doc);
    const QRegularExpression joint(QStringLiteral("(?<=\\w)[-/](?=\\w)"));
    while (!(at = doc->find(joint, at)).isNull()) {
        at.clearSelection();
        at.insertText(QString(QChar(0x2060)));
    }
    doc->setPageSize(pageSize);
}

// A4 landscape in points: the text pages laid out by QTextDocument, then the charts, four to a page,
// all vector.
QByteArray ReportWriter::pdf(const ReportInput &input)
{
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setResolution(72);
    writer.setPageLayout(
        QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(28, 28, 28, 28), QPageLayout::Point));
    writer.setTitle(input.title);
    writer.setCreator(QStringLiteral("ServeScope " SERVESCOPE_VERSION));
    const QRectF page = writer.pageLayout().paintRectPoints();
    // Every page ends with a footer line: what the report is about, the definitions, the page.
    constexpr qreal kFooter = 14;
    constexpr qreal kChartGap = 8;
    const QSizeF area(page.width(), page.height() - kFooter);
    QStringList definitions;
    for (const ReportRun &r : input.runs) {
        if (!definitions.contains(r.definitions))
            definitions << r.definitions;
    }
    const QString footer = reportTitle(input) + QStringLiteral("  ·  ")
        + QCoreApplication::translate("ServeScope::Report", "definitions: %1")
              .arg(definitions.join(QStringLiteral(", ")))
        + QStringLiteral("  ·  ServeScope " SERVESCOPE_VERSION);

    QPainter painter(&writer);
    painter.setRenderHint(QPainter::Antialiasing);
    QTextDocument doc;
    layoutPdfText(input, &doc, &writer, area);
    const int textPages = doc.pageCount();
    const QList<ReportChart> charts = reportCharts(input);
    // Four charts to a page: each laid out for a larger page and drawn at 60% into its quarter, so
    // that its plot keeps most of the space and its legend entries are not cut short.
    constexpr int kChartsPerPage = 4;
    constexpr qreal kChartScale = 0.6;
    const int chartPages = int((charts.size() + kChartsPerPage - 1) / kChartsPerPage);
    const int pages = textPages + chartPages;
    QFont footerFont(QStringLiteral("DejaVu Sans"));
    footerFont.setPointSizeF(6.5);
    const auto drawFooter = [&](int pageNumber) {
        painter.save();
        painter.setFont(footerFont);
        painter.setPen(QColor(0x77, 0x77, 0x77));
        const QRectF line(0, area.height() + 2, area.width(), kFooter - 2);
        painter.drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
            painter.fontMetrics().elidedText(footer, Qt::ElideMiddle, int(area.width() * 0.85)));
        painter.drawText(line, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("%1 / %2").arg(pageNumber).arg(pages));
        painter.restore();
    };
    for (int i = 0; i < textPages; ++i) {
        if (i > 0)
            writer.newPage();
        painter.save();
        painter.translate(0, -i * area.height());
        doc.drawContents(&painter, QRectF(QPointF(0, i * area.height()), area));
        painter.restore();
        drawFooter(i + 1);
    }
    const QSizeF cell((area.width() - kChartGap) / 2, (area.height() - kChartGap) / 2);
    for (int page = 0; page < chartPages; ++page) {
        writer.newPage();
        for (int k = 0; k < kChartsPerPage && page * kChartsPerPage + k < charts.size(); ++k) {
            const QPointF at((k % 2) * (cell.width() + kChartGap), (k / 2) * (cell.height() + kChartGap));
            // The runs are named in the summary and each page's footer, not under each of four charts.
            ChartExporter::paint(
                charts[page * kChartsPerPage + k].spec, &painter, QRectF(at, cell), cell / kChartScale, false);
        }
        drawFooter(textPages + page + 1);
    }
    painter.end();
    return out;
}

} // namespace ServeScope::Report
