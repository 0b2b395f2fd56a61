// SPDX-License-Identifier: MIT
// Soak: `servescope-cli run` at many streams against `sim` for SERVESCOPE_SOAK_S seconds (default
// 1800), as back-to-back 60 s points of the same load (a point keeps its records until it is
// aggregated, exactly as vLLM does; what outlives a point shows as growth). Prints the
// client's highest resident memory per minute, its growth after warm-up, and whether every request
// the simulator saw is in the project. `cmake --build build --target soak`; not part of `bench`.
#include "procstats.h"
#include "simprocess.h"

#include "engine/fdlimit.h"
#include "model/clock.h"
#include "storage/projectstore.h"

#include <QCoreApplication>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace ServeScope;
using namespace ServeScope::Testing;

namespace {

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariable(name).toInt(&ok);
    return ok && v > 0 ? v : fallback;
}

// The highest resident size of `pid` since the last call (VmHWM, then reset to the current size
// through clear_refs), so a point end's peak between two samples is counted, not caught or
// missed by the sampling. Falls back to the current size (VmRSS) where the reset is refused.
qint64 peakSinceLastKb(qint64 pid, bool *exact)
{
    QFile clear(QStringLiteral("/proc/%1/clear_refs").arg(pid));
    const qint64 peak = statusField("VmHWM", pid);
    *exact = clear.open(QIODevice::WriteOnly) && clear.write("5") == 1;
    return *exact ? peak : statusField("VmRSS", pid);
}

// The value of counter `name` (with its _total suffix) in the simulator's /metrics.
double simCounter(const SimProcess &sim, const QString &name)
{
    QNetworkAccessManager nam;
    QNetworkReply *reply = nam.get(QNetworkRequest(sim.url(QStringLiteral("/metrics"))));
    while (!reply->isFinished())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);
    const QString text = QString::fromUtf8(reply->readAll());
    reply->deleteLater();
    const QRegularExpression line(
        QLatin1Char('^') + QRegularExpression::escape(name) + QStringLiteral("_total(\\{[^}]*\\})? ([0-9.e+]+)$"),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = line.match(text);
    return m.hasMatch() ? m.captured(2).toDouble() : -1;
}

