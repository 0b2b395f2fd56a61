// SPDX-License-Identifier: MIT
#include "records.h"

#include <array>
#include <cmath>
#include <limits>

namespace ServeScope {

namespace {
constexpr std::array<const char *, 13> kCodes = {
    "",
    "auth",
    "not_found",
    "rate_limited",
    "server_error",
    "connect",
    "tls",
    "timeout_connect",
    "timeout_first_token",
    "timeout_idle",
    "timeout_total",
    "protocol",
    "cancelled",
};
}

QString errorClassCode(ErrorClass c)
{
    return QString::fromLatin1(kCodes[size_t(c)]);
}

ErrorClass errorClassFromCode(QStringView code)
{
    for (size_t i = 0; i < kCodes.size(); ++i) {
        if (code == QLatin1String(kCodes[i]))
            return ErrorClass(i);
    }
    return ErrorClass::None;
}

double Distribution::percentile(double p) const noexcept
{
    for (const auto &e : extra) {
        if (e.first == p)
            return e.second;
    }
    const std::pair<double, double> ladder[]
        = { { 1, p1 }, { 10, p10 }, { 25, p25 }, { 50, p50 }, { 75, p75 }, { 90, p90 }, { 99, p99 } };
    for (const auto &[q, v] : ladder) {
        if (q == p)
            return v;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

std::span<const DistributionField> distributionFields()
{
    static constexpr DistributionField fields[] = {
        { "ttft", &PointSummary::ttft, true },
        { "ttfc", &PointSummary::ttfc, false },
        { "ttfo", &PointSummary::ttfo, false },
        { "tpot", &PointSummary::tpot, true },
        { "atpot", &PointSummary::atpot, false },
        { "itl", &PointSummary::itl, true },
        { "citl", &PointSummary::citl, false },
        { "e2el", &PointSummary::e2el, true },
    };
    return fields;
}

QString percentileKey(double p)
{
    return p == std::floor(p) ? QString::number(qint64(p)) : QString::number(p, 'g', 15);
}

double PointEstimate::spread() const noexcept
{
    return repeats > 1 && median != 0 ? (max - min) / std::abs(median) : 0.0;
}

} // namespace ServeScope
