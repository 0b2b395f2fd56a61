// SPDX-License-Identifier: MIT
#include "engine/httpresponse.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestHttpResponse final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void decode_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("complete");
        QTest::addColumn<bool>("keepAlive");
        QTest::newRow("chunked sse") << QByteArray(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            "Transfer-Encoding: chunked\r\n\r\n"
            "6\r\ndata: \r\n7;ext=1\r\n[DONE]\n\r\n1\r\n\n\r\n0\r\nX-T: 1\r\n\r\n")
                                     << 200 << QByteArray("data: [DONE]\n\n") << true << true;
        QTest::newRow("content length") << QByteArray("HTTP/1.1 404 Not Found\r\ncontent-length: 5\r\n\r\nhello") << 404
                                        << QByteArray("hello") << true << true;
        QTest::newRow("connection close")
            << QByteArray("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok") << 200
            << QByteArray("ok") << true << false;
        QTest::newRow("until close") << QByteArray("HTTP/1.1 200 OK\r\n\r\nabc") << 200 << QByteArray("abc") << false
                                     << false;
        QTest::newRow("http/1.0") << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n") << 200 << QByteArray()
                                  << true << false;
        QTest::newRow("100 continue first")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx") << 201
            << QByteArray("x") << true << true;
        QTest::newRow("bare LF") << QByteArray("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n") << 200
                                 << QByteArray("abc") << true << true;
    }

    void bytesAfterTheEndAreCounted_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<int>("trailing");
        QTest::newRow("content length too small")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdefg") << 4;
        QTest::newRow("after the last chunk") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                            "1\r\na\r\n0\r\n\r\nxyz")
                                              << 3;
        QTest::newRow("exact") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc") << 0;
    }

    void bytesAfterTheEndAreCounted()
    {
        QFETCH(QByteArray, wire);
        QFETCH(int, trailing);
        for (qsizetype cut = 0; cut <= wire.size(); ++cut) {
            HttpResponseDecoder d;
            QByteArray out;
            QVERIFY(d.feed(QByteArrayView(wire).first(cut), out));
            QVERIFY(d.feed(QByteArrayView(wire).sliced(cut), out));
            QVERIFY(d.complete());
            QCOMPARE(d.trailingBytes(), qint64(trailing));
        }
    }

    void decode()
    {
        QFETCH(QByteArray, wire);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, complete);
        QFETCH(bool, keepAlive);
        // Every split into two pieces decodes the same.
        for (qsizetype cut = 0; cut <= wire.size(); ++cut) {
            HttpResponseDecoder d;
            QByteArray out;
            QVERIFY(d.feed(QByteArrayView(wire).first(cut), out));
            QVERIFY(d.feed(QByteArrayView(wire).sliced(cut), out));
            QCOMPARE(d.status(), status);
            QCOMPARE(out, body);
            QCOMPARE(d.complete(), complete);
            QCOMPARE(d.keepAlive(), keepAlive);
            QCOMPARE(d.trailingBytes(), 0);
        }
        // And one byte per read: every line is then put together from pieces.
        HttpResponseDecoder d;
        QByteArray out;
        for (qsizetype at = 0; at < wire.size(); ++at)
            QVERIFY(d.feed(QByteArrayView(wire).sliced(at, 1), out));
        QCOMPARE(d.status(), status);
        QCOMPARE(out, body);
        QCOMPARE(d.complete(), complete);
    }

    void locationAndType()
    {
        HttpResponseDecoder d;
        QByteArray out;
        QVERIFY(d.feed("HTTP/1.1 307 Temporary Redirect\r\nLocation: https://x/v1\r\nContent-Type: "
                       "text/event-stream; charset=utf-8\r\nContent-Length: 0\r\n\r\n",
            out));
        QCOMPARE(d.location(), QByteArray("https://x/v1"));
        QVERIFY(d.isEventStream());
        QVERIFY(d.complete());
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH\r\n");
        QTest::newRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
        QTest::newRow("missing chunk crlf")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n");
        QTest::newRow("bad length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n");
    }

    void malformed()
    {
        QFETCH(QByteArray, wire);
        HttpResponseDecoder d;
        QByteArray out;
        QVERIFY(!d.feed(wire, out));
        QVERIFY(!d.error().isEmpty());
    }

    // A line over the limit fails the same way whether it arrives in one read or in many.
    void lineLimitsDoNotDependOnReads_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<QByteArray>("error");
        const QByteArray head = "HTTP/1.1 200 OK\r\n";
        QTest::newRow("header line over 64 KiB") << head + "X-Big: " + QByteArray(64 * 1024, 'a') + "\r\n\r\n"
                                                 << QByteArray("response header line too long");
        QTest::newRow("chunk-size line over 4 KiB")
            << head + "Transfer-Encoding: chunked\r\n\r\n1;" + QByteArray(4096, 'x') + "\r\na\r\n0\r\n\r\n"
            << QByteArray("malformed chunk framing");
    }
    void lineLimitsDoNotDependOnReads()
    {
        QFETCH(QByteArray, wire);
        QFETCH(QByteArray, error);
        for (const qsizetype read : { wire.size(), qsizetype(1000), qsizetype(1) }) {
            HttpResponseDecoder d;
            QByteArray out;
            bool ok = true;
            for (qsizetype at = 0; ok && at < wire.size(); at += read)
                ok = d.feed(QByteArrayView(wire).sliced(at, std::min(read, wire.size() - at)), out);
            QVERIFY2(!ok, qPrintable(QString::number(read)));
            QCOMPARE(d.error(), error);
        }
    }

    void truncatedChunkedIsNotComplete()
    {
        HttpResponseDecoder d;
        QByteArray out;
        QVERIFY(d.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", out));
        QVERIFY(!d.complete());
        QVERIFY(!d.closeEndsResponse());
    }
};

QTEST_GUILESS_MAIN(TestHttpResponse)
#include "tst_httpresponse.moc"
