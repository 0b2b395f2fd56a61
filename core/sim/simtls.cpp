// SPDX-License-Identifier: MIT
#include "sim/simtls.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>

namespace ServeScope::Sim {

std::unique_ptr<SimTlsContext> SimTlsContext::load(const QString &certFile, const QString &keyFile, QString *error)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) {
        *error = QStringLiteral("cannot create a TLS server context");
        return nullptr;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    const QByteArray cert = certFile.toLocal8Bit(), key = keyFile.toLocal8Bit();
    EVP_PKEY *pkey = nullptr;
    if (BIO *in = BIO_new_file(key.constData(), "r")) {
        pkey = PEM_read_bio_PrivateKey(in, nullptr, nullptr, nullptr);
        BIO_free(in);
    }
    if (SSL_CTX_use_certificate_chain_file(ctx, cert.constData()) != 1)
        *error = QStringLiteral("--tls-cert holds no PEM certificate (or cannot be read): %1").arg(certFile);
    else if (!pkey)
        *error = QStringLiteral("--tls-key holds no unencrypted PEM private key (or cannot be read): %1").arg(keyFile);
    else if (SSL_CTX_use_PrivateKey(ctx, pkey) != 1 || SSL_CTX_check_private_key(ctx) != 1)
        *error = QStringLiteral("--tls-key is not the key of --tls-cert");
    else
        error->clear();
    EVP_PKEY_free(pkey);
    if (error->isEmpty())
        return std::unique_ptr<SimTlsContext>(new SimTlsContext(ctx));
    ERR_clear_error();
    SSL_CTX_free(ctx);
    return nullptr;
}

SimTlsContext::~SimTlsContext()
{
    SSL_CTX_free(m_ctx);
}

SimTlsSession::SimTlsSession(const SimTlsContext &context)
    : m_ssl(SSL_new(context.get()))
    , m_in(BIO_new(BIO_s_mem()))
    , m_out(BIO_new(BIO_s_mem()))
{
    BIO_set_mem_eof_return(m_in, -1); // empty means "more to come", not the end
    SSL_set_bio(m_ssl, m_in, m_out);
    SSL_set_accept_state(m_ssl);
}

SimTlsSession::~SimTlsSession()
{
    SSL_free(m_ssl); // frees both BIOs
}

bool SimTlsSession::receive(const QByteArray &wire, QByteArray *plain, QByteArray *out)
{
    if (!wire.isEmpty())
        BIO_write(m_in, wire.constData(), int(wire.size()));
    bool alive = true;
    for (;;) {
        char buffer[16384];
        size_t n = 0;
        if (SSL_read_ex(m_ssl, buffer, sizeof buffer, &n) == 1) {
            plain->append(buffer, qsizetype(n));
            continue;
        }
        const int reason = SSL_get_error(m_ssl, 0);
        alive = reason == SSL_ERROR_WANT_READ || reason == SSL_ERROR_WANT_WRITE;
        break;
    }
    ERR_clear_error();
    drain(out); // the handshake's answers, a ticket, an alert
    return alive;
}

bool SimTlsSession::takeHandshakeDone()
{
    if (m_handshakeSeen || !SSL_is_init_finished(m_ssl))
        return false;
    m_handshakeSeen = true;
    return true;
}

bool SimTlsSession::resumed() const
{
    return SSL_session_reused(m_ssl) == 1;
}

void SimTlsSession::send(const QByteArray &plain, QByteArray *out)
{
    size_t written = 0;
    if (!plain.isEmpty())
        SSL_write_ex(m_ssl, plain.constData(), size_t(plain.size()), &written); // a memory BIO takes it all
    drain(out);
}

void SimTlsSession::close(QByteArray *out)
{
    SSL_shutdown(m_ssl);
    ERR_clear_error();
    drain(out);
}

void SimTlsSession::drain(QByteArray *out)
{
    char *data = nullptr;
    const long n = BIO_get_mem_data(m_out, &data);
    if (n <= 0)
        return;
    out->append(data, n);
    (void)BIO_reset(m_out);
}

} // namespace ServeScope::Sim
