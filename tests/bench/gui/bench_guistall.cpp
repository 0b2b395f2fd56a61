// SPDX-License-Identifier: MIT
// How responsive the window stays through a large run: the desktop app's own window runs one
// point of 4,096 streams (by default) against its local simulator, as a user starts it, while a
// 2 ms timer on the GUI thread notes how late each of its ticks comes. The longest gap, less the
// 2 ms, is the longest stretch the GUI thread could not answer the user. Printed, not asserted.
//
//   bench_guistall [--streams N] [--tokens N] [--time-scale X]   (SERVESCOPE_CLI: the simulator)
//
// With --open FILE --runs A,B it instead opens a project (e.g. bench_compare's two big runs), prints
// how long until the page shows its newest run (the whole-file integrity check runs meanwhile),
// selects those runs for the Results page as a user does, and prints how long until the page has
// them (its first chart and the delta table), until the steady set's deltas follow, and the longest
// GUI-thread stall meanwhile.
#include "mainwindow.h"
#include "model/clock.h"
#include "projectcontroller.h"
#include "projectsession.h"
#include "runmonitor.h"
#include "runpagecontroller.h"
#include "secrets/memorysecretstore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMap>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>

using namespace ServeScope;

namespace {

constexpr int kTickMs = 2;

struct Stalls {
    qint64 lastNs = 0;
    QMap<QString, qint64> longestByPhase; ///< ns over the tick, per phase of the run
    qint64 longest = 0;
    QString longestPhase;
    int over16 = 0, over50 = 0, ticks = 0;
    int peakInFlight = 0;

