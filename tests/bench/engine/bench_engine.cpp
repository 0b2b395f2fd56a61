// SPDX-License-Identifier: MIT
// Engine calibration against `servescope-cli sim --stamp` in its own process, pinned to the other
// core: events/s received, client CPU, threads, descriptors, and the timing error (client arrival
// minus the server's stamp written right before each data event). Figures are printed.
//
//   bench_engine [--streams 64,256,1024] [--transports lean,pool] [--tokens 400] [--step-ms 20]
#include "pointrunner.h"
#include "simprocess.h"

#include "engine/fdlimit.h"
#include "model/clock.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

using namespace ServeScope;
using namespace ServeScope::Testing;

namespace {

struct StampCollector {
    QMutex mutex;
    std::vector<std::shared_ptr<std::vector<qint64>>> perThread;
    std::shared_ptr<std::vector<qint64>> local()
    {
        thread_local std::shared_ptr<std::vector<qint64>> mine;
        thread_local StampCollector *owner = nullptr;
        if (!mine || owner != this) {
            mine = std::make_shared<std::vector<qint64>>();
            owner = this;
            QMutexLocker lock(&mutex);
            perThread.push_back(mine);
        }
        return mine;
    }
    std::vector<qint64> all()
    {
        QMutexLocker lock(&mutex);
        std::vector<qint64> v;
        for (const auto &p : perThread)
            v.insert(v.end(), p->begin(), p->end());
        return v;
    }
};

double cpuSeconds()
{
    rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

double processCpuSeconds(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray s = f.readAll();
    const QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 12 ? (fields[11].toDouble() + fields[12].toDouble()) / double(sysconf(_SC_CLK_TCK)) : 0;
}

int threads()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("Threads:"))
            return line.mid(8).trimmed().toInt();
    return 0;
}

// The simulator's own view: how far its step loop fell behind its deadlines (max, seconds).
QByteArray simStepLag(const QUrl &metricsUrl)
{
    QNetworkAccessManager nam;
    QNetworkReply *reply = nam.get(QNetworkRequest(metricsUrl));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    for (const QByteArray &line : reply->readAll().split('\n'))
        if (line.startsWith("servescope_sim:step_lag_seconds_max"))
            return line.mid(line.lastIndexOf(' ') + 1);
    delete reply;
    return "?";
}

int descriptors()
{
    return int(QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::NoDotAndDotDot | QDir::System).size());
}

