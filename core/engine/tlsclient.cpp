// SPDX-License-Identifier: MIT
#include "tlsclient.h"

#include <QStringList>

#include <algorithm>
#include <cstring>

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

// The session's input BIO reads from here: first what keepUnread() kept, then the bytes fed last,
// in place. A memory BIO instead copied every read into a growing buffer, cleansed it and moved
// what was left to the front: about 1 us per event at 1,024 streams (docs/engine.md).
struct TlsInput {
    const char *view = nullptr;
    size_t viewLeft = 0;
    QByteArray kept;
    qsizetype keptAt = 0;

    size_t take(char *out, size_t size)
    {
        size_t n = 0;
        if (keptAt < kept.size()) {
            n = std::min(size, size_t(kept.size() - keptAt));
            std::memcpy(out, kept.constData() + keptAt, n);
            keptAt += qsizetype(n);
            if (keptAt == kept.size()) {
                kept.clear();
                keptAt = 0;
            }
        }
        const size_t fromView = std::min(size - n, viewLeft);
        if (fromView > 0) {
            std::memcpy(out + n, view, fromView);
            view += fromView;
            viewLeft -= fromView;
            n += fromView;
        }
        return n;
    }

    static BIO_METHOD *method()
    {
        static BIO_METHOD *const m = [] {
            BIO_METHOD *made = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "servescope input");
            BIO_meth_set_create(made, [](BIO *b) {
                BIO_set_init(b, 1);
                return 1;
            });
            BIO_meth_set_read_ex(made, [](BIO *b, char *out, size_t size, size_t *read) {
                BIO_clear_retry_flags(b);
                *read = static_cast<TlsInput *>(BIO_get_data(b))->take(out, size);
                if (*read > 0)
                    return 1;
                BIO_set_retry_read(b); // nothing yet: more is to come from the socket
                return 0;
            });
            BIO_meth_set_ctrl(made, [](BIO *b, int cmd, long, void *) -> long {
                const auto *in = static_cast<const TlsInput *>(BIO_get_data(b));
                switch (cmd) {
                case BIO_CTRL_PENDING:
                    return long(in->viewLeft) + long(in->kept.size() - in->keptAt);
                case BIO_CTRL_FLUSH:
                    return 1;
                default:
                    return 0;
                }
            });
            return made;
        }();
        return m;
    }
};

namespace {

// The session's output BIO appends what OpenSSL writes (records, handshake messages) to the
// session's own buffer. Whether a read left anything to send is then a look at that buffer, not a
// call into OpenSSL on a memory BIO gone cold since the stream's last event (about 0.4 us per
// event at 1,024 HTTPS streams, docs/engine.md).
BIO_METHOD *outputMethod()
{
    static BIO_METHOD *const m = [] {
        BIO_METHOD *made = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "servescope output");
        BIO_meth_set_create(made, [](BIO *b) {
            BIO_set_init(b, 1);
            return 1;
        });
        BIO_meth_set_write_ex(made, [](BIO *b, const char *data, size_t size, size_t *written) {
            static_cast<QByteArray *>(BIO_get_data(b))->append(data, qsizetype(size));
            *written = size;
            return 1;
        });
        BIO_meth_set_ctrl(made, [](BIO *, int cmd, long, void *) -> long { return cmd == BIO_CTRL_FLUSH ? 1 : 0; });
        return made;
    }();
    return m;
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

TlsSession::TlsSession(const TlsContext &context, const QByteArray &host)
    : m_input(std::make_unique<TlsInput>())
    , m_ssl(SSL_new(context.get()))
    , m_in(BIO_new(TlsInput::method()))
    , m_out(BIO_new(outputMethod()))
{
    BIO_set_data(m_in, m_input.get());
    BIO_set_data(m_out, &m_outgoing);
    SSL_set_bio(m_ssl, m_in, m_out);
    SSL_set_connect_state(m_ssl);
    if (ssl_session_st *session = context.resumable())
        SSL_set_session(m_ssl, session);
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
    m_input->view = data;
    m_input->viewLeft = size;
}

void TlsSession::keepUnread()
{
    if (m_input->viewLeft == 0)
        return;
    m_input->kept.append(m_input->view, qsizetype(m_input->viewLeft));
    m_input->view = nullptr;
    m_input->viewLeft = 0;
}

bool TlsSession::resumed() const
{
    return SSL_session_reused(m_ssl) == 1;
}

ssize_t TlsSession::read(char *data, size_t size)
{
    // Nothing left to decrypt and no plaintext held back: OpenSSL would only find the input empty.
    if (m_input->viewLeft == 0 && m_input->keptAt == m_input->kept.size() && SSL_pending(m_ssl) == 0
        && SSL_is_init_finished(m_ssl))
        return kWouldBlock;
    size_t n = 0;
    const int rc = SSL_read_ex(m_ssl, data, size, &n);
    return rc == 1 ? ssize_t(n) : result(rc, false);
}

bool TlsSession::write(const char *data, size_t size)
{
    size_t n = 0;
    // The output BIO takes everything: one call encrypts the whole request.
    return SSL_write_ex(m_ssl, data, size, &n) == 1 && n == size ? true : (result(0, false), false);
}

void TlsSession::takeOutgoing(QByteArray *out)
{
    if (m_outgoing.isEmpty())
        return;
    if (out->isEmpty()) {
        out->swap(m_outgoing);
    } else {
        out->append(m_outgoing);
        m_outgoing.clear();
    }
}

} // namespace ServeScope
