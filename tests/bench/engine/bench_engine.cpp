// SPDX-License-Identifier: MIT
// Engine calibration against a `servescope-cli sim` child process pinned to the other core. Two
// sections: the engine alone in this process against `sim --stamp` (events/s received and asked,
// CPU per event of the engine threads and of the process, threads, descriptors, resident memory
// per stream, timing error = client arrival minus the stamp written right before each data event;
// beside it the floor: the same streams read by a bare epoll + recv loop that only counts events),
// and `servescope-cli run` as a child process (whole-process CPU per event, per thread, threads,
// descriptors, peak memory). A third section, memory, gives the peak resident memory of `run` by the
// number of requests of its one point (256 streams, 32 output tokens, a results folder) against the
// 150 MB + 1 kB per request aimed at. After the engine and run sections it prints each stream count's
// figures against the floor measured in the same run, and beside each tls row TLS's own record
// and handshake cost at that many sessions (as bench_tls measures it), which sets what HTTPS may add
// to plain (docs/engine.md). Figures are printed, not asserted.
//
//   bench_engine [--streams 256,1024,4096] [--transports floor,uring,lean,lean-epoll,tls,pool,pool-tls]
//                [--sections engine,run,memory] [--tokens 200] [--step-ms 20] [--requests 10000,100000]
#include "clirunbench.h"
#include "enginepoint.h"
#include "floorreader.h"
#include "procstats.h"
#include "simprocess.h"
#include "throwawaycert.h"
#include "tlscost.h"

#include "engine/fdlimit.h"
#include "metrics/repeats.h"
#include "model/clock.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QMap>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTimer>

#include <openssl/ssl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <sched.h>
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

// The simulator's own view: how far its step loop fell behind its deadlines (max, seconds).
QByteArray simStepLag(const QUrl &metricsUrl)
{
    QNetworkAccessManager nam;
    QNetworkRequest request(metricsUrl);
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setPeerVerifyMode(QSslSocket::VerifyNone); // the tls rows' throwaway certificate
    request.setSslConfiguration(tls);
    QNetworkReply *reply = nam.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    QByteArray lag = "nan";
    for (const QByteArray &line : reply->readAll().split('\n'))
        if (line.startsWith("servescope_sim:step_lag_seconds_max"))
            lag = line.mid(line.lastIndexOf(' ') + 1);
    delete reply;
    return lag;
}

QStringList simArgs(const QString &stepMs, bool stamp)
{
    // A constant step time: every stream gets one event per step, so N streams at 20 ms ask for
    // 50 N events/s.
    QStringList args { QStringLiteral("--max-num-seqs"), QStringLiteral("8192"), QStringLiteral("--kv-cache-tokens"),
        QStringLiteral("40000000"), QStringLiteral("--max-model-len"), QStringLiteral("8192"),
        QStringLiteral("--weight-bytes"), QStringLiteral("0"), QStringLiteral("--kv-bytes-per-token"),
        QStringLiteral("0"), QStringLiteral("--peak-flops"), QStringLiteral("1e30"),
        QStringLiteral("--step-overhead-ms"), stepMs };
    if (stamp)
        args.prepend(QStringLiteral("--stamp"));
    return args;
}

struct EventCounts {
    qint64 data = 0; ///< every data event (not comments) of every record
    qint64 inWindow = 0; ///< those between the last first event and the first end
    double windowS = 0;
};

// Events/s over the window where every stream was streaming: from the last first event to the
// first end, counted from the records; every data event counts for the CPU figures.
EventCounts countEvents(const QVector<RequestRecord> &records)
{
    qint64 from = 0, to = std::numeric_limits<qint64>::max();
    for (const RequestRecord &r : records) {
        if (!r.eventNs.isEmpty())
            from = std::max(from, r.startNs + r.eventNs.first());
        to = std::min(to, r.endNs);
    }
    EventCounts c;
    for (const RequestRecord &r : records) {
        for (qsizetype i = 0; i < r.eventNs.size(); ++i) {
            if (r.eventKinds[i] == EventKind::Comment)
                continue;
            ++c.data;
            const qint64 at = r.startNs + r.eventNs[i];
            c.inWindow += at >= from && at < to;
        }
    }
    c.windowS = to > from ? nsToSeconds(to - from) : 0;
    return c;
}

