// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QStringList>

/// Every field of a summary, estimate or request as text with all 17 digits (NaN as "nan"), so two
/// of them compare exactly and a difference shows which field it is.
namespace RunCompare {

inline QString n(double v)
{
    return QString::number(v, 'g', 17);
}

inline QStringList fields(const ServeScope::Distribution &d, const QString &name)
{
    QStringList out { name + QStringLiteral(".count=") + QString::number(d.count) };
    const double values[] = { d.mean, d.median, d.std, d.p1, d.p10, d.p25, d.p50, d.p75, d.p90, d.p99 };
    for (double v : values)
        out << name + QLatin1Char('=') + n(v);
    for (const auto &[p, v] : d.extra)
        out << name + QStringLiteral(".p") + n(p) + QLatin1Char('=') + n(v);
    return out;
}

inline QStringList fields(const QMap<QString, double> &m, const QString &name)
{
    QStringList out;
    for (auto it = m.cbegin(); it != m.cend(); ++it)
        out << name + QLatin1Char('.') + it.key() + QLatin1Char('=') + n(it.value());
    return out;
}

inline QStringList fields(const ServeScope::PointSummary &s)
{
    QStringList out { s.variant, QString::number(s.point), QString::number(s.repeat), s.label, s.mode,
        QString::number(s.concurrency), n(s.requestRate), QString::number(s.inputLen), QString::number(s.outputLen),
        QString::number(s.completed), QString::number(s.failed), QString::number(s.cancelled),
        QString::number(s.warmup), QString::number(s.discarded), n(s.duration), QString::number(s.totalInputTokens),
        QString::number(s.totalOutputTokens), n(s.requestThroughput), n(s.outputThroughput), n(s.totalTokenThroughput),
        n(s.requestGoodput), QString::number(s.maxConcurrentRequests), n(s.averageConcurrency),
        n(s.maxOutputTokensPerS), n(s.successRate), QString::number(s.outputEstimated),
        QString::number(s.inputEstimated), QString::number(s.usageOutputTokens), QString::number(s.rateLimited),
        QString::number(s.shortOutputs), n(s.roleGapMs), QString::number(s.derivationVersion), s.definitions };
    const ServeScope::Distribution *d[] = { &s.ttft, &s.ttfc, &s.tpot, &s.itl, &s.citl, &s.e2el };
    const char *names[] = { "ttft", "ttfc", "tpot", "itl", "citl", "e2el" };
    for (int i = 0; i < 6; ++i)
        out << fields(*d[i], QLatin1String(names[i]));
    return out + fields(s.steady, QStringLiteral("steady")) + fields(s.server, QStringLiteral("server"))
        + fields(s.client, QStringLiteral("client"));
}

inline QStringList fields(const ServeScope::PointEstimate &e)
{
    return { e.variant, QString::number(e.point), e.metric, QString::number(e.repeats), n(e.median), n(e.min), n(e.max),
        n(e.cv), n(e.ciLow), n(e.ciHigh), e.ciMethod };
}

inline QStringList fields(const ServeScope::RequestRecord &r)
{
    QStringList out { r.variant, QString::number(r.point), QString::number(r.repeat), QString::number(r.index),
        QString::number(r.warmup), QString::number(r.slot), QString::number(r.scheduledNs), QString::number(r.slotNs),
        QString::number(r.startNs), QString::number(r.endNs), QString::number(r.connectNs), QString::number(r.tlsNs),
        QString::number(r.httpStatus), QString::number(int(r.status)), ServeScope::errorClassCode(r.errorClass),
        r.errorText, QString::number(r.promptTokens), QString::number(r.completionTokens),
        QString::number(r.outputEstimated), QString::number(r.inputEstimated), QString::number(r.targetInputLen),
        QString::number(r.targetOutputLen), r.protocol, QString::fromLatin1(r.promptHash.toByteArray().toHex()),
        QString::fromUtf8(r.generatedText) };
    for (int i = 0; i < r.eventNs.size(); ++i)
        out << QString::number(r.eventNs.at(i)) + QLatin1Char(':') + QString::number(int(r.eventKinds.value(i)));
    return out;
}

template<typename T> QStringList all(const QVector<T> &items)
{
    QStringList out;
    for (const T &item : items)
        out << fields(item).join(QLatin1Char('|'));
    return out;
}

} // namespace RunCompare
