// SPDX-License-Identifier: MIT
#include "fdlimit.h"

#include "engineconfig.h"
#include "model/variables.h"

#include <QFile>

#include <sys/resource.h>

namespace ServeScope {

qint64 raiseOpenFileLimit()
{
    rlimit rl {};
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    return openFileLimit();
}

qint64 openFileLimit()
{
    rlimit rl {};
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    return rl.rlim_cur == RLIM_INFINITY ? qint64(1) << 30 : qint64(rl.rlim_cur);
}

qint64 openFileHardLimit()
{
    rlimit rl {};
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    return rl.rlim_max == RLIM_INFINITY ? qint64(1) << 30 : qint64(rl.rlim_max);
}

int localPortCount()
{
    QFile f(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> range = f.readAll().simplified().split(' ');
    bool okLow = false, okHigh = false;
    const int low = range.value(0).toInt(&okLow), high = range.value(1).toInt(&okHigh);
    return okLow && okHigh && high >= low ? high - low + 1 : -1;
}

namespace {

/// The field of a point that sets its peak streams.
QString streamsField(const Experiment &x, qsizetype point)
{
    const LoadPoint &p = x.load.points.at(point);
    const char *field
        = x.load.mode == LoadMode::Rate ? (p.maxConcurrency > 0 ? "max_concurrency" : "request_rate") : "concurrency";
    return QStringLiteral("load.points[%1].%2").arg(point).arg(QLatin1String(field));
}

} // namespace

QList<Problem> descriptorProblems(const Experiment &experiment, qint64 hardLimit, int localPorts)
{
    const qint64 limit = hardLimit >= 0 ? hardLimit : openFileHardLimit();
    // Read once: the window asks on every edit, and the kernel's range does not change under a run.
    static const int hostPorts = localPortCount();
    const int ports = localPorts >= 0 ? localPorts : hostPorts;
    QList<Problem> out;
    const int base = experiment.baselineIndex();
    QList<int> order { base }; // the baseline first: a variant that inherits its point repeats nothing
    for (int v = 0; v < experiment.variants.size(); ++v)
        if (v != base)
            order << v;
    const auto add = [&out](const Problem &p) {
        for (const Problem &q : std::as_const(out))
            if (q.path == p.path && q.reason == p.reason)
                return;
        out << p;
    };
    for (const int v : std::as_const(order)) {
        const Experiment x = experiment.variants.isEmpty() ? experiment : resolveVariant(experiment, v);
        const int variant = v == base ? -1 : v;
        for (qsizetype i = 0; i < x.load.points.size(); ++i) {
            LoadSpec spec;
            spec.mode = x.load.mode;
            spec.load = x.load.points.at(i);
            const int streams = spec.peakStreams();
            if (limit >= 0 && descriptorsNeeded(streams) > limit)
                add(Problem::of(streamsField(x, i),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                                 "%1 concurrent streams need %2 file descriptors but the open-file hard limit is %3: "
                                 "no run can open them (lower it, or raise the hard limit, ulimit -Hn)"),
                        { QString::number(streams), QString::number(descriptorsNeeded(streams)),
                            QString::number(limit) } },
                    Severity::Error, variant));
            else if (ports > 0 && streams > ports)
                add(Problem::of(streamsField(x, i),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem",
                                 "%1 concurrent streams need as many local ports, and this host hands out %2 "
                                 "(net.ipv4.ip_local_port_range): a server behind one address refuses the rest"),
                        { QString::number(streams), QString::number(ports) } },
                    Severity::Warning, variant));
        }
    }
    return out;
}

} // namespace ServeScope
