// SPDX-License-Identifier: MIT
// The pure parts of core/tls: reading a traffic secret from a key-log line, and counting the whole
// records of a TLS byte stream however it is cut.
#include "tls/tls13records.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope::Tls;

class TestTlsRecords final : public QObject {
    Q_OBJECT

    // Records of the given body sizes, each with a 5-byte header (application data, TLS 1.2 on the wire).
    static QByteArray records(const QList<int> &sizes)
    {
        QByteArray out;
        for (int size : sizes) {
            out += QByteArray("\x17\x03\x03", 3);
            out += char(size >> 8);
            out += char(size & 0xff);
            out += QByteArray(size, 'x');
        }
        return out;
    }

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void secretFromKeyLine_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("size");
        const QByteArray random(64, 'a');
        QTest::newRow("32-byte secret") << QByteArray("SERVER_TRAFFIC_SECRET_0 " + random + ' ' + QByteArray(64, 'f'))
                                        << true << 32;
        QTest::newRow("48-byte secret") << QByteArray("SERVER_TRAFFIC_SECRET_0 " + random + ' ' + QByteArray(96, '0'))
                                        << true << 48;
        QTest::newRow("another label") << QByteArray("CLIENT_TRAFFIC_SECRET_0 " + random + ' ' + QByteArray(64, 'f'))
                                       << false << 0;
        QTest::newRow("a label that only starts alike")
            << QByteArray("SERVER_TRAFFIC_SECRET_01 " + random + ' ' + QByteArray(64, 'f')) << false << 0;
        QTest::newRow("odd hex") << QByteArray("SERVER_TRAFFIC_SECRET_0 " + random + ' ' + QByteArray(63, 'f')) << false
                                 << 0;
        QTest::newRow("not hex") << QByteArray("SERVER_TRAFFIC_SECRET_0 " + random + ' ' + QByteArray(64, 'g')) << false
                                 << 0;
        QTest::newRow("longer than any suite's secret")
            << QByteArray("SERVER_TRAFFIC_SECRET_0 " + random + ' ' + QByteArray(130, '1')) << false << 0;
        QTest::newRow("no secret") << QByteArray("SERVER_TRAFFIC_SECRET_0 " + random) << false << 0;
    }

    void secretFromKeyLine()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, ok);
        QFETCH(int, size);
        TrafficSecret secret;
        QCOMPARE(TrafficSecret::fromKeyLine(line.constData(), kServerApplicationSecret, &secret), ok);
        QCOMPARE(int(secret.size), size);
        if (ok)
            QCOMPARE(int(secret.bytes[0]), line.endsWith('f') ? 0xff : line.endsWith('0') ? 0x00 : -1);
    }

    // Three records (one empty) counted whole whatever the pieces: every cut of the stream in two, and
    // the stream a byte at a time.
    void countsWholeRecordsAcrossCuts()
    {
        const QByteArray stream = records({ 300, 0, 17 });
        for (qsizetype cut = 0; cut <= stream.size(); ++cut) {
            RecordCounter counter;
            counter.count(stream.constData(), size_t(cut));
            QVERIFY(counter.records() <= 3);
            counter.count(stream.constData() + cut, size_t(stream.size() - cut));
            QCOMPARE(counter.records(), quint64(3));
            QVERIFY(counter.atBoundary());
        }
        RecordCounter bytewise;
        for (qsizetype i = 0; i < stream.size(); ++i) {
            bytewise.count(stream.constData() + i, 1);
            QCOMPARE(bytewise.atBoundary(), i == 304 || i == 309 || i == stream.size() - 1);
        }
        QCOMPARE(bytewise.records(), quint64(3));
    }
};

QTEST_GUILESS_MAIN(TestTlsRecords)
#include "tst_tlsrecords.moc"
