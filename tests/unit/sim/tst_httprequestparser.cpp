// SPDX-License-Identifier: MIT
#include "sim/httprequestparser.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope::Sim;

class TestHttpRequestParser final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void parsesAtEverySplit()
    {
        const QByteArray wire = "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                                "Authorization: Bearer k\r\n\r\nhelloGET /health HTTP/1.1\r\n\r\n";
        for (int cut = 0; cut <= wire.size(); ++cut) {
            HttpRequestParser p(4096, 1024);
            p.feed(wire.left(cut));
            HttpRequest r;
            QList<QByteArray> seen;
            auto drain = [&] {
                while (p.next(&r) == HttpRequestParser::State::Ready)
                    seen << r.method + ' ' + r.target + ' ' + r.body + ' ' + r.authorization;
            };
            drain();
            p.feed(wire.mid(cut));
            drain();
            QCOMPARE(seen, (QList<QByteArray> { "POST /v1/completions hello Bearer k", "GET /health  " }));
        }
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<int>("status");
        QTest::newRow("post without length") << QByteArray("POST /x HTTP/1.1\r\n\r\n") << 411;
        QTest::newRow("chunked body") << QByteArray("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") << 411;
        QTest::newRow("body too large") << QByteArray("POST /x HTTP/1.1\r\nContent-Length: 2000\r\n\r\n") << 413;
        QTest::newRow("headers too large") << QByteArray("GET /x HTTP/1.1\r\nX: " + QByteArray(5000, 'a')) << 431;
        QTest::newRow("garbage") << QByteArray("HELLO\r\n\r\n") << 400;
        QTest::newRow("bad length") << QByteArray("POST /x HTTP/1.1\r\nContent-Length: -3\r\n\r\n") << 400;
    }

    void errors()
    {
        QFETCH(QByteArray, wire);
        QFETCH(int, status);
        HttpRequestParser p(4096, 1024);
        p.feed(wire);
        HttpRequest r;
        QCOMPARE(p.next(&r), HttpRequestParser::State::Error);
        QCOMPARE(p.errorStatus(), status);
    }

    void keepAlive_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<bool>("keepAlive");
        QTest::newRow("1.1 default") << QByteArray("GET / HTTP/1.1\r\n\r\n") << true;
        QTest::newRow("1.1 close") << QByteArray("GET / HTTP/1.1\r\nConnection: close\r\n\r\n") << false;
        QTest::newRow("1.0 default") << QByteArray("GET / HTTP/1.0\r\n\r\n") << false;
        QTest::newRow("1.0 keep-alive") << QByteArray("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n") << true;
    }

    void keepAlive()
    {
        QFETCH(QByteArray, head);
        QFETCH(bool, keepAlive);
        HttpRequestParser p(4096, 1024);
        p.feed(head);
        HttpRequest r;
        QCOMPARE(p.next(&r), HttpRequestParser::State::Ready);
        QCOMPARE(r.keepAlive, keepAlive);
    }
};

QTEST_GUILESS_MAIN(TestHttpRequestParser)
#include "tst_httprequestparser.moc"
