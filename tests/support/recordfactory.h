// SPDX-License-Identifier: MIT
// Deterministic records and summaries for storage tests and benchmarks, and field-by-field
// comparisons that name the first difference.
#pragma once

#include "model/records.h"

#include <QRandomGenerator>
#include <QString>

#include <cmath>

namespace ServeScope::TestData {

/// A request whose every field is derived from (seed, index); `events` token events plus role/usage/done.
inline RequestRecord makeRequest(
    qint64 runId, const QString &variant, int point, int repeat, int index, int events = 64, quint32 seed = 1)
{
    QRandomGenerator rng(seed * 7919u + quint32(index) * 104729u + quint32(point) * 31u + quint32(repeat));
    RequestRecord r;
    r.runId = runId;
    r.variant = variant;
    r.point = point;
    r.repeat = repeat;
    r.index = index;
    r.warmup = index % 50 == 0;
    r.slot = index % 64;
    r.scheduledNs = 1'000'000'000'000LL + qint64(index) * 1'000'000 + qint64(rng.bounded(1000));
    r.slotNs = r.scheduledNs + qint64(rng.bounded(5000));
    r.startNs = r.slotNs + qint64(rng.bounded(2000));
    r.connectNs = index % 7 == 0 ? qint64(rng.bounded(100000)) : 0;
    r.tlsNs = index % 14 == 0 ? qint64(rng.bounded(100000)) : 0;
    r.protocol = index % 3 ? QStringLiteral("http/1.1") : QStringLiteral("h2");
    r.targetInputLen = 128 << (point % 4);
    r.targetOutputLen = events;
    r.promptTokens = r.targetInputLen + int(rng.bounded(3));
    r.promptHash = PromptHash(QByteArray::number(quint64(rng.generate64()), 16));
    const bool failed = index % 97 == 13;
    const bool cancelled = index % 211 == 5;
    if (failed) {
        r.status = RequestStatus::Failed;
        r.errorClass = index % 2 ? ErrorClass::ServerError : ErrorClass::TimeoutFirstToken;
        r.httpStatus = index % 2 ? 500 : 200;
        r.errorText = QStringLiteral("error \"%1\"\n\tüñí").arg(index);
        r.endNs = r.startNs + 1000;
        return r;
    }
    r.httpStatus = 200;
    r.status = cancelled ? RequestStatus::Cancelled : RequestStatus::Ok;
    r.errorClass = cancelled ? ErrorClass::Cancelled : ErrorClass::None;
    r.completionTokens = events;
    r.outputEstimated = index % 11 == 0;
    r.inputEstimated = index % 13 == 0;
    if (index % 5 == 0)
        r.generatedText = QStringLiteral("text %1 ✓").arg(index).toUtf8();
    qint64 t = 10'000'000 + qint64(rng.bounded(50'000'000));
    r.eventNs.append(t);
    r.eventKinds.append(EventKind::RoleOnly);
    for (int i = 0; i < events; ++i) {
        t += qint64(rng.bounded(40'000'000));
        r.eventNs.append(t);
        r.eventKinds.append(i % 9 == 8 ? EventKind::Reasoning : EventKind::Content);
    }
    r.eventNs.append(t);
    r.eventKinds.append(EventKind::Usage);
    r.eventNs.append(t + 5);
    r.eventKinds.append(EventKind::Done);
    r.endNs = r.startNs + t + 5;
    return r;
}

// clang-format off
#define SS_CMP(field)                                                                                                  \
    if (!(a.field == b.field))                                                                                         \
        return QStringLiteral(#field);

/// Empty when equal, else the name of the first differing field.
inline QString requestDiff(const RequestRecord &a, const RequestRecord &b)
{
    SS_CMP(runId)
    SS_CMP(variant)
    SS_CMP(point) SS_CMP(repeat) SS_CMP(index) SS_CMP(warmup) SS_CMP(slot) SS_CMP(scheduledNs) SS_CMP(slotNs)
        SS_CMP(startNs) SS_CMP(endNs) SS_CMP(connectNs) SS_CMP(tlsNs) SS_CMP(httpStatus) SS_CMP(status)
            SS_CMP(errorClass) SS_CMP(errorText) SS_CMP(protocol) SS_CMP(promptTokens) SS_CMP(completionTokens)
                SS_CMP(outputEstimated) SS_CMP(inputEstimated) SS_CMP(targetInputLen) SS_CMP(targetOutputLen) SS_CMP(promptHash)
                    SS_CMP(generatedText) SS_CMP(eventNs) SS_CMP(eventKinds) return {};
}

inline Distribution makeDistribution(double base, bool withExtra)
{
    Distribution d;
    d.count = int(base * 10);
    d.mean = base * 1.1;
    d.median = base;
    d.std = base / 3.0;
    d.p1 = base * 0.1;
    d.p10 = base * 0.3;
    d.p25 = base * 0.7;
    d.p50 = base;
    d.p75 = base * 1.3;
    d.p90 = base * 1.7;
    d.p99 = base * 2.9 + 1e-9;
    if (withExtra)
        d.extra = { { 99.9, base * 3.3333333333333335 }, { 95, base * 2.1 } };
    return d;
}

inline PointSummary makeSummary(qint64 runId, const QString &variant, int point, int repeat)
{
    PointSummary s;
    s.runId = runId;
    s.variant = variant;
    s.point = point;
    s.repeat = repeat;
    s.label = QStringLiteral("c%1").arg(1 << point);
    s.mode = point == 3 ? QStringLiteral("rate") : QStringLiteral("concurrency");
    s.concurrency = point == 3 ? 0 : 1 << point;
    s.requestRate = point == 3 ? std::numeric_limits<double>::infinity() : 0;
    s.inputLen = 512;
    s.outputLen = 128;
    s.completed = 200 + point;
    s.failed = repeat;
    s.cancelled = 1;
    s.warmup = 30;
    s.discarded = 20;
    s.duration = 12.345678901234567 * (point + 1);
    s.totalInputTokens = 5'000'000'000LL + point;
    s.totalOutputTokens = 25600 + repeat;
    s.requestThroughput = s.completed / s.duration;
    s.outputThroughput = s.totalOutputTokens / s.duration;
    s.totalTokenThroughput = 1.0 / 3.0;
    s.requestGoodput = point == 0 ? -1 : 7.25;
    s.maxConcurrentRequests = s.concurrency;
    s.averageConcurrency = 0.1 + point;
    s.maxOutputTokensPerS = 1234.5;
    s.successRate = 0.995;
    s.ttft = makeDistribution(101.5 + point, true);
    s.ttfc = makeDistribution(102.5, false);
    s.tpot = makeDistribution(18.25, true);
    s.itl = makeDistribution(17.75, false);
    s.citl = makeDistribution(17.5, false);
    s.e2el = makeDistribution(2500.125, point % 2 == 1);
    s.derivationVersion = 3;
    s.definitions = QStringLiteral("sglang");
    return s;
}

inline QString distributionDiff(const Distribution &a, const Distribution &b)
{
    SS_CMP(count)
    SS_CMP(mean)
    SS_CMP(median) SS_CMP(std) SS_CMP(p1) SS_CMP(p10) SS_CMP(p25) SS_CMP(p50) SS_CMP(p75) SS_CMP(p90) SS_CMP(p99)
        SS_CMP(extra) return {};
}

inline QString summaryDiff(const PointSummary &a, const PointSummary &b)
{
    SS_CMP(runId)
    SS_CMP(variant)
    SS_CMP(point) SS_CMP(repeat) SS_CMP(label) SS_CMP(mode) SS_CMP(concurrency) SS_CMP(requestRate) SS_CMP(inputLen)
        SS_CMP(outputLen) SS_CMP(completed) SS_CMP(failed) SS_CMP(cancelled) SS_CMP(warmup) SS_CMP(discarded)
            SS_CMP(duration) SS_CMP(totalInputTokens) SS_CMP(totalOutputTokens) SS_CMP(requestThroughput)
                SS_CMP(outputThroughput) SS_CMP(totalTokenThroughput) SS_CMP(requestGoodput)
                    SS_CMP(maxConcurrentRequests) SS_CMP(averageConcurrency) SS_CMP(maxOutputTokensPerS)
                        SS_CMP(successRate) SS_CMP(derivationVersion) SS_CMP(definitions) const Distribution *da[]
        = { &a.ttft, &a.ttfc, &a.tpot, &a.itl, &a.citl, &a.e2el };
    const Distribution *db[] = { &b.ttft, &b.ttfc, &b.tpot, &b.itl, &b.citl, &b.e2el };
    for (int i = 0; i < 6; ++i) {
        const QString d = distributionDiff(*da[i], *db[i]);
        if (!d.isEmpty())
            return QStringLiteral("distribution %1: %2").arg(i).arg(d);
    }
    return {};
}

#undef SS_CMP
// clang-format on

} // namespace ServeScope::TestData
