// SPDX-License-Identifier: MIT
#include "io/resultfile.h"

#include "model/experiment.h"

#include <QLocale>

#include <cmath>

namespace ServeScope {

namespace {

// Shortest representation that reads back to the same double, in the C locale.
QByteArray num(double d)
{
    if (std::isnan(d))
        return QByteArrayLiteral("nan");
    if (std::isinf(d))
        return d > 0 ? QByteArrayLiteral("inf") : QByteArrayLiteral("-inf");
    return QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
}

QByteArray field(const QString &s)
{
    QByteArray b = s.toUtf8();
    if (b.contains(',') || b.contains('"') || b.contains('\n') || b.contains('\r')) {
        b.replace("\"", "\"\"");
        b = '"' + b + '"';
    }
    return b;
}

} // namespace

QByteArray summaryCsvHeader()
{
    QByteArray h("variant,label,mode,concurrency,request_rate,repeat,completed,failed,success_rate,"
                 "request_throughput,output_throughput,total_token_throughput");
    for (const char *m : { "ttft", "tpot", "itl", "e2el" }) {
        for (const char *p : { "p50", "p90", "p99" })
            h += QByteArray(",") + p + '_' + m + "_ms";
    }
    return h + '\n';
}

QByteArray summaryCsvRow(const PointSummary &s)
{
    QByteArray row = field(s.variant) + ',' + field(s.label) + ',' + field(s.mode) + ','
        + QByteArray::number(s.concurrency) + ',' + num(s.requestRate) + ',' + QByteArray::number(s.repeat) + ','
        + QByteArray::number(s.completed) + ',' + QByteArray::number(s.failed) + ',' + num(s.successRate) + ','
        + num(s.requestThroughput) + ',' + num(s.outputThroughput) + ',' + num(s.totalTokenThroughput);
    for (const Distribution *d : { &s.ttft, &s.tpot, &s.itl, &s.e2el })
        row += ',' + num(d->p50) + ',' + num(d->p90) + ',' + num(d->p99);
    return row + '\n';
}

QString resultFileRelativePath(const QString &variant, const QString &label, int repeat)
{
    return sanitizeName(variant) + u'/' + sanitizeName(label) + QStringLiteral("-r") + QString::number(repeat)
        + QStringLiteral(".json");
}

} // namespace ServeScope
