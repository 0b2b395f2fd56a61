// SPDX-License-Identifier: MIT
// The lean transport's TLS session against an OpenSSL server on memory BIOs: OpenSSL reads the fed
// bytes in place while the plaintext is written back into the same buffer, as the connection does,
// and bytes left unread when the reader stops early survive the buffer's reuse.
#include "membio.h"
#include "throwawaycert.h"

#include "engine/tlsclient.h"

#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <openssl/bio.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cstring>
#include <memory>

using namespace ServeScope;
using namespace ServeScope::Testing;

class TestTlsSession final : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::shared_ptr<TlsContext> m_client;
    SSL_CTX *m_serverCtx = nullptr;

    struct Pair {
        std::unique_ptr<TlsSession> client;
        SSL *server = nullptr;
        BIO *serverIn = nullptr, *serverOut = nullptr;
        QByteArray wire; ///< the server's bytes, as the socket would hand them over
        ~Pair() { SSL_free(server); }
    };

    // A handshake pumped by hand; false when it does not finish.
    bool connect(Pair &p, SSL_CTX *serverCtx = nullptr)
    {
        p.client = std::make_unique<TlsSession>(*m_client, QByteArrayLiteral("localhost"));
        p.server = SSL_new(serverCtx ? serverCtx : m_serverCtx);
        p.serverIn = BIO_new(BIO_s_mem());
        p.serverOut = BIO_new(BIO_s_mem());
        BIO_set_mem_eof_return(p.serverIn, -1);
        SSL_set_bio(p.server, p.serverIn, p.serverOut);
        SSL_set_accept_state(p.server);
        for (int turn = 0; turn < 8; ++turn) {
            const bool done = p.client->handshake() == 1;
            QByteArray toServer;
            p.client->takeOutgoing(&toServer);
            BIO_write(p.serverIn, toServer.constData(), int(toServer.size()));
            SSL_do_handshake(p.server);
            p.wire = drainMemoryBio(p.serverOut);
            if (done)
                return true;
            p.client->feed(p.wire.constData(), size_t(p.wire.size()));
        }
        return false;
    }

    // The server's records of `events`, one record each, in one piece of wire.
    static QByteArray send(Pair &p, const QList<QByteArray> &events)
    {
        for (const QByteArray &e : events) {
            size_t written = 0;
            SSL_write_ex(p.server, e.constData(), size_t(e.size()), &written);
        }
        return drainMemoryBio(p.serverOut);
    }

    static QByteArray event(int i)
    {
        return "data: {\"i\":" + QByteArray::number(i) + "}\n\n" + QByteArray(150, 'a' + char(i % 26));
    }

    // The plaintext of `wire` handed over `piece` bytes at a time, each piece in a buffer that the next
    // one overwrites, as the socket's reads are; stops at the end or at the first 0 or kFailed.
    static QByteArray readInPieces(TlsSession &client, const QByteArray &wire, qsizetype piece, ssize_t *last)
    {
        QByteArray plain;
        QByteArray buffer(piece, Qt::Uninitialized);
        char sink[512];
        *last = TlsSession::kWouldBlock;
        for (qsizetype at = 0; at < wire.size() && *last == TlsSession::kWouldBlock; at += piece) {
            const qsizetype n = std::min(piece, wire.size() - at);
            std::memcpy(buffer.data(), wire.constData() + at, size_t(n));
            client.feed(buffer.constData(), size_t(n));
            while ((*last = client.read(sink, sizeof sink)) > 0)
                plain.append(sink, *last);
            buffer.fill('x');
        }
        return plain;
    }

    // A server context that negotiates only `suites` (TLS 1.3) or only TLS 1.2.
    SSL_CTX *serverWith(const char *suites, bool tls12 = false)
    {
        SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
        SSL_CTX_use_certificate_chain_file(ctx, qPrintable(m_dir.filePath(QStringLiteral("c.pem"))));
        SSL_CTX_use_PrivateKey_file(ctx, qPrintable(m_dir.filePath(QStringLiteral("k.pem"))), SSL_FILETYPE_PEM);
        if (tls12)
            SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION);
        else
            SSL_CTX_set_ciphersuites(ctx, suites);
        return ctx;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(makeThrowawayCertificate(m_dir), "openssl req failed");
        QString error;
        m_client = TlsContext::make(QString(), true, &error);
        QVERIFY2(m_client, qPrintable(error));
        m_serverCtx = SSL_CTX_new(TLS_server_method());
        QVERIFY(
            SSL_CTX_use_certificate_chain_file(m_serverCtx, qPrintable(m_dir.filePath(QStringLiteral("c.pem")))) == 1);
        QVERIFY(SSL_CTX_use_PrivateKey_file(
                    m_serverCtx, qPrintable(m_dir.filePath(QStringLiteral("k.pem"))), SSL_FILETYPE_PEM)
            == 1);
    }
    void cleanupTestCase() { SSL_CTX_free(m_serverCtx); }

    // One read's records decrypted back to back into the buffer they were read from.
    void recordsAreReadInPlace()
    {
        Pair p;
        QVERIFY(connect(p));
        QList<QByteArray> events;
        QByteArray expected;
        for (int i = 0; i < 40; ++i) {
            events << event(i);
            expected += events.last();
        }
        // The session tickets that followed the handshake come first in the wire.
        QByteArray buffer = p.wire + send(p, events);
        const qsizetype cipherBytes = buffer.size();
        p.client->feed(buffer.constData(), size_t(cipherBytes));
        qsizetype plainBytes = 0;
        ssize_t rc = 0;
        while ((rc = p.client->read(buffer.data() + plainBytes, size_t(buffer.size() - plainBytes))) > 0)
            plainBytes += rc;
        QCOMPARE(rc, TlsSession::kWouldBlock);
        QCOMPARE(buffer.left(plainBytes), expected);
        QVERIFY(plainBytes < cipherBytes);
    }

    // The reader stops after the first record (the response ended there): the second survives the
    // buffer being overwritten by the next socket read, and only because it was kept.
    void unreadBytesAreKept()
    {
        Pair p;
        QVERIFY(connect(p));
        char sink[4096];
        p.client->feed(p.wire.constData(), size_t(p.wire.size()));
        QCOMPARE(p.client->read(sink, sizeof sink), TlsSession::kWouldBlock); // the tickets
        QByteArray buffer = send(p, { event(1), event(2) });
        p.client->feed(buffer.constData(), size_t(buffer.size()));
        QCOMPARE(QByteArray(sink, int(p.client->read(sink, sizeof sink))), event(1));
        p.client->keepUnread();
        buffer.fill('x');
        QCOMPARE(QByteArray(sink, int(p.client->read(sink, sizeof sink))), event(2));
        QCOMPARE(p.client->read(sink, sizeof sink), TlsSession::kWouldBlock);
        // And the stream goes on after the kept bytes.
        buffer = send(p, { event(3) });
        p.client->feed(buffer.constData(), size_t(buffer.size()));
        QCOMPARE(QByteArray(sink, int(p.client->read(sink, sizeof sink))), event(3));
    }

    // Bytes that are not a record end the session with OpenSSL's reason, not with garbage.
    void brokenRecordFails()
    {
        Pair p;
        QVERIFY(connect(p));
        QByteArray buffer = p.wire + send(p, { event(1) });
        buffer[buffer.size() - 3] = char(buffer.at(buffer.size() - 3) ^ 0x55);
        p.client->feed(buffer.constData(), size_t(buffer.size()));
        char sink[4096];
        QCOMPARE(p.client->read(sink, sizeof sink), TlsSession::kFailed);
        QVERIFY2(p.client->error().startsWith(QLatin1String("TLS: ")), qPrintable(p.client->error()));
    }

    // Every suite, and TLS 1.2 (read by OpenSSL throughout), delivers the same plaintext whether
    // the records come whole or in pieces that end mid-header and mid-record.
    void everySuiteReadsTheStream_data()
    {
        QTest::addColumn<QByteArray>("suites");
        QTest::addColumn<bool>("tls12");
        QTest::addColumn<int>("piece");
        for (const char *suite :
            { "TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256" }) {
            QTest::addRow("%s whole", suite) << QByteArray(suite) << false << (1 << 20);
            QTest::addRow("%s in 7-byte pieces", suite) << QByteArray(suite) << false << 7;
            QTest::addRow("%s in 173-byte pieces", suite) << QByteArray(suite) << false << 173;
        }
        QTest::addRow("TLS 1.2 whole") << QByteArray() << true << (1 << 20);
        QTest::addRow("TLS 1.2 in 7-byte pieces") << QByteArray() << true << 7;
    }
    void everySuiteReadsTheStream()
    {
        QFETCH(QByteArray, suites);
        QFETCH(bool, tls12);
        QFETCH(int, piece);
        SSL_CTX *ctx = serverWith(suites.constData(), tls12);
        const auto freeCtx = qScopeGuard([ctx] { SSL_CTX_free(ctx); });
        Pair p;
        QVERIFY(connect(p, ctx));
        QList<QByteArray> events;
        QByteArray expected;
        for (int i = 0; i < 60; ++i) {
            events << event(i) + QByteArray(i * 37, 'z'); // up to 2.3 kB: records of many sizes
            expected += events.last();
        }
        const QByteArray wire = p.wire + send(p, events);
        ssize_t last = 0;
        QCOMPARE(readInPieces(*p.client, wire, piece, &last), expected);
        QCOMPARE(last, TlsSession::kWouldBlock);
        // The session goes on: the server's close_notify ends the stream cleanly.
        SSL_shutdown(p.server);
        QCOMPARE(readInPieces(*p.client, drainMemoryBio(p.serverOut), piece, &last), QByteArray());
        QCOMPARE(last, ssize_t(0));

        // Who read the records: a forged one is refused by the session's own check on TLS 1.3, by
        // OpenSSL's on TLS 1.2.
        Pair f;
        QVERIFY(connect(f, ctx));
        QByteArray forged = f.wire + send(f, { event(1), event(2) });
        forged[forged.size() - 1] = char(forged.at(forged.size() - 1) ^ 0x80);
        QCOMPARE(readInPieces(*f.client, forged, piece, &last), event(1));
        QCOMPARE(last, TlsSession::kFailed);
        if (tls12)
            QVERIFY2(f.client->error().startsWith(QLatin1String("TLS: error:")), qPrintable(f.client->error()));
        else
            QCOMPARE(f.client->error(), QStringLiteral("TLS: a record from the server failed its integrity check"));
    }

    // After the first application data the records are the session's own to decrypt: a forged one
    // is refused with that reason, and nothing of it is delivered.
    void aForgedLaterRecordIsRefused()
    {
        Pair p;
        QVERIFY(connect(p));
        QByteArray wire = p.wire + send(p, { event(1), event(2) });
        wire[wire.size() - 20] = char(wire.at(wire.size() - 20) ^ 0x01);
        ssize_t last = 0;
        QCOMPARE(readInPieces(*p.client, wire, wire.size(), &last), event(1));
        QCOMPARE(last, TlsSession::kFailed);
        QCOMPARE(p.client->error(), QStringLiteral("TLS: a record from the server failed its integrity check"));
        char sink[256];
        QCOMPARE(p.client->read(sink, sizeof sink), TlsSession::kFailed); // and it stays failed
        // A record replayed (its sequence number already used) fails the same way.
        Pair q;
        QVERIFY(connect(q));
        const QByteArray first = send(q, { event(1) });
        const QByteArray second = send(q, { event(2) });
        wire = q.wire + first + second + second;
        QCOMPARE(readInPieces(*q.client, wire, wire.size(), &last), event(1) + event(2));
        QCOMPARE(last, TlsSession::kFailed);
    }

    // The server changes its key and asks the client to change its own: the stream reads on under
    // the new key, and the server reads the client's answer and what the client sends after it.
    void keyUpdatesAreFollowedAndAnswered()
    {
        Pair p;
        QVERIFY(connect(p));
        ssize_t last = 0;
        QByteArray wire = p.wire + send(p, { event(1) });
        QCOMPARE(readInPieces(*p.client, wire, wire.size(), &last), event(1));
        for (int round = 0; round < 3; ++round) {
            QVERIFY(SSL_key_update(p.server, SSL_KEY_UPDATE_REQUESTED) == 1);
            wire = send(p, { event(10 + round), event(20 + round) }); // the update goes out with the first
            QCOMPARE(readInPieces(*p.client, wire, 11, &last), event(10 + round) + event(20 + round));
            QCOMPARE(last, TlsSession::kWouldBlock);
            const QByteArray ask = "ping " + QByteArray::number(round);
            QVERIFY(p.client->write(ask.constData(), size_t(ask.size())));
            QByteArray toServer;
            p.client->takeOutgoing(&toServer);
            BIO_write(p.serverIn, toServer.constData(), int(toServer.size()));
            char got[64];
            size_t n = 0;
            QVERIFY(SSL_read_ex(p.server, got, sizeof got, &n) == 1);
            QCOMPARE(QByteArray(got, int(n)), ask);
        }
    }

    // The session the server hands out after the first handshake is resumed by the next
    // connection; a server that cannot open it (other ticket keys) gets a full handshake instead.
    void laterSessionsResumeOrFallBack()
    {
        QString error;
        const std::shared_ptr<TlsContext> shared = std::exchange(m_client, TlsContext::make(QString(), true, &error));
        const auto restore = qScopeGuard([&] { m_client = shared; });
        QVERIFY(!m_client->resumable());
        Pair first;
        QVERIFY(connect(first));
        QVERIFY(!first.client->resumed());
        first.client->feed(first.wire.constData(), size_t(first.wire.size()));
        char sink[256];
        QCOMPARE(first.client->read(sink, sizeof sink), TlsSession::kWouldBlock); // only the tickets
        QVERIFY(m_client->resumable());

        Pair second;
        QVERIFY(connect(second));
        QVERIFY(second.client->resumed());
        QVERIFY(SSL_session_reused(second.server));

        SSL_CTX *otherKeys = SSL_CTX_new(TLS_server_method());
        SSL_CTX_use_certificate_chain_file(otherKeys, qPrintable(m_dir.filePath(QStringLiteral("c.pem"))));
        SSL_CTX_use_PrivateKey_file(otherKeys, qPrintable(m_dir.filePath(QStringLiteral("k.pem"))), SSL_FILETYPE_PEM);
        {
            Pair third;
            QVERIFY(connect(third, otherKeys));
            QVERIFY(!third.client->resumed());
            const QByteArray sent = send(third, { event(1) });
            QByteArray wire = third.wire + sent;
            third.client->feed(wire.constData(), size_t(wire.size()));
            const ssize_t n = third.client->read(wire.data(), size_t(wire.size()));
            QCOMPARE(QByteArray(wire.constData(), n > 0 ? n : 0), event(1));
        }
        SSL_CTX_free(otherKeys);
    }
};

QTEST_GUILESS_MAIN(TestTlsSession)
#include "tst_tlssession.moc"
