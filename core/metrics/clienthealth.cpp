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
        // CPU spent just before or after a very short point (one where every request failed at
        // once) would read as more cores than the host has.
        out.insert(QStringLiteral("cpu_percent"), std::min(100.0 * std::max(1, cores), 100 * cpuSeconds / wallSeconds));
        out.insert(QStringLiteral("cores"), double(cores));
    }
    return out;
}

QMap<QString, double> streamArrival(std::span<const RequestRecord> records)
{
    qint64 events = 0, reads = 0, gaps = 0, zeroGaps = 0;
    std::vector<double> ttftShare;
    for (const RequestRecord &r : records) {
        if (r.warmup || !r.ok() || r.endNs <= r.startNs)
            continue;
        qint64 n = 0, arrivals = 0, zero = 0, last = -1, first = -1;
        for (qsizetype i = 0; i < r.eventNs.size() && i < r.eventKinds.size(); ++i) {
            if (!isTokenEvent(r.eventKinds[i]))
                continue;
            const qint64 t = r.eventNs[i];
            if (n == 0)
                first = t;
            else if (t == last)
                ++zero;
            if (n == 0 || t != last)
                ++arrivals;
            last = t;
            ++n;
        }
        if (n < 3)
            continue;
        events += n;
        reads += arrivals;
        gaps += n - 1;
        zeroGaps += zero;
        ttftShare.push_back(double(first) / double(r.endNs - r.startNs));
    }
    QMap<QString, double> out;
    if (reads == 0)
        return out;
    std::sort(ttftShare.begin(), ttftShare.end());
    out.insert(QStringLiteral("stream_events_per_read"), double(events) / double(reads));
    out.insert(QStringLiteral("stream_same_read_share"), double(zeroGaps) / double(gaps));
    out.insert(QStringLiteral("stream_ttft_e2el_p50"), Stats::percentileSorted(ttftShare, 50));
    return out;
}

QMap<QString, double> usageSetAside(std::span<const RequestRecord> records)
{
    qint64 requests = 0, outputSaid = 0, outputCounted = 0, outputs = 0, inputSaid = 0, inputCounted = 0, inputs = 0;
    for (const RequestRecord &r : records) {
        if (!r.measured() || !r.ok() || (r.usageOutputSetAside < 0 && r.usagePromptSetAside < 0))
            continue;
        ++requests;
        if (r.usageOutputSetAside >= 0) {
            ++outputs;
            outputSaid += r.usageOutputSetAside;
            outputCounted += r.completionTokens;
        }
        if (r.usagePromptSetAside >= 0) {
            ++inputs;
            inputSaid += r.usagePromptSetAside;
            inputCounted += r.promptTokens;
        }
    }
    QMap<QString, double> out;
    if (requests == 0)
        return out;
    out.insert(QStringLiteral("usage_mismatch_requests"), double(requests));
    if (outputs > 0) {
        out.insert(QStringLiteral("usage_mismatch_output_said"), double(outputSaid));
        out.insert(QStringLiteral("usage_mismatch_output_counted"), double(outputCounted));
    }
    if (inputs > 0) {
        out.insert(QStringLiteral("usage_mismatch_input_said"), double(inputSaid));
        out.insert(QStringLiteral("usage_mismatch_input_counted"), double(inputCounted));
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
