// SPDX-License-Identifier: MIT
// Comparing two big runs (figures are printed, not asserted): two runs of N requests each (one
// closed-loop point, concurrency 256, 32 in / 32 out) are run by `servescope-cli run` against the
// built-in simulator into one project, then timed: `compare` (over vLLM's and the steady window's
// result sets) and `export --report` as child processes with their peak RSS, and in this process the
// delta table from the estimates stored when each point finished against the same table recomputed
// from every stored request.
// Usage: bench_compare [REQUESTS_PER_RUN (default 100000)] [DIR (default: a temporary dir)]
#include "compare/runsource.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace ServeScope;

namespace {

struct ChildFigures {
    int exitCode = -1;
    double wallS = 0;
    long peakRssKb = 0;
};

// Runs the CLI; peak RSS from the kernel's accounting of this one child (wait4).
ChildFigures runCli(const QString &cli, const QStringList &args)
{
    ChildFigures f;
    QElapsedTimer t;
    t.start();
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(cli, args);
    if (!p.waitForStarted())
        return f;
    const pid_t pid = pid_t(p.processId());
    int status = 0;
    rusage usage {};
    if (wait4(pid, &status, 0, &usage) == pid && WIFEXITED(status))
        f.exitCode = WEXITSTATUS(status);
    p.waitForFinished(1000);
    f.wallS = double(t.nsecsElapsed()) / 1e9;
    f.peakRssKb = usage.ru_maxrss;
    return f;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int requests = args.size() > 1 ? args.at(1).toInt() : 100000;
    const bool reuse = qEnvironmentVariableIsSet("BENCH_COMPARE_REUSE"); // time an existing DIR's project again
    QTemporaryDir tmp;
    const QString dir = args.size() > 2 ? args.at(2) : tmp.path();
    const QString cli = qEnvironmentVariable("SERVESCOPE_CLI", QStringLiteral("servescope-cli"));
    const QString project = dir + QStringLiteral("/compare.servescope");
    const QString experiment = dir + QStringLiteral("/big.json");
    QFile x(experiment);
    if (!x.open(QIODevice::WriteOnly))
        return 1;
    x.write(QStringLiteral(R"({"name": "big",
 "endpoint": {"base_url": "sim:", "path": "/v1/completions", "model": "sim-7b", "dialect": "vllm"},
 "server": {"engine": "vllm", "args": {"max_num_seqs": 256}},
 "dataset": {"name": "random", "seed": 7, "ignore_eos": true},
 "load": {"mode": "concurrency", "points": [{"concurrency": 256, "input_len": 32, "output_len": 32,
   "num_prompts": %1}], "warmup_requests": 0, "repeat": 1},
 "metrics": {"percentiles": [50, 90, 99], "definitions": "vllm"},
 "variants": [{"name": "baseline", "baseline": true, "changes": {}}]})")
                .arg(requests)
                .toUtf8());
    x.close();

    std::printf("two runs of %d requests each (concurrency 256, 32 in / 32 out, simulator)\n", requests);
    for (int run = 1; run <= 2 && !reuse; ++run) {
        const ChildFigures f = runCli(cli,
            { QStringLiteral("run"), experiment, QStringLiteral("--project"), project,
                QStringLiteral("--sim-time-scale"), QStringLiteral("10") });
        if (f.exitCode != 0) {
            std::printf("run %d failed (exit %d)\n", run, f.exitCode);
            return 1;
        }
        std::printf("run %d: %.1f s, peak RSS %.0f MB\n", run, f.wallS, double(f.peakRssKb) / 1024);
    }
    std::printf("project: %.0f MB\n", double(QFile(project).size()) / 1e6);

