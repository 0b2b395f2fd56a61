// SPDX-License-Identifier: MIT
#include "tlscost.h"

#include <QDir>

#include <openssl/bio.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <ctime>
#include <memory>
#include <vector>

namespace ServeScope::Testing {

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

} // namespace

TlsCost measureTlsCost(SSL_CTX *serverCtx, const TlsContext &clientCtx, int sessions, int records, int bytes)
{
    std::vector<Pair> pairs(static_cast<size_t>(sessions));
    double handshakeS = 0;
    double sessionS = 0; // made, the server's tickets read, freed
    for (Pair &p : pairs) {
        const double made = threadCpuS();
        p.client = std::make_unique<TlsSession>(clientCtx, QByteArrayLiteral("localhost"));
        sessionS += threadCpuS() - made;
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
        // The server's session tickets arrived with its last flight; the client reads them with
        // its first record, as the engine does.
        const double tickets = threadCpuS();
        char sink[256];
        p.client->read(sink, sizeof sink);
        sessionS += threadCpuS() - tickets;
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
    const double freed = threadCpuS();
    for (Pair &p : pairs)
        p.client.reset();
    sessionS += threadCpuS() - freed;
    TlsCost f;
    f.sessionUs = sessionS / sessions * 1e6;
    f.handshakeUs = handshakeS / sessions * 1e6;
    f.recordUs = recordS / (double(rounds) * sessions) * 1e6;
    f.ok = received == qint64(rounds) * sessions * bytes;
    return f;
}

SSL_CTX *tlsCostServer(const QString &certDir)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    const QByteArray cert = QDir(certDir).filePath(QStringLiteral("c.pem")).toLocal8Bit();
    const QByteArray key = QDir(certDir).filePath(QStringLiteral("k.pem")).toLocal8Bit();
    if (!ctx || SSL_CTX_use_certificate_file(ctx, cert.constData(), SSL_FILETYPE_PEM) != 1
        || SSL_CTX_use_PrivateKey_file(ctx, key.constData(), SSL_FILETYPE_PEM) != 1) {
        SSL_CTX_free(ctx);
        return nullptr;
    }
    return ctx;
}

} // namespace ServeScope::Testing
