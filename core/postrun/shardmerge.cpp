// SPDX-License-Identifier: MIT
#include "shardmerge.h"
#include "compare/storedrun.h"

#include "io/experimentfile.h"
#include "metrics/aggregate.h"
#include "metrics/estimates.h"
#include "metrics/pointsummary.h"
#include "model/variables.h"
#include "run/shard.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ServeScope {

namespace {

/// One shard's stored run as read, before any of it is written.
struct ShardRun {
    ShardSource source;
    qint64 id = 0;
    RunRow row;
    QJsonObject host;
    int index = -1, count = 0;
    qint64 anchorUtcNs = 0, anchorMonoNs = 0;
    QVector<RequestRecord> records;
    QVector<PointSummary> summaries;
    QList<PromptRow> prompts;

    QString name() const { return QStringLiteral("%1 run %2").arg(source.projectPath).arg(id); }
    qint64 toUtc(qint64 monoNs) const { return monoNs - anchorMonoNs + anchorUtcNs; }
};

using GroupKey = std::tuple<int, int, int>; // variant order, point, repeat

bool readShardIdentity(ShardRun *s, QString *error)
{
    s->host = QJsonDocument::fromJson(s->row.clientHost).object();
    const QString shard = s->host.value(QStringLiteral("shard")).toString();
    const QJsonObject anchor = s->host.value(QStringLiteral("clock_anchor")).toObject();
    ShardSpec spec;
    QString why;
    if (shard.isEmpty() || anchor.isEmpty() || !parseShard(shard, &spec, &why)) {
        *error = QStringLiteral("%1 is not a shard run (run it with --shard I/N --start-at TIME)").arg(s->name());
        return false;
    }
    s->index = spec.index;
    s->count = spec.count;
    s->anchorUtcNs = anchor.value(QStringLiteral("utc_ns")).toString().toLongLong();
    s->anchorMonoNs = anchor.value(QStringLiteral("monotonic_ns")).toString().toLongLong();
    if (s->row.status != RunStatus::Finished) {
        *error = QStringLiteral("%1 (shard %2) did not finish (%3): merging it would leave a hole in the load")
                     .arg(s->name(), shard, runStatusCode(s->row.status));
        return false;
    }
    return true;
}

bool readShard(const ShardSource &source, ShardRun *s, QString *error)
{
    s->source = source;
    ProjectStore store;
    if (!store.open(source.projectPath, ProjectStore::Check::Full, ProjectStore::Follow::Snapshot)) {
        *error = store.errorString();
        return false;
    }
    if (source.run.isEmpty()) {
        QVector<RunListing> runs;
        if (!store.listRuns(&runs) || runs.isEmpty()) {
            *error = QStringLiteral("%1 holds no run").arg(source.projectPath);
            return false;
        }
        s->id = runs.last().run.id;
    } else {
        s->id = store.resolveRun(source.run);
    }
    const std::optional<RunRow> row = s->id > 0 ? store.run(s->id) : std::nullopt;
    if (!row || !store.pointSummaries(s->id, &s->summaries) || !store.requests(s->id, RequestFilter {}, &s->records)) {
        *error = QStringLiteral("%1: %2").arg(source.projectPath, store.errorString());
        return false;
    }
    s->row = *row;
    if (!readShardIdentity(s, error))
        return false;
    QSet<PromptHash> hashes;
    for (const RequestRecord &r : std::as_const(s->records)) {
        if (!r.promptHash.isEmpty() && !hashes.contains(r.promptHash)) {
            hashes.insert(r.promptHash);
            if (std::optional<PromptRow> p = store.prompt(r.promptHash))
                s->prompts << *p;
        }
    }
    return true;
}

/// The N shards of one configuration, each once; sorted by shard index.
bool checkShards(QList<ShardRun> *shards, QString *error)
{
    std::sort(shards->begin(), shards->end(), [](const ShardRun &a, const ShardRun &b) { return a.index < b.index; });
    const ShardRun &first = shards->constFirst();
    const QJsonObject config = QJsonDocument::fromJson(first.row.resolvedConfig).object();
    for (int i = 0; i < shards->size(); ++i) {
        const ShardRun &s = shards->at(i);
        if (s.count != first.count) {
            *error = QStringLiteral("%1 is shard %2/%3 but %4 is one of %5 shards")
                         .arg(s.name())
                         .arg(s.index)
                         .arg(s.count)
                         .arg(first.name())
                         .arg(first.count);
            return false;
        }
        if (i > 0 && s.index == shards->at(i - 1).index) {
            *error = QStringLiteral("shard %1/%2 appears twice: %3 and %4")
                         .arg(s.index)
                         .arg(s.count)
                         .arg(shards->at(i - 1).name(), s.name());
            return false;
        }
        const QJsonObject other = QJsonDocument::fromJson(s.row.resolvedConfig).object();
        if (s.host.value(QStringLiteral("point_slot_s")) != first.host.value(QStringLiteral("point_slot_s"))) {
            *error = QStringLiteral("%1 and %2 ran with different --point-slot values; their points did not start "
                                    "on one schedule")
                         .arg(first.name(), s.name());
            return false;
        }
        if (other != config || s.row.variants != first.row.variants) {
            *error = QStringLiteral("%1 ran another experiment or configuration than %2 (experiment '%3' vs '%4'); "
                                    "only shards of one run's configuration merge")
                         .arg(s.name(), first.name(), other.value(QStringLiteral("name")).toString(),
                             config.value(QStringLiteral("name")).toString());
            return false;
        }
    }
    for (int i = 0; i < first.count; ++i) {
        if (i >= shards->size() || shards->at(i).index != i) {
            *error = QStringLiteral("shard %1/%2 is missing").arg(i).arg(first.count);
            return false;
        }
    }
    return true;
}

/// The first measured request's start of each shard, in UTC ns.
QList<qint64> firstStartsUtc(const QList<ShardRun> &shards)
{
    QList<qint64> out;
    for (const ShardRun &s : shards) {
        qint64 first = 0;
        for (const RequestRecord &r : s.records) {
            if (!r.warmup && (first == 0 || r.startNs < first))
                first = r.startNs;
        }
        out << (first == 0 ? 0 : s.toUtc(first));
    }
    return out;
}

/// The widest spread of the shards' first measured request over every (variant, point, repeat),
/// in ms, and where it is.
QPair<double, QString> widestPointSpread(const QList<ShardRun> &shards)
{
    std::map<GroupKey, std::pair<qint64, qint64>> range; // earliest and latest shard start (UTC)
    std::map<GroupKey, QString> names;
    for (const ShardRun &s : shards) {
        std::map<GroupKey, qint64> first;
        for (const RequestRecord &r : s.records) {
            if (r.warmup)
                continue;
            const GroupKey key { int(shards.first().row.variants.indexOf(r.variant)), r.point, r.repeat };
            const auto [it, fresh] = first.try_emplace(key, r.startNs);
            if (!fresh)
                it->second = std::min(it->second, r.startNs);
            names.try_emplace(key, QStringLiteral("%1 point %2 r%3").arg(r.variant).arg(r.point).arg(r.repeat));
        }
        for (const auto &[key, mono] : first) {
            const qint64 utc = s.toUtc(mono);
            const auto [it, fresh] = range.try_emplace(key, utc, utc);
            it->second = { std::min(it->second.first, utc), std::max(it->second.second, utc) };
        }
    }
    QPair<double, QString> widest { 0.0, QString() };
    for (const auto &[key, span] : range) {
        const double ms = double(span.second - span.first) / 1e6;
        if (widest.second.isEmpty() || ms > widest.first)
            widest = { ms, names[key] };
    }
    return widest;
}

QList<Reason> clockFindings(const ShardRun &s)
{
    const QString who = QStringLiteral("shard %1/%2 (%3)")
                            .arg(s.index)
                            .arg(s.count)
                            .arg(s.host.value(QStringLiteral("hostname")).toString());
    const QJsonValue clock = s.host.value(QStringLiteral("clock"));
    if (!clock.isObject())
        return { Reason::in("ServeScope::Merge",
            QT_TRANSLATE_NOOP("ServeScope::Merge", "clock-unknown %1: its clock offset is not known"), { who }) };
    const QJsonObject c = clock.toObject();
    // Unsynchronized, the kernel's error estimate is its 16 s ceiling: saying so once is enough.
    if (!c.value(QStringLiteral("synchronized")).toBool())
        return { Reason::in("ServeScope::Merge",
            QT_TRANSLATE_NOOP("ServeScope::Merge",
                "clock-unsynchronized %1: adjtimex reports the clock not synchronized; the shards' common start is "
                "only as good as their clocks' agreement"),
            { who }) };
    const double boundMs = (std::abs(c.value(QStringLiteral("offset_us")).toDouble())
                               + c.value(QStringLiteral("est_error_us")).toDouble())
        / 1000.0;
    if (boundMs <= kShardSkewBoundMs)
        return {};
    return { Reason::in("ServeScope::Merge",
        QT_TRANSLATE_NOOP("ServeScope::Merge", "clock-skew %1: offset plus estimated error %2 ms exceeds %3 ms"),
        { who, QString::number(boundMs, 'f', 1), QString::number(kShardSkewBoundMs, 'f', 0) }) };
}

QJsonObject mergedHost(const QList<ShardRun> &shards, const QList<qint64> &starts, const ShardMerge &m)
{
    QJsonArray list;
    for (int i = 0; i < shards.size(); ++i) {
        const ShardRun &s = shards[i];
        QJsonObject o;
        o.insert(QStringLiteral("shard"), s.host.value(QStringLiteral("shard")));
        o.insert(QStringLiteral("project"), s.source.projectPath);
        o.insert(QStringLiteral("run"), double(s.id));
        o.insert(QStringLiteral("hostname"), s.host.value(QStringLiteral("hostname")));
        o.insert(QStringLiteral("start_at"), s.host.value(QStringLiteral("start_at")));
        o.insert(QStringLiteral("first_start_utc"), utcIsoMs(starts[i]));
        o.insert(QStringLiteral("first_start_utc_ns"), QString::number(starts[i]));
        o.insert(QStringLiteral("clock"), s.host.value(QStringLiteral("clock")));
        list << o;
    }
    QJsonObject host;
    host.insert(QStringLiteral("servescope_version"), QStringLiteral(SERVESCOPE_VERSION));
    host.insert(QStringLiteral("merged_shards"), list);
    host.insert(QStringLiteral("time_base"),
        QStringLiteral("monotonic clock of shard 0; other shards shifted by their UTC clock anchors"));
    host.insert(QStringLiteral("start_spread_ms"), m.startSpreadMs);
    host.insert(QStringLiteral("point_start_spread_ms"), m.pointSpreadMs);
    host.insert(QStringLiteral("point_start_spread_at"), m.pointSpreadAt);
    if (m.pointSlotS > 0)
        host.insert(QStringLiteral("point_slot_s"), m.pointSlotS);
    host.insert(QStringLiteral("skew_bound_ms"), kShardSkewBoundMs);
    host.insert(QStringLiteral("findings"), QJsonArray::fromStringList(m.findingTexts()));
    return host;
}

} // namespace

