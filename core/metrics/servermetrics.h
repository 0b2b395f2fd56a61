// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArrayView>
#include <QList>
#include <QMap>
#include <QString>

#include <span>

namespace ServeScope {

/// One sample of a Prometheus text exposition, at the time the scrape answered.
struct ServerSample {
    qint64 timeNs = 0; ///< monotonicNs() when the scrape's reply arrived
    QString name;
    QString labels; ///< as exposed, e.g. `model_name="x",gpu="0"`
    double value = 0;
};

/// The samples of a Prometheus text exposition (0.0.4) whose names ServeScope reads
/// (isServerSeries); comments, histograms and unknown names are skipped, as is any line it cannot
/// parse. At most `maxSamples` are returned.
QList<ServerSample> parsePrometheusText(QByteArrayView text, qint64 timeNs, int maxSamples = 4096);

/// The series ServeScope keeps: vLLM's (`vllm:num_requests_running`, `vllm:num_requests_waiting`,
/// `vllm:kv_cache_usage_perc`, `vllm:gpu_cache_usage_perc`, `vllm:num_preemptions_total`,
/// `vllm:prefix_cache_queries_total`, `vllm:prefix_cache_hits_total`, `vllm:prompt_tokens_total`,
/// `vllm:generation_tokens_total`, and `vllm:gpu_prefix_cache_hit_rate`, which only its log line
/// gives, schedulerlog.h), SGLang's (`sglang:num_running_reqs`, `sglang:num_queue_reqs`,
/// `sglang:token_usage`, `sglang:cache_hit_rate`, `sglang:prompt_tokens_total`,
/// `sglang:generation_tokens_total`) and DCGM exporter's (`DCGM_FI_DEV_GPU_UTIL`,
/// `DCGM_FI_PROF_DRAM_ACTIVE`, `DCGM_FI_PROF_SM_ACTIVE`, `DCGM_FI_DEV_POWER_USAGE`).
bool isServerSeries(QStringView name);

/// One point's server-side summary from the samples scraped while it ran (docs/metrics.md, Server
/// series), by key: `samples` (scrapes inside the gauge window), `running_mean`, `running_max`,
/// `waiting_mean`, `waiting_max`, `kv_usage_mean`, `kv_usage_max` (percent), `preemptions`,
/// `prompt_tokens`, `generation_tokens` (the server's counts over the window),
/// `prefix_cache_hit_rate` (hits / queries over the window, percent), `gpu_util_mean`,
/// `dram_active_mean`, `sm_active_mean` (percent), `power_mean_w`. A key is present only when its
/// series was scraped at least once in the window (counters: twice). Label sets of one name are
/// summed for request counts, averaged for GPU gauges and the maximum taken for cache usage.
/// Gauges are read over [startNs, endNs] (while requests ran), counters' deltas over the wider
/// [counterStartNs, counterEndNs] (the scrapes just before and after them).
struct ServerWindow {
    qint64 startNs = 0, endNs = 0;
    qint64 counterStartNs = 0, counterEndNs = 0;
};
QMap<QString, double> summarizeServerSeries(std::span<const ServerSample> samples, const ServerWindow &window);

} // namespace ServeScope
