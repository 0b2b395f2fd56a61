// SPDX-License-Identifier: MIT
#include "charts/chartexporter.h"
#include "charts/reportwriter.h"

#include <QBuffer>
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
    const QSizeF area(page.width(), page.height());

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
    for (int i = 0; i < textPages; ++i) {
        if (i > 0)
            writer.newPage();
        painter.save();
        painter.translate(0, -i * area.height());
        doc.drawContents(&painter, QRectF(QPointF(0, i * area.height()), area));
        painter.restore();
    }
    for (const ReportChart &c : reportCharts(input)) {
        writer.newPage();
        ChartExporter::paint(c.spec, &painter, QRectF(QPointF(0, 0), area));
    }
    painter.end();
    return out;
}

} // namespace ServeScope::Report
