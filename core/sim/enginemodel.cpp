// SPDX-License-Identifier: MIT
#include "sim/enginemodel.h"

#include <algorithm>

namespace ServeScope::Sim {

EngineModel::EngineModel(const ModelParams &model, const SchedulerParams &scheduler)
    : m_model(model)
    , m_sched(scheduler)
    , m_kv(scheduler.kvCacheTokens / qMax(1, scheduler.blockSize), scheduler.prefixCaching)
{
    m_sched.blockSize = qMax(1, m_sched.blockSize);
    m_sched.maxNumSeqs = qMax(1, m_sched.maxNumSeqs);
    m_sched.maxNumBatchedTokens = qMax(1, m_sched.maxNumBatchedTokens);
}

double EngineModel::stepSeconds(const ModelParams &m, double sumContext, double tokens)
{
    const double memory = (m.weightBytes + sumContext * m.kvBytesPerToken) / m.memoryBandwidth;
    const double compute = 2.0 * m.activeParams * tokens / m.peakFlops;
    return m.overheadSeconds + std::max(memory, compute);
}

void EngineModel::add(SeqSpec spec)
{
    const quint64 id = spec.id;
    spec.outputTokens = qMax(1, spec.outputTokens);
    Seq s;
    s.spec = std::move(spec);
    m_seqs.insert_or_assign(id, std::move(s));
    m_waiting.push_back(id);
}

bool EngineModel::abort(quint64 id)
{
    const auto it = m_seqs.find(id);
    if (it == m_seqs.end())
        return false;
    freeBlocks(it->second);
    m_seqs.erase(it);
    if (const auto r = std::find(m_running.begin(), m_running.end(), id); r != m_running.end())
        m_running.erase(r);
    else if (const auto w = std::find(m_waiting.begin(), m_waiting.end(), id); w != m_waiting.end())
        m_waiting.erase(w);
    return true;
}

double EngineModel::kvUsage() const
{
    return m_kv.numBlocks() > 0 ? double(m_kv.usedBlocks()) / double(m_kv.numBlocks()) : 0.0;
}

bool EngineModel::grow(Seq &s, int tokens)
{
    const int bs = m_sched.blockSize;
    const int needed = (s.computed + tokens + bs - 1) / bs - int(s.blocks.size());
    if (needed > m_kv.freeBlocks())
        return false;
    for (int i = 0; i < needed; ++i)
        s.blocks.push_back(m_kv.allocate());
    return true;
}

void EngineModel::freeBlocks(Seq &s)
{
    // Tail blocks first, so that LRU eviction takes a prompt's end before its shared prefix.
    for (auto it = s.blocks.rbegin(); it != s.blocks.rend(); ++it)
        m_kv.release(*it);
    s.blocks.clear();
    s.computed = 0;
    s.registered = 0;
}

void EngineModel::preempt(quint64 id)
{
    // Recompute preemption: drop the KV, requeue at the front; prompt and generated tokens are
    // prefilled again when it is readmitted.
    freeBlocks(m_seqs.at(id));
    m_running.erase(std::find(m_running.begin(), m_running.end(), id));
    m_waiting.push_front(id);
    ++m_counters.preemptions;
}

void EngineModel::admitFromCache(Seq &s)
{
    if (!m_kv.prefixCaching())
        return;
    // At least one token must be computed to sample from, so the last block is never a hit.
    const size_t limit = std::min(size_t((s.total() - 1) / m_sched.blockSize), s.spec.blockHashes.size());
    for (size_t i = 0; i < limit; ++i) {
        const int b = m_kv.lookup(s.spec.blockHashes[i]);
        if (b < 0)
            break;
        s.blocks.push_back(b);
    }
    s.computed = int(s.blocks.size()) * m_sched.blockSize;
    s.registered = int(s.blocks.size());
}

void EngineModel::schedule(Seq &s, int tokens)
{
    s.computed += tokens;
    m_batch.emplace_back(s.spec.id, tokens);
    m_result.scheduledTokens += tokens;
    m_result.sumContext += s.computed;
}

const StepResult &EngineModel::step()
{
    // Reset field by field: keeping the emissions' capacity avoids reallocating every step.
    m_result.idle = true;
    m_result.seconds = m_result.sumContext = 0.0;
    m_result.scheduledTokens = m_result.batchSize = 0;
    m_result.admitted = m_result.prefillTokens = m_result.cachedTokens = 0;
    m_result.emissions.clear();
    m_result.admissions.clear();
    m_batch.clear();
    int budget = m_sched.maxNumBatchedTokens;
    bool preempted = false;
    for (size_t i = 0; i < m_running.size() && budget > 0;) {
        const quint64 id = m_running[i];
        Seq &s = m_seqs.at(id);
        const int n = std::min(s.total() - s.computed, budget);
        bool ok = grow(s, n);
        while (!ok) {
            const quint64 victim = m_running.back();
            preempt(victim);
            preempted = true;
            if (victim == id)
                break;
            ok = grow(s, n);
        }
        if (!ok)
            break;
        schedule(s, n);
        if (n > 1)
            m_result.prefillTokens += n;
        budget -= n;
        ++i;
    }
    // SGLang's max_prefill_tokens: new requests' tokens per step, beside the step's own budget.
    int prefillBudget = m_sched.maxPrefillTokens > 0 ? m_sched.maxPrefillTokens : budget;
    // As vLLM: no admissions in a step that had to preempt.
    while (!preempted && !m_waiting.empty() && budget > 0 && prefillBudget > 0
        && int(m_running.size()) < m_sched.maxNumSeqs) {
        const quint64 id = m_waiting.front();
        Seq &s = m_seqs.at(id);
        if (s.blocks.empty())
            admitFromCache(s);
        const int hits = s.computed;
        const int n = std::min({ s.total() - s.computed, budget, prefillBudget });
        if (!grow(s, n)) {
            freeBlocks(s);
            break;
        }
        m_waiting.pop_front();
        m_running.push_back(id);
        m_counters.prefixQueries += quint64(s.spec.promptTokens);
        m_counters.prefixHits += quint64(std::min(hits, s.spec.promptTokens));
        if (s.generated == 0)
            m_counters.promptTokens += quint64(s.spec.promptTokens);
        if (s.generated == 0 && s.cached == 0) // a preempted sequence recomputes: vLLM reports the first look
            s.cached = std::min(hits, s.spec.promptTokens);
        schedule(s, n);
        budget -= n;
        prefillBudget -= n;
        ++m_result.admitted;
        m_result.prefillTokens += n;
        m_result.cachedTokens += std::min(hits, s.spec.promptTokens);
        if (s.generated == 0)
            m_result.admissions.push_back({ id, 0, false, s.cached });
    }
    finishStep();
    return m_result;
}

void EngineModel::finishStep()
{
    if (m_batch.empty())
        return;
    m_result.idle = false;
    m_result.batchSize = int(m_batch.size());
    m_result.seconds = stepSeconds(m_model, m_result.sumContext, m_result.scheduledTokens);
    ++m_counters.steps;
    bool anyFinished = false;
    for (const auto &[id, n] : m_batch) {
        Seq &s = m_seqs.at(id);
        const int full = std::min(s.computed, s.spec.promptTokens) / m_sched.blockSize;
        for (int r = s.registered; r < full && r < int(s.spec.blockHashes.size()); ++r)
            m_kv.registerHash(s.blocks[size_t(r)], s.spec.blockHashes[size_t(r)]);
        s.registered = std::max(s.registered, full);
        if (s.computed < s.total())
            continue; // a prefill chunk that did not reach the end samples nothing
        ++s.generated;
        ++m_counters.generationTokens;
        const bool done = s.generated >= s.spec.outputTokens;
        m_result.emissions.push_back({ id, 1, done, s.cached });
        if (done) {
            freeBlocks(s);
            s.spec.promptTokens = -1; // marks it for removal below
            anyFinished = true;
            ++m_counters.finished;
        }
    }
    if (!anyFinished)
        return;
    std::erase_if(m_running, [this](quint64 id) {
        const auto it = m_seqs.find(id);
        if (it->second.spec.promptTokens >= 0)
            return false;
        m_seqs.erase(it);
        return true;
    });
}

} // namespace ServeScope::Sim