    void tick(const RunSnapshot &s, const QString &phase)
    {
        const qint64 now = monotonicNs();
        if (lastNs) {
            const qint64 late = std::max<qint64>(0, now - lastNs - qint64(kTickMs) * 1000000);
            qint64 &byPhase = longestByPhase[phase];
            byPhase = std::max(byPhase, late);
            if (late > longest) {
                longest = late;
                longestPhase = phase;
            }
            over16 += late > 16000000;
            over50 += late > 50000000;
            ++ticks;
        }
        lastNs = now;
        peakInFlight = std::max(peakInFlight, s.inFlight);
    }
};

Experiment bigPoint(int streams, int tokens)
{
    Experiment e = ProjectController::blankExperiment();
    e.name = QStringLiteral("gui stall");
    e.load.points.clear();
    LoadPoint p;
    p.concurrency = streams;
    p.inputLen = 64;
    p.outputLen = tokens;
    p.numPrompts = streams;
    e.load.points.append(p);
    e.load.warmupRequests = 1;
    // Every stream decodes at once: the simulator's batch is as large as the point.
    e.server.args.set(QStringLiteral("max_num_seqs"), streams);
    e.server.args.set(QStringLiteral("max_num_batched_tokens"), streams * 64);
    return e;
}

// --open FILE --runs A,B: the window opens the project, then loads the runs for the Results page.
int openAndCompare(QApplication &app, const QString &path, const QList<qint64> &ids)
{
    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.resize(1280, 720);
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    const qint64 openStart = monotonicNs();
    w.project()->openProject(path);
    if (!opened.wait(60000)) {
        std::fprintf(stderr, "bench_guistall: %s did not open\n", qPrintable(path));
        return 1;
    }
    const qint64 openedNs = monotonicNs();
    w.show();
    QSignalSpy loaded(w.session(), &ProjectSession::runsLoaded);
    // Opening loads the newest run for the page: let that settle first.
    loaded.wait(60000);
    const qint64 firstShownNs = loaded.isEmpty() ? 0 : monotonicNs();
    loaded.clear();
    Stalls stalls;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(kTickMs);
    QObject::connect(&ticker, &QTimer::timeout, &app, [&] { stalls.tick({}, QStringLiteral("comparing")); });
    ticker.start();
    const qint64 start = monotonicNs();
    qint64 shownNs = 0;
    QObject::connect(w.session(), &ProjectSession::runsLoaded, &app, [&] {
        // Queued behind the page's own handling of the same signal: the chart and table are set.
        QTimer::singleShot(0, &app, [&] { shownNs = monotonicNs(); });
    });
    qint64 steadyNs = 0;
    QObject::connect(w.session(), &ProjectSession::steadyDeltasLoaded, &app,
        [&] { QTimer::singleShot(0, &app, [&] { steadyNs = monotonicNs(); }); });
    w.session()->loadRuns(ids);
    const bool comparing = ids.size() > 1;
    while ((!shownNs || (comparing && !steadyNs)) && monotonicNs() - start < qint64(600) * 1000000000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    QTimer::singleShot(500, &app, [] { QCoreApplication::exit(0); });
    app.exec();
    std::printf("gui: open %s %.2f s; its newest run shown %.2f s after opening; runs shown on the Results page "
                "%.2f s after they were selected\n",
        qPrintable(path), nsToSeconds(openedNs - openStart),
        firstShownNs ? nsToSeconds(firstShownNs - openStart) : -1.0, shownNs ? nsToSeconds(shownNs - start) : -1.0);
    if (comparing)
        std::printf("gui: the steady set's deltas (from the requests) %.2f s after\n",
            steadyNs ? nsToSeconds(steadyNs - start) : -1.0);
    std::printf("gui: longest GUI-thread stall %.1f ms; ticks %d, late > 16 ms: %d, > 50 ms: %d\n",
        stalls.longest / 1e6, stalls.ticks, stalls.over16, stalls.over50);
    return shownNs ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ServeScopeBench"));
    QCoreApplication::setApplicationName(QStringLiteral("servescope-bench-gui"));
    QCommandLineParser cli;
    cli.addOptions({ { QStringLiteral("streams"), QStringLiteral("Concurrent streams."), QStringLiteral("N"),
                         QStringLiteral("4096") },
        { QStringLiteral("tokens"), QStringLiteral("Output tokens per request."), QStringLiteral("N"),
            QStringLiteral("200") },
        { QStringLiteral("time-scale"), QStringLiteral("Simulator speed-up."), QStringLiteral("X"),
            QStringLiteral("1") },
        { QStringLiteral("open"), QStringLiteral("Open this project instead of running."), QStringLiteral("FILE") },
        { QStringLiteral("runs"), QStringLiteral("With --open: the runs to select, e.g. 1,2."), QStringLiteral("IDS"),
            QStringLiteral("1,2") } });
    cli.process(app);
    if (cli.isSet(QStringLiteral("open"))) {
        QList<qint64> ids;
        for (const QString &id : cli.value(QStringLiteral("runs")).split(u','))
            ids << id.toLongLong();
        return openAndCompare(app, cli.value(QStringLiteral("open")), ids);
    }
    const int streams = cli.value(QStringLiteral("streams")).toInt();
    const int tokens = cli.value(QStringLiteral("tokens")).toInt();
    if (qEnvironmentVariableIsEmpty("SERVESCOPE_CLI") || streams < 1 || tokens < 1) {
        std::fprintf(stderr, "bench_guistall: set SERVESCOPE_CLI to servescope-cli; --streams and --tokens >= 1\n");
        return 2;
    }

    MemorySecretStore secrets;
    MainWindow w(&secrets);
    w.project()->setTimeScale(cli.value(QStringLiteral("time-scale")).toDouble());
    w.resize(1280, 720);
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    w.project()->newProject(bigPoint(streams, tokens));
    if (!opened.wait(10000)) {
        std::fprintf(stderr, "bench_guistall: the project did not open\n");
        return 1;
    }
    w.show();

    Stalls stalls;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(kTickMs);
    bool finished = false;
    QObject::connect(&ticker, &QTimer::timeout, &app, [&] {
        const RunSnapshot &s = w.runMonitor()->lastSnapshot();
        stalls.tick(s,
            finished                ? QStringLiteral("results shown")
                : s.phase.isEmpty() ? QStringLiteral("starting")
                                    : s.phase);
    });
    RunResult result;
    const qint64 startNs = monotonicNs();
    qint64 endNs = 0;
    QObject::connect(&w, &MainWindow::runFinished, &app, [&](const RunResult &r) {
        result = r;
        finished = true;
        endNs = monotonicNs();
        // The results view loads the run; exit() leaves the unsaved project without asking.
        QTimer::singleShot(3000, &app, [] { QCoreApplication::exit(0); });
    });
    ticker.start();
    if (!w.runs()->start()) {
        std::fprintf(stderr, "bench_guistall: the run did not start\n");
        return 1;
    }
    app.exec();

    std::printf("gui: %d streams x %d tokens, run %.1f s, status %s, completed %d, failed %d, peak in flight %d\n",
        streams, tokens, nsToSeconds(endNs - startNs),
        result.status == RunResult::Status::Finished ? "finished" : qPrintable(result.message), result.completed,
        result.failed, stalls.peakInFlight);
    std::printf("gui: longest GUI-thread stall %.1f ms (%s); ticks %d, late > 16 ms: %d, > 50 ms: %d\n",
        stalls.longest / 1e6, qPrintable(stalls.longestPhase), stalls.ticks, stalls.over16, stalls.over50);
    for (auto it = stalls.longestByPhase.cbegin(); it != stalls.longestByPhase.cend(); ++it)
        std::printf("gui:   %-18s longest stall %.1f ms\n", qPrintable(it.key()), it.value() / 1e6);
    return result.status == RunResult::Status::Finished ? 0 : 1;
}
