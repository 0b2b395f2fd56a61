// SPDX-License-Identifier: MIT
#include "storage/eventblob.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

#include <limits>

using namespace ServeScope;

class TestEventBlob final : public QObject {
    Q_OBJECT

private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void eventTimesNarrowThenWide();

    void knownBytes_data();
    void knownBytes();
    void roundTrip_data();
    void roundTrip();
    void randomRoundTrips();
    void encodeRejects_data();
    void encodeRejects();
    void decodeRejects_data();
    void decodeRejects();
    void everyTruncationRejected();
    void randomGarbageNeverCrashes();
    void singleByteFlipsDecodeOrFailCleanly();
};

using Offsets = NsList;
using Kinds = QVector<EventKind>;

// What the blob stores, as a point keeps it: 4 bytes a time up to 2^32 - 1 ns, 8 once one is beyond.
void TestEventBlob::eventTimesNarrowThenWide()
{
    const qint64 narrowMax = 0xffffffffLL;
    NsList t { 0, 20'000'000, narrowMax };
    QVERIFY(!t.isWide());
    QCOMPARE(t.size(), 3);
    QCOMPARE(t.last(), narrowMax);
    const NsList shared = t;
    t.append(narrowMax + 1); // 4.29 s into the request
    QVERIFY(t.isWide());
    QVERIFY(!shared.isWide()); // the copy kept its own times
    QCOMPARE(shared.size(), 3);
    QCOMPARE(t.size(), 4);
    QCOMPARE(QList<qint64>(t.begin(), t.end()), (QList<qint64> { 0, 20'000'000, narrowMax, narrowMax + 1 }));
    t.append(-5); // never measured, but kept as given
    QCOMPARE(t.at(4), -5);
    QCOMPARE(t.first(), 0);

    // Equal by value, whatever their width.
    NsList wide { narrowMax + 1 };
    wide.set(0, 7);
    QVERIFY(wide.isWide());
    QCOMPARE(wide, (NsList { 7 }));
    QVERIFY(wide != (NsList { 8 }));
    QVERIFY(wide != (NsList { 7, 7 }));
    NsList narrow { 1, 2 };
    narrow.set(1, std::numeric_limits<qint64>::max());
    QVERIFY(narrow.isWide());
    QCOMPARE(narrow.at(0), 1);
    QCOMPARE(narrow.at(1), std::numeric_limits<qint64>::max());
    narrow.clear();
    QVERIFY(narrow.isEmpty());
    QVERIFY(!narrow.isWide());
}

void TestEventBlob::knownBytes_data()
{
    QTest::addColumn<Offsets>("offsets");
    QTest::addColumn<Kinds>("kinds");
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("empty") << Offsets {} << Kinds {} << QByteArray::fromHex("0100");
    QTest::newRow("one at zero") << Offsets { 0 } << Kinds { EventKind::Content } << QByteArray::fromHex("01010001");
    // 300 = 0xac 0x02; deltas 300, 0; kinds Content(1), Done(7) -> 0x71
    QTest::newRow("two events") << Offsets { 300, 300 } << Kinds { EventKind::Content, EventKind::Done }
                                << QByteArray::fromHex("0102ac020071");
    // three kinds: RoleOnly(0) Usage(5) | Other(9) pad 0 -> 0x50 0x09
    QTest::newRow("odd count pads") << Offsets { 1, 2, 130 }
                                    << Kinds { EventKind::RoleOnly, EventKind::Usage, EventKind::Other }
                                    << QByteArray::fromHex("01030101800150"
                                                           "09");
}

void TestEventBlob::knownBytes()
{
    QFETCH(Offsets, offsets);
    QFETCH(Kinds, kinds);
    QFETCH(QByteArray, bytes);
    QCOMPARE(EventBlob::encode(offsets, kinds).toHex(), bytes.toHex());
    Offsets o;
    Kinds k;
    QString error;
    QVERIFY2(EventBlob::decode(bytes, &o, &k, &error), qPrintable(error));
    QCOMPARE(o, offsets);
    QCOMPARE(k, kinds);
}

