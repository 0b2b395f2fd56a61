// SPDX-License-Identifier: MIT
// The lean transport's TLS session against an OpenSSL server on memory BIOs: OpenSSL reads the fed
// bytes in place while the plaintext is written back into the same buffer, as the connection does,
// and bytes left unread when the reader stops early survive the buffer's reuse.
#include "throwawaycert.h"

#include "engine/tlsclient.h"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <openssl/bio.h>
#include <openssl/ssl.h>

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

    static QByteArray drain(BIO *bio)
    {
        char *data = nullptr;
        const long n = BIO_get_mem_data(bio, &data);
        QByteArray out(data, n > 0 ? n : 0);
        (void)BIO_reset(bio);
        return out;
    }

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
            p.wire = drain(p.serverOut);
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
        return drain(p.serverOut);
    }

    static QByteArray event(int i)
    {
        return "data: {\"i\":" + QByteArray::number(i) + "}\n\n" + QByteArray(150, 'a' + char(i % 26));
    }

private Q_SLOTS:
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
