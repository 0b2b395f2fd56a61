// SPDX-License-Identifier: MIT
#include "report/reporthtml.h"

#include <QCoreApplication>

#include <cmath>

namespace ServeScope::Report::Html {

QString tr(const char *text)
{
    return QCoreApplication::translate("ServeScope::Report", text);
}

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

// A value the point does not have (withheld for a buffered stream, never measured) is "—", never "nan".
QString num(double v, int decimals)
{
    if (std::isinf(v))
        return QStringLiteral("inf");
    if (std::isnan(v))
        return QStringLiteral("—");
    return QString::number(v, 'f', decimals);
}

QString isoUtc(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODate) : QString();
}

// `pairs` key-value pairs side by side on a row keep a short list short.
QString keyValueTable(const KeyValues &kv, int pairs)
{
    if (kv.isEmpty())
        return QStringLiteral("<p class=\"muted\">")
            + QCoreApplication::translate("ServeScope::Report", "Not recorded.") + QStringLiteral("</p>\n");
    QString out = QStringLiteral("<table class=\"kv\" border=\"1\" cellspacing=\"0\" cellpadding=\"1\">\n");
    for (qsizetype i = 0; i < kv.size(); i += pairs) {
        out += QStringLiteral("<tr>");
        for (qsizetype j = i; j < i + pairs; ++j) {
            if (j < kv.size())
                out += QStringLiteral("<th nowrap>%1</th><td>%2</td>").arg(esc(kv[j].first), esc(kv[j].second));
            else
                out += QStringLiteral("<th></th><td></td>");
        }
        out += QStringLiteral("</tr>\n");
    }
    return out + QStringLiteral("</table>\n");
}

QString loadCell(const PointSummary &p)
{
    if (p.mode == QLatin1String("rate"))
        return num(p.requestRate, 2) + QStringLiteral(" req/s")
            + (p.concurrency > 0 ? QStringLiteral(" (cap %1)").arg(p.concurrency) : QString());
    return QStringLiteral("c=%1").arg(p.concurrency);
}

// A table whose header row repeats on every page it runs over (<thead>: the PDF's header rows).
QString tableHead(const QStringList &head, const QString &cls)
{
    QString out = QStringLiteral("<table class=\"%1\" border=\"1\" cellspacing=\"0\" cellpadding=\"1\"%2>\n"
                                 "<thead><tr>")
                      .arg(cls, cls == QLatin1String("runs") ? QString() : QStringLiteral(" width=\"100%\""));
    for (const QString &h : head)
        out += QStringLiteral("<th>%1</th>").arg(esc(h));
    return out + QStringLiteral("</tr></thead>\n");
}

QString row(const QStringList &cells, bool censored)
{
    QString out = censored ? QStringLiteral("<tr class=\"censored\">") : QStringLiteral("<tr>");
    for (const QString &c : cells)
        out += QStringLiteral("<td nowrap>%1</td>").arg(c);
    return out + QStringLiteral("</tr>\n");
}

// More than 0.5% failed requests marks a point as censored (docs/metrics.md).
bool censored(const PointSummary &p)
{
    const int total = p.completed + p.failed;
    return total > 0 && double(p.failed) / total > 0.005;
}

} // namespace ServeScope::Report::Html
