// SPDX-License-Identifier: MIT
#include "clirunbench.h"

#include "model/clock.h"

#include <QDir>
#include <QDirIterator>
#include <QProcess>

#include <map>

#include <sys/resource.h>

namespace ServeScope::Testing {

namespace {

double childrenCpuSeconds()
{
    rusage ru {};
    getrusage(RUSAGE_CHILDREN, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

QString writeExperiment(const QString &dir, const QUrl &base, int streams, int tokens, int requests)
{
    const QString path = dir + QStringLiteral("/bench-%1-%2.json").arg(streams).arg(requests);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QStringLiteral("{\"name\":\"bench-%1\",\"endpoint\":{\"base_url\":\"%2\",\"path\":\"/v1/completions\","
                           "\"model\":\"servescope-sim-7b\"},\"dataset\":{\"name\":\"random\",\"seed\":3,"
                           "\"ignore_eos\":true,\"range_ratio\":0.0},\"load\":{\"mode\":\"concurrency\",\"points\":"
                           "[{\"concurrency\":%1,\"input_len\":16,\"output_len\":%3,\"num_prompts\":%4}]},"
                           "\"variants\":[{\"name\":\"baseline\"}]}")
                .arg(streams)
                .arg(base.toString())
                .arg(tokens)
                .arg(requests)
                .toUtf8());
    return path;
}

// `completed` of the measured row of the run's summary.csv.
int completedFromSummary(const QString &outDir)
{
    QDirIterator it(outDir, { QStringLiteral("summary.csv") }, QDir::Files, QDirIterator::Subdirectories);
    if (!it.hasNext())
        return -1;
    const QList<QByteArray> lines = readProc(it.next()).split('\n');
    if (lines.size() < 2)
        return -1;
    const qsizetype column = lines[0].split(',').indexOf("completed");
    return column < 0 ? -1 : lines[1].split(',').value(column).toInt();
}

} // namespace

CliRunFigures benchCliRun(const QUrl &base, int streams, int tokens, int cpu, const QString &outDir, int requests)
{
    CliRunFigures fig;
    const QString cli = QString::fromLocal8Bit(qgetenv("SERVESCOPE_CLI"));
    if (requests <= 0)
        requests = streams;
    const QString experiment = writeExperiment(outDir, base, streams, tokens, requests);
    const QString results = outDir + QStringLiteral("/results-%1-%2").arg(streams).arg(requests);
    QStringList argv { QStringLiteral("run"), experiment, QStringLiteral("--out-dir"), results };
    QString program = cli;
    if (cpu >= 0) {
        argv = QStringList { QStringLiteral("-c"), QString::number(cpu), cli } + argv;
        program = QStringLiteral("taskset");
    }
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    const double cpu0 = childrenCpuSeconds();
    const qint64 t0 = monotonicNs();
    p.start(program, argv);
    if (!p.waitForStarted(10000)) {
        fig.error = "cannot start " + program.toUtf8();
        return fig;
    }
    const qint64 pid = p.processId();
    // The last figures seen of every thread, also of those that ended before the process.
    std::map<qint64, ThreadCpu> seen;
    while (!p.waitForFinished(200)) {
        const std::vector<ThreadCpu> threads = threadCpu(pid);
        if (threads.empty())
            continue;
        for (const ThreadCpu &t : threads)
            seen[t.tid] = t;
        fig.peakThreads = std::max(fig.peakThreads, int(threads.size()));
        fig.peakFds = std::max(fig.peakFds, descriptorCount(pid));
        fig.peakRssKb = std::max(fig.peakRssKb, statusField("VmHWM", pid));
    }
    for (const auto &[tid, t] : seen)
        fig.threads.push_back(t);
    fig.wallS = nsToSeconds(monotonicNs() - t0);
    fig.cpuS = childrenCpuSeconds() - cpu0;
    fig.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    if (fig.exitCode != 0)
        fig.error = p.readAllStandardError().right(400);
    std::sort(fig.threads.begin(), fig.threads.end(),
        [](const ThreadCpu &a, const ThreadCpu &b) { return a.seconds > b.seconds; });
    fig.engineCpuS = cpuOfThreads(fig.threads, "engine-");
    for (const ThreadCpu &t : fig.threads)
        fig.runCpuS += t.name == "run" ? t.seconds : 0;
    fig.completed = completedFromSummary(results);
    return fig;
}

} // namespace ServeScope::Testing
