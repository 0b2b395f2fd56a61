// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineconfig.h"
#include "metrics/aggregate.h"
#include "metrics/estimates.h"
#include "metrics/pointsummary.h"
#include "model/experiment.h"
#include "model/promptlist.h"
#include "run/shard.h"

#include <QMap>
#include <QObject>
#include <QSet>
#include <QVector>

#include <atomic>

namespace ServeScope {

class SettleWatch;

class EndpointCalls;
class LiveMonitor;
class LoadGenerator;
class PromptGenerator;
class RunOutput;
class ServerScraper;
class StoreWriter;

/// What one variant's points share: the resolved experiment, where requests go, and the run's tags.
struct VariantContext {
    const Experiment &resolved;
    const EndpointConfig &endpoint;
    EndpointCalls &calls;
    qint64 runId = 0;
    QString variant;
    ServerScraper *scraper = nullptr; ///< the server's /metrics while the variant runs
};

/// How one (point, repeat) ended.
struct PointOutcome {
    bool ok = true; ///< false: the point could not run (see error); the run stops
    bool measured = false; ///< false when cancelled before the measured requests
    QString error;
    PointSummary summary;
    std::vector<RequestSample> samples; ///< the measured requests, for the intervals across repeats
    std::vector<RequestSample> steadySamples; ///< those that started inside the steady window
    QMap<QString, int> failures; ///< the measured requests that failed, by error class code
};

/// One (point, repeat) of a run on the run thread: optional prefix-cache reset, warmup with its own
/// prompts, a drain until the server is idle, the measured requests (each stored as it finishes),
/// then the aggregate into the project, the results folder and `pointFinished`.
class PointRunner final : public QObject {
    Q_OBJECT
public:
    PointRunner(LoadGenerator &generator, StoreWriter &writer, RunOutput &output, LiveMonitor &monitor,
        const std::atomic<bool> &cancelled);

    /// Runs this shard's share of every point; the first measured point waits for the shard's start
    /// time, and with a point slot every later one for its own.
    void setShard(const ShardSpec &shard) { m_shard = shard; }
    PointOutcome run(const VariantContext &variant, int point, int repeat);
    /// Per variant: the model and system_fingerprint its streams said the server ran (first seen).
    const QMap<QString, QPair<QString, QString>> &answered() const { return m_answered; }

Q_SIGNALS:
    void pointFinished(const ServeScope::PointSummary &summary);
    void logged(const QString &level, const QString &text);

private:
    /// A point's prompts and what the server said their lengths are.
    struct PromptSet {
        std::shared_ptr<const PromptList> requests; ///< null when they cannot be built
        QList<int> counts; ///< per request: its prompt tokens, -1 where unknown
        int size() const { return requests ? requests->size() : 0; }
        bool exact = false; ///< counts are the server's (`/tokenize`) or token IDs, not calibrated estimates
    };
    /// What the load generator runs for (point, repeat): this shard's share of the point's load.
    LoadSpec loadSpec(const VariantContext &variant, int point, int repeat) const;
    PromptSet preparePrompts(const VariantContext &variant, const PromptGenerator &prompts, const LoadSpec &spec,
        bool warmup, int count, QString *error);
    /// Keeps each measured prompt in the project, by hash, so a point's exact prompts can be exported.
    void storePrompts(const PromptSet &set);
    /// This shard's prompts out of the unsharded set (all of them when not sharded).
    PromptSet shardPrompts(const PromptSet &all) const;
    /// Before a shard's first measured point (with a point slot: before each) waits for its start
    /// time; false when cancelled. `slot` is the point's place in the run order.
    bool waitForStart(int slot);
    /// A successful record without usage gets its input tokens from the prompt's count (marked
    /// estimated unless the count is exact) and, with `tokenizer`, its output tokens from `/tokenize`
    /// of its text before it is stored (no longer estimated). With `settle`, the point stops sending once it
    /// says the point has settled.
    LoadOutcome runLoad(const EndpointConfig &endpoint, EndpointCalls *tokenizer, const PromptSet &prompts,
        const LoadSpec &spec, QVector<RequestRecord> *records, SettleWatch *settle = nullptr);
    /// The measured point's spec with the workload's own send offsets (a trace's schedule), logged.
    LoadSpec withSchedule(const LoadSpec &spec, const PromptGenerator &prompts, int count);
    /// A point that stopped sending once settled: its record beside the client's health, and the log line.
    void noteSettled(
        const SettleWatch &settle, const VariantContext &variant, const LoadSpec &spec, QMap<QString, double> *client);
    /// Warmup requests (none when the experiment has none); false when they could not run.
    bool warmup(const VariantContext &variant, const PromptGenerator &prompts, const LoadSpec &spec, int *count,
        QString *error);
    /// The measured requests of a point whose prompts are ready and stored: sent once this shard's start
    /// has come, their server series around them, then summarised.
    PointOutcome measure(const VariantContext &variant, const PromptGenerator &prompts, PromptSet requests,
        const LoadSpec &spec, int slot, int warmupCount);
    /// The point's result file: vLLM's key set under every profile, the generated texts read back from
    /// the project (empty, and said, where it lost them).
    void writeResultFile(const VariantContext &variant, const LoadSpec &spec, const PointSummary &summary,
        const QVector<RequestRecord> &records, qint64 clockStartNs);
    PointSummary summarise(const VariantContext &variant, const LoadSpec &spec, QVector<RequestRecord> &records,
        qint64 clockStartNs, int warmupCount, const QMap<QString, double> &server, const QMap<QString, double> &client);

    QMap<QString, QPair<QString, QString>> m_answered;
    LoadGenerator &m_generator;
    StoreWriter &m_writer;
    RunOutput &m_output;
    LiveMonitor &m_monitor;
    const std::atomic<bool> &m_cancelled;
    ShardSpec m_shard;
    bool m_startAtPassed = false; ///< the first measured point has waited for the shard's start time
    int m_slots = 0; ///< run() calls so far: the place of the next point in the run order
    QSet<PromptHash> m_storedPrompts; ///< prompt hashes enqueued for storing during this run
};

} // namespace ServeScope
