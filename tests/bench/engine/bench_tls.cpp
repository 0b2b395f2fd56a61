// SPDX-License-Identifier: MIT
// What TLS itself charges the lean transport, without sockets: the engine's own
// TlsSession (the client) against an OpenSSL server in the same thread, both on memory BIOs.
// Per number of sessions: the client's CPU for one handshake (TLS 1.3, ECDSA P-256 certificate,
// verification off as in bench_engine's tls rows) and for one record of an SSE event's size,
// fed and read as HttpConnection::onTlsBytes does, with the sessions taking turns as streams do
// (one session stays in the caches; a thousand do not). Figures are printed, not asserted.
//
//   bench_tls [--sessions 1,256,1024] [--records 200000] [--bytes 180]
#include "throwawaycert.h"
#include "tlscost.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTemporaryDir>

#include <openssl/ssl.h>

#include <cstdio>
#include <memory>

using namespace ServeScope;
using namespace ServeScope::Testing;

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
    SSL_CTX *serverCtx = tlsCostServer(certs.path());
    if (!serverCtx) {
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
    std::printf("sessions  handshake_us  session_us  record_us  all\n");
    for (const int n : sessions) {
        const TlsCost f = measureTlsCost(serverCtx, *client, n, records, bytes);
        std::printf(
            "%8d  %12.1f  %10.1f  %9.3f  %3s\n", n, f.handshakeUs, f.sessionUs, f.recordUs, f.ok ? "yes" : "NO");
        std::fflush(stdout);
    }
    SSL_CTX_free(serverCtx);
    return 0;
}