namespace {

/// Every shard's records on shard 0's monotonic clock, grouped and in index order.
std::map<GroupKey, QVector<RequestRecord>> unionRecords(const QList<ShardRun> &shards)
{
    std::map<GroupKey, QVector<RequestRecord>> groups;
    const ShardRun &base = shards.constFirst();
    for (const ShardRun &s : shards) {
        // Equal UTC instants map to equal base times; on one host this is zero up to the anchors' jitter.
        const qint64 shift = (s.anchorUtcNs - base.anchorUtcNs) - (s.anchorMonoNs - base.anchorMonoNs);
        for (RequestRecord r : s.records) {
            for (qint64 *t : { &r.scheduledNs, &r.slotNs, &r.startNs, &r.endNs }) {
                if (*t != 0)
                    *t += shift;
            }
            const GroupKey key { int(base.row.variants.indexOf(r.variant)), r.point, r.repeat };
            groups[key].append(std::move(r));
        }
    }
    for (auto &[key, records] : groups) {
        std::stable_sort(records.begin(), records.end(), [](const RequestRecord &a, const RequestRecord &b) {
            return std::tie(a.index, a.warmup) < std::tie(b.index, b.warmup);
        });
    }
    return groups;
}

PointSummary mergedSummary(const Experiment &resolved, int point, int repeat, const QVector<RequestRecord> &records)
{
    return summarisePoint(resolved, pointKey(resolved, point), repeat, records, 0).summary;
}

RunRow mergedRow(const QList<ShardRun> &shards, const QString &name, const QJsonObject &host)
{
    RunRow row = shards.constFirst().row;
    row.id = 0;
    row.experimentId = 0;
    row.status = RunStatus::Running;
    for (const ShardRun &s : shards) {
        if (s.row.started < row.started)
            row.started = s.row.started;
    }
    row.finished = QDateTime();
    const QString experiment
        = QJsonDocument::fromJson(row.resolvedConfig).object().value(QStringLiteral("name")).toString();
    row.name = name.isEmpty() ? QStringLiteral("%1 merged %2 shards %3")
                                    .arg(experiment)
                                    .arg(shards.size())
                                    .arg(row.started.toString(Qt::ISODate))
                              : name;
    row.clientHost = QJsonDocument(host).toJson(QJsonDocument::Compact);
    row.origin.clear();
    return row;
}

/// Summaries and the statistics across repeats of every (variant, point) of the union.
void writeAggregates(const QList<ShardRun> &shards, const std::map<GroupKey, QVector<RequestRecord>> &groups,
    StoreWriter &writer, ShardMerge *m)
{
    const StoredRun run(shards.constFirst().row);
    const QStringList &variants = shards.constFirst().row.variants;
    std::map<std::pair<int, int>, PointRepeats> repeats, steady;
    for (const auto &[key, records] : groups) {
        const auto [v, point, repeat] = key;
        const Experiment *variant = run.variant(variants.value(v));
        if (!variant || point >= variant->load.points.size())
            continue;
        const Experiment &resolved = *variant;
        PointSummary s = mergedSummary(resolved, point, repeat, records);
        s.runId = m->runId;
        s.variant = variants.value(v);
        for (const ShardRun &shard : shards) {
            for (const PointSummary &own : shard.summaries) {
                if (own.variant == s.variant && own.point == point && own.repeat == repeat)
                    s.warmup += own.warmup;
            }
        }
        writer.enqueue(s);
        m->points << s;
        m->completed += s.completed;
        m->failed += s.failed;
        const DefinitionsProfile profile = definitionsProfile(resolved);
        const PointSamples samples = pointSamples(records, s.steady, profile);
        addRepeat(&repeats[{ v, point }], s, samples.all);
        addSteadyRepeat(&steady[{ v, point }], s, samples.steady);
    }
    for (const auto &[key, r] : repeats) {
        for (const PointEstimate &e : estimateRepeats(m->runId, r).stored)
            writer.enqueue(e);
        for (const PointEstimate &e : estimateSteady(m->runId, steady[key]))
            writer.enqueue(e);
    }
}

bool writeMerged(
    const QList<ShardRun> &shards, const QString &target, const QString &name, const QJsonObject &host, ShardMerge *m)
{
    StoreWriter writer;
    if (!writer.open(target, &m->error))
        return false;
    m->runId = writer.createRun(mergedRow(shards, name, host), &m->error);
    if (m->runId == 0)
        return false;
    const std::map<GroupKey, QVector<RequestRecord>> groups = unionRecords(shards);
    for (const ShardRun &s : shards) {
        for (const PromptRow &p : s.prompts)
            writer.enqueue(p);
    }
    for (const auto &[key, records] : groups) {
        for (RequestRecord r : records) {
            r.runId = m->runId;
            writer.enqueue(std::move(r));
        }
    }
    writeAggregates(shards, groups, writer, m);
    QDateTime finished;
    for (const ShardRun &s : shards)
        finished = std::max(finished, s.row.finished);
    writer.finishRun(m->runId, RunStatus::Finished, finished);
    const bool ok = writer.flush(60000) && writer.failedItems() == 0;
    writer.close();
    if (!ok)
        m->error = QStringLiteral("the merged run could not be stored whole in %1").arg(target);
    return ok;
}

} // namespace