struct Options {
    QStringList sections;
    QStringList transports;
    QList<int> streams;
    QList<int> requests; ///< memory section: the point's size in each run
    int tokens = 200;
    int rounds = 1; ///< engine section: each stream count's transports measured this many times
    QString stepMs;
    double stepS = 0.02;
    int simCpu = -1;
};

constexpr double kNoFigure = std::numeric_limits<double>::quiet_NaN();

// In-process: the engine alone (LoadGenerator), with every event tapped for the stamp error.
// Returns the engine threads' CPU per data event in us (NaN when the point did not complete).
double benchEnginePoint(const SimProcess &sim, const QString &transport, int streams, const Options &o)
{
    EndpointConfig ep;
    ep.url = sim.url(QStringLiteral("/v1/completions"));
    ep.transport = transport.startsWith(QLatin1String("pool")) ? TransportKind::Pool : TransportKind::Lean;
    ep.tlsSkipVerify = true; // the tls rows: a throwaway certificate
    QString tlsError;
    makeTlsConfiguration(&ep, &tlsError);
    // lean-epoll: the engine's threads without the receive ring (read once, as each thread makes its loop).
    const bool epoll = transport == QLatin1String("lean-epoll");
    if (epoll)
        qputenv("SERVESCOPE_RECEIVE", "epoll");
    LoadSpec spec;
    spec.load.concurrency = streams;
    spec.load.numPrompts = streams;
    auto stamps = std::make_shared<StampCollector>();
    LoadGenerator gen;
    gen.setEventTap([stamps](qint64 arrival, EventKind kind, QByteArrayView payload) {
        thread_local qint64 lastStamp = 0;
        if (kind == EventKind::Comment && payload.startsWith("t=")) {
            lastStamp = payload.sliced(2).toLongLong();
        } else if (lastStamp) {
            stamps->local()->push_back(arrival - lastStamp);
            lastStamp = 0;
        }
    });
    const QVector<PreparedRequest> bodies = completionBodies(streams, 8, o.tokens);
    const qint64 rss0 = statusField("VmRSS");
    qint64 peakRss = rss0;
    int peakThreads = 0, peakFds = 0;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, [&] {
        peakThreads = std::max(peakThreads, int(threadCpu().size()));
        peakFds = std::max(peakFds, descriptorCount());
        peakRss = std::max(peakRss, statusField("VmRSS"));
    });
    sampler.start(250);
    const std::vector<ThreadCpu> before = threadCpu();
    const double cpu0 = processCpuSeconds();
    const double sim0 = processCpuSeconds(sim.pid());
    const qint64 t0 = monotonicNs();
    const PointResult res = runPoint(gen, ep, bodies, spec, -1, 600000);
    const double wall = nsToSeconds(monotonicNs() - t0);
    if (epoll)
        qunsetenv("SERVESCOPE_RECEIVE");
    const std::vector<ThreadCpu> after = threadCpu();
    const ThreadDelta engine = deltaOfThreads(before, after, "engine-");
    const double cpu = processCpuSeconds() - cpu0, engineCpu = engine.seconds;
    const qint64 sleeps = engine.sleeps;
    const double simCpu = processCpuSeconds(sim.pid()) - sim0;
    sampler.stop();
    const EventCounts counts = countEvents(res.records);
    const qint64 dataEvents = counts.data;
    const double window = counts.windowS > 0 ? counts.windowS : wall;
    std::vector<qint64> err = stamps->all();
    const bool complete = res.outcome.completed == streams && dataEvents >= qint64(streams) * o.tokens;
    std::printf("engine %-8s %6d %9.0f %9.0f %6d %5s %9.2f %9.2f %8.3f %7.2f %7d %6d %8.1f %8.3f %8.3f %8.1f %13.3f\n",
        qPrintable(transport), streams, double(counts.inWindow) / window, streams / o.stepS, maxInFlight(res.records),
        complete ? "yes" : "NO", engineCpu / double(dataEvents) * 1e6, cpu / double(dataEvents) * 1e6,
        double(sleeps) / double(dataEvents), simCpu / wall, peakThreads, peakFds, double(peakRss - rss0) / streams,
        percentile(err, 50) / 1e6, percentile(err, 99) / 1e6, wall,
        simStepLag(sim.url(QStringLiteral("/metrics"))).toDouble());
    if (ep.transport == TransportKind::Lean)
        std::printf("       %s: sockets read through %s\n", qPrintable(transport), qPrintable(res.outcome.receive));
    if (!complete) {
        // Why not: the failed requests by their first error, and the point's own state.
        QMap<QString, int> why;
        for (const RequestRecord &r : res.records)
            if (r.status != RequestStatus::Ok)
                ++why[r.errorText.left(120)];
        std::printf("       %d of %d completed, %d records, %s%s\n", res.outcome.completed, streams,
            int(res.records.size()), res.timedOut ? "timed out; " : "",
            why.isEmpty() ? "no failed record"
                          : qPrintable(QStringLiteral("%1 x %2").arg(why.first()).arg(why.firstKey())));
    }
    std::fflush(stdout);
    return complete ? engineCpu / double(dataEvents) * 1e6 : kNoFigure;
}

