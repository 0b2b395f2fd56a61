// SPDX-License-Identifier: MIT
#include "shard.h"

#include "model/clock.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QThread>

#include <chrono>
#include <cmath>
#include <sys/timex.h>

namespace ServeScope {

bool parseShard(const QString &text, ShardSpec *out, QString *error)
{
    static const QRegularExpression form(QStringLiteral("^(\\d{1,4})/(\\d{1,4})$"));
    const QRegularExpressionMatch m = form.match(text.trimmed());
    if (!m.hasMatch()) {
        *error = QStringLiteral("--shard must be I/N, e.g. 0/3 (got '%1')").arg(text);
        return false;
    }
    const int i = m.captured(1).toInt();
    const int n = m.captured(2).toInt();
    if (n < 1) {
        *error = QStringLiteral("--shard %1: N must be at least 1").arg(text);
        return false;
    }
    if (i >= n) {
        *error = QStringLiteral("--shard %1: shard indices are 0-based, from 0 to %2").arg(text).arg(n - 1);
        return false;
    }
    out->index = i;
    out->count = n;
    return true;
}

qint64 utcNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

QString utcIsoMs(qint64 utcNs)
{
    return QDateTime::fromMSecsSinceEpoch(utcNs / 1000000, Qt::UTC).toString(Qt::ISODateWithMs);
}

bool parseStartAt(const QString &text, qint64 *utcNs, QString *error)
{
    static const QRegularExpression relative(QStringLiteral("^now\\+(\\d+(\\.\\d+)?)$"));
    const QRegularExpressionMatch m = relative.match(text.trimmed());
    if (m.hasMatch()) {
        *utcNs = utcNowNs() + qint64(std::llround(m.captured(1).toDouble() * 1e9));
        return true;
    }
    const QDateTime t = QDateTime::fromString(text.trimmed(), Qt::ISODateWithMs);
    // A time without a zone would be read as local time, which differs between hosts.
    if (!t.isValid() || t.timeSpec() == Qt::LocalTime) {
        *error = QStringLiteral("--start-at must be an ISO-8601 time with a zone (2026-12-01T16:00:00Z) or "
                                "now+SECONDS (got '%1')")
                     .arg(text);
        return false;
    }
    *utcNs = t.toMSecsSinceEpoch() * 1000000;
    return true;
}

int shardShare(int total, const ShardSpec &shard)
{
    if (!shard.active())
        return total;
    return total / shard.count + (shard.index < total % shard.count ? 1 : 0);
}

LoadPoint shardLoad(const LoadPoint &point, const ShardSpec &shard)
{
    if (!shard.active())
        return point;
    LoadPoint p = point;
    p.concurrency = shardShare(point.concurrency, shard);
    p.maxConcurrency = shardShare(point.maxConcurrency, shard);
    p.numPrompts = shardShare(point.numPrompts, shard);
    if (std::isfinite(point.requestRate))
        p.requestRate = point.requestRate / shard.count;
    return p;
}

QList<int> shardPromptIndices(int total, const ShardSpec &shard)
{
    QList<int> out;
    for (int i = shard.active() ? shard.index : 0; i < total; i += shard.active() ? shard.count : 1)
        out << i;
    return out;
}

QString shardProblem(const Experiment &experiment, const ShardSpec &shard)
{
    if (!shard.active())
        return {};
    if (experiment.endpoint.isLocalSimulator())
        return QStringLiteral("--shard needs a shared endpoint: with \"sim:\" every shard would start its own "
                              "simulator; start one with `servescope-cli sim` and pass its URL with --base-url");
    if (experiment.load.capacity)
        return QStringLiteral("--shard cannot run a capacity search: each level depends on the one before, which "
                              "the shards measure apart");
    if (experiment.load.settle.enabled())
        return QStringLiteral("--shard cannot stop a point once settled: each shard sees only its own requests");
    if (experiment.dataset.name == QLatin1String("multi_turn"))
        return QStringLiteral("--shard cannot run multi_turn sessions: a shard's part of the requests would cut "
                              "sessions apart");
    if (experiment.dataset.name == QLatin1String("trace") && experiment.load.mode == LoadMode::Rate)
        return QStringLiteral("--shard cannot replay a trace in open loop: its requests are sent on the trace's "
                              "schedule, which one process keeps");
    for (int p = 0; p < experiment.load.points.size(); ++p) {
        const LoadPoint &lp = experiment.load.points[p];
        const QString label = experiment.pointLabel(p);
        if (experiment.load.mode == LoadMode::Concurrency && lp.concurrency < shard.count)
            return QStringLiteral("point %1: concurrency %2 is less than %3 shards")
                .arg(label)
                .arg(lp.concurrency)
                .arg(shard.count);
        if (lp.maxConcurrency > 0 && lp.maxConcurrency < shard.count)
            return QStringLiteral("point %1: max_concurrency %2 is less than %3 shards")
                .arg(label)
                .arg(lp.maxConcurrency)
                .arg(shard.count);
        if (lp.numPrompts > 0 && lp.numPrompts < shard.count)
            return QStringLiteral("point %1: num_prompts %2 is less than %3 shards")
                .arg(label)
                .arg(lp.numPrompts)
                .arg(shard.count);
    }
    return {};
}

namespace {

QJsonValue clockStatus()
{
    timex t {};
    t.modes = 0; // read only: needs no privilege
    const int state = ::ntp_adjtime(&t);
    if (state < 0)
        return QStringLiteral("unknown");
    QJsonObject o;
    o.insert(QStringLiteral("source"), QStringLiteral("adjtimex"));
    o.insert(QStringLiteral("synchronized"), state != TIME_ERROR && !(t.status & STA_UNSYNC));
    const double offsetUs = (t.status & STA_NANO) ? double(t.offset) / 1000.0 : double(t.offset);
    o.insert(QStringLiteral("offset_us"), offsetUs);
    o.insert(QStringLiteral("max_error_us"), double(t.maxerror));
    o.insert(QStringLiteral("est_error_us"), double(t.esterror));
    return o;
}

} // namespace

bool parsePointSlot(const QString &text, qint64 *ns, QString *error)
{
    bool ok = false;
    const double s = text.toDouble(&ok);
    if (!ok || !(s >= 1 && s <= 86400)) {
        *error = QStringLiteral("--point-slot must be a number of seconds from 1 to 86400, not '%1'").arg(text);
        return false;
    }
    *ns = qint64(s * 1e9);
    return true;
}

QJsonObject shardHostInfo(const ShardSpec &shard)
{
    QJsonObject o;
    o.insert(QStringLiteral("shard"), QStringLiteral("%1/%2").arg(shard.index).arg(shard.count));
    o.insert(QStringLiteral("start_at"), utcIsoMs(shard.startAtUtcNs));
    o.insert(QStringLiteral("start_at_utc_ns"), QString::number(shard.startAtUtcNs));
    if (shard.pointSlotNs > 0)
        o.insert(QStringLiteral("point_slot_s"), double(shard.pointSlotNs) / 1e9);
    // Both clocks read back to back: how merge maps this host's monotonic record times to UTC.
    const qint64 mono0 = monotonicNs();
    const qint64 utc = utcNowNs();
    const qint64 mono1 = monotonicNs();
    QJsonObject anchor;
    anchor.insert(QStringLiteral("utc_ns"), QString::number(utc));
    anchor.insert(QStringLiteral("monotonic_ns"), QString::number(mono0 + (mono1 - mono0) / 2));
    o.insert(QStringLiteral("clock_anchor"), anchor);
    o.insert(QStringLiteral("clock"), clockStatus());
    return o;
}

bool waitUntilUtc(qint64 utcNs, const std::atomic<bool> &cancelled)
{
    while (!cancelled.load()) {
        const qint64 left = utcNs - utcNowNs();
        if (left <= 0)
            return true;
        // Short sleeps keep a cancel prompt; the last one lands on the time.
        QThread::usleep(quint64(std::min<qint64>(left / 1000, 20000)));
    }
    return false;
}

} // namespace ServeScope
