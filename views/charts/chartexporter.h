// SPDX-License-Identifier: MIT
#pragma once

#include "report/chartspec.h"

#include <QImage>
#include <QSize>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace ServeScope::Report {

struct ExportOptions {
    QSize size { 1000, 620 }; ///< logical size (points for PDF/SVG, pixels at scale 1 for PNG)
    qreal scale = 1.0; ///< PNG only: the image is size × scale pixels
};

/// The one exporter for charts: PNG, SVG (QSvgGenerator) and vector PDF (QPdfWriter, page = chart size).
/// Animations are off and the footer is part of the rendered scene. Needs a QApplication.
class ChartExporter final {
public:
    enum class Format { Png, Svg, Pdf };
    /// Format from the file suffix (png, svg, pdf); false when unknown.
    static bool formatForPath(const QString &path, Format *format);

    static QImage renderImage(const ChartSpec &spec, const ExportOptions &o = {});
    static QByteArray renderSvg(const ChartSpec &spec, const ExportOptions &o = {});
    static QByteArray renderPdf(const ChartSpec &spec, const ExportOptions &o = {});
    /// Draws the chart into target on any painter (used for multi-page PDF reports), laid out for
    /// `layout` (points; the target's size when empty) and scaled to fit the target. `footer`: the
    /// runs' footer lines under the plot (a report's pages say them once instead).
    static void paint(
        const ChartSpec &spec, QPainter *painter, const QRectF &target, const QSizeF &layout = {}, bool footer = true);

    /// Writes by suffix; on failure returns false and sets *error (a sentence, no secrets).
    static bool exportToFile(const ChartSpec &spec, const QString &path, const ExportOptions &o, QString *error);
};

} // namespace ServeScope::Report
