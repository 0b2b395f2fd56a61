// SPDX-License-Identifier: MIT
#include "sim/kvcache.h"

#include <QRegularExpression>
#include <QTest>

using ServeScope::Sim::KvCache;

class TestKvCache final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void allocatesUntilFull()
    {
        KvCache kv(4, false);
        QList<int> got;
        for (int i = 0; i < 4; ++i)
            got << kv.allocate();
        QCOMPARE(got, (QList<int> { 0, 1, 2, 3 }));
        QCOMPARE(kv.allocate(), -1);
        QCOMPARE(kv.usedBlocks(), 4);
        kv.release(2);
        QCOMPARE(kv.freeBlocks(), 1);
        QCOMPARE(kv.allocate(), 2);
    }

    void cachedBlockIsHitAfterRelease()
    {
        KvCache kv(4, true);
        const int b = kv.allocate();
        kv.registerHash(b, 42);
        kv.release(b);
        QCOMPARE(kv.freeBlocks(), 4);
        QCOMPARE(kv.lookup(42), b);
        QCOMPARE(kv.freeBlocks(), 3);
        QCOMPARE(kv.lookup(7), -1);
    }

    void evictionForgetsHashLeastRecentlyFreedFirst()
    {
        KvCache kv(2, true);
        const int a = kv.allocate(), b = kv.allocate();
        kv.registerHash(a, 1);
        kv.registerHash(b, 2);
        kv.release(a);
        kv.release(b);
        QCOMPARE(kv.allocate(), a); // LRU head
        QCOMPARE(kv.lookup(1), -1);
        QCOMPARE(kv.lookup(2), b);
    }

    void sharedBlockNeedsEveryReleaseAndResetForgets()
    {
        KvCache kv(2, true);
        const int a = kv.allocate();
        kv.registerHash(a, 9);
        QCOMPARE(kv.lookup(9), a);
        kv.release(a);
        QCOMPARE(kv.usedBlocks(), 1);
        kv.release(a);
        QCOMPARE(kv.usedBlocks(), 0);
        kv.resetPrefixCache();
        QCOMPARE(kv.lookup(9), -1);
    }

    void disabledCacheNeverHits()
    {
        KvCache kv(2, false);
        const int a = kv.allocate();
        kv.registerHash(a, 5);
        QCOMPARE(kv.lookup(5), -1);
    }
};

QTEST_GUILESS_MAIN(TestKvCache)
#include "tst_kvcache.moc"
