// SPDX-License-Identifier: MIT
// OpenSSL's client settings for one https endpoint, shared by its connections, and OpenSSL's errors in words.
#include "tlscontext.h"

#include "tlsclient.h"

#include <QStringList>

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace ServeScope {

QString tlsQueuedErrors()
{
    QStringList parts;
    while (const unsigned long e = ERR_get_error()) {
        char text[256];
        ERR_error_string_n(e, text, sizeof text);
        parts << QString::fromLatin1(text);
    }
    return parts.join(QStringLiteral("; "));
}

std::shared_ptr<TlsContext> TlsContext::make(const QString &caFile, bool skipVerify, QString *error)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) {
        *error = QStringLiteral("TLS: cannot create a client context: ") + tlsQueuedErrors();
        return nullptr;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(
        ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
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
    // Sessions are kept by keepSession(), not in OpenSSL's cache: only the newest is offered.
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    SSL_CTX_sess_set_new_cb(ctx, &TlsContext::keepSession);
    SSL_CTX_set_keylog_callback(ctx, &TlsSession::keyLine);
    return std::shared_ptr<TlsContext>(new TlsContext(ctx, !skipVerify));
}

TlsContext::TlsContext(ssl_ctx_st *ctx, bool verify)
    : m_ctx(ctx)
    , m_verify(verify)
{
    SSL_CTX_set_app_data(m_ctx, this);
}

TlsContext::~TlsContext()
{
    SSL_SESSION_free(m_session);
    SSL_CTX_free(m_ctx);
}

int TlsContext::keepSession(ssl_st *ssl, ssl_session_st *session)
{
    auto *self = static_cast<TlsContext *>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
    if (!self || !SSL_SESSION_is_resumable(session))
        return 0; // not taken: OpenSSL frees it
    SSL_SESSION_free(self->m_session);
    self->m_session = session;
    if (self->m_sessionKept)
        self->m_sessionKept();
    return 1;
}

} // namespace ServeScope
