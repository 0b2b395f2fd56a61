// SPDX-License-Identifier: MIT
#include "metrics/clienthealth.h"

#include "metrics/numpystats.h"

#include <sys/resource.h>

#include <algorithm>
#include <vector>

namespace ServeScope {

QMap<QString, double> clientHealth(
    std::span<const RequestRecord> records, double cpuSeconds, double wallSeconds, int cores)
{
    QMap<QString, double> out;
    std::vector<double> lag;
    for (const RequestRecord &r : records) {
        if (r.warmup || r.startNs <= 0)
            continue;
        lag.push_back(double(std::max<qint64>(0, r.startNs - std::max(r.scheduledNs, r.slotNs))) / 1e6);
    }
    if (!lag.empty()) {
        std::sort(lag.begin(), lag.end());
        out.insert(QStringLiteral("dispatch_lag_p50_ms"), Stats::percentileSorted(lag, 50));
        out.insert(QStringLiteral("dispatch_lag_p99_ms"), Stats::percentileSorted(lag, 99));
        out.insert(QStringLiteral("dispatch_lag_max_ms"), lag.back());
    }
    if (wallSeconds > 0) {
        out.insert(QStringLiteral("cpu_percent"), 100 * cpuSeconds / wallSeconds);
        out.insert(QStringLiteral("cores"), double(cores));
    }
    return out;
}

double processCpuSeconds()
{
    rusage u {};
    if (getrusage(RUSAGE_SELF, &u) != 0)
        return 0;
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

} // namespace ServeScope
