// SPDX-License-Identifier: MIT
#include "fdlimit.h"

#include "engineconfig.h"
#include "model/variables.h"

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

QList<Problem> descriptorProblems(const Experiment &experiment, qint64 hardLimit)
{
    const qint64 limit = hardLimit >= 0 ? hardLimit : openFileHardLimit();
    QList<Problem> out;
    if (limit < 0)
        return out;
    const int base = experiment.baselineIndex();
    QList<int> order { base }; // the baseline first: a variant that inherits its point repeats nothing
    for (int v = 0; v < experiment.variants.size(); ++v)
        if (v != base)
            order << v;
    for (const int v : std::as_const(order)) {
        const Experiment x = experiment.variants.isEmpty() ? experiment : resolveVariant(experiment, v);
        for (qsizetype i = 0; i < x.load.points.size(); ++i) {
            LoadSpec spec;
            spec.mode = x.load.mode;
            spec.load = x.load.points.at(i);
            const int streams = spec.peakStreams();
            if (descriptorsNeeded(streams) <= limit)
                continue;
            const char *field = x.load.mode == LoadMode::Rate
                ? (spec.load.maxConcurrency > 0 ? "max_concurrency" : "request_rate")
                : "concurrency";
            Problem p { QStringLiteral("load.points[%1].%2").arg(i).arg(QLatin1String(field)),
                QStringLiteral("%1 concurrent streams need %2 file descriptors but the open-file hard limit is %3: no "
                               "run can open them (lower it, or raise the hard limit, ulimit -Hn)")
                    .arg(streams)
                    .arg(descriptorsNeeded(streams))
                    .arg(limit),
                Severity::Error, v == base ? -1 : v };
            bool seen = false;
            for (const Problem &q : std::as_const(out))
                seen = seen || (q.path == p.path && q.reason == p.reason);
            if (!seen)
                out << p;
        }
    }
    return out;
}

} // namespace ServeScope
