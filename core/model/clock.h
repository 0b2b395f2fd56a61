// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cmath>
#include <QtGlobal>

namespace ServeScope {

/// The one clock every number is measured on: CLOCK_MONOTONIC in int64 nanoseconds, shared by
/// the client and the simulator processes on one host. Convert to seconds once, as ns / 1e9.
inline qint64 monotonicNs() noexcept
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline double nsToSeconds(qint64 ns) noexcept
{
    return double(ns) / 1e9;
}

/// Seconds read from elsewhere (a result file) to the nearest ns; 0 for NaN or infinity.
inline qint64 secondsToNs(double seconds) noexcept
{
    return std::isfinite(seconds) ? qint64(std::llround(seconds * 1e9)) : 0;
}

/// The latest offset a planned schedule holds: 2^62 ns (146 years), so that a clock reading plus an
/// offset never overflows int64.
constexpr qint64 kScheduleLimitNs = qint64(1) << 62;

/// A planned time in ns (arrivals, a trace's offsets) as int64, saturated at kScheduleLimitNs: the gap
/// of a tiny request rate stays far in the future instead of wrapping to a negative time; NaN and
/// negative times read as kScheduleLimitNs and 0.
inline qint64 scheduleNs(double ns) noexcept
{
    if (!(ns < double(kScheduleLimitNs)))
        return std::isnan(ns) ? kScheduleLimitNs : (ns > 0 ? kScheduleLimitNs : 0);
    return ns > 0 ? qint64(std::llround(ns)) : 0;
}

} // namespace ServeScope
