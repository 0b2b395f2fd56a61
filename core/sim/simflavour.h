// SPDX-License-Identifier: MIT
#pragma once

#include "sim/enginemodel.h"
#include "sim/simconfig.h"

#include <QByteArray>

namespace ServeScope::Sim {

/// The sglang flavour's `/metrics` series: `sglang:num_running_reqs`, `sglang:num_queue_reqs`,
/// `sglang:num_used_tokens`, `sglang:token_usage` (0..1), `sglang:gen_throughput`,
/// `sglang:cache_hit_rate` (0..1, of the latest prefill batch), `sglang:prompt_tokens_total`,
/// `sglang:generation_tokens_total`. `label` is the `{model_name="..."}` set.
QByteArray sglangMetricsText(
    const EngineModel &engine, const QByteArray &label, double genThroughput, double cacheHitRate);
/// The vllm flavour's info gauges: vLLM's `vllm:cache_config_info` (block_size, enable_prefix_caching,
/// gpu_memory_utilization, num_gpu_blocks) and the simulator's `servescope_sim:scheduler_config_info`
/// (max_num_seqs, max_num_batched_tokens, max_model_len), both of value 1.
QByteArray vllmInfoMetricsText(const SimConfig &config, const QByteArray &label);
/// SGLang's `/get_server_info`: the server arguments it runs with, `internal_states` and `version`.
QByteArray serverInfoJson(const SimConfig &config, quint16 port, double genThroughput);

/// The periodic scheduler lines a real server prints on stderr, from the engine's steps. vllm: every
/// 10 s of model time with work, as vLLM's "Engine 000: Avg prompt throughput: ..." line; sglang:
/// "Prefill batch. ..." for every step that admits requests and "Decode batch. ..." every 40 decode
/// steps, as SGLang's scheduler.
class SchedulerLog {
public:
    explicit SchedulerLog(const SimConfig &config);
    /// After each step that ran; `nowNs` is monotonic wall time (scaled to model time here).
    void onStep(const StepResult &step, const EngineModel &engine, qint64 nowNs);
    /// Generated tokens per model second over the latest decode log interval (SGLang's gen throughput).
    double genThroughput() const { return m_genThroughput; }
    /// Cached share of the latest prefill batch's prompt tokens (SGLang's cache_hit_rate), 0..1.
    double cacheHitRate() const { return m_cacheHitRate; }

    static constexpr double kVllmIntervalS = 10.0;
    static constexpr int kSglangDecodeInterval = 40;

private:
    void vllmLine(const EngineModel &engine, double modelNow);
    void sglangPrefill(const StepResult &step, const EngineModel &engine);
    void sglangDecode(const EngineModel &engine, double modelNow);

    Flavor m_flavor;
    double m_timeScale;
    int m_kvTokens;
    double m_lastLineS = -1; ///< model time of the latest periodic line
    EngineCounters m_atLastLine;
    int m_decodeSteps = 0;
    double m_genThroughput = 0, m_cacheHitRate = 0;
};

} // namespace ServeScope::Sim
