// SPDX-License-Identifier: MIT
#include "report/summarycsv.h"

#include <QLocale>

#include <cmath>

namespace ServeScope::Report {

namespace {

QString number(double v)
{
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    if (std::isnan(v))
        return QStringLiteral("nan");
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

QString quoted(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n'))
        && !s.contains(QLatin1Char('\r')))
        return s;
    QString out = s;
    out.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

} // namespace

QStringList summaryCsvColumns()
{
    QStringList c { QStringLiteral("variant"), QStringLiteral("label"), QStringLiteral("mode"),
        QStringLiteral("concurrency"), QStringLiteral("request_rate"), QStringLiteral("repeat"),
        QStringLiteral("completed"), QStringLiteral("failed"), QStringLiteral("success_rate"),
        QStringLiteral("request_throughput"), QStringLiteral("output_throughput"),
        QStringLiteral("total_token_throughput") };
    for (const char *m : { "ttft", "tpot", "itl", "e2el" })
        for (const char *p : { "p50", "p90", "p99" })
            c << QString::fromLatin1(p) + QLatin1Char('_') + QString::fromLatin1(m) + QStringLiteral("_ms");
    return c;
}

QString summaryCsvRow(const PointSummary &p)
{
    QStringList f { quoted(p.variant), quoted(p.label), quoted(p.mode), QString::number(p.concurrency),
        number(p.requestRate), QString::number(p.repeat), QString::number(p.completed), QString::number(p.failed),
        number(p.successRate), number(p.requestThroughput), number(p.outputThroughput),
        number(p.totalTokenThroughput) };
    for (const Distribution *d : { &p.ttft, &p.tpot, &p.itl, &p.e2el })
        f << number(d->p50) << number(d->p90) << number(d->p99);
    return f.join(QLatin1Char(','));
}

QByteArray summaryCsv(const QList<PointSummary> &points)
{
    QString out = summaryCsvColumns().join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const PointSummary &p : points)
        out += summaryCsvRow(p) + QLatin1Char('\n');
    return out.toUtf8();
}

} // namespace ServeScope::Report
