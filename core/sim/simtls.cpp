// SPDX-License-Identifier: MIT
#include "sim/simtls.h"

#include "tls/tls13records.h"

#include <algorithm>

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
    SSL_CTX_set_keylog_callback(ctx, &SimTlsSession::keyLine);
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

// The records this side sends under the server's application secret: counted while OpenSSL
// writes them (the session tickets), then sealed here from the first response on.
struct SimTlsSession::Records {
    Tls::TrafficSecret secret;
    qint64 from = 0; ///< where in OpenSSL's output the secret's records begin
    Tls::RecordCounter written;
    Tls::Traffic traffic;
    bool active = false;
};

void SimTlsSession::keyLine(const ssl_st *ssl, const char *line)
{
    auto *self = static_cast<SimTlsSession *>(SSL_get_app_data(ssl));
    Tls::TrafficSecret secret;
    if (!self || !Tls::TrafficSecret::fromKeyLine(line, Tls::kServerApplicationSecret, &secret))
        return;
    // OpenSSL has just written its Finished: what it writes from here on is under this secret.
    self->m_records = std::make_unique<Records>();
    self->m_records->secret = secret;
    self->m_records->from = self->m_drained + qint64(BIO_pending(self->m_out));
}

SimTlsSession::SimTlsSession(const SimTlsContext &context)
    : m_ssl(SSL_new(context.get()))
    , m_in(BIO_new(BIO_s_mem()))
    , m_out(BIO_new(BIO_s_mem()))
{
    BIO_set_mem_eof_return(m_in, -1); // empty means "more to come", not the end
    SSL_set_app_data(m_ssl, this);
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
    // The handshake's answers, a ticket, an alert. Once this side seals its records, anything OpenSSL
    // writes would not follow them, and a key update the client asks for is not answered (OpenSSL
    // keeps it for its next write, which never comes): either way the connection goes.
    if (m_records && m_records->active && SSL_get_key_update_type(m_ssl) != SSL_KEY_UPDATE_NONE)
        alive = false;
    return drain(out) && alive;
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

// Whether this side seals its own records: from the first send after the handshake and the
// tickets, on TLS 1.3 with a suite Tls::Traffic knows.
bool SimTlsSession::sealing()
{
    if (!m_records || m_records->active)
        return m_records != nullptr;
    Records &r = *m_records;
    if (!SSL_is_init_finished(m_ssl) || BIO_pending(m_out) != 0 || !r.written.atBoundary())
        return false;
    const bool started = r.traffic.start(m_ssl, r.secret, true, r.written.records());
    r.secret = {};
    r.active = started;
    if (!started)
        m_records.reset(); // TLS 1.2: OpenSSL writes throughout
    return started;
}

void SimTlsSession::send(const QByteArray &plain, QByteArray *out)
{
    if (plain.isEmpty())
        return;
    if (sealing()) {
        m_records->traffic.seal(Tls::kApplicationData, plain.constData(), size_t(plain.size()), out);
        return;
    }
    // With partial writes on, each call writes one record (at most 16 kB): a larger response goes
    // in several.
    for (size_t at = 0, written = 0; at < size_t(plain.size()); at += written) {
        if (SSL_write_ex(m_ssl, plain.constData() + at, size_t(plain.size()) - at, &written) != 1)
            break; // the session failed: the connection learns so from its next read
    }
    ERR_clear_error();
    drain(out);
}

void SimTlsSession::close(QByteArray *out)
{
    if (sealing()) {
        static constexpr char kCloseNotify[] = { 1, 0 }; // warning, close_notify
        m_records->traffic.seal(Tls::kAlert, kCloseNotify, sizeof kCloseNotify, out);
        return;
    }
    SSL_shutdown(m_ssl);
    ERR_clear_error();
    drain(out);
}

bool SimTlsSession::drain(QByteArray *out)
{
    char *data = nullptr;
    const long n = BIO_get_mem_data(m_out, &data);
    if (n <= 0)
        return true;
    if (m_records && m_records->active) {
        (void)BIO_reset(m_out);
        return false;
    }
    if (m_records) { // count what OpenSSL wrote under the application secret
        const qint64 skip = std::clamp<qint64>(m_records->from - m_drained, 0, n);
        m_records->written.count(data + skip, size_t(n - skip));
    }
    m_drained += n;
    out->append(data, n);
    (void)BIO_reset(m_out);
    return true;
}

} // namespace ServeScope::Sim
