// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

namespace ServeScope::TestPoints {

/// Latency ladder scaled from one base value: p1 < p10 < p25 < p50 < p75 < p90 < p99.
inline Distribution ladder(double base)
{
    Distribution d;
    d.count = 100;
    d.p1 = base * 0.5;
    d.p10 = base * 0.7;
    d.p25 = base * 0.85;
    d.p50 = d.median = d.mean = base;
    d.p75 = base * 1.2;
    d.p90 = base * 1.5;
    d.p99 = base * 2.5;
    return d;
}

inline PointSummary concurrencyPoint(const QString &variant, int point, int concurrency, double outTps, int repeat = 1)
{
    PointSummary p;
    p.variant = variant;
    p.point = point;
    p.repeat = repeat;
    p.label = QStringLiteral("c%1").arg(concurrency);
    p.mode = QStringLiteral("concurrency");
    p.concurrency = concurrency;
    p.inputLen = 512;
    p.outputLen = 256;
    p.completed = 100;
    p.successRate = 1.0;
    p.outputThroughput = outTps;
    p.requestThroughput = outTps / 256;
    p.totalTokenThroughput = outTps * 3;
    p.ttft = ladder(20 + concurrency);
    p.ttfc = ladder(21 + concurrency);
    p.tpot = ladder(18 + concurrency * 0.5);
    p.itl = ladder(18 + concurrency * 0.5);
    p.citl = p.itl;
    p.e2el = ladder(5000 + concurrency * 10);
    return p;
}

inline PointSummary ratePoint(const QString &variant, int point, double rate, double outTps)
{
    PointSummary p = concurrencyPoint(variant, point, 0, outTps);
    p.mode = QStringLiteral("rate");
    p.requestRate = rate;
    p.label = QStringLiteral("r%1").arg(rate);
    return p;
}

} // namespace ServeScope::TestPoints
