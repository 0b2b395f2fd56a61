// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/servermetrics.h"

#include <QList>
#include <QStringView>

namespace ServeScope {

/// The samples of one periodic scheduler log line of a server, named as the same figures are on
/// `/metrics`, so a server without `/metrics` still gives the series ServeScope summarises (the
/// fallback series, docs/metrics.md). Read by key, whatever prefix (timestamp, level, process) the
/// line carries and in whatever order its fields come:
/// - vLLM's engine line (`... Avg prompt throughput: 1234.5 tokens/s, ..., Running: 12 reqs,
///   Waiting: 3 reqs, GPU KV cache usage: 45.6%, Prefix cache hit rate: 0.0%`; older builds say
///   `Pending:` for waiting): `vllm:num_requests_running`, `vllm:num_requests_waiting`,
///   `vllm:kv_cache_usage_perc` (0..1) and `vllm:gpu_prefix_cache_hit_rate` (0..1);
/// - SGLang's `Prefill batch. ...` and `Decode batch. ...` lines (`#running-req`, `#queue-req`,
///   `token usage`, and on prefill lines `#new-token` and `#cached-token`): `sglang:num_running_reqs`,
///   `sglang:num_queue_reqs`, `sglang:token_usage` and `sglang:cache_hit_rate` (the cached share of
///   the batch's prompt tokens).
/// Any other line, or a line whose fields cannot be read as numbers, gives no samples.
QList<ServerSample> parseSchedulerLogLine(QStringView line, qint64 timeNs);

} // namespace ServeScope
