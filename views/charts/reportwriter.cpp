// SPDX-License-Identifier: MIT
#include "charts/reportwriter.h"

#include "charts/chartexporter.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

namespace ServeScope::Report {

namespace {

// Inline SVGs share one id space in an HTML document: give each chart's ids its own prefix.
QString inlineSvg(const QByteArray &svg, const QString &prefix)
{
    QString s = QString::fromUtf8(svg);
    s.remove(QRegularExpression(QStringLiteral("<\\?xml[^>]*\\?>\\s*")));
    s.replace(QRegularExpression(QStringLiteral("\\bid=\"")), QStringLiteral("id=\"") + prefix);
    s.replace(QStringLiteral("url(#"), QStringLiteral("url(#") + prefix);
    s.replace(QStringLiteral("href=\"#"), QStringLiteral("href=\"#") + prefix);
    // Scale with the page: keep the viewBox, drop the physical size.
    s.replace(QRegularExpression(QStringLiteral("<svg width=\"[^\"]*\" height=\"[^\"]*\"")),
        QStringLiteral("<svg class=\"chart\""));
    return s;
}

const char *kStyle = R"(
body { font-family: "DejaVu Sans", "WenQuanYi Micro Hei", sans-serif; color: #222; margin: 24px; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px; } h3 { font-size: 14px; }
table { border-collapse: collapse; font-size: 12px; margin: 6px 0 14px; }
th, td { border: 1px solid #ccc; padding: 3px 6px; text-align: right; } th { background: #f3f3f3; }
table.kv th, table.kv td { text-align: left; }
tr.censored td { color: #a04000; } span.change { font-weight: bold; }
td { white-space: normal; } td[nowrap], th[nowrap] { white-space: nowrap; }
.muted { color: #777; } figure { margin: 18px 0; } svg.chart { width: 100%; max-width: 1000px; height: auto; }
figcaption { font-size: 12px; color: #555; }
)";

} // namespace

QByteArray ReportWriter::html(const ReportInput &input)
{
    QString out
        = QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%1</title>\n"
                         "<style>%2</style>\n</head>\n<body>\n")
              .arg(reportTitle(input).toHtmlEscaped(), QString::fromLatin1(kStyle));
    out += reportBodyHtml(input);
    out += QStringLiteral("<h2>%1</h2>\n")
               .arg(QCoreApplication::translate("ServeScope::Report", "Charts").toHtmlEscaped());
    int n = 0;
    for (const ReportChart &c : reportCharts(input)) {
        const QByteArray svg = ChartExporter::renderSvg(c.spec, ExportOptions { QSize(1000, 620), 1.0 });
        out += QStringLiteral("<figure id=\"%1\">\n").arg(c.id) + inlineSvg(svg, QStringLiteral("c%1_").arg(++n))
            + QStringLiteral("<figcaption>%1</figcaption>\n</figure>\n").arg(c.spec.title.toHtmlEscaped());
    }
    out += QStringLiteral("</body>\n</html>\n");
    return out.toUtf8();
}

bool ReportWriter::writeFile(const ReportInput &input, const QString &path, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    QByteArray data;
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm")) {
        data = html(input);
    } else if (suffix == QLatin1String("pdf")) {
        data = pdf(input);
    } else {
        *error = QCoreApplication::translate("ServeScope::Report", "Unknown report format for %1: use .html or .pdf.")
                     .arg(path);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *error = QCoreApplication::translate("ServeScope::Report", "Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace ServeScope::Report
