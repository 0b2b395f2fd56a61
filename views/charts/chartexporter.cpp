// SPDX-License-Identifier: MIT
#include "charts/chartexporter.h"

#include "charts/chartrenderer.h"

#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <memory>

namespace ServeScope::Report {

namespace {

// A chart laid out in its own scene at the logical size: what every format renders from.
class ChartScene {
public:
    ChartScene(const ChartSpec &spec, QSizeF size, bool footer = true)
        : m_size(size)
    {
        RenderOptions options;
        options.footer = footer;
        m_chart = createChart(spec, options);
        m_scene.addItem(m_chart);
        m_chart->setGeometry(QRectF(QPointF(0, 0), size));
        m_scene.setSceneRect(QRectF(QPointF(0, 0), size));
        // Layout and series geometry are updated through posted events.
        QCoreApplication::sendPostedEvents();
    }
    void render(QPainter *p, const QRectF &target) { m_scene.render(p, target, QRectF(QPointF(0, 0), m_size)); }

private:
    QSizeF m_size;
    QGraphicsScene m_scene; // owns the chart
    QChart *m_chart = nullptr;
};

} // namespace

bool ChartExporter::formatForPath(const QString &path, Format *format)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        *format = Format::Png;
    else if (suffix == QLatin1String("svg"))
        *format = Format::Svg;
    else if (suffix == QLatin1String("pdf"))
        *format = Format::Pdf;
    else
        return false;
    return true;
}

void ChartExporter::paint(
    const ChartSpec &spec, QPainter *painter, const QRectF &target, const QSizeF &layout, bool footer)
{
    ChartScene scene(spec, layout.isEmpty() ? target.size() : layout, footer);
    scene.render(painter, target);
}

QImage ChartExporter::renderImage(const ChartSpec &spec, const ExportOptions &o)
{
    const qreal scale = o.scale > 0 ? o.scale : 1.0;
    QImage image(QSize(qRound(o.size.width() * scale), qRound(o.size.height() * scale)), QImage::Format_ARGB32);
    image.fill(Qt::white);
    image.setDotsPerMeterX(qRound(3780 * scale)); // 96 dpi × scale
    image.setDotsPerMeterY(qRound(3780 * scale));
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    ChartScene scene(spec, o.size);
    scene.render(&p, QRectF(QPointF(0, 0), image.size()));
    return image;
}

QByteArray ChartExporter::renderSvg(const ChartSpec &spec, const ExportOptions &o)
{
    QByteArray out;
    QBuffer buffer(&out);
    QSvgGenerator gen;
    gen.setOutputDevice(&buffer);
    gen.setSize(o.size);
    gen.setViewBox(QRect(QPoint(0, 0), o.size));
    gen.setTitle(spec.title);
    gen.setDescription(spec.footerText());
    {
        QPainter p(&gen);
        p.setRenderHint(QPainter::Antialiasing);
        ChartScene scene(spec, o.size);
        scene.render(&p, QRectF(QPointF(0, 0), o.size));
    }
    return out;
}

QByteArray ChartExporter::renderPdf(const ChartSpec &spec, const ExportOptions &o)
{
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setResolution(72); // one painter unit = one point: the page is exactly the chart size
    writer.setPageSize(QPageSize(QSizeF(o.size), QPageSize::Point, QString(), QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Point);
    writer.setTitle(spec.title);
    writer.setCreator(QStringLiteral("ServeScope " SERVESCOPE_VERSION));
    {
        QPainter p(&writer);
        p.setRenderHint(QPainter::Antialiasing);
        ChartScene scene(spec, o.size);
        scene.render(&p, QRectF(QPointF(0, 0), o.size));
    }
    return out;
}

bool ChartExporter::exportToFile(const ChartSpec &spec, const QString &path, const ExportOptions &o, QString *error)
{
    Format format;
    if (!formatForPath(path, &format)) {
        *error
            = QCoreApplication::translate("ServeScope::Report", "Unknown chart format for %1: use .png, .svg or .pdf.")
                  .arg(path);
        return false;
    }
    QByteArray data;
    if (format == Format::Png) {
        QBuffer buffer(&data);
        buffer.open(QIODevice::WriteOnly);
        renderImage(spec, o).save(&buffer, "PNG");
    } else {
        data = format == Format::Svg ? renderSvg(spec, o) : renderPdf(spec, o);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *error = QCoreApplication::translate("ServeScope::Report", "Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace ServeScope::Report