double pct(std::vector<qint64> &v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double h = (double(v.size()) - 1) * p / 100.0;
    const size_t i = size_t(h);
    const double a = double(v[i]), b = double(v[std::min(i + 1, v.size() - 1)]);
    return a + (b - a) * (h - double(i));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    raiseOpenFileLimit();
    QCommandLineParser parser;
    parser.addOptions({ { QStringLiteral("streams"), QStringLiteral("Stream counts."), QStringLiteral("list"),
                            QStringLiteral("64,256,1024") },
        { QStringLiteral("transports"), QStringLiteral("lean,pool"), QStringLiteral("list"),
            QStringLiteral("lean,pool") },
        { QStringLiteral("tokens"), QStringLiteral("Output tokens per request."), QStringLiteral("n"),
            QStringLiteral("400") },
        { QStringLiteral("step-ms"), QStringLiteral("Simulator step time."), QStringLiteral("ms"),
            QStringLiteral("20") } });
    parser.addHelpOption();
    if (!parser.parse(app.arguments())) {
        std::fprintf(stderr, "%s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(parser.helpText()));
        return 0;
    }
    const int tokens = parser.value(QStringLiteral("tokens")).toInt();
    // Client on CPU 0, simulator on CPU 1 (when there are two).
    const int cpus = int(sysconf(_SC_NPROCESSORS_ONLN));
    if (cpus >= 2) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
    SimProcess sim;
    // A constant step time: every stream gets one event per step, so 1,024 streams at 20 ms
    // ask for 51,200 events/s.
    if (!sim.start(
            { QStringLiteral("--stamp"), QStringLiteral("--max-num-seqs"), QStringLiteral("2048"),
                QStringLiteral("--kv-cache-tokens"), QStringLiteral("4000000"), QStringLiteral("--max-model-len"),
                QStringLiteral("8192"), QStringLiteral("--weight-bytes"), QStringLiteral("0"),
                QStringLiteral("--kv-bytes-per-token"), QStringLiteral("0"), QStringLiteral("--peak-flops"),
                QStringLiteral("1e30"), QStringLiteral("--step-overhead-ms"), parser.value(QStringLiteral("step-ms")) },
            cpus >= 2 ? 1 : -1)) {
        std::fprintf(stderr, "bench_engine: %s\n", qPrintable(sim.error()));
        return 1;
    }
    std::printf("transport streams events/s  expected/s  live  ok     client_cpu sim_cpu threads fds   err_p50_ms "
                "err_p99_ms err_n     gap_p50  wall_s   all_ev/s sim_lag_max_s\n");
    for (const QString &t : parser.value(QStringLiteral("transports")).split(QLatin1Char(','))) {
        for (const QString &n : parser.value(QStringLiteral("streams")).split(QLatin1Char(','))) {
            const int streams = n.toInt();
            EndpointConfig ep;
            ep.url = sim.url(QStringLiteral("/v1/completions"));
            ep.transport = t == QLatin1String("pool") ? TransportKind::Pool : TransportKind::Lean;
            LoadSpec spec;
            spec.load.concurrency = streams;
            spec.load.numPrompts = streams;
            auto stamps = std::make_shared<StampCollector>();
            LoadGenerator gen;
            gen.setEventTap([stamps](qint64 arrival, EventKind kind, QByteArrayView payload) {
                thread_local qint64 lastStamp = 0;
                if (kind == EventKind::Comment && payload.startsWith("t=")) {
                    lastStamp = payload.sliced(2).toByteArray().toLongLong();
                } else if (lastStamp) {
                    stamps->local()->push_back(arrival - lastStamp);
                    lastStamp = 0;
                }
            });
            int peakThreads = 0, peakFds = 0;
            QTimer sampler;
            QObject::connect(&sampler, &QTimer::timeout, [&] {
                peakThreads = std::max(peakThreads, threads());
                peakFds = std::max(peakFds, descriptors());
            });
            sampler.start(250);
            const double cpu0 = cpuSeconds(), sim0 = processCpuSeconds(sim.pid());
            const qint64 t0 = monotonicNs();
            const PointResult res = runPoint(gen, ep, completionBodies(streams, 8, tokens), spec, -1, 600000);
            const double wall = nsToSeconds(monotonicNs() - t0);
            const double cpu = cpuSeconds() - cpu0, simCpu = processCpuSeconds(sim.pid()) - sim0;
            sampler.stop();
            // Events/s over the window where every stream was streaming: from the last first token
            // to the first end, counted from the records.
            qint64 from = 0, to = std::numeric_limits<qint64>::max(), events = 0;
            for (const RequestRecord &r : res.records) {
                if (!r.eventNs.isEmpty())
                    from = std::max(from, r.startNs + r.eventNs.first());
                to = std::min(to, r.endNs);
            }
            for (const RequestRecord &r : res.records) {
                for (qsizetype i = 0; i < r.eventNs.size(); ++i) {
                    const qint64 at = r.startNs + r.eventNs[i];
                    events += at >= from && at < to && r.eventKinds[i] != EventKind::Comment;
                }
            }
            const double window = to > from ? nsToSeconds(to - from) : wall;
            // Gaps between consecutive data events of a stream: the step time the client saw.
            std::vector<qint64> gaps;
            qint64 allEvents = 0;
            for (const RequestRecord &r : res.records) {
                qint64 prev = -1;
                for (qsizetype i = 0; i < r.eventNs.size(); ++i) {
                    if (r.eventKinds[i] == EventKind::Comment)
                        continue;
                    ++allEvents;
                    if (prev >= 0)
                        gaps.push_back(r.eventNs[i] - prev);
                    prev = r.eventNs[i];
                }
            }
            std::vector<qint64> err = stamps->all();
            const double expected = streams * 1000.0 / parser.value(QStringLiteral("step-ms")).toDouble();
            std::printf(
                "%-9s %7d %10.0f %11.0f %5d %-6d %10.2f %7.2f %7d %5d %10.3f %10.3f %8zu %8.2f %8.1f %8.0f %s\n",
                qPrintable(t), streams, double(events) / window, expected, maxInFlight(res.records),
                res.outcome.completed, cpu / wall, simCpu / wall, peakThreads, peakFds, pct(err, 50) / 1e6,
                pct(err, 99) / 1e6, err.size(), pct(gaps, 50) / 1e6, wall, double(allEvents) / wall,
                simStepLag(sim.url(QStringLiteral("/metrics"))).constData());
            std::fflush(stdout);
        }
    }
    return 0;
}
