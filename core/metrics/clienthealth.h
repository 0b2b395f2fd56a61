// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QMap>
#include <QString>

#include <span>

namespace ServeScope {

/// How hard the client worked for one point (docs/metrics.md, Client health), by key:
/// `dispatch_lag_p50_ms`, `dispatch_lag_p99_ms`, `dispatch_lag_max_ms` — how late measured
/// requests were sent, start − max(scheduled, slot) — and, when `wallSeconds` > 0, `cpu_percent`
/// (the process's CPU time over the point's wall time, 100 = one core busy) and `cores`.
QMap<QString, double> clientHealth(
    std::span<const RequestRecord> records, double cpuSeconds, double wallSeconds, int cores);

/// The process's CPU time so far (user + system, all threads), in seconds.
double processCpuSeconds();

} // namespace ServeScope
