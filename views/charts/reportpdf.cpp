// SPDX-License-Identifier: MIT
#include "charts/chartexporter.h"
#include "charts/reportwriter.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

namespace ServeScope::Report {

// A4 landscape in points: text pages laid out by QTextDocument, then one chart per page, all vector.
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
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(7.5);
    doc.setDefaultFont(font);
    doc.setDefaultStyleSheet(QStringLiteral("th { background-color: #f3f3f3; } h1 { font-size: 16pt; } "
                                            "h2 { font-size: 12pt; } h3 { font-size: 9pt; } .muted { color: #777; } "
                                            "tr.censored td { color: #a04000; } tr.worse td { color: #b00020; } "
                                            "tr.better td { color: #1b7f3b; } tr.undecided td { color: #777; }"));
    doc.setHtml(reportBodyHtml(input));
    doc.setPageSize(area);
    const int textPages = doc.pageCount();
    const QList<ReportChart> charts = reportCharts(input);
    const int pages = textPages + int(charts.size());
    QFont footerFont = font;
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
    for (qsizetype k = 0; k < charts.size(); ++k) {
        writer.newPage();
        ChartExporter::paint(charts[k].spec, &painter, QRectF(QPointF(0, 0), area));
        drawFooter(textPages + int(k) + 1);
    }
    painter.end();
    return out;
}

} // namespace ServeScope::Report
