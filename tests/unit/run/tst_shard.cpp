// SPDX-License-Identifier: MIT
// A shard's share of a point: streams and prompts with the remainder to the lowest shards, the
// rate divided, the prompt indices, and the --shard / --start-at forms.
#include "run/shard.h"

#include <QObject>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <limits>

using namespace ServeScope;

class TestShard final : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void shares_data()
    {
        QTest::addColumn<int>("total");
        QTest::addColumn<int>("count");
        QTest::addColumn<QList<int>>("expected");
        QTest::newRow("even") << 48 << 3 << QList<int> { 16, 16, 16 };
        QTest::newRow("remainder to the lowest") << 50 << 3 << QList<int> { 17, 17, 16 };
        QTest::newRow("one each") << 4 << 4 << QList<int> { 1, 1, 1, 1 };
        QTest::newRow("one shard") << 7 << 1 << QList<int> { 7 };
    }
    void shares()
    {
        QFETCH(int, total);
        QFETCH(int, count);
        QFETCH(QList<int>, expected);
        QList<int> got;
        int sum = 0;
        for (int i = 0; i < count; ++i) {
            const ShardSpec s { i, count, 0 };
            got << shardShare(total, s);
            sum += got.last();
            // The prompt indices are as many as the share, every one i mod N == I.
            const QList<int> indices = shardPromptIndices(total, s);
            QCOMPARE(indices.size(), got.last());
            for (int k : indices)
                QCOMPARE(k % count, i);
            QCOMPARE(s.globalIndex(1), count + i);
        }
        QCOMPARE(got, expected);
        QCOMPARE(sum, total);
    }

    void load()
    {
        LoadPoint p;
        p.concurrency = 10;
        p.maxConcurrency = 5;
        p.numPrompts = 11;
        p.requestRate = 9;
        const LoadPoint s1 = shardLoad(p, ShardSpec { 1, 3, 0 });
        QCOMPARE(s1.concurrency, 3);
        QCOMPARE(s1.maxConcurrency, 2);
        QCOMPARE(s1.numPrompts, 4);
        QCOMPARE(s1.requestRate, 3.0);
        p.requestRate = std::numeric_limits<double>::infinity();
        QVERIFY(std::isinf(shardLoad(p, ShardSpec { 0, 3, 0 }).requestRate));
        QCOMPARE(shardLoad(p, ShardSpec {}), p); // not sharded: unchanged
    }

    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("error");
        QTest::newRow("first") << QStringLiteral("0/3") << 0 << QString();
        QTest::newRow("last") << QStringLiteral("2/3") << 2 << QString();
        QTest::newRow("1-based") << QStringLiteral("3/3") << -1 << QStringLiteral("0-based, from 0 to 2");
        QTest::newRow("zero shards") << QStringLiteral("0/0") << -1 << QStringLiteral("at least 1");
        QTest::newRow("not I/N") << QStringLiteral("1of3") << -1 << QStringLiteral("must be I/N");
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(int, index);
        QFETCH(QString, error);
        ShardSpec s;
        QString why;
        QCOMPARE(parseShard(text, &s, &why), index >= 0);
        if (index >= 0)
            QCOMPARE(s.index, index);
        else
            QVERIFY2(why.contains(error), qPrintable(why));
    }

    void startAt()
    {
        qint64 ns = 0;
        QString error;
        QVERIFY(parseStartAt(QStringLiteral("2026-12-01T16:00:00.250Z"), &ns, &error));
        QCOMPARE(utcIsoMs(ns), QStringLiteral("2026-12-01T16:00:00.250Z"));
        QVERIFY(parseStartAt(QStringLiteral("2026-12-01T17:00:00+01:00"), &ns, &error));
        QCOMPARE(utcIsoMs(ns), QStringLiteral("2026-12-01T16:00:00.000Z"));
        const qint64 before = utcNowNs();
        QVERIFY(parseStartAt(QStringLiteral("now+2.5"), &ns, &error));
        QVERIFY(ns - before >= 2500000000LL && ns - before < 3500000000LL);
        QVERIFY(!parseStartAt(QStringLiteral("2026-12-01T16:00:00"), &ns, &error));
        QVERIFY(error.contains(QStringLiteral("with a zone")));
        QVERIFY(!parseStartAt(QStringLiteral("soon"), &ns, &error));
    }
};

QTEST_GUILESS_MAIN(TestShard)
#include "tst_shard.moc"
