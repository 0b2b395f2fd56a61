// SPDX-License-Identifier: MIT
// Storage figures (printed, not asserted): insert rate for requests with a 64-event blob, and the
// time to open a project of 1,000,000 requests and list its runs with their aggregates.
// Usage: bench_storage [REQUESTS_FOR_LISTING (default 1000000)] [DIR (default: a temporary dir)]
#include "recordfactory.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <sys/resource.h>

#include <cstdio>
#include <ctime>

using namespace ServeScope;

namespace {

// Process CPU seconds (user + system): the machine is shared, so wall-clock rates understate.
double cpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double threadCpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

RunRow makeRun(int n)
{
    RunRow run;
    run.name = QStringLiteral("bench run %1").arg(n);
    run.variants = { QStringLiteral("baseline"), QStringLiteral("candidate") };
    run.points = 5;
    run.resolvedConfig = QByteArray("{\"bench\":true}");
    return run;
}

// Enqueues `count` requests spread over variants, points and repeats of one run; the record is a
// copy of a template with a new index and times, so the producer does not limit the writer.
void fill(StoreWriter &writer, qint64 runId, qint64 count, const RequestRecord &templ)
{
    for (qint64 i = 0; i < count; ++i) {
        RequestRecord r = templ;
        r.runId = runId;
        r.variant = i % 2 ? QStringLiteral("candidate") : QStringLiteral("baseline");
        r.point = int((i / 2) % 5);
        r.repeat = int((i / 10) % 3) + 1;
        r.index = int(i / 30);
        r.startNs += i * 1000;
        r.endNs += i * 1000;
        writer.enqueue(std::move(r));
        if (i % 20000 == 19999)
            writer.flush(); // bound the queue's memory; the writer keeps committing meanwhile
    }
    for (int v = 0; v < 2; ++v) {
        for (int point = 0; point < 5; ++point) {
            for (int repeat = 1; repeat <= 3; ++repeat)
                writer.enqueue(TestData::makeSummary(
                    runId, v ? QStringLiteral("candidate") : QStringLiteral("baseline"), point, repeat));
        }
    }
}

double insertRate(const QString &path, qint64 count, const RequestRecord &templ, double *cpuRate, double *writerRate)
{
    StoreWriter writer;
    if (!writer.open(path))
        qFatal("cannot open %s", qPrintable(path));
    const qint64 runId = writer.createRun(makeRun(0));
    QElapsedTimer timer;
    timer.start();
    const double cpuStart = cpuSeconds();
    const double producerStart = threadCpuSeconds();
    fill(writer, runId, count, templ);
    writer.flush();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    const double cpu = cpuSeconds() - cpuStart;
    *cpuRate = double(count) / cpu;
    *writerRate = double(count) / (cpu - (threadCpuSeconds() - producerStart));
    writer.close();
    return double(count) / seconds;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const qint64 listingRequests = argc > 1 ? QByteArray(argv[1]).toLongLong() : 1'000'000;
    QTemporaryDir tmp;
    const QString dir = argc > 2 ? QString::fromLocal8Bit(argv[2]) : tmp.path();
    const RequestRecord templ = TestData::makeRequest(1, QStringLiteral("baseline"), 0, 1, 1, 62);
    const qint64 insertCount = 200'000;
    const QString insertPath = dir + QStringLiteral("/insert.servescope");
    double cpuRate = 0, writerRate = 0;
    const double rate = insertRate(insertPath, insertCount, templ, &cpuRate, &writerRate);
    std::printf("insert: %lld requests with %lld-event blobs: %.0f requests/s wall; %.0f per process CPU-second, "
                "%.0f per writer-thread CPU-second (aim >= 100000); file %.1f MB, %.0f bytes/request\n",
        qlonglong(insertCount), qlonglong(templ.eventNs.size()), rate, cpuRate, writerRate,
        QFileInfo(insertPath).size() / 1e6, double(QFileInfo(insertPath).size()) / double(insertCount));

    const QString bigPath = dir + QStringLiteral("/big.servescope");
    {
        StoreWriter writer;
        if (!writer.open(bigPath))
            qFatal("cannot open %s", qPrintable(bigPath));
        QElapsedTimer timer;
        timer.start();
        const int runs = 10;
        for (int n = 0; n < runs; ++n)
            fill(writer, writer.createRun(makeRun(n)), listingRequests / runs, templ);
        writer.flush();
        writer.close();
        std::printf("built a project of %lld requests in %.1f s (%.1f MB)\n", qlonglong(listingRequests),
            double(timer.elapsed()) / 1000.0, QFileInfo(bigPath).size() / 1e6);
    }
    for (auto check : { ProjectStore::Check::Header, ProjectStore::Check::Full }) {
        QElapsedTimer timer;
        timer.start();
        ProjectStore store;
        if (!store.open(bigPath, check))
            qFatal("%s", qPrintable(store.errorString()));
        const qint64 openNs = timer.nsecsElapsed();
        QVector<RunListing> runs;
        store.listRuns(&runs);
        const qint64 totalNs = timer.nsecsElapsed();
        qint64 requests = 0;
        for (const RunListing &l : runs)
            requests += l.requests;
        std::printf("open (%s) + list %lld runs (%lld requests, %d point repeats each): open %.1f ms, "
                    "total %.1f ms (aim < 200 ms)\n",
            check == ProjectStore::Check::Header ? "header check" : "with quick_check", qlonglong(runs.size()),
            qlonglong(requests), runs.isEmpty() ? 0 : runs[0].pointRepeats, openNs / 1e6, totalNs / 1e6);
    }
    {
        ProjectStore store;
        store.open(bigPath, ProjectStore::Check::Header);
        QElapsedTimer timer;
        timer.start();
        QVector<RequestRecord> out;
        RequestFilter f;
        f.variant = QStringLiteral("baseline");
        f.point = 2;
        store.requests(1, f, &out);
        std::printf("load one variant/point of a run with events: %lld requests in %.1f ms\n", qlonglong(out.size()),
            timer.nsecsElapsed() / 1e6);
    }
    return 0;
}