// The same streams read by a bare epoll + recv loop that only counts events: what the kernel alone
// costs per event on this host, the floor under the engine's figure; or (`uring`) by the batched
// receive path tried against it. Returns the reading thread's CPU per data event in us.
double benchFloorPoint(const SimProcess &sim, int streams, const Options &o, FloorReceive receive)
{
    const char *row = receive == FloorReceive::Epoll ? "floor" : "uring";
    const QUrl url = sim.url(QStringLiteral("/v1/completions"));
    const double sim0 = processCpuSeconds(sim.pid());
    const FloorFigures f = readFloor(url.host().toLatin1(), url.port(), url.path().toLatin1(),
        completionBodies(streams, 8, o.tokens), 600000, receive);
    const double simCpu = processCpuSeconds(sim.pid()) - sim0;
    const double events = double(std::max<qint64>(1, f.dataEvents));
    const bool complete = f.ok && f.dataEvents >= qint64(streams) * o.tokens;
    std::printf("engine %-8s %6d %9.0f %9.0f %6s %5s %9.2f %9.2f %8.3f %7.2f %7s %6s %8s %8s %8s %8.1f\n", row, streams,
        double(f.dataEvents) / f.wallS, streams / o.stepS, "-", complete ? "yes" : "NO", f.cpuS / events * 1e6,
        f.processCpuS / events * 1e6, double(f.sleeps) / events, simCpu / f.wallS, "1", "-", "-", "-", "-", f.wallS);
    std::printf("       %s: %.3f reads and %.3f waits per event, %.0f%% of reads with a kernel stamp\n", row,
        double(f.reads) / events, double(f.waits) / events,
        f.reads > 0 ? 100.0 * double(f.stampedReads) / double(f.reads) : 0.0);
    if (!f.ok)
        std::printf("       %s reader failed: %s\n", row, f.error.constData());
    std::fflush(stdout);
    return complete ? f.cpuS / events * 1e6 : kNoFigure;
}

// A child `servescope-cli run` of one point: the whole process as a user runs it. Returns its
// whole-process CPU per token event in us.
double benchRunPoint(const SimProcess &sim, int streams, const Options &o, const QString &outDir, int cpu)
{
    const double sim0 = processCpuSeconds(sim.pid());
    const CliRunFigures f = benchCliRun(sim.url(QString()), streams, o.tokens, cpu, outDir);
    const double simCpu = processCpuSeconds(sim.pid()) - sim0;
    const double events = double(streams) * o.tokens;
    QByteArray busiest;
    for (size_t i = 0; i < std::min<size_t>(4, f.threads.size()); ++i)
        busiest += f.threads[i].name + '=' + QByteArray::number(f.threads[i].seconds, 'f', 2) + ' ';
    std::printf("run    %6d %5d %9d %9.2f %9.2f %9.2f %8.3f %7.2f %7d %6d %8.1f %8.1f  %s\n", streams, f.exitCode,
        f.completed, f.engineCpuS / events * 1e6, f.runCpuS / events * 1e6, f.cpuS / events * 1e6,
        double(sleepsOfThreads(f.threads, "engine-")) / events, simCpu / f.wallS, f.peakThreads, f.peakFds,
        double(f.peakRssKb) / streams, f.wallS, busiest.constData());
    if (f.exitCode != 0)
        std::printf("       run failed: %s\n", f.error.constData());
    std::fflush(stdout);
    return f.exitCode == 0 ? f.cpuS / events * 1e6 : kNoFigure;
}

