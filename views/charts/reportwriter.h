// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportdocument.h"

namespace ServeScope::Report {

/// Self-contained reports: HTML with inline SVG charts and no external resource, or a vector PDF.
class ReportWriter final {
public:
    static QByteArray html(const ReportInput &input);
    static QByteArray pdf(const ReportInput &input);
    /// By suffix (.html, .htm, .pdf); false with *error set on an unknown suffix or a write error.
    static bool writeFile(const ReportInput &input, const QString &path, QString *error);
};

} // namespace ServeScope::Report