void TestEventBlob::roundTrip_data()
{
    QTest::addColumn<Offsets>("offsets");
    QTest::addColumn<Kinds>("kinds");
    const qint64 max = std::numeric_limits<qint64>::max();
    QTest::newRow("max offset") << Offsets { max } << Kinds { EventKind::Other };
    QTest::newRow("zero then max") << Offsets { 0, max } << Kinds { EventKind::Comment, EventKind::Error };
    QTest::newRow("all kinds") << Offsets { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }
                               << Kinds { EventKind::RoleOnly, EventKind::Content, EventKind::Reasoning,
                                      EventKind::ToolCall, EventKind::FinishOnly, EventKind::Usage, EventKind::Error,
                                      EventKind::Done, EventKind::Comment, EventKind::Other };
    QTest::newRow("equal times") << Offsets { 5, 5, 5 }
                                 << Kinds { EventKind::Content, EventKind::Usage, EventKind::Done };
    QTest::newRow("varint edges") << Offsets { 127, 255, 16638, 16639, 2113662 } << Kinds(5, EventKind::Content);
}

void TestEventBlob::roundTrip()
{
    QFETCH(Offsets, offsets);
    QFETCH(Kinds, kinds);
    QByteArray blob;
    QString error;
    QVERIFY2(EventBlob::encode(offsets, kinds, &blob, &error), qPrintable(error));
    Offsets o;
    Kinds k;
    QVERIFY2(EventBlob::decode(blob, &o, &k, &error), qPrintable(error));
    QCOMPARE(o, offsets);
    QCOMPARE(k, kinds);
}

