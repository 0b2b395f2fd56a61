// SPDX-License-Identifier: MIT
// Events/s the simulator serves and its step lag at 256 and 1,024 streams. The simulator runs as
// a child pinned to one core (taskset), this raw-socket client on the other. Figures are printed.
#include "simtestclient.h"

#include <QCoreApplication>
#include <QFile>

#include <cstdio>
#include <sched.h>
#include <unistd.h>

using namespace SimTest;

namespace {

double cpuSeconds(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> parts = f.readAll().split(')').value(1).trimmed().split(' ');
    // Fields after the command: state(0) ... utime(11) stime(12), in clock ticks.
    return (parts.value(11).toDouble() + parts.value(12).toDouble()) / double(sysconf(_SC_CLK_TCK));
}

struct LagWindow {
    double count = 0, sum = 0, under1ms = 0, under5ms = 0, max = 0;
    static LagWindow read(quint16 port)
    {
        const QByteArray m = exchange(port, httpRequest("GET", "/metrics")).body;
        LagWindow w;
        w.count = metric(m, "servescope_sim:step_lag_seconds_count");
        w.sum = metric(m, "servescope_sim:step_lag_seconds_sum");
        w.max = metric(m, "servescope_sim:step_lag_seconds_max");
        for (const QByteArray &line : m.split('\n')) {
            if (line.startsWith("servescope_sim:step_lag_seconds_bucket{le=\"0.001\""))
                w.under1ms = line.mid(line.lastIndexOf(' ') + 1).toDouble();
            if (line.startsWith("servescope_sim:step_lag_seconds_bucket{le=\"0.005\""))
                w.under5ms = line.mid(line.lastIndexOf(' ') + 1).toDouble();
        }
        return w;
    }
};

void runPoint(int streams, double seconds, bool pin)
{
    SimChild sim;
    QStringList args { QStringLiteral("--max-num-seqs"), QString::number(streams),
        QStringLiteral("--kv-bytes-per-token"), QStringLiteral("0"), QStringLiteral("--peak-flops"),
        QStringLiteral("1e20"), QStringLiteral("--step-overhead-ms"),
        QStringLiteral("8.75"), // 20 ms steps whatever the batch: 50 events/s per stream
        // A cache large enough that every stream stays resident (no preemption caps the batch).
        QStringLiteral("--kv-cache-tokens"), QStringLiteral("4000000") };
    if (pin) {
        // Run the child through taskset on core 1; this process stays on core 0.
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
    if (!(pin ? sim.startWrapped(QStringLiteral("taskset"), { QStringLiteral("-c"), QStringLiteral("1") }, args)
              : sim.start(args))) {
        std::printf("sim did not start\n");
        return;
    }
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    quint64 events = 0;
    const QByteArray request = httpRequest("POST", "/v1/completions",
        "{\"prompt\":\"benchmark the server\",\"max_tokens\":4000,\"ignore_eos\":true,\"stream\":true}");
    for (int i = 0; i < streams; ++i) {
        auto s = std::make_unique<QTcpSocket>();
        QTcpSocket *raw = s.get();
        QObject::connect(raw, &QTcpSocket::connected, raw, [raw, &request] { raw->write(request); });
        QObject::connect(raw, &QTcpSocket::readyRead, raw, [raw, &events] {
            const QByteArray b = raw->readAll();
            for (qsizetype at = b.indexOf("data: "); at >= 0; at = b.indexOf("data: ", at + 6))
                ++events;
        });
        raw->connectToHost(QStringLiteral("127.0.0.1"), sim.port);
        sockets.push_back(std::move(s));
    }
    QTest::qWait(2000); // every stream admitted and decoding
    const LagWindow lag0 = LagWindow::read(sim.port);
    const double cpu0 = cpuSeconds(sim.process().processId());
    const quint64 events0 = events;
    const qint64 t0 = ServeScope::monotonicNs();
    QTest::qWait(int(seconds * 1000));
    const double elapsed = double(ServeScope::monotonicNs() - t0) / 1e9;
    const quint64 got = events - events0;
    const double cpu = (cpuSeconds(sim.process().processId()) - cpu0) / elapsed;
    const LagWindow lag1 = LagWindow::read(sim.port);
    const double steps = lag1.count - lag0.count;
    // CPU time per event is what load on the shared machine changes least: 1 s / it is the
    // ceiling of one free core.
    const double usPerEvent = got ? cpu * elapsed / double(got) * 1e6 : 0.0;
    std::printf("streams %5d  events/s %8.0f (ideal %6.0f)  steps/s %5.1f  server CPU %4.0f%% (%.1f us/event, "
                "one-core ceiling %.0fk events/s)  step lag mean %6.2f ms, <=1 ms %5.1f%%, <=5 ms %5.1f%%, "
                "max since start %6.1f ms\n",
        streams, double(got) / elapsed, streams * 50.0, steps / elapsed, cpu * 100, usPerEvent,
        usPerEvent > 0 ? 1e3 / usPerEvent : 0.0, steps > 0 ? (lag1.sum - lag0.sum) / steps * 1e3 : 0.0,
        steps > 0 ? (lag1.under1ms - lag0.under1ms) / steps * 100 : 0.0,
        steps > 0 ? (lag1.under5ms - lag0.under5ms) / steps * 100 : 0.0, lag1.max * 1e3);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    raiseFdLimit();
    const bool pin = sysconf(_SC_NPROCESSORS_ONLN) >= 2;
    QFile load(QStringLiteral("/proc/loadavg"));
    load.open(QIODevice::ReadOnly);
    std::printf("bench_sim: 20 ms steps, %s, load average %s\n",
        pin ? "sim pinned to CPU 1, client on CPU 0" : "single CPU, unpinned", load.readLine().trimmed().constData());
    for (int streams : { 256, 1024 })
        runPoint(streams, 8.0, pin);
    return 0;
}