// TLS's own cost beside the tls rows (the engine's TlsSession against an OpenSSL server, no sockets),
// measured in this run as bench_tls does: per stream count,
// one record of an SSE event's size with that many sessions taking turns, plus a connection's
// handshake and the rest of its session's life (made, the server's tickets read, freed) divided by
// the events a connection carries here (one request of `tokens` events), plus 2 us: what
// HTTPS may add to plain per event (docs/engine.md). NaN when it cannot be measured.
double httpsAllowance(const QString &certDir, int sessions, int tokens)
{
    static const std::shared_ptr<TlsContext> client = [] {
        QString error;
        return TlsContext::make(QString(), true, &error);
    }();
    SSL_CTX *server = tlsCostServer(certDir);
    const TlsCost cost = server && client ? measureTlsCost(server, *client, sessions, 200000, 180) : TlsCost {};
    SSL_CTX_free(server);
    const double connectionUs = cost.handshakeUs + cost.sessionUs;
    std::printf("       TLS alone at %d sessions: record %.3f us, handshake %.1f us + session %.1f us (%.2f us per "
                "event here)\n",
        sessions, cost.recordUs, cost.handshakeUs, cost.sessionUs, connectionUs / tokens);
    std::fflush(stdout);
    return cost.ok ? cost.recordUs + connectionUs / tokens + 2.0 : kNoFigure;
}

/// CPU per event by row (floor, lean, tls, https-allowance, run, ...) and streams, one figure per round.
using RoundFigures = QMap<QString, QMap<int, QList<double>>>;

/// The median of the rounds' figures, those without one (NaN) left out.
double medianOf(const QList<double> &values)
{
    const RepeatStat s = acrossRepeats(std::span<const double>(values.constData(), std::size_t(values.size())));
    return s.n > 0 ? s.median : kNoFigure;
}

// The targets of docs/engine.md against the floor measured in the same run: the lean engine thread
// within 1.5 times the floor reader's CPU per event, the whole `run` within 2 times; HTTPS minus
// plain within TLS's own record and handshake cost plus 2 us (httpsAllowance); the io_uring
// receive path was worth building into the engine at 30% or more below the floor (the uring
// reader), and lean-epoll is the engine on the epoll path it falls back to. Each round's
// ratios are taken between figures measured one after the other; with several rounds the verdict
// is on the median of the rounds' ratios (`run`, measured once, against each round's floor).
void printAgainstFloor(const RoundFigures &us, const QList<int> &streams, int rounds)
{
    const auto at = [&](const char *row, int n, int round) {
        const QList<double> v = us.value(QLatin1String(row)).value(n);
        return v.isEmpty() ? kNoFigure : v.value(std::min<qsizetype>(round, v.size() - 1));
    };
    const auto ratio = [](double a, double b) { return std::isnan(a) || std::isnan(b) || b <= 0 ? kNoFigure : a / b; };
    const auto verdict = [](double r, double limit) { return std::isnan(r) ? "-" : r <= limit ? "met" : "over"; };
    std::printf("\nagainst the floor measured above (us per event; targets: lean <= 1.5 x floor, run <= 2 x floor, "
                "tls - lean <= TLS's own record + handshake per event + 2 us, uring <= 0.7 x floor to be kept; "
                "lean-epoll, the fallback, <= 1.5 x floor)%s\n",
        rounds > 1 ? "; each round, then the median of the rounds' figures and ratios" : "");
    std::printf("streams round  floor_us  lean_us lean/floor target    run_us run/floor target    tls_us tls-lean_us "
                "allowed_us target  uring_us uring/floor target  epoll_us epoll/floor target\n");
    const auto row = [&](int n, const char *round, const double *f, const double *r) {
        std::printf("%7d %5s %9.2f %8.2f %10.2f %-6s %9.2f %9.2f %-6s %9.2f %11.2f %10.2f %-6s %9.2f %11.2f %-6s "
                    "%9.2f %11.2f %-6s\n",
            n, round, f[0], f[1], r[0], verdict(r[0], 1.5), f[2], r[1], verdict(r[1], 2.0), f[3], f[3] - f[1], f[4],
            verdict(r[2], 1.0), f[5], r[3], verdict(r[3], 0.7), f[6], r[4], verdict(r[4], 1.5));
    };
    for (const int n : streams) {
        QList<double> figures[7], ratios[5];
        for (int k = 0; k < rounds; ++k) {
            const double f[7] = { at("floor", n, k), at("lean", n, k), at("run", n, k), at("tls", n, k),
                at("https-allowance", n, k), at("uring", n, k), at("lean-epoll", n, k) };
            // The HTTPS verdict as a ratio to its allowance, so "met" reads the same as the others.
            const double r[5] = { ratio(f[1], f[0]), ratio(f[2], f[0]), ratio(f[3] - f[1], f[4]), ratio(f[5], f[0]),
                ratio(f[6], f[0]) };
            for (int i = 0; i < 7; ++i)
                figures[i] << f[i];
            for (int i = 0; i < 5; ++i)
                ratios[i] << r[i];
            if (rounds > 1)
                row(n, QByteArray::number(k + 1).constData(), f, r);
        }
        double f[7], r[5];
        for (int i = 0; i < 7; ++i)
            f[i] = medianOf(figures[i]);
        for (int i = 0; i < 5; ++i)
            r[i] = medianOf(ratios[i]);
        row(n, rounds > 1 ? "median" : "1", f, r);
    }
    std::fflush(stdout);
}

