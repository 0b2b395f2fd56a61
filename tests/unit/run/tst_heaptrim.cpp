// SPDX-License-Identifier: MIT
#include "run/heaptrim.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace ServeScope;

namespace {

constexpr qint64 kMiB = 1024 * 1024;
constexpr size_t kChunk = 1024; // far below the mmap threshold: served from an arena
constexpr qint64 kFreed = 64 * kMiB;

qint64 residentBytes()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QRegularExpression line(QStringLiteral("^VmRSS:\\s+(\\d+) kB$"), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = line.match(QString::fromLatin1(f.readAll()));
    return m.hasMatch() ? m.captured(1).toLongLong() * 1024 : -1;
}

// Fills kFreed bytes in small chunks, keeps one chunk allocated after them (so the arena's top
// cannot shrink on its own) and frees the rest: what a point's records leave behind.
void *fillAndFree()
{
    std::vector<void *> chunks;
    for (qint64 i = 0; i < kFreed / qint64(kChunk); ++i) {
        void *p = std::malloc(kChunk);
        std::memset(p, 0x5a, kChunk);
        chunks.push_back(p);
    }
    void *pin = std::malloc(kChunk);
    std::memset(pin, 0x5a, kChunk);
    for (void *p : chunks)
        std::free(p);
    return pin;
}

} // namespace

class TestHeapTrim final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void freedMemoryLeavesTheProcess_data()
    {
        QTest::addColumn<bool>("otherThread");
        QTest::newRow("this thread's arena") << false;
        // The engine threads allocate the records; the run thread releases.
        QTest::newRow("another thread's arena") << true;
    }

    void freedMemoryLeavesTheProcess()
    {
#if !defined(__GLIBC__)
        QSKIP("malloc_trim is glibc's");
#endif
        QFETCH(bool, otherThread);
        releaseFreedHeap();
        const qint64 before = residentBytes();
        QVERIFY(before > 0);
        void *pin = nullptr;
        if (otherThread)
            std::thread([&pin] { pin = fillAndFree(); }).join();
        else
            pin = fillAndFree();
        const qint64 retained = residentBytes();
        // The allocator kept what was freed: the state the soak saw.
        QVERIFY2(retained - before >= kFreed / 2, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(retained)));
        releaseFreedHeap();
        const qint64 after = residentBytes();
        std::free(pin);
        QVERIFY2(retained - after >= kFreed / 2, qPrintable(QStringLiteral("%1 -> %2").arg(retained).arg(after)));
    }
};

QTEST_GUILESS_MAIN(TestHeapTrim)
#include "tst_heaptrim.moc"
