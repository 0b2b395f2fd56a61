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
/// (the process's CPU time over the point's wall time, 100 = one core busy, never more than the
/// host's cores) and `cores`. How the streams arrived is summarisePoint()'s (streamArrival()).
QMap<QString, double> clientHealth(
    std::span<const RequestRecord> records, double cpuSeconds, double wallSeconds, int cores);

/// How the successful measured streams with at least 3 token events arrived, by key (empty when
/// none did): `stream_events_per_read`, the token events per distinct arrival time (events that
/// came in one socket read share their time; 1 for a stream sent event by event);
/// `stream_same_read_share`, the share of gaps between consecutive token events that are zero;
/// `stream_ttft_e2el_p50`, the median of TTFT / E2EL. A gateway that buffers the stream delivers
/// its events in a few reads: many events per read, nearly every gap zero (docs/metrics.md#buffered-streams).
QMap<QString, double> streamArrival(std::span<const RequestRecord> records);

/// The successful measured requests whose usage contradicted their stream and was set aside
/// (RequestRecord::usageOutputSetAside, usagePromptSetAside; docs/metrics.md, "Usage against the
/// stream"), by key (empty when none): `usage_mismatch_requests`; over those whose output count was set
/// aside, `usage_mismatch_output_said` (usage's sum) and `usage_mismatch_output_counted` (the fallback's);
/// `usage_mismatch_input_said` and `usage_mismatch_input_counted` the same for prompt counts.
QMap<QString, double> usageSetAside(std::span<const RequestRecord> records);

/// The process's CPU time so far (user + system, all threads), in seconds.
double processCpuSeconds();

} // namespace ServeScope
