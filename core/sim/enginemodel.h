// SPDX-License-Identifier: MIT
#pragma once

#include "sim/kvcache.h"
#include "sim/simconfig.h"

#include <deque>
#include <unordered_map>
#include <vector>

namespace ServeScope::Sim {

/// A request as the engine sees it.
struct SeqSpec {
    quint64 id = 0;
    int promptTokens = 0;
    int outputTokens = 1; ///< where the sequence stops (max_tokens under ignore_eos, else a seeded point)
    std::vector<quint64> blockHashes; ///< chained hashes of the prompt's full blocks
};

/// What one step produced for one sequence: a new token (0 or 1) and whether it finished.
struct Emission {
    quint64 id = 0;
    int tokens = 0;
    bool finished = false;
    int cachedTokens = 0; ///< prompt tokens the sequence found in the prefix cache when first admitted
};

struct StepResult {
    bool idle = true; ///< nothing was scheduled
    double seconds = 0.0; ///< model time of the step
    int scheduledTokens = 0;
    int batchSize = 0;
    double sumContext = 0.0;
    int admitted = 0; ///< sequences taken from the waiting queue this step
    int prefillTokens = 0; ///< tokens scheduled as prefill (chunks of more than one token, and admissions)
    int cachedTokens = 0; ///< prompt tokens the admitted sequences found in the prefix cache
    std::vector<Emission> emissions;
    /// Sequences admitted this step before their first token (no tokens; cachedTokens set), so an
    /// API that announces a request when it starts (Anthropic's message_start) can say so at once.
    std::vector<Emission> admissions;
};

/// Cumulative counters, named after vLLM's Prometheus metrics.
struct EngineCounters {
    quint64 preemptions = 0;
    quint64 prefixQueries = 0; ///< prompt tokens looked up
    quint64 prefixHits = 0; ///< prompt tokens found in the cache
    quint64 promptTokens = 0; ///< prompt tokens of admitted requests
    quint64 generationTokens = 0;
    quint64 steps = 0;
    quint64 finished = 0;
};

/// A vLLM-like engine: continuous batching under max_num_seqs and a per-step token budget shared
/// by decode and chunked prefill, a paged KV cache with recompute preemption, and a roofline step
/// time. Pure: no clock and no I/O, so the same inputs always give the same steps.
class EngineModel final {
public:
    EngineModel(const ModelParams &model, const SchedulerParams &scheduler);

    /// overhead + max((weights + sumContext * kv_bytes) / bandwidth, 2 * active_params * tokens / flops)
    static double stepSeconds(const ModelParams &m, double sumContext, double tokens);

    void add(SeqSpec spec);
    /// Removes a sequence wherever it is and frees its blocks; false if unknown.
    bool abort(quint64 id);
    /// Schedules and runs one step. The result stays valid until the next call.
    const StepResult &step();
    /// The result of the latest step() (still valid after abort()).
    const StepResult &lastResult() const { return m_result; }
    void resetPrefixCache() { m_kv.resetPrefixCache(); }

    int running() const { return int(m_running.size()); }
    int waiting() const { return int(m_waiting.size()); }
    bool hasWork() const { return !m_running.empty() || !m_waiting.empty(); }
    double kvUsage() const;
    const EngineCounters &counters() const { return m_counters; }
    const ModelParams &modelParams() const { return m_model; }
    const SchedulerParams &schedulerParams() const { return m_sched; }

private:
    struct Seq {
        SeqSpec spec;
        int generated = 0;
        int computed = 0; ///< tokens whose KV is in the cache
        int registered = 0; ///< prompt blocks published to the prefix cache
        int cached = 0; ///< prompt tokens found in the prefix cache at the first admission
        std::vector<int> blocks;
        int total() const { return spec.promptTokens + generated; }
    };

    bool grow(Seq &s, int tokens);
    void freeBlocks(Seq &s);
    void preempt(quint64 id);
    void admitFromCache(Seq &s);
    void schedule(Seq &s, int tokens);
    void finishStep();

    ModelParams m_model;
    SchedulerParams m_sched;
    KvCache m_kv;
    std::unordered_map<quint64, Seq> m_seqs;
    std::vector<quint64> m_running;
    std::deque<quint64> m_waiting;
    std::vector<std::pair<quint64, int>> m_batch;
    StepResult m_result;
    EngineCounters m_counters;
};

} // namespace ServeScope::Sim
