// SPDX-License-Identifier: MIT
// What OpenSSL itself charges the lean transport's TLS path, without sockets: the engine's own
// TlsSession (the client) against an OpenSSL server in the same thread, both on memory BIOs.
// Per number of sessions: the client's CPU for one handshake (TLS 1.3, ECDSA P-256 certificate,
// verification off as in bench_engine's tls rows) and for one record of an SSE event's size,
// fed and read as HttpConnection::onTlsBytes does, with the sessions taking turns as streams do
// (one session stays in the caches; a thousand do not). Figures are printed, not asserted.
//
//   bench_tls [--sessions 1,256,1024] [--records 200000] [--bytes 180]
#include "throwawaycert.h"

#include "engine/tlsclient.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTemporaryDir>

#include <openssl/bio.h>
#include <openssl/ssl.h>

#include <cstdio>
#include <ctime>
#include <memory>
#include <vector>

using namespace ServeScope;
using namespace ServeScope::Testing;

namespace {

double threadCpuS()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// Appends what `bio` holds to `out` and empties it.
void drain(BIO *bio, QByteArray &out)
{
    char *data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    if (n > 0)
        out.append(data, n);
    (void)BIO_reset(bio);
}

struct SslFree {
    void operator()(SSL *ssl) const { SSL_free(ssl); }
};

struct Pair {
    std::unique_ptr<TlsSession> client;
    std::unique_ptr<SSL, SslFree> server;
    BIO *serverIn = nullptr, *serverOut = nullptr; ///< owned by `server`
    QByteArray toServer, toClient;
};

struct Figures {
    double handshakeUs = 0;
    double recordUs = 0;
    bool ok = false;
};

Figures measure(SSL_CTX *serverCtx, const TlsContext &clientCtx, int sessions, int records, int bytes)
{
    std::vector<Pair> pairs(static_cast<size_t>(sessions));
    double handshakeS = 0;
    for (Pair &p : pairs) {
        p.client = std::make_unique<TlsSession>(clientCtx, QByteArrayLiteral("localhost"));
        p.server.reset(SSL_new(serverCtx));
        p.serverIn = BIO_new(BIO_s_mem());
        p.serverOut = BIO_new(BIO_s_mem());
        BIO_set_mem_eof_return(p.serverIn, -1);
        SSL_set_bio(p.server.get(), p.serverIn, p.serverOut);
        SSL_set_accept_state(p.server.get());
        bool done = false;
        for (int turn = 0; turn < 8 && !done; ++turn) {
            const double t0 = threadCpuS();
            done = p.client->handshake() == 1;
            p.toServer.clear();
            p.client->takeOutgoing(&p.toServer);
            handshakeS += threadCpuS() - t0;
            BIO_write(p.serverIn, p.toServer.constData(), int(p.toServer.size()));
            SSL_do_handshake(p.server.get());
            p.toClient.clear();
            drain(p.serverOut, p.toClient);
            const double t1 = threadCpuS();
            p.client->feed(p.toClient.constData(), size_t(p.toClient.size()));
            handshakeS += threadCpuS() - t1;
        }
        if (!done)
            return {};
        char sink[256];
        p.client->read(sink, sizeof sink); // the server's session tickets, read before the clock runs
    }
    const QByteArray event(bytes, 'x');
    QByteArray plain(256 * 1024, Qt::Uninitialized);
    const int rounds = std::max(1, records / sessions);
    // The server's records are made a batch of rounds ahead, so the client's clock is read once
    // per batch, not around each record.
    const int perBatch = std::max(1, 4096 / sessions);
    std::vector<QByteArray> wire(static_cast<size_t>(perBatch) * pairs.size());
    double recordS = 0;
    qint64 received = 0;
    for (int done = 0; done < rounds; done += perBatch) {
        const int batch = std::min(perBatch, rounds - done);
        for (int r = 0; r < batch; ++r) {
            for (size_t i = 0; i < pairs.size(); ++i) {
                size_t written = 0;
                SSL_write_ex(pairs[i].server.get(), event.constData(), size_t(event.size()), &written);
                QByteArray &w = wire[size_t(r) * pairs.size() + i];
                w.resize(0);
                drain(pairs[i].serverOut, w);
            }
        }
        const double t0 = threadCpuS();
        for (int r = 0; r < batch; ++r) {
            for (size_t i = 0; i < pairs.size(); ++i) {
                const QByteArray &w = wire[size_t(r) * pairs.size() + i];
                TlsSession &client = *pairs[i].client;
                client.feed(w.constData(), size_t(w.size()));
                for (ssize_t n; (n = client.read(plain.data(), size_t(plain.size()))) > 0;)
                    received += n;
            }
        }
        recordS += threadCpuS() - t0;
    }
    Figures f;
    f.handshakeUs = handshakeS / sessions * 1e6;
    f.recordUs = recordS / (double(rounds) * sessions) * 1e6;
    f.ok = received == qint64(rounds) * sessions * bytes;
    return f;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({ { QStringLiteral("sessions"), QStringLiteral("Session counts."), QStringLiteral("list"),
                            QStringLiteral("1,256,1024") },
        { QStringLiteral("records"), QStringLiteral("Records per row."), QStringLiteral("n"),
            QStringLiteral("200000") },
        { QStringLiteral("bytes"), QStringLiteral("Plaintext bytes per record."), QStringLiteral("n"),
            QStringLiteral("180") } });
    parser.addHelpOption();
    parser.process(app);
    QList<int> sessions;
    bool ok = true;
    for (const QString &s : parser.value(QStringLiteral("sessions")).split(QLatin1Char(','))) {
        bool one = false;
        sessions << s.toInt(&one);
        ok = ok && one && sessions.last() > 0;
    }
    bool recordsOk = false, bytesOk = false;
    const int records = parser.value(QStringLiteral("records")).toInt(&recordsOk);
    const int bytes = parser.value(QStringLiteral("bytes")).toInt(&bytesOk);
    if (!ok || !recordsOk || !bytesOk || records < 1 || bytes < 1 || bytes > 16384) {
        std::fprintf(stderr, "bench_tls: --sessions, --records and --bytes (at most 16384) take positive integers\n");
        return 2;
    }

    QTemporaryDir certs;
    if (!makeThrowawayCertificate(certs)) {
        std::fprintf(stderr, "bench_tls: openssl req could not make a certificate\n");
        return 1;
    }
    SSL_CTX *serverCtx = SSL_CTX_new(TLS_server_method());
    if (SSL_CTX_use_certificate_file(serverCtx, qPrintable(certs.filePath(QStringLiteral("c.pem"))), SSL_FILETYPE_PEM)
            != 1
        || SSL_CTX_use_PrivateKey_file(serverCtx, qPrintable(certs.filePath(QStringLiteral("k.pem"))), SSL_FILETYPE_PEM)
            != 1) {
        std::fprintf(stderr, "bench_tls: the server cannot load its certificate\n");
        return 1;
    }
    QString error;
    const std::shared_ptr<TlsContext> client = TlsContext::make(QString(), true, &error);
    if (!client) {
        std::fprintf(stderr, "bench_tls: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("OpenSSL %s; the client is the engine's TlsSession; CPU of this thread, us; %d-byte records\n",
        OpenSSL_version(OPENSSL_VERSION), bytes);
    std::printf("sessions  handshake_us  record_us  all\n");
    for (const int n : sessions) {
        const Figures f = measure(serverCtx, *client, n, records, bytes);
        std::printf("%8d  %12.1f  %9.3f  %3s\n", n, f.handshakeUs, f.recordUs, f.ok ? "yes" : "NO");
        std::fflush(stdout);
    }
    SSL_CTX_free(serverCtx);
    return 0;
}
