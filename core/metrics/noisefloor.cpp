// SPDX-License-Identifier: MIT
#include "metrics/noisefloor.h"

#include "metrics/estimates.h"

#include <algorithm>
#include <cmath>

namespace ServeScope {

NoiseFamily noiseFamily(const QString &key)
{
    if (key == QLatin1String("success_rate"))
        return NoiseFamily::Success;
    if (!key.endsWith(QLatin1String("_ms")))
        return NoiseFamily::Throughput;
    const QString figure = isTurnKey(key) ? turnFigure(key) : key;
    if (figure.startsWith(QLatin1String("p99_")))
        return NoiseFamily::Tail;
    if (figure.contains(QLatin1String("_ttft_")) || figure.contains(QLatin1String("_ttfo_")))
        return NoiseFamily::Ttft;
    return NoiseFamily::Decode;
}

QString noiseFamilyCode(NoiseFamily family)
{
    switch (family) {
    case NoiseFamily::Ttft:
        return QStringLiteral("ttft");
    case NoiseFamily::Decode:
        return QStringLiteral("decode");
    case NoiseFamily::Tail:
        return QStringLiteral("tail");
    case NoiseFamily::Throughput:
        return QStringLiteral("throughput");
    case NoiseFamily::Success:
        break;
    }
    return QStringLiteral("success");
}

double NoiseFloors::of(NoiseFamily family) const
{
    switch (family) {
    case NoiseFamily::Ttft:
        return ttft;
    case NoiseFamily::Decode:
        return decode;
    case NoiseFamily::Tail:
        return tail;
    case NoiseFamily::Throughput:
        return throughput;
    case NoiseFamily::Success:
        break;
    }
    return kFailureFloor;
}

const NoiseFloors &defaultNoiseFloors()
{
    // bench_verdicts' A/A pairs, one repeat each (docs/metrics.md, "Run-to-run noise").
    static const NoiseFloors floors { 0.30, 0.15, 0.60, 0.05 };
    return floors;
}

double requiredChange(const QString &key, int na, int nb, double practicalThreshold, const NoiseFloors &floors)
{
    const double scale = std::sqrt((1.0 / std::max(na, 1) + 1.0 / std::max(nb, 1)) / 2);
    return std::max(practicalThreshold, floors.of(noiseFamily(key)) * scale);
}

double runToRunHalfWidth(const QString &key, int repeats, const NoiseFloors &floors)
{
    return floors.of(noiseFamily(key)) / std::sqrt(2.0 * std::max(repeats, 1));
}

} // namespace ServeScope