// The memory section: one run of `requests` requests; `first` is the first row's figures, for the
// memory each further request costs.
void benchMemoryPoint(const SimProcess &sim, int requests, const QString &outDir, int cpu, CliRunFigures *first)
{
    constexpr int kStreams = 256;
    const CliRunFigures f = benchCliRun(sim.url(QString()), kStreams, 32, cpu, outDir, requests);
    const double peakMb = double(f.peakRssKb) / 1024;
    const double targetMb = 150 + double(requests) / 1024;
    QByteArray slope = "-";
    if (first->completed > 0 && requests > first->completed)
        slope
            = QByteArray::number(double(f.peakRssKb - first->peakRssKb) * 1024 / (requests - first->completed), 'f', 0);
    else
        *first = f;
    std::printf("memory %9d %5d %9d %9.1f %9.1f %7.2f %12s %8.1f\n", requests, f.exitCode, f.completed, peakMb,
        targetMb, peakMb / targetMb, slope.constData(), f.wallS);
    if (f.exitCode != 0)
        std::printf("       run failed: %s\n", f.error.constData());
    std::fflush(stdout);
}

} // namespace

// Parses the command line into `o`; returns the exit code when there is nothing to run, else -1.
int parseOptions(const QStringList &args, Options &o)
{
    QCommandLineParser parser;
    parser.addOptions({ { QStringLiteral("streams"), QStringLiteral("Stream counts."), QStringLiteral("list"),
                            QStringLiteral("256,1024,4096") },
        { QStringLiteral("transports"),
            QStringLiteral("Engine section: floor (a bare epoll + recv reader), uring (the same through io_uring, "
                           "with receive stamps), lean (the engine, through io_uring where the host has it), "
                           "lean-epoll (the engine through epoll), tls (lean over HTTPS), pool, pool-tls."),
            QStringLiteral("list"),
            uringFloorBuilt() ? QStringLiteral("floor,uring,lean,lean-epoll,tls") : QStringLiteral("floor,lean,tls") },
        { QStringLiteral("sections"),
            QStringLiteral("engine (in-process), run (servescope-cli run child), memory (run's peak by requests)."),
            QStringLiteral("list"), QStringLiteral("engine,run,memory") },
        { QStringLiteral("requests"), QStringLiteral("Memory section: requests of the point in each run."),
            QStringLiteral("list"), QStringLiteral("10000,100000") },
        { QStringLiteral("tokens"), QStringLiteral("Output tokens per request."), QStringLiteral("n"),
            QStringLiteral("200") },
        { QStringLiteral("rounds"),
            QStringLiteral("Engine section: measure each stream count's transports this many times, one after "
                           "another, and judge the median of the rounds' ratios to the floor."),
            QStringLiteral("n"), QStringLiteral("1") },
        { QStringLiteral("step-ms"), QStringLiteral("Simulator step time."), QStringLiteral("ms"),
            QStringLiteral("20") } });
    parser.addHelpOption();
    if (!parser.parse(args)) {
        std::fprintf(stderr, "bench_engine: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(parser.helpText()));
        return 0;
    }
    bool ok = true;
    o.transports = parser.value(QStringLiteral("transports")).split(QLatin1Char(','));
    for (const QString &n : parser.value(QStringLiteral("streams")).split(QLatin1Char(','))) {
        bool one = false;
        o.streams << n.toInt(&one);
        ok = ok && one && o.streams.last() > 0;
    }
    for (const QString &n : parser.value(QStringLiteral("requests")).split(QLatin1Char(','))) {
        bool one = false;
        o.requests << n.toInt(&one);
        ok = ok && one && o.requests.last() > 0;
    }
    bool tokensOk = false, stepOk = false, roundsOk = false;
    o.tokens = parser.value(QStringLiteral("tokens")).toInt(&tokensOk);
    o.rounds = parser.value(QStringLiteral("rounds")).toInt(&roundsOk);
    o.stepMs = parser.value(QStringLiteral("step-ms"));
    o.stepS = o.stepMs.toDouble(&stepOk) / 1000;
    o.sections = parser.value(QStringLiteral("sections")).split(QLatin1Char(','));
    for (const QString &t : o.transports)
        ok = ok
            && (t == QLatin1String("floor") || t == QLatin1String("lean") || t == QLatin1String("lean-epoll")
                || t == QLatin1String("pool") || t == QLatin1String("tls") || t == QLatin1String("pool-tls")
                || t == QLatin1String("uring"));
    if (o.transports.contains(QLatin1String("uring")) && !uringFloorBuilt()) {
        std::fprintf(stderr, "bench_engine: --transports uring needs a build with liburing (liburing-dev)\n");
        return 2;
    }
    if (!ok || !tokensOk || o.tokens < 1 || !roundsOk || o.rounds < 1 || !stepOk || o.stepS <= 0) {
        std::fprintf(stderr,
            "bench_engine: --streams, --requests, --tokens and --rounds take positive integers, --step-ms a positive "
            "number, --transports floor, uring, lean, lean-epoll, tls, pool and/or pool-tls\n");
        return 2;
    }
    return -1;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 fds = raiseOpenFileLimit();
    Options o;
    if (const int code = parseOptions(app.arguments(), o); code >= 0)
        return code;
    // Client on CPU 0, simulator on CPU 1 (when there are two).
    const int cpus = int(sysconf(_SC_NPROCESSORS_ONLN));
    const int clientCpu = cpus >= 2 ? 0 : -1;
    o.simCpu = cpus >= 2 ? 1 : -1;
    if (clientCpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(clientCpu, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
    double load[3] = {};
    getloadavg(load, 3);
    std::printf("%d CPUs online; client pinned to CPU %d, simulator to CPU %d%s; load average %.2f; descriptor "
                "limit %lld; %d tokens per request, step %s ms\n",
        cpus, clientCpu, o.simCpu, cpus >= 2 ? "" : " (one CPU: not pinned)", load[0], (long long)fds, o.tokens,
        qPrintable(o.stepMs));
    std::printf("Figures are noisy on a shared machine; CPU from /proc (engine: threads engine-*).\n");
    for (const int n : o.streams) {
        if (descriptorsNeeded(n) > fds)
            std::printf("skipping %d streams: descriptor limit %lld\n", n, (long long)fds);
    }
    o.streams.removeIf([fds](int n) { return descriptorsNeeded(n) > fds; });
    RoundFigures perEvent;
    if (o.sections.contains(QLatin1String("engine"))) {
        SimProcess sim, tlsSim;
        if (!sim.start(simArgs(o.stepMs, true), o.simCpu)) {
            std::fprintf(stderr, "bench_engine: %s\n", qPrintable(sim.error()));
            return 1;
        }
        QTemporaryDir certs;
        if (o.transports.contains(QLatin1String("tls")) || o.transports.contains(QLatin1String("pool-tls"))) {
            // A throwaway certificate: the simulator serves HTTPS, the client skips verification.
            if (!makeThrowawayCertificate(certs)) {
                std::fprintf(stderr, "bench_engine: openssl req could not make a certificate\n");
                return 1;
            }
            if (!tlsSim.start(simArgs(o.stepMs, true)
                        + QStringList { QStringLiteral("--tls-cert"), certs.filePath(QStringLiteral("c.pem")),
                            QStringLiteral("--tls-key"), certs.filePath(QStringLiteral("k.pem")) },
                    o.simCpu)) {
                std::fprintf(stderr, "bench_engine: %s\n", qPrintable(tlsSim.error()));
                return 1;
            }
        }
        std::printf("\nengine alone, in this process, against `sim --stamp` (us per data event; rss per stream in "
                    "kB)\n");
        std::printf("section tr.     streams  events/s    asked   live  all   engine_us  proc_us sleeps/ev sim_cpu "
                    "threads    fds  rss_kB/s  err_p50  err_p99   wall_s sim_lag_max_s\n");
        // The transports of one stream count one after another, so each ratio to the floor is
        // between figures measured within seconds of each other.
        for (int round = 0; round < o.rounds; ++round)
            for (const int n : o.streams)
                for (const QString &t : o.transports) {
                    if (t == QLatin1String("floor") || t == QLatin1String("uring"))
                        perEvent[t][n] << benchFloorPoint(
                            sim, n, o, t == QLatin1String("floor") ? FloorReceive::Epoll : FloorReceive::Uring);
                    else
                        perEvent[t][n] << benchEnginePoint(t.endsWith(QLatin1String("tls")) ? tlsSim : sim, t, n, o);
                    if (t == QLatin1String("tls"))
                        perEvent[QStringLiteral("https-allowance")][n] << httpsAllowance(certs.path(), n, o.tokens);
                }
    }
    if (o.sections.contains(QLatin1String("run"))) {
        SimProcess sim;
        if (!sim.start(simArgs(o.stepMs, false), o.simCpu)) {
            std::fprintf(stderr, "bench_engine: %s\n", qPrintable(sim.error()));
            return 1;
        }
        QTemporaryDir dir;
        std::printf("\n`servescope-cli run`, one point, as a child process against `sim` (us per token event = "
                    "CPU / (streams x tokens))\n");
        std::printf("section streams  exit completed engine_us   run_us  proc_us sleeps/ev sim_cpu threads    fds "
                    "peak_kB/s   wall_s  busiest threads (CPU s)\n");
        for (const int n : o.streams)
            perEvent[QStringLiteral("run")][n] << benchRunPoint(sim, n, o, dir.path(), clientCpu);
    }
    if (perEvent.contains(QStringLiteral("floor")))
        printAgainstFloor(perEvent, o.streams, o.rounds);
    if (o.sections.contains(QLatin1String("memory"))) {
        // The simulator's own model at 50 times its speed: requests end fast, so the run's records pile up.
        SimProcess sim;
        sim.discardStderr(); // at 50 times its speed it logs faster than anyone reads while a run waits
        if (!sim.start({ QStringLiteral("--time-scale"), QStringLiteral("50") }, o.simCpu)) {
            std::fprintf(stderr, "bench_engine: %s\n", qPrintable(sim.error()));
            return 1;
        }
        QTemporaryDir dir;
        std::printf("\n`servescope-cli run` peak resident memory by the size of its one point (256 streams, 16 in / 32 "
                    "out, a results folder); target 150 MB + 1 kB per request\n");
        std::printf("section  requests  exit completed   peak_MB target_MB  ratio bytes/request   wall_s\n");
        CliRunFigures first;
        for (const int n : o.requests)
            benchMemoryPoint(sim, n, dir.path(), clientCpu, &first);
    }
    return 0;
}