    const ChildFigures compare = runCli(cli,
        { QStringLiteral("compare"), QStringLiteral("--project"), project, QStringLiteral("--baseline"),
            QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("2") });
    std::printf("servescope-cli compare:          %7.3f s, peak RSS %4.0f MB (exit %d)\n", compare.wallS,
        double(compare.peakRssKb) / 1024, compare.exitCode);
    const ChildFigures steady = runCli(cli,
        { QStringLiteral("compare"), QStringLiteral("--project"), project, QStringLiteral("--baseline"),
            QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("2"), QStringLiteral("--set"),
            QStringLiteral("steady") });
    std::printf("servescope-cli compare --set steady: %7.3f s, peak RSS %4.0f MB (exit %d)\n", steady.wallS,
        double(steady.peakRssKb) / 1024, steady.exitCode);
    const ChildFigures report = runCli(cli,
        { QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--run"), QStringLiteral("1"),
            QStringLiteral("--vs"), QStringLiteral("2"), QStringLiteral("--report"),
            dir + QStringLiteral("/report.html") });
    std::printf("servescope-cli export --report:  %7.3f s, peak RSS %4.0f MB (exit %d)\n", report.wallS,
        double(report.peakRssKb) / 1024, report.exitCode);

    // In this process: the delta table from the stored estimates, then recomputed from the requests
    // (a key no estimate is stored for makes the loader read them; the stored estimates are dropped).
    QElapsedTimer t;
    t.start();
    RunSource a, b;
    QString error;
    if (!loadStoredRun(project, QStringLiteral("1"), &a, &error)
        || !loadStoredRun(project, QStringLiteral("2"), &b, &error)) {
        std::printf("load: %s\n", qPrintable(error));
        return 1;
    }
    const QList<DeltaRow> stored = deltaTable(a.points, b.points, matchPoints(a.points, b.points), headlineMetrics());
    const double storedS = double(t.nsecsElapsed()) / 1e9;
    t.restart();
    const QStringList force { QStringLiteral("p1_ttft_ms") };
    if (!loadStoredRun(project, QStringLiteral("1"), &a, &error, ResultSet::Vllm, force)
        || !loadStoredRun(project, QStringLiteral("2"), &b, &error, ResultSet::Vllm, force)) {
        std::printf("load: %s\n", qPrintable(error));
        return 1;
    }
    for (RunSource *s : { &a, &b }) {
        for (PointRepeats &p : s->points)
            p.stored.clear();
    }
    const QList<DeltaRow> recomputed
        = deltaTable(a.points, b.points, matchPoints(a.points, b.points), headlineMetrics());
    const double recomputedS = double(t.nsecsElapsed()) / 1e9;
    int differ = 0;
    double largest = 0; // the largest difference of an interval bound, relative to the value
    for (int i = 0; i < stored.size() && i < recomputed.size(); ++i) {
        const DeltaRow &x = stored[i], &y = recomputed[i];
        for (const auto &[u, v] : { std::pair { x.a.ci, y.a.ci }, std::pair { x.b.ci, y.b.ci } }) {
            if (u.valid && v.valid && u.low != 0)
                largest = std::max({ largest, std::abs(u.low - v.low) / std::abs(u.low),
                    std::abs(u.high - v.high) / std::abs(u.low) });
        }
    }
    for (int i = 0; i < stored.size() && i < recomputed.size(); ++i) {
        const DeltaRow &x = stored[i], &y = recomputed[i];
        if (x.verdict == y.verdict)
            continue;
        ++differ;
        std::printf("  %s: stored [%g, %g] vs [%g, %g] %s; recomputed [%g, %g] vs [%g, %g] %s\n", qPrintable(x.metric),
            x.a.ci.low, x.a.ci.high, x.b.ci.low, x.b.ci.high, qPrintable(verdictCode(x.verdict)), y.a.ci.low,
            y.a.ci.high, y.b.ci.low, y.b.ci.high, qPrintable(verdictCode(y.verdict)));
    }
    std::printf("delta table, stored estimates:    %7.3f s\n", storedS);
    std::printf(
        "delta table, from every request:  %7.3f s (%.0fx; %d of %lld verdicts differ, interval bounds differ by "
        "at most %.2g relative)\n",
        recomputedS, recomputedS / storedS, differ, qlonglong(stored.size()), largest);
    return 0;
}