static void randomEvents(QRandomGenerator &rng, Offsets *o, Kinds *k)
{
    const int n = int(rng.bounded(300));
    o->clear();
    k->clear();
    qint64 t = rng.bounded(2) ? 0 : qint64(rng.bounded(1'000'000'000));
    for (int i = 0; i < n; ++i) {
        const int scale = int(rng.bounded(5));
        const qint64 step = scale == 0 ? 0
            : scale == 4               ? qint64(rng.generate64() >> 20)
                                       : qint64(rng.bounded(1 << (8 * scale - 1)));
        t += step;
        o->append(t);
        k->append(EventKind(rng.bounded(10)));
    }
}

void TestEventBlob::randomRoundTrips()
{
    QRandomGenerator rng(20240501);
    Offsets o, back;
    Kinds k, backKinds;
    for (int i = 0; i < 5000; ++i) {
        randomEvents(rng, &o, &k);
        QByteArray blob;
        QString error;
        QVERIFY2(EventBlob::encode(o, k, &blob, &error), qPrintable(error));
        QVERIFY2(EventBlob::decode(blob, &back, &backKinds, &error), qPrintable(error));
        QCOMPARE(back, o);
        QCOMPARE(backKinds, k);
    }
}

void TestEventBlob::encodeRejects_data()
{
    QTest::addColumn<Offsets>("offsets");
    QTest::addColumn<Kinds>("kinds");
    QTest::addColumn<QString>("why");
    QTest::newRow("length mismatch") << Offsets { 1, 2 } << Kinds { EventKind::Content }
                                     << QStringLiteral("differ in length");
    QTest::newRow("negative") << Offsets { -1 } << Kinds { EventKind::Content } << QStringLiteral("negative");
    QTest::newRow("decreasing") << Offsets { 10, 9 } << Kinds { EventKind::Content, EventKind::Content }
                                << QStringLiteral("decrease");
    QTest::newRow("unknown kind") << Offsets { 1 } << Kinds { EventKind(10) } << QStringLiteral("unknown event kind");
}

void TestEventBlob::encodeRejects()
{
    QFETCH(Offsets, offsets);
    QFETCH(Kinds, kinds);
    QFETCH(QString, why);
    QByteArray blob("stale");
    QString error;
    QVERIFY(!EventBlob::encode(offsets, kinds, &blob, &error));
    QVERIFY(blob.isEmpty());
    QVERIFY2(error.contains(why), qPrintable(error));
}

void TestEventBlob::decodeRejects_data()
{
    QTest::addColumn<QByteArray>("blob");
    QTest::addColumn<QString>("why");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
    QTest::newRow("version 0") << QByteArray::fromHex("0000") << QStringLiteral("version");
    QTest::newRow("version 2") << QByteArray::fromHex("0200") << QStringLiteral("version");
    QTest::newRow("no count") << QByteArray::fromHex("01") << QStringLiteral("count");
    QTest::newRow("count continues past end") << QByteArray::fromHex("0180") << QStringLiteral("count");
    QTest::newRow("count of 11 varint bytes")
        << QByteArray::fromHex("01ffffffffffffffffffff01") << QStringLiteral("count");
    QTest::newRow("count 2^64-1") << QByteArray::fromHex("01ffffffffffffffffff01") << QStringLiteral("fit");
    QTest::newRow("count larger than blob") << QByteArray::fromHex("010500") << QStringLiteral("fit");
    QTest::newRow("delta truncated") << QByteArray::fromHex("0102808080") << QStringLiteral("delta");
    QTest::newRow("delta over 64 bits") << QByteArray::fromHex("0101ffffffffffffffffff7f00") << QStringLiteral("delta");
    QTest::newRow("sum overflows int64") << QByteArray::fromHex("0102ffffffffffffffff7f0111")
                                         << QStringLiteral("overflow");
    QTest::newRow("kinds missing") << QByteArray::fromHex("01020101") << QStringLiteral("fit");
    QTest::newRow("trailing byte") << QByteArray::fromHex("010101011100") << QStringLiteral("trailing");
    QTest::newRow("kind 10") << QByteArray::fromHex("0101010a") << QStringLiteral("kind");
    QTest::newRow("kind 15 high nibble") << QByteArray::fromHex("01020101f1") << QStringLiteral("kind");
    QTest::newRow("pad nibble set") << QByteArray::fromHex("01010111") << QStringLiteral("pad");
}

void TestEventBlob::decodeRejects()
{
    QFETCH(QByteArray, blob);
    QFETCH(QString, why);
    Offsets o { 1, 2 };
    Kinds k { EventKind::Content };
    QString error;
    QVERIFY(!EventBlob::decode(blob, &o, &k, &error));
    QVERIFY(o.isEmpty());
    QVERIFY(k.isEmpty());
    QVERIFY2(error.contains(why), qPrintable(error));
}

void TestEventBlob::everyTruncationRejected()
{
    QRandomGenerator rng(7);
    for (int round = 0; round < 200; ++round) {
        Offsets o;
        Kinds k;
        randomEvents(rng, &o, &k);
        const QByteArray blob = EventBlob::encode(o, k);
        for (qsizetype cut = 0; cut < blob.size(); ++cut) {
            Offsets back;
            Kinds backKinds;
            QString error;
            QVERIFY2(!EventBlob::decode(QByteArrayView(blob).first(cut), &back, &backKinds, &error),
                qPrintable(QStringLiteral("cut at %1 of %2 accepted").arg(cut).arg(blob.size())));
            QVERIFY(!error.isEmpty());
        }
    }
}

void TestEventBlob::randomGarbageNeverCrashes()
{
    QRandomGenerator rng(99);
    int accepted = 0;
    for (int i = 0; i < 100000; ++i) {
        QByteArray junk(qsizetype(rng.bounded(40)), Qt::Uninitialized);
        for (char &c : junk)
            c = char(rng.bounded(256));
        if (i % 2 && !junk.isEmpty())
            junk[0] = char(EventBlob::Version);
        Offsets o;
        Kinds k;
        QString error;
        if (EventBlob::decode(junk, &o, &k, &error)) {
            ++accepted;
            // Anything accepted must be a well-formed sequence that re-encodes to an equivalent blob.
            QCOMPARE(o.size(), k.size());
            Offsets again;
            Kinds againKinds;
            QVERIFY(EventBlob::decode(EventBlob::encode(o, k), &again, &againKinds));
            QCOMPARE(again, o);
        } else {
            QVERIFY(!error.isEmpty());
            QVERIFY(o.isEmpty());
        }
    }
    QVERIFY(accepted > 0); // short valid blobs do occur by chance; the check above saw some
}

void TestEventBlob::singleByteFlipsDecodeOrFailCleanly()
{
    Offsets o;
    Kinds k;
    for (int i = 0; i < 64; ++i) {
        o.append(qint64(i) * 25'000'000);
        k.append(i % 2 ? EventKind::Content : EventKind::Reasoning);
    }
    const QByteArray blob = EventBlob::encode(o, k);
    for (qsizetype pos = 0; pos < blob.size(); ++pos) {
        for (int bit = 0; bit < 8; ++bit) {
            QByteArray flipped = blob;
            flipped[pos] = char(flipped[pos] ^ (1 << bit));
            Offsets back;
            Kinds backKinds;
            QString error;
            if (EventBlob::decode(flipped, &back, &backKinds, &error)) {
                QCOMPARE(back.size(), backKinds.size());
                QVERIFY(back != o || backKinds != k);
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestEventBlob)
#include "tst_eventblob.moc"
