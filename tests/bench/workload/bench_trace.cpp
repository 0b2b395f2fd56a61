// SPDX-License-Identifier: MIT
// Replaying a big trace (figures are printed, not asserted): a Mooncake-format trace of N requests (default
// 100,000; Poisson arrivals at RATE req/s, default 2,000; 64-token prompts in 16-token blocks, the first two
// blocks shared by one of 64 conversations, 16 output tokens) is read here (time and memory of the reader),
// then replayed at its own speed (at most 1,024 in flight) by `servescope-cli run` against the built-in simulator with
// prefix caching. Printed: the run's wall time and peak RSS, the schedule lag (send time against the trace's time: p50,
// p99, max), and the prefix-cache hit rate the simulator reported against the share of repeated blocks. Usage:
// bench_trace [REQUESTS (default 100000)] [RATE (default 2000)] [DIR (default: a temporary dir)]
#include "storage/projectstore.h"
#include "workload/trace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdio>
#include <random>

using namespace ServeScope;

namespace {

long selfPeakRssKb()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int requests = args.size() > 1 ? args.at(1).toInt() : 100000;
    const double rate = args.size() > 2 ? args.at(2).toDouble() : 2000;
    QTemporaryDir tmp;
    const QString dir = args.size() > 3 ? args.at(3) : tmp.path();
    const QString cli = qEnvironmentVariable("SERVESCOPE_CLI", QStringLiteral("servescope-cli"));
    const QString tracePath = dir + QStringLiteral("/trace.jsonl");
    {
        QFile f(tracePath);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        std::mt19937_64 rng(11);
        std::exponential_distribution<double> gap(rate / 1000.0); // ms
        std::uniform_int_distribution<int> conversation(0, 63);
        double at = 0;
        for (int i = 0; i < requests; ++i) {
            at += gap(rng);
            const int c = conversation(rng);
            f.write(QStringLiteral("{\"timestamp\": %1, \"input_length\": 64, \"output_length\": 16, "
                                   "\"hash_ids\": [%2, %3, %4, %5]}\n")
                        .arg(at, 0, 'f', 3)
                        .arg(2 * c)
                        .arg(2 * c + 1)
                        .arg(1000 + 2 * i)
                        .arg(1001 + 2 * i)
                        .toUtf8());
        }
    }
    const long rssBefore = selfPeakRssKb();
    QElapsedTimer t;
    t.start();
    Trace trace;
    Reason why;
    if (!readTrace(tracePath, QString(), kMaxTraceRows, &trace, &why)) {
        std::printf("read: %s\n", qPrintable(why.text()));
        return 1;
    }
    const double readS = double(t.nsecsElapsed()) / 1e9;
    const TraceProfile profile = traceProfile(trace, 16);
    std::printf("trace: %d requests over %.1f s (%.0f req/s), %.1f MB file\n", profile.requests,
        profile.durationSeconds, profile.rate, double(QFile(tracePath).size()) / 1e6);
    std::printf("read: %.3f s, peak RSS of this process +%.0f MB\n", readS, double(selfPeakRssKb() - rssBefore) / 1024);

    const QString experiment = dir + QStringLiteral("/trace.json");
    const QString project = dir + QStringLiteral("/trace.servescope");
    QFile x(experiment);
    if (!x.open(QIODevice::WriteOnly))
        return 1;
    x.write(QStringLiteral(R"({"name": "trace",
 "endpoint": {"base_url": "sim:", "path": "/v1/completions", "model": "sim-7b", "dialect": "vllm"},
 "server": {"engine": "vllm", "args": {"max_num_seqs": 1024, "enable_prefix_caching": true, "block_size": 16}},
 "dataset": {"name": "trace", "path": "%1", "block_size": 16, "seed": 7, "ignore_eos": true},
 "load": {"mode": "rate", "points": [{"request_rate": %2, "max_concurrency": 1024, "num_prompts": %3}], "warmup_requests": 0, "repeat": 1},
 "variants": [{"name": "baseline"}]})")
                .arg(tracePath)
                .arg(profile.rate, 0, 'g', 17)
                .arg(requests)
                .toUtf8());
    x.close();

    QFile::remove(project); // run 1 is this replay
    t.restart();
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(cli,
        { QStringLiteral("run"), experiment, QStringLiteral("--project"), project, QStringLiteral("--sim-time-scale"),
            QStringLiteral("10") });
    if (!p.waitForStarted())
        return 1;
    int status = 0;
    rusage usage {};
    const pid_t pid = pid_t(p.processId());
    const bool exited = wait4(pid, &status, 0, &usage) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    p.waitForFinished(1000);
    if (!exited) {
        std::printf("run failed\n");
        return 1;
    }
    std::printf("replay at the trace's own speed: %.1f s, peak RSS %.0f MB, CPU %.1f s\n",
        double(t.nsecsElapsed()) / 1e9, double(usage.ru_maxrss) / 1024,
        double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);

    ProjectStore store;
    QVector<PointSummary> points;
    if (!store.open(project) || !store.pointSummaries(1, &points) || points.isEmpty())
        return 1;
    const PointSummary &s = points.first();
    std::printf("completed %d, failed %d, %.0f req/s achieved\n", s.completed, s.failed, s.requestThroughput);
    std::printf("schedule lag (send - scheduled): p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
        s.client.value(QStringLiteral("dispatch_lag_p50_ms")), s.client.value(QStringLiteral("dispatch_lag_p99_ms")),
        s.client.value(QStringLiteral("dispatch_lag_max_ms")));
    std::printf("prefix-cache hit rate: %.4f reported by the server, %.4f of prompt tokens in repeated blocks\n",
        s.cachedPromptTokens > 0 ? double(s.cachedTokens) / double(s.cachedPromptTokens) : 0.0,
        traceRepeatedShare(trace, requests, 16));
    return 0;
}
