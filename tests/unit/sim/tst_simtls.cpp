// SPDX-License-Identifier: MIT
// The simulator's TLS against a plain OpenSSL client on memory BIOs: whatever the suite, the client
// reads exactly what the simulator sent (records it sealed itself on TLS 1.3, OpenSSL's on TLS 1.2),
// a close is a clean close_notify, and a key update asked for after the first response ends the
// connection rather than leaving the client unable to read on.
#include "membio.h"
#include "throwawaycert.h"

#include "sim/simtls.h"

#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <openssl/bio.h>
#include <openssl/ssl.h>

#include <memory>

using namespace ServeScope;
using namespace ServeScope::Sim;
using namespace ServeScope::Testing;

class TestSimTls final : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<SimTlsContext> m_server;

    // A plain OpenSSL client on memory BIOs.
    struct Client {
        SSL *ssl;
        BIO *in = BIO_new(BIO_s_mem()), *out = BIO_new(BIO_s_mem()); ///< owned by ssl
        explicit Client(SSL_CTX *ctx)
            : ssl(SSL_new(ctx))
        {
            BIO_set_mem_eof_return(in, -1);
            SSL_set_bio(ssl, in, out);
            SSL_set_connect_state(ssl);
        }
        ~Client() { SSL_free(ssl); }
        Client(const Client &) = delete;
        Client &operator=(const Client &) = delete;
    };

    // The handshake pumped by hand; false when it does not finish or the server ends it.
    static bool handshake(Client &client, SimTlsSession &server)
    {
        QByteArray plain, toClient;
        for (int turn = 0; turn < 8 && !SSL_is_init_finished(client.ssl); ++turn) {
            SSL_do_handshake(client.ssl);
            toClient.clear();
            if (!server.receive(drainMemoryBio(client.out), &plain, &toClient))
                return false;
            BIO_write(client.in, toClient.constData(), int(toClient.size()));
        }
        return SSL_is_init_finished(client.ssl);
    }

    // What the client reads from `wire`: its plaintext, and the last SSL_read's error.
    static QByteArray clientReads(SSL *client, BIO *in, const QByteArray &wire, int *error)
    {
        BIO_write(in, wire.constData(), int(wire.size()));
        QByteArray plain;
        char buffer[4096];
        size_t n = 0;
        while (SSL_read_ex(client, buffer, sizeof buffer, &n) == 1)
            plain.append(buffer, qsizetype(n));
        *error = SSL_get_error(client, 0);
        return plain;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(makeThrowawayCertificate(m_dir), "openssl req failed");
        QString error;
        m_server = SimTlsContext::load(
            m_dir.filePath(QStringLiteral("c.pem")), m_dir.filePath(QStringLiteral("k.pem")), &error);
        QVERIFY2(m_server, qPrintable(error));
    }

    void aPlainOpenSslClientReadsEverySuite_data()
    {
        QTest::addColumn<QByteArray>("suite");
        QTest::addColumn<bool>("tls12");
        for (const char *suite : { "TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256" })
            QTest::newRow(suite) << QByteArray(suite) << false;
        QTest::newRow("TLS 1.2") << QByteArray() << true;
    }
    void aPlainOpenSslClientReadsEverySuite()
    {
        QFETCH(QByteArray, suite);
        QFETCH(bool, tls12);
        SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
        const auto freeCtx = qScopeGuard([ctx] { SSL_CTX_free(ctx); });
        if (tls12)
            SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION);
        else
            SSL_CTX_set_ciphersuites(ctx, suite.constData());
        Client c(ctx);
        SSL *client = c.ssl;
        BIO *in = c.in, *out = c.out;
        SimTlsSession server(*m_server);

        // The handshake, and the client's request in the same flight as its Finished.
        QVERIFY(handshake(c, server));
        QByteArray plain, toClient;
        size_t written = 0;
        QVERIFY(SSL_write_ex(client, "GET / HTTP/1.1\r\n\r\n", 18, &written) == 1);
        toClient.clear();
        QVERIFY(server.receive(drainMemoryBio(out), &plain, &toClient)); // the session tickets, on TLS 1.3
        QCOMPARE(plain, QByteArrayLiteral("GET / HTTP/1.1\r\n\r\n"));

        // Events of many sizes, one over a record's 16,384 bytes.
        QByteArray expected;
        for (int i = 0; i < 30; ++i) {
            const QByteArray event
                = "data: " + QByteArray::number(i) + ' ' + QByteArray(i * 97 + (i == 7 ? 40000 : 0), 'e') + "\n\n";
            server.send(event, &toClient);
            expected += event;
        }
        int error = 0;
        QCOMPARE(clientReads(client, in, toClient, &error), expected);
        QCOMPARE(error, SSL_ERROR_WANT_READ);

        toClient.clear();
        server.close(&toClient);
        QCOMPARE(clientReads(client, in, toClient, &error), QByteArray());
        QCOMPARE(error, SSL_ERROR_ZERO_RETURN);

        if (tls12)
            return;
        // A fresh connection whose client asks for a key update after the first response: the
        // simulator's records do not follow OpenSSL's key, so it ends the connection instead.
        Client other(ctx);
        SimTlsSession second(*m_server);
        QVERIFY(handshake(other, second));
        toClient.clear();
        second.send(QByteArrayLiteral("first"), &toClient);
        QCOMPARE(clientReads(other.ssl, other.in, toClient, &error), QByteArrayLiteral("first"));
        QVERIFY(SSL_key_update(other.ssl, SSL_KEY_UPDATE_REQUESTED) == 1);
        SSL_do_handshake(other.ssl);
        toClient.clear();
        QVERIFY(!second.receive(drainMemoryBio(other.out), &plain, &toClient));
        QVERIFY(toClient.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSimTls)
#include "tst_simtls.moc"
