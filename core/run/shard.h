// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <atomic>

namespace ServeScope {

/// Which share of an experiment's load this process sends (docs/shards.md). Indices are 0-based.
struct ShardSpec {
    int index = 0;
    int count = 0; ///< 0: not sharded
    qint64 startAtUtcNs = 0; ///< the first measured point waits until this UTC time (ns since the epoch)
    /// With `--point-slot`: measured point k of the run (in run order, counting every variant, point
    /// and repeat from 0) waits until startAtUtcNs + k × pointSlotNs; 0: only the first waits.
    qint64 pointSlotNs = 0;

    bool active() const noexcept { return count > 0; }
    /// The record index of an unsharded run for this shard's local request `local`.
    int globalIndex(int local) const noexcept { return active() ? local * count + index : local; }
};

/// "I/N" with 0 <= I < N (0-based); false with a message otherwise.
bool parseShard(const QString &text, ShardSpec *out, QString *error);
/// ISO-8601 with a zone (`2026-12-01T16:00:00Z`, `...+01:00`) or `now+SECONDS`; UTC ns since the epoch.
bool parseStartAt(const QString &text, qint64 *utcNs, QString *error);
/// `--point-slot SECONDS`: a number of seconds from 1 to 86400; ns.
bool parsePointSlot(const QString &text, qint64 *ns, QString *error);
/// The wall clock in ns since the epoch (UTC).
qint64 utcNowNs();
QString utcIsoMs(qint64 utcNs);

/// This shard's part of `total`: total / N, and one more for the lowest total % N shards.
int shardShare(int total, const ShardSpec &shard);
/// The point as this shard runs it: concurrency, cap and prompt count shared out, the rate divided by N.
LoadPoint shardLoad(const LoadPoint &point, const ShardSpec &shard);
/// Indices i < total with i mod N == I: this shard's prompts out of the unsharded list.
QList<int> shardPromptIndices(int total, const ShardSpec &shard);
/// Why `experiment` cannot run as `shard` (a `sim:` endpoint, a point with fewer streams or prompts
/// than shards); empty when it can.
QString shardProblem(const Experiment &experiment, const ShardSpec &shard);

/// What the run's client-host JSON records for a shard: "shard" "I/N", "start_at", "clock_anchor"
/// (a UTC and a monotonic reading taken together) and "clock" (adjtimex's sync state and offset, or "unknown").
QJsonObject shardHostInfo(const ShardSpec &shard);

/// Sleeps until `utcNs`; false when cancelled first. Returns at once when the time has passed.
bool waitUntilUtc(qint64 utcNs, const std::atomic<bool> &cancelled);

} // namespace ServeScope
