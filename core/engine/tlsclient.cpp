// SPDX-License-Identifier: MIT
#include "tlsclient.h"

#include <QStringList>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace ServeScope {

namespace {

QString queuedErrors()
{
    QStringList parts;
    while (const unsigned long e = ERR_get_error()) {
        char text[256];
        ERR_error_string_n(e, text, sizeof text);
        parts << QString::fromLatin1(text);
    }
    return parts.join(QStringLiteral("; "));
}

} // namespace

std::shared_ptr<TlsContext> TlsContext::make(const QString &caFile, bool skipVerify, QString *error)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) {
        *error = QStringLiteral("TLS: cannot create a client context: ") + queuedErrors();
        return nullptr;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    static const unsigned char alpn[] = { 8, 'h', 't', 't', 'p', '/', '1', '.', '1' };
    SSL_CTX_set_alpn_protos(ctx, alpn, sizeof alpn);
    if (skipVerify) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
    } else {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
        const bool loaded = caFile.isEmpty()
            ? SSL_CTX_set_default_verify_paths(ctx) == 1
            : SSL_CTX_load_verify_locations(ctx, caFile.toLocal8Bit().constData(), nullptr) == 1;
        if (!loaded) {
            *error = caFile.isEmpty()
                ? QStringLiteral("TLS: the system's certificate authorities cannot be read")
                : QStringLiteral("TLS: %1 holds no PEM certificate (or cannot be read)").arg(caFile);
            ERR_clear_error();
            SSL_CTX_free(ctx);
            return nullptr;
        }
    }
    return std::shared_ptr<TlsContext>(new TlsContext(ctx, !skipVerify));
}

TlsContext::TlsContext(ssl_ctx_st *ctx, bool verify)
    : m_ctx(ctx)
    , m_verify(verify)
{
}

TlsContext::~TlsContext()
{
    SSL_CTX_free(m_ctx);
}

TlsSession::TlsSession(const TlsContext &context, const QByteArray &host)
    : m_ssl(SSL_new(context.get()))
    , m_in(BIO_new(BIO_s_mem()))
    , m_out(BIO_new(BIO_s_mem()))
{
    BIO_set_mem_eof_return(m_in, -1); // an empty input is "more to come", not the end
    SSL_set_bio(m_ssl, m_in, m_out);
    SSL_set_connect_state(m_ssl);
    // SNI needs a name; an IP literal is checked as an address instead.
    const bool literal = host.contains(':') || host.toStdString().find_first_not_of("0123456789.") == std::string::npos;
    if (!literal)
        SSL_set_tlsext_host_name(m_ssl, host.constData());
    if (context.verifies()) {
        X509_VERIFY_PARAM *param = SSL_get0_param(m_ssl);
        if (literal)
            X509_VERIFY_PARAM_set1_ip_asc(param, host.constData());
        else
            X509_VERIFY_PARAM_set1_host(param, host.constData(), size_t(host.size()));
    }
}

TlsSession::~TlsSession()
{
    SSL_free(m_ssl); // frees both BIOs
}

ssize_t TlsSession::result(int rc, bool handshake)
{
    switch (SSL_get_error(m_ssl, rc)) {
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE:
        return kWouldBlock;
    case SSL_ERROR_ZERO_RETURN:
        return 0;
    default:
        break;
    }
    const long verify = handshake ? SSL_get_verify_result(m_ssl) : X509_V_OK;
    m_error = verify != X509_V_OK ? QStringLiteral("TLS: certificate verify failed: %1")
                                        .arg(QString::fromLatin1(X509_verify_cert_error_string(verify)))
                                  : QStringLiteral("TLS: ") + queuedErrors();
    ERR_clear_error();
    return kFailed;
}

ssize_t TlsSession::handshake()
{
    const int rc = SSL_do_handshake(m_ssl);
    return rc == 1 ? 1 : result(rc, true);
}

void TlsSession::feed(const char *data, size_t size)
{
    BIO_write(m_in, data, int(size));
}

ssize_t TlsSession::read(char *data, size_t size)
{
    size_t n = 0;
    const int rc = SSL_read_ex(m_ssl, data, size, &n);
    return rc == 1 ? ssize_t(n) : result(rc, false);
}

bool TlsSession::write(const char *data, size_t size)
{
    size_t n = 0;
    // A memory BIO takes everything: one call encrypts the whole request.
    return SSL_write_ex(m_ssl, data, size, &n) == 1 && n == size ? true : (result(0, false), false);
}

void TlsSession::takeOutgoing(QByteArray *out)
{
    char *data = nullptr;
    const long n = BIO_get_mem_data(m_out, &data);
    if (n <= 0)
        return;
    out->append(data, n);
    (void)BIO_reset(m_out);
}

} // namespace ServeScope
