// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportdocument.h"

#include <QSizeF>

class QPaintDevice;
class QTextDocument;

namespace ServeScope::Report {

/// Self-contained reports: HTML with inline SVG charts and no external resource, or a vector PDF.
class ReportWriter final {
public:
    static QByteArray html(const ReportInput &input);
    static QByteArray pdf(const ReportInput &input);
    /// The PDF's text pages: the report's text laid out for `device` (the PDF writer, at 72 dpi) on pages
    /// of `pageSize` (points), tables in a smaller font, words wrapped only where they may break, table
    /// header rows repeated on each page.
    static void layoutPdfText(
        const ReportInput &input, QTextDocument *doc, QPaintDevice *device, const QSizeF &pageSize);
    /// By suffix (.html, .htm, .pdf); false with *error set on an unknown suffix or a write error.
    static bool writeFile(const ReportInput &input, const QString &path, QString *error);
};

} // namespace ServeScope::Report
