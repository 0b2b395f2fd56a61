// SPDX-License-Identifier: MIT
#include "sim/simflavour.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>

namespace ServeScope::Sim {

namespace {

void gauge(QByteArray &out, const char *name, const char *type, const char *help, const QByteArray &label, double v)
{
    out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n' + name + label + ' '
        + QByteArray::number(v, 'g', 17) + '\n';
}

QByteArray number(double v)
{
    return QByteArray::number(v, 'g', 17);
}

/// The label set with more labels before its closing brace.
QByteArray withLabels(const QByteArray &label, const QByteArray &more)
{
    return label.chopped(1) + ',' + more + '}';
}

} // namespace

QByteArray sglangMetricsText(
    const EngineModel &engine, const QByteArray &label, double genThroughput, double cacheHitRate)
{
    QByteArray out;
    const EngineCounters &k = engine.counters();
    const double used = engine.kvUsage() * engine.schedulerParams().kvCacheTokens;
    gauge(out, "sglang:num_running_reqs", "gauge", "The number of running requests.", label, engine.running());
    gauge(
        out, "sglang:num_queue_reqs", "gauge", "The number of requests in the waiting queue.", label, engine.waiting());
    gauge(out, "sglang:num_used_tokens", "gauge", "The number of used tokens.", label, std::round(used));
    gauge(out, "sglang:token_usage", "gauge", "The token usage.", label, engine.kvUsage());
    gauge(out, "sglang:gen_throughput", "gauge", "The generation throughput (token/s).", label, genThroughput);
    gauge(out, "sglang:cache_hit_rate", "gauge", "The prefix cache hit rate.", label, cacheHitRate);
    out += "# HELP sglang:prompt_tokens_total Number of prefill tokens processed.\n# TYPE sglang:prompt_tokens_total "
           "counter\nsglang:prompt_tokens_total"
        + label + ' ' + number(double(k.promptTokens)) + '\n';
    out += "# HELP sglang:generation_tokens_total Number of generation tokens processed.\n# TYPE "
           "sglang:generation_tokens_total counter\nsglang:generation_tokens_total"
        + label + ' ' + number(double(k.generationTokens)) + '\n';
    return out;
}

QByteArray vllmInfoMetricsText(const SimConfig &config, const QByteArray &label)
{
    const SchedulerParams &s = config.scheduler;
    QByteArray out;
    const QByteArray cache = "block_size=\"" + QByteArray::number(s.blockSize) + "\",enable_prefix_caching=\""
        + (s.prefixCaching ? "True" : "False") + "\",gpu_memory_utilization=\""
        + QByteArray::number(s.memoryFraction, 'g', 6) + "\",num_gpu_blocks=\""
        + QByteArray::number(s.kvCacheTokens / std::max(1, s.blockSize)) + '"';
    gauge(out, "vllm:cache_config_info", "gauge", "Information of the LLMEngine CacheConfig", withLabels(label, cache),
        1);
    const QByteArray sched = "max_num_seqs=\"" + QByteArray::number(s.maxNumSeqs) + "\",max_num_batched_tokens=\""
        + QByteArray::number(s.maxNumBatchedTokens) + "\",max_model_len=\"" + QByteArray::number(s.maxModelLen) + '"';
    gauge(out, "servescope_sim:scheduler_config_info", "gauge", "The simulator's scheduler settings.",
        withLabels(label, sched), 1);
    return out;
}

QByteArray serverInfoJson(const SimConfig &config, quint16 port, double genThroughput)
{
    const SchedulerParams &s = config.scheduler;
    const QJsonObject state { { QStringLiteral("max_total_num_tokens"), s.kvCacheTokens },
        { QStringLiteral("last_gen_throughput"), genThroughput } };
    const QJsonObject info {
        { QStringLiteral("model_path"), config.server.model },
        { QStringLiteral("served_model_name"), config.server.model },
        { QStringLiteral("host"), config.server.host },
        { QStringLiteral("port"), int(port) },
        { QStringLiteral("context_length"), s.maxModelLen },
        { QStringLiteral("max_running_requests"), s.maxNumSeqs },
        { QStringLiteral("chunked_prefill_size"), s.maxNumBatchedTokens },
        { QStringLiteral("max_prefill_tokens"), s.maxPrefillTokens },
        { QStringLiteral("mem_fraction_static"), s.memoryFraction },
        { QStringLiteral("page_size"), s.blockSize },
        { QStringLiteral("disable_radix_cache"), !s.prefixCaching },
        { QStringLiteral("random_seed"), qint64(config.server.seed) },
        { QStringLiteral("internal_states"), QJsonArray { state } },
        { QStringLiteral("version"), QStringLiteral(SERVESCOPE_VERSION "-sim") },
    };
    return QJsonDocument(info).toJson(QJsonDocument::Compact);
}

SchedulerLog::SchedulerLog(const SimConfig &config)
    : m_flavor(config.server.flavor)
    , m_timeScale(config.server.timeScale)
    , m_kvTokens(config.scheduler.kvCacheTokens)
{
}

void SchedulerLog::onStep(const StepResult &step, const EngineModel &engine, qint64 nowNs)
{
    const double modelNow = double(nowNs) / 1e9 * m_timeScale;
    if (m_lastLineS < 0) {
        m_lastLineS = modelNow;
        m_atLastLine = engine.counters();
    }
    if (step.admitted > 0 && step.prefillTokens + step.cachedTokens > 0)
        m_cacheHitRate = double(step.cachedTokens) / double(step.prefillTokens + step.cachedTokens);
    if (m_flavor == Flavor::Vllm) {
        if (modelNow - m_lastLineS >= kVllmIntervalS)
            vllmLine(engine, modelNow);
        return;
    }
    if (step.admitted > 0)
        sglangPrefill(step, engine);
    else if (!step.emissions.empty() && ++m_decodeSteps >= kSglangDecodeInterval)
        sglangDecode(engine, modelNow);
}

void SchedulerLog::vllmLine(const EngineModel &engine, double modelNow)
{
    const EngineCounters &k = engine.counters();
    const double span = modelNow - m_lastLineS;
    const double prompt = double(k.promptTokens - m_atLastLine.promptTokens) / span;
    const double gen = double(k.generationTokens - m_atLastLine.generationTokens) / span;
    const quint64 queries = k.prefixQueries - m_atLastLine.prefixQueries;
    const double hitRate = queries ? 100.0 * double(k.prefixHits - m_atLastLine.prefixHits) / double(queries) : 0.0;
    const QByteArray when = QDateTime::currentDateTime().toString(QStringLiteral("MM-dd HH:mm:ss")).toLatin1();
    std::fprintf(stderr,
        "INFO %s [loggers.py:118] Engine 000: Avg prompt throughput: %.1f tokens/s, Avg generation throughput: "
        "%.1f tokens/s, Running: %d reqs, Waiting: %d reqs, GPU KV cache usage: %.1f%%, Prefix cache hit rate: "
        "%.1f%%\n",
        when.constData(), prompt, gen, engine.running(), engine.waiting(), engine.kvUsage() * 100.0, hitRate);
    std::fflush(stderr);
    m_genThroughput = gen;
    m_lastLineS = modelNow;
    m_atLastLine = k;
}

void SchedulerLog::sglangPrefill(const StepResult &step, const EngineModel &engine)
{
    const QByteArray when = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")).toLatin1();
    std::fprintf(stderr,
        "[%s] Prefill batch. #new-seq: %d, #new-token: %d, #cached-token: %d, token usage: %.2f, #running-req: %d, "
        "#queue-req: %d, \n",
        when.constData(), step.admitted, step.prefillTokens, step.cachedTokens, engine.kvUsage(),
        engine.running() - step.admitted, engine.waiting());
    std::fflush(stderr);
}

void SchedulerLog::sglangDecode(const EngineModel &engine, double modelNow)
{
    const EngineCounters &k = engine.counters();
    const double span = modelNow - m_lastLineS;
    m_genThroughput = span > 0 ? double(k.generationTokens - m_atLastLine.generationTokens) / span : 0.0;
    const QByteArray when = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")).toLatin1();
    std::fprintf(stderr,
        "[%s] Decode batch. #running-req: %d, #token: %d, token usage: %.2f, cuda graph: True, gen throughput "
        "(token/s): %.2f, #queue-req: %d, \n",
        when.constData(), engine.running(), int(std::lround(engine.kvUsage() * m_kvTokens)), engine.kvUsage(),
        m_genThroughput, engine.waiting());
    std::fflush(stderr);
    m_decodeSteps = 0;
    m_lastLineS = modelNow;
    m_atLastLine = k;
}

} // namespace ServeScope::Sim