QStringList ShardMerge::findingTexts() const
{
    QStringList out;
    for (const Reason &r : findings)
        out << r.text();
    return out;
}

ShardMerge mergeShards(const QList<ShardSource> &sources, const QString &targetProject, const QString &runName)
{
    ShardMerge m;
    QList<ShardRun> shards;
    for (const ShardSource &source : sources) {
        shards.append(ShardRun {});
        if (!readShard(source, &shards.last(), &m.error))
            return m;
    }
    if (shards.isEmpty()) {
        m.error = QStringLiteral("no shard runs given");
        return m;
    }
    if (!checkShards(&shards, &m.error))
        return m;
    m.shards = int(shards.size());
    const QList<qint64> starts = firstStartsUtc(shards);
    const auto [lo, hi] = std::minmax_element(starts.cbegin(), starts.cend());
    m.startSpreadMs = double(*hi - *lo) / 1e6;
    if (m.startSpreadMs > kShardSkewBoundMs)
        m.findings << Reason::in("ServeScope::Merge",
            QT_TRANSLATE_NOOP("ServeScope::Merge",
                "shard-start-spread %1 ms between the first and last shard's first request exceeds %2 ms"),
            { QString::number(m.startSpreadMs, 'f', 1), QString::number(kShardSkewBoundMs, 'f', 0) });
    std::tie(m.pointSpreadMs, m.pointSpreadAt) = widestPointSpread(shards);
    m.pointSlotS = shards.first().host.value(QStringLiteral("point_slot_s")).toDouble();
    // Without a slot later points start when each shard is ready: their spread is reported, not flagged.
    if (m.pointSlotS > 0 && m.pointSpreadMs > kShardSkewBoundMs)
        m.findings << Reason::in("ServeScope::Merge",
            QT_TRANSLATE_NOOP("ServeScope::Merge",
                "shard-point-start-spread %1 ms between the shards' first requests at %2 exceeds %3 ms: a point "
                "outlasted --point-slot %4 s"),
            { QString::number(m.pointSpreadMs, 'f', 1), m.pointSpreadAt, QString::number(kShardSkewBoundMs, 'f', 0),
                QString::number(m.pointSlotS) });
    for (const ShardRun &s : std::as_const(shards))
        m.findings << clockFindings(s);
    m.ok = writeMerged(shards, targetProject, runName, mergedHost(shards, starts, m), &m);
    return m;
}

} // namespace ServeScope
