// SPDX-License-Identifier: MIT
#include "pointrunner.h"
#include "runtext.h"

#include "engine/loadgenerator.h"
#include "metrics/aggregate.h"
#include "metrics/clienthealth.h"
#include "metrics/findings.h"
#include "metrics/pointsummary.h"
#include "metrics/settle.h"
#include "model/clock.h"
#include "run/endpointcalls.h"
#include "run/livemonitor.h"
#include "run/runoutput.h"
#include "run/serverscraper.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"
#include "workload/promptgen.h"

#include <QEventLoop>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <functional>

namespace ServeScope {

namespace {

/// Prompts prepared for a point that stops on time only; requests reuse them round-robin.
constexpr int kTimeOnlyPrompts = 512;

/// How far the project's writer may lag a point's load, in records, before the run says so: about
/// 50 MB of records kept only for the writer, some 20 s of a fast simulator run.
constexpr quint64 kWriterLagItems = 50000;

EndpointCalls *tokenizerFor(EndpointCalls &calls)
{
    return calls.hasTokenize() ? &calls : nullptr;
}

// `figures` with the identity, load and side figures (steady, server, client) of `point`.
PointSummary withIdentityOf(const PointSummary &point, PointSummary figures)
{
    figures.setKey(point.key());
    figures.runId = point.runId;
    figures.repeat = point.repeat;
    figures.warmup = point.warmup;
    figures.discarded = point.discarded;
    figures.steady = point.steady;
    figures.server = point.server;
    figures.client = point.client;
    return figures;
}

/// The settle watch of a point: a closed loop's first finishers are its ramp's quick ones, so it is
/// judged on at least 5 x its streams.
SettleWatch settleWatchFor(const Experiment &resolved, const LoadSpec &spec)
{
    SettleRule rule = resolved.load.settle;
    if (spec.mode == LoadMode::Concurrency)
        rule.minRequests = qMax(rule.minRequests, 5 * spec.load.concurrency);
    return SettleWatch(rule, definitionsProfile(resolved), resolved.load.capacity);
}

/// Whether a point that settled left planned requests unsent: one that settled once everything
/// planned was sent already left nothing out, and nothing is said of it.
bool stoppedBeforePlan(const LoadSpec &spec, qsizetype sent, double seconds)
{
    return spec.load.numPrompts > 0 ? sent < spec.load.numPrompts : seconds < spec.load.maxSeconds;
}

/// The server's series over the measured requests: gauges while they were in flight, counters
/// across the scrapes on each side of them (from `scrapedFromNs` to now).
QMap<QString, double> serverSeries(
    ServerScraper &scraper, const QVector<RequestRecord> &records, qint64 clockStartNs, qint64 scrapedFromNs)
{
    qint64 lastEnd = clockStartNs;
    for (const RequestRecord &r : records)
        lastEnd = std::max(lastEnd, r.endNs);
    return scraper.summarize({ clockStartNs, lastEnd, scrapedFromNs, monotonicNs() });
}

} // namespace

PointRunner::PointRunner(LoadGenerator &generator, StoreWriter &writer, RunOutput &output, LiveMonitor &monitor,
    const std::atomic<bool> &cancelled)
    : m_generator(generator)
    , m_writer(writer)
    , m_output(output)
    , m_monitor(monitor)
    , m_cancelled(cancelled)
{
}

LoadSpec PointRunner::loadSpec(const VariantContext &variant, int point, int repeat) const
{
    const Experiment &resolved = variant.resolved;
    LoadSpec spec;
    spec.mode = resolved.load.mode;
    spec.load = resolved.load.points.at(point);
    spec.runId = variant.runId;
    spec.variant = variant.variant;
    spec.point = point;
    spec.repeat = repeat;
    spec.seed = PromptGenerator::seedFor(resolved.dataset.seed, point, repeat, false);
    spec.sessionTurns = resolved.dataset.sessionTurns();
    spec.thinkNs = qint64(resolved.dataset.thinkTimeS * 1e9);
    if (m_shard.active()) {
        spec.load = shardLoad(spec.load, m_shard);
        // Each shard its own arrival gaps: equal seeds would send every shard's requests at the same instants.
        spec.seed += quint64(m_shard.index) * 0x9E3779B97F4A7C15ULL;
    }
    return spec;
}

PointOutcome PointRunner::run(const VariantContext &variant, int point, int repeat)
{
    const Experiment &resolved = variant.resolved;
    // Every shard calls run() for the same points in the same order, so the count is the slot.
    const int slot = m_slots++;
    m_monitor.setPoint(point, resolved.pointLabel(point), repeat);
    m_monitor.setPhase(QStringLiteral("preparing prompts"));

    const LoadSpec spec = loadSpec(variant, point, repeat);
    const LoadPoint &unsharded = resolved.load.points.at(point);

    PointOutcome outcome;
    if (resolved.load.resetPrefixCache) {
        QString path;
        if (!variant.calls.resetPrefixCache(resolved.server.engine, &path))
            Q_EMIT logged(QStringLiteral("warning"), RunText::tr("prefix cache reset via %1 failed").arg(path));
    }
    const PromptGenerator prompts(resolved);
    if (!prompts.error().isEmpty()) {
        outcome.ok = false;
        outcome.error = prompts.error();
        return outcome;
    }
    int warmupCount = 0;
    if (!warmup(variant, prompts, spec, &warmupCount, &outcome.error)) {
        outcome.ok = false;
        return outcome;
    }
    if (m_cancelled.load())
        return outcome;

    m_monitor.setPhase(QStringLiteral("preparing prompts"));
    // The unsharded prompt list, then this shard's part of it: prompts, seeds and order stay an unsharded run's.
    const int count = unsharded.numPrompts > 0 ? unsharded.numPrompts : kTimeOnlyPrompts;
    PromptSet requests = shardPrompts(preparePrompts(variant, prompts, spec, false, count, &outcome.error));
    if (requests.size() == 0) {
        outcome.ok = false;
        return outcome;
    }
    storePrompts(requests);
    // The prompts stored before the load starts: the writer does not compete with it for a core at
    // its start, and a lag during it is the records' own.
    m_writer.flush(60000); // a failed commit stops the run through StoreWriter::commitFailed
    return measure(variant, prompts, std::move(requests), spec, slot, warmupCount);
}

PointOutcome PointRunner::measure(const VariantContext &variant, const PromptGenerator &prompts, PromptSet requests,
    const LoadSpec &spec, int slot, int warmupCount)
{
    const Experiment &resolved = variant.resolved;
    PointOutcome outcome;
    m_monitor.setPhase(QStringLiteral("measuring"));
    QVector<RequestRecord> records;
    records.reserve(requests.size()); // no growth slack or copy while the point runs
    // The server's series over the measured requests, with a scrape on each side of them.
    const qint64 serverFrom = monotonicNs();
    if (variant.scraper) {
        variant.scraper->forgetBefore(serverFrom); // a soak's memory stays one point's samples
        variant.scraper->scrapeAndWait();
    }
    if (!waitForStart(slot))
        return outcome;
    m_monitor.setPointPlan(spec.load.numPrompts, spec.load.maxSeconds);
    const LoadSpec measured = withSchedule(spec, prompts, requests.size());
    const double cpuBefore = processCpuSeconds();
    SettleWatch settle = settleWatchFor(resolved, spec);
    const LoadOutcome load
        = runLoad(variant.endpoint, tokenizerFor(variant.calls), requests, measured, &records, &settle);
    const double cpuSeconds = processCpuSeconds() - cpuBefore;
    requests = PromptSet {}; // stored already: the bodies are not kept through summarising
    QMap<QString, double> server;
    if (variant.scraper) {
        variant.scraper->scrapeAndWait();
        server = serverSeries(*variant.scraper, records, load.clockStartNs, serverFrom);
    }
    if (!load.ok) {
        outcome.ok = false;
        outcome.error = load.message;
        return outcome;
    }
    m_monitor.setPhase(QStringLiteral("saving"));
    outcome.measured = true;
    QMap<QString, double> client
        = clientHealth(records, cpuSeconds, nsToSeconds(load.endNs - load.clockStartNs), QThread::idealThreadCount());
    if (settle.settled() && stoppedBeforePlan(spec, records.size(), nsToSeconds(load.endNs - load.clockStartNs)))
        noteSettled(settle, variant, spec, &client);
    outcome.summary = summarise(variant, spec, records, load.clockStartNs, warmupCount, server, client);
    PointSamples samples = pointSamples(records, outcome.summary.steady, definitionsProfile(resolved));
    outcome.samples = std::move(samples.all);
    outcome.steadySamples = std::move(samples.steady);
    for (const RequestRecord &r : records) {
        if (r.measured() && r.status == RequestStatus::Failed)
            outcome.failures[errorClassCode(r.errorClass)] += 1;
    }
    return outcome;
}

LoadSpec PointRunner::withSchedule(const LoadSpec &spec, const PromptGenerator &prompts, int count)
{
    LoadSpec measured = spec;
    measured.arrivalsNs = prompts.arrivalOffsetsNs(spec.point, count);
    if (const Trace *trace = prompts.trace(); trace && !measured.arrivalsNs.isEmpty())
        Q_EMIT logged(QStringLiteral("info"),
            RunText::tr("trace replay: %1 requests of a %2 trace at %3 req/s (%4x its own %5 req/s)")
                .arg(measured.arrivalsNs.size())
                .arg(traceFormatName(trace->format))
                .arg(spec.load.requestRate, 0, 'g', 4)
                .arg(trace->rate() > 0 ? spec.load.requestRate / trace->rate() : 0.0, 0, 'g', 3)
                .arg(trace->rate(), 0, 'g', 4));
    return measured;
}

void PointRunner::noteSettled(
    const SettleWatch &settle, const VariantContext &variant, const LoadSpec &spec, QMap<QString, double> *client)
{
    // Recorded with the point, so every view and the run's findings say it stopped early.
    client->insert(QStringLiteral("settled_requests"), settle.requests());
    client->insert(QStringLiteral("settled_width"), settle.widest());
    const QString label = variant.resolved.pointLabel(spec.point);
    if (settle.verdict() != SloVerdict::Undecided) {
        client->insert(QStringLiteral("settled_verdict"), settle.verdict() == SloVerdict::Meets ? 1.0 : -1.0);
        Q_EMIT logged(QStringLiteral("info"),
            (settle.verdict() == SloVerdict::Meets
                    ? RunText::tr("%1 %2 r%3 meets the SLOs on its first %4 successful requests: stopped sending")
                    : RunText::tr("%1 %2 r%3 misses the SLOs on its first %4 successful requests: stopped sending"))
                .arg(variant.variant, label)
                .arg(spec.repeat)
                .arg(settle.requests()));
        return;
    }
    Q_EMIT logged(QStringLiteral("info"),
        RunText::tr("%1 %2 r%3 settled after %4 successful requests (medians known within %5%): stopped sending")
            .arg(variant.variant, label)
            .arg(spec.repeat)
            .arg(settle.requests())
            .arg(100 * settle.widest(), 0, 'f', 1));
}

bool PointRunner::warmup(
    const VariantContext &variant, const PromptGenerator &prompts, const LoadSpec &spec, int *count, QString *error)
{
    const Experiment &resolved = variant.resolved;
    if (resolved.load.warmupRequests <= 0)
        return true;
    m_monitor.setPhase(QStringLiteral("warmup"));
    const PromptSet warm = preparePrompts(variant, prompts, spec, true, resolved.load.warmupRequests, error);
    if (warm.size() == 0)
        return false;
    LoadSpec warmSpec = spec;
    warmSpec.warmup = true;
    warmSpec.load.numPrompts = warm.size();
    warmSpec.load.maxSeconds = 0;
    QVector<RequestRecord> records;
    const LoadOutcome o = runLoad(variant.endpoint, tokenizerFor(variant.calls), warm, warmSpec, &records);
    if (!o.ok) {
        *error = o.message;
        return false;
    }
    *count = int(records.size());
    if (!m_cancelled.load())
        variant.calls.waitUntilIdle(m_cancelled);
    return true;
}

PointSummary PointRunner::summarise(const VariantContext &variant, const LoadSpec &spec,
    QVector<RequestRecord> &records, qint64 clockStartNs, int warmupCount, const QMap<QString, double> &server,
    const QMap<QString, double> &client)
{
    const Experiment &resolved = variant.resolved;
    std::sort(records.begin(), records.end(),
        [](const RequestRecord &a, const RequestRecord &b) { return a.index < b.index; });
    const PointResult result = summarisePoint(
        resolved, pointKey(resolved, spec.point, spec.load, variant.variant), spec.repeat, records, clockStartNs);
    PointSummary summary = result.summary;
    summary.runId = variant.runId;
    summary.warmup = warmupCount;
    summary.server = server;
    summary.client.insert(client); // the process's health beside how the streams arrived
    m_writer.enqueue(summary);
    for (const Finding &f : result.findings) {
        // Said per point: the input lengths' deviation and censored requests. runFindings groups the others
        // once per run (unreliable percentiles, estimated counts, the role chunk, ignore_eos not honoured).
        if (f.code != QLatin1String(FindingCode::InputLengthDeviation)
            && f.code != QLatin1String(FindingCode::Censored))
            continue;
        Q_EMIT logged(QStringLiteral("finding"),
            QStringLiteral("%1 %2 r%3: %4%5 (value %6, threshold %7)")
                .arg(summary.variant, summary.label)
                .arg(spec.repeat)
                .arg(f.code, f.metric.isEmpty() ? QString() : QLatin1Char(' ') + f.metric)
                .arg(f.value)
                .arg(f.threshold));
    }
    if (m_output.isOpen())
        writeResultFile(variant, spec, summary, records, clockStartNs);
    m_monitor.addFinished(summary);
    Q_EMIT pointFinished(summary);
    return summary;
}

void PointRunner::writeResultFile(const VariantContext &variant, const LoadSpec &spec, const PointSummary &summary,
    const QVector<RequestRecord> &records, qint64 clockStartNs)
{
    const Experiment &resolved = variant.resolved;
    // Result files carry vLLM's key set under every profile: the same records, vLLM's definitions.
    PointSummary vllm = summary;
    if (resolved.metrics.definitions != Definitions::Vllm) {
        Experiment asVllm = resolved;
        asVllm.metrics.definitions = Definitions::Vllm;
        const PointSummary figures
            = summarisePoint(asVllm, pointKey(asVllm, spec.point, spec.load), spec.repeat, records, clockStartNs)
                  .summary;
        vllm = withIdentityOf(summary, figures);
        // Its steady set too: the file's servescope_steady_* keys stand beside vLLM's figures.
        vllm.steady = figures.steady;
    }
    // The records did not keep their texts (runLoad): the file reads them back from the project,
    // once the writer has stored them (however long a slow disk takes). A failed commit costs the
    // file only the texts it lost: the measurement itself is whole in memory.
    ProjectStore store;
    std::function<QByteArray(int)> texts;
    const bool stored = m_writer.flush();
    if (store.open(m_writer.path(), ProjectStore::Check::Header, ProjectStore::Follow::Live))
        texts = store.generatedTexts(variant.runId, summary.variant, spec.point, spec.repeat);
    if (!stored || !texts) {
        const QString why = !stored ? m_writer.commitFailure() : store.errorString();
        Q_EMIT logged(QStringLiteral("warning"),
            RunText::tr("results folder: the generated texts of %1 that the project does not hold are empty "
                        "in its result file (%2)")
                .arg(summary.label, why));
    }
    if (!texts)
        texts = [](int) { return QByteArray(); };
    QString error;
    if (!m_output.writePoint(resolved, summary, vllm, records, clockStartNs, texts, &error))
        Q_EMIT logged(QStringLiteral("error"), error);
}

PointRunner::PromptSet PointRunner::preparePrompts(const VariantContext &variant, const PromptGenerator &prompts,
    const LoadSpec &spec, bool warmup, int count, QString *error)
{
    PromptSet set;
    bool estimated = false;
    TokenCounter counter;
    // Text prompts are sized by the server's count: `/tokenize`, else calibrated probes (gateways).
    if (prompts.wantsTokenCounts())
        counter = [&](const QStringList &texts) { return variant.calls.promptTokens(texts, &estimated); };
    set.requests = prompts.prompts(spec.point, spec.repeat, warmup, count, counter, &set.counts, error);
    set.exact = prompts.usesTokenIds() || !estimated;
    return set;
}

void PointRunner::storePrompts(const PromptSet &set)
{
    // Once per hash and run (repeats and time-only points reuse prompts); the writer ignores
    // hashes it has stored already, so a prompt shared by several runs is kept once.
    for (int i = 0; i < set.size(); ++i) {
        std::optional<PromptContent> prompt = set.requests->prompt(i);
        if (!prompt || prompt->hash.isEmpty() || m_storedPrompts.contains(prompt->hash))
            continue;
        m_storedPrompts.insert(prompt->hash);
        m_writer.enqueue(PromptRow { prompt->hash.toByteArray(), std::move(prompt->text), std::move(prompt->tokens) });
        m_writer.catchUp(); // a million long prompts are not all held for the writer at once
    }
}

PointRunner::PromptSet PointRunner::shardPrompts(const PromptSet &all) const
{
    if (!m_shard.active())
        return all;
    PromptSet mine;
    mine.exact = all.exact;
    const QList<int> indices = shardPromptIndices(all.size(), m_shard);
    for (int i : indices) {
        if (i < all.counts.size())
            mine.counts << all.counts[i];
    }
    mine.requests = somePrompts(all.requests, indices);
    return mine;
}

bool PointRunner::waitForStart(int slot)
{
    if (!m_shard.active() || (m_startAtPassed && m_shard.pointSlotNs <= 0))
        return true;
    const qint64 at = m_shard.startAtUtcNs + (m_shard.pointSlotNs > 0 ? slot * m_shard.pointSlotNs : 0);
    m_monitor.setPhase(QStringLiteral("waiting for start-at"));
    const qint64 lateNs = utcNowNs() - at;
    if (!waitUntilUtc(at, m_cancelled))
        return false;
    m_startAtPassed = true;
    m_monitor.setPhase(QStringLiteral("measuring"));
    if (lateNs > 0)
        Q_EMIT logged(QStringLiteral("warning"),
            (m_shard.pointSlotNs > 0 ? RunText::tr("shard %1/%2 was ready %3 ms after the start of its point %4 (%5): "
                                                   "it starts late; the previous point outlasted --point-slot")
                                     : RunText::tr("shard %1/%2 was ready %3 ms after the start of its point %4 (%5): "
                                                   "it starts late"))
                .arg(m_shard.index)
                .arg(m_shard.count)
                .arg(QString::number(double(lateNs) / 1e6, 'f', 1))
                .arg(slot)
                .arg(utcIsoMs(at)));
    return true;
}

LoadOutcome PointRunner::runLoad(const EndpointConfig &endpoint, EndpointCalls *tokenizer, const PromptSet &prompts,
    const LoadSpec &spec, QVector<RequestRecord> *records, SettleWatch *settle)
{
    QEventLoop loop;
    LoadOutcome outcome;
    int counting = 0; // records waiting for their /tokenize count
    bool loadDone = false;
    bool lagSaid = false;
    const auto accept = [this, records, settle, &lagSaid](RequestRecord r) {
        // The writer may lag the load, never the other way round (the engine has stamped this
        // record already); a lag beyond the bound is said once per point.
        const quint64 lag = m_writer.enqueue(r) - m_writer.committedSequence();
        if (lag > kWriterLagItems && !lagSaid) {
            lagSaid = true;
            Q_EMIT logged(QStringLiteral("warning"),
                RunText::tr("storage: the project's writer is %1 records behind the load; they are kept in memory "
                            "until stored")
                    .arg(lag));
        }
        m_monitor.observe(r);
        if (settle && settle->add(r))
            m_generator.stopSending();
        // What the server answered with is noted once per variant (m_answered), and the texts are
        // stored: neither is kept per request through the point.
        r.servedModel = QString();
        r.systemFingerprint = QString();
        r.generatedText = QByteArray();
        r.reasoningText = QByteArray();
        records->append(std::move(r));
    };
    const auto onRecord = QObject::connect(
        &m_generator, &LoadGenerator::requestFinished, &loop, [&, tokenizer](const RequestRecord &finished) {
            RequestRecord r = finished;
            QPair<QString, QString> &answered = m_answered[r.variant];
            if (answered.first.isEmpty())
                answered.first = r.servedModel;
            if (answered.second.isEmpty())
                answered.second = r.systemFingerprint;
            // No usage (the engine then counts content events), or a prompt count usage got wrong: the
            // prompt's own count, if known.
            if (r.ok() && ((r.outputEstimated && r.usageOutputSetAside < 0) || r.usagePromptSetAside >= 0)) {
                const int n = prompts.counts.isEmpty() ? -1 : prompts.counts.value(r.index % prompts.counts.size());
                if (n > 0)
                    r.promptTokens = n;
                r.inputEstimated = !(prompts.exact && n > 0);
            }
            r.index = m_shard.globalIndex(r.index);
            // Off the hot path: the engine has freed the slot; only this record's storing waits.
            ++counting;
            countEstimatedTokens(tokenizer, &loop, std::move(r), [&](const RequestRecord &counted) {
                accept(counted);
                if (--counting == 0 && loadDone)
                    loop.quit();
            });
        });
    const auto onProgress = QObject::connect(
        &m_generator, &LoadGenerator::progressed, &loop, [this](const LoadProgress &p) { m_monitor.publish(p); });
    const auto onFinished = QObject::connect(&m_generator, &LoadGenerator::finished, &loop, [&](const LoadOutcome &o) {
        outcome = o;
        loadDone = true;
        if (counting == 0)
            loop.quit();
    });
    m_generator.start(endpoint, prompts.requests, spec);
    if (m_cancelled.load())
        m_generator.cancel();
    loop.exec();
    QObject::disconnect(onRecord);
    QObject::disconnect(onProgress);
    QObject::disconnect(onFinished);
    m_monitor.publish(m_generator.progress());
    return outcome;
}

} // namespace ServeScope