QString writeExperiment(const QString &dir, const QUrl &base, int streams, int seconds)
{
    // Back-to-back points of the same load, 60 s each: what a point holds is freed when it ends,
    // so whatever outlives a point shows as growth. (Repeats of one point would measure the
    // per-request samples its interval estimates pool across them, about 1 kB per request.)
    QStringList points;
    for (int i = 0; i < std::max(1, seconds / 60); ++i)
        points << QStringLiteral("{\"label\":\"s%1\",\"concurrency\":%2,\"input_len\":64,\"output_len\":128,"
                                 "\"max_seconds\":60}")
                      .arg(i + 1)
                      .arg(streams);
    const QString path = dir + QStringLiteral("/soak.json");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QStringLiteral("{\"name\":\"soak\",\"endpoint\":{\"base_url\":\"%1\",\"path\":\"/v1/completions\","
                           "\"model\":\"servescope-sim-7b\"},\"dataset\":{\"name\":\"random\",\"seed\":5,"
                           "\"ignore_eos\":true,\"range_ratio\":0.5},\"load\":{\"mode\":\"concurrency\","
                           "\"warmup_requests\":0,\"points\":[%2]},\"variants\":[{\"name\":\"baseline\"}]}")
                .arg(base.toString(), points.join(u','))
                .toUtf8());
    return path;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    raiseOpenFileLimit();
    const int seconds = envInt("SERVESCOPE_SOAK_S", 1800);
    const int streams = envInt("SERVESCOPE_SOAK_STREAMS", 1024);
    const QString stepMs = QString::number(envInt("SERVESCOPE_SOAK_STEP_MS", 50));
    // The warm-up holds the first three points (or half a short soak): each point peaks when it
    // is aggregated and written, so the baseline must include point ends.
    const int warmupS = std::max(std::min(180, seconds / 2), seconds / 10);
    SimProcess sim;
    if (!sim.start({ QStringLiteral("--max-num-seqs"), QStringLiteral("8192"), QStringLiteral("--kv-cache-tokens"),
            QStringLiteral("40000000"), QStringLiteral("--weight-bytes"), QStringLiteral("0"),
            QStringLiteral("--kv-bytes-per-token"), QStringLiteral("0"), QStringLiteral("--peak-flops"),
            QStringLiteral("1e30"), QStringLiteral("--step-overhead-ms"), stepMs })) {
        std::fprintf(stderr, "bench_soak: %s\n", qPrintable(sim.error()));
        return 1;
    }
    QTemporaryDir dir;
    const QString experiment = writeExperiment(dir.path(), sim.url(QString()), streams, seconds);
    const QString project = dir.filePath(QStringLiteral("soak.servescope"));
    std::printf("soak: %d streams for %d s (back-to-back 60 s points), 64 -> 128 tokens (range 0.5), one event per "
                "stream every %s ms; warm-up %d s\n",
        streams, seconds, qPrintable(stepMs), warmupS);
    std::printf("   t_s   rss_MB (highest of the minute) threads    fds\n");
    QProcess run;
    run.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    run.start(QString::fromLocal8Bit(qgetenv("SERVESCOPE_CLI")),
        { QStringLiteral("run"), experiment, QStringLiteral("--project"), project, QStringLiteral("--out-dir"),
            dir.filePath(QStringLiteral("results")) });
    if (!run.waitForStarted(10000))
        return 1;
    const qint64 t0 = monotonicNs();
    qint64 atWarmupKb = 0, maxAfterKb = 0, lastKb = 0, minuteMaxKb = 0;
    qint64 nextPrint = 60;
    bool exact = true;
    while (!run.waitForFinished(5000)) {
        const double t = nsToSeconds(monotonicNs() - t0);
        bool sampleExact = false;
        const qint64 rss = peakSinceLastKb(run.processId(), &sampleExact);
        if (rss <= 0)
            continue;
        exact = exact && sampleExact;
        lastKb = rss;
        minuteMaxKb = std::max(minuteMaxKb, rss);
        // The baseline is the highest of the warm-up: each point peaks just before it is aggregated.
        if (t < warmupS)
            atWarmupKb = std::max(atWarmupKb, rss);
        else
            maxAfterKb = std::max(maxAfterKb, rss);
        if (t >= double(nextPrint)) {
            std::printf("%6.0f %8.1f %7zu %6d\n", t, double(minuteMaxKb) / 1024, threadCpu(run.processId()).size(),
                descriptorCount(run.processId()));
            std::fflush(stdout);
            nextPrint += 60;
            minuteMaxKb = 0;
        }
    }
    const int exitCode = run.exitStatus() == QProcess::NormalExit ? run.exitCode() : -1;
    const double served = simCounter(sim, QStringLiteral("vllm:request_success"));
    const double ended = simCounter(sim, QStringLiteral("servescope_sim:disconnects"));
    ProjectStore store;
    QVector<RequestRecord> records;
    QVector<RunListing> runs;
    RequestFilter all;
    all.withEvents = false;
    const bool read = store.open(project, ProjectStore::Check::Full, ProjectStore::Follow::Snapshot)
        && store.listRuns(&runs) && !runs.isEmpty() && store.requests(runs.last().run.id, all, &records);
    const qint64 ok = std::count_if(records.cbegin(), records.cend(), [](const RequestRecord &r) { return r.ok(); });
    std::printf(
        "\nexit %d; rss highest in warm-up %.1f MB, highest after %.1f MB, last %.1f MB: growth %.2f%% (target < 5%%); "
        "%.1f kB per stream%s\n",
        exitCode, double(atWarmupKb) / 1024, double(maxAfterKb) / 1024, double(lastKb) / 1024,
        atWarmupKb > 0 ? 100.0 * double(maxAfterKb - atWarmupKb) / double(atWarmupKb) : 0.0,
        double(maxAfterKb) / streams,
        exact ? "" : " (peaks sampled every 5 s: clear_refs was refused, so a short peak can be missed)");
    std::printf("simulator: %.0f finished, %.0f ended by the client; project: %lld requests (%lld ok, %lld not)%s; "
                "lost %lld\n",
        served, ended, (long long)records.size(), (long long)ok, (long long)(records.size() - ok),
        read ? "" : " (project not readable)", (long long)(qint64(served + ended) - records.size()));
    return exitCode == 0 && read ? 0 : 1;
}
