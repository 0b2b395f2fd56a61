// SPDX-License-Identifier: MIT
#include "tlsclient.h"

#include "tls/tls13records.h"

#include <algorithm>
#include <cstring>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <array>

namespace ServeScope {

// The session's input BIO reads from here: first what keepUnread() kept, then the bytes fed last,
// in place. A memory BIO instead copied every read into a growing buffer, cleansed it and moved
// what was left to the front: about 1 us per event at 1,024 streams (docs/engine.md).
struct TlsInput {
    const char *view = nullptr;
    size_t viewLeft = 0;
    QByteArray kept;
    qsizetype keptAt = 0;
    // The records OpenSSL took since the server's application secret: TlsRecords' first sequence
    // number. OpenSSL reads a record's header, then its body, and no further (no read-ahead), so at
    // the secret's change it stands at a record's boundary and every later record passes through take().
    bool counting = false;
    Tls::RecordCounter taken;

    bool empty() const { return viewLeft == 0 && keptAt == kept.size(); }

    // One whole record (header and body), in place: in what was kept, or in the bytes fed last.
    // nullptr when it is not all there yet (what there is of it is then kept, so the caller may
    // reuse its buffer) or, with `tooLong` set, when its length is more than TLS allows.
    const unsigned char *record(size_t *size, bool *tooLong)
    {
        if (keptAt == kept.size() && !kept.isEmpty()) {
            kept.clear();
            keptAt = 0;
        }
        if (keptAt < kept.size() && viewLeft > 0) { // a record begun in an earlier read: one piece
            kept.append(view, qsizetype(viewLeft));
            view = nullptr;
            viewLeft = 0;
        }
        const bool fromKept = keptAt < kept.size();
        const auto *at = reinterpret_cast<const unsigned char *>(fromKept ? kept.constData() + keptAt : view);
        const size_t have = fromKept ? size_t(kept.size() - keptAt) : viewLeft;
        const size_t body = have >= Tls::kHeader ? size_t(at[3]) << 8 | at[4] : 0;
        if (body > Tls::kMaxProtected) {
            *tooLong = true;
            return nullptr;
        }
        if (have < Tls::kHeader + body) {
            if (!fromKept && have > 0) {
                kept.append(view, qsizetype(viewLeft));
                view = nullptr;
                viewLeft = 0;
            }
            return nullptr;
        }
        *size = Tls::kHeader + body;
        if (fromKept) {
            keptAt += qsizetype(*size);
        } else {
            view += *size;
            viewLeft -= *size;
        }
        return at;
    }

    size_t take(char *out, size_t size)
    {
        if (blocked)
            return 0;
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
        if (counting)
            taken.count(out, n);
        return n;
    }
    bool blocked = false; ///< OpenSSL is only to write (a key update's answer): it reads nothing

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

// TLS 1.3: the server's records once OpenSSL has returned the first application data (so after
// the session tickets), opened here (Tls::Traffic) instead of by OpenSSL's record layer: in the
// engine thread's profile at 1,024 HTTPS streams, about 1 us per event where SSL_read_ex took 2.5
// (docs/engine.md). OpenSSL keeps the handshake, the certificate check and everything the client
// sends.
struct TlsRecords {
    static constexpr qsizetype kMaxHandshakeBytes = 1 << 17; ///< a longer post-handshake message ends the session

    Tls::TrafficSecret secret; ///< the server's application secret, until the records are opened with it
    Tls::Traffic traffic;
    bool active = false, closed = false, failed = false;
    QByteArray plain; ///< a record's content the caller had no room for, from plainAt
    qsizetype plainAt = 0;
    QByteArray handshake; ///< post-handshake messages, until each is whole
};

TlsSession::TlsSession(const TlsContext &context, const QByteArray &host)
    : m_input(std::make_unique<TlsInput>())
    , m_ssl(SSL_new(context.get()))
    , m_in(BIO_new(TlsInput::method()))
    , m_out(BIO_new(outputMethod()))
{
    BIO_set_data(m_in, m_input.get());
    BIO_set_data(m_out, &m_outgoing);
    SSL_set_app_data(m_ssl, this);
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
                                  : QStringLiteral("TLS: ") + tlsQueuedErrors();
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
    if (m_records && m_records->active)
        return readRecords(data, size);
    // Nothing left to decrypt and no plaintext held back: OpenSSL would only find the input empty.
    if (m_input->empty() && SSL_pending(m_ssl) == 0 && SSL_is_init_finished(m_ssl))
        return kWouldBlock;
    size_t n = 0;
    const int rc = SSL_read_ex(m_ssl, data, size, &n);
    if (rc != 1)
        return result(rc, false);
    // The first application data came whole, after any session tickets: OpenSSL's reading ends here.
    if (m_records && m_input->taken.atBoundary() && SSL_pending(m_ssl) == 0)
        takeRecords();
    return ssize_t(n);
}

void TlsSession::keyLine(const ssl_st *ssl, const char *line)
{
    auto *self = static_cast<TlsSession *>(SSL_get_app_data(ssl));
    Tls::TrafficSecret secret;
    if (!self || !Tls::TrafficSecret::fromKeyLine(line, Tls::kServerApplicationSecret, &secret))
        return;
    self->m_records = std::make_unique<TlsRecords>();
    self->m_records->secret = secret;
    // OpenSSL has just taken the last record of the server's handshake: the records from here on
    // are numbered from 0 under this secret.
    self->m_input->counting = true;
    self->m_input->taken = {};
}

void TlsSession::takeRecords()
{
    TlsRecords &r = *m_records;
    m_input->counting = false;
    const bool started = r.traffic.start(m_ssl, r.secret, false, m_input->taken.records());
    r.secret = {};
    if (!started) {
        ERR_clear_error();
        m_records.reset(); // TLS 1.2 or a suite without an AEAD here: OpenSSL goes on reading
        return;
    }
    r.active = true;
}

ssize_t TlsSession::failRecords(const QString &why)
{
    m_records->failed = true;
    m_error = why;
    return kFailed;
}

ssize_t TlsSession::readRecords(char *data, size_t size)
{
    TlsRecords &r = *m_records;
    if (r.failed)
        return kFailed;
    if (r.closed)
        return 0;
    static thread_local std::array<unsigned char, Tls::kMaxProtected> plain;
    for (;;) {
        if (r.plainAt < r.plain.size()) {
            const size_t n = std::min(size, size_t(r.plain.size() - r.plainAt));
            std::memcpy(data, r.plain.constData() + r.plainAt, n);
            if ((r.plainAt += qsizetype(n)) == r.plain.size()) {
                r.plain.clear();
                r.plainAt = 0;
            }
            return ssize_t(n);
        }
        size_t recordSize = 0;
        bool tooLong = false;
        const unsigned char *record = m_input->record(&recordSize, &tooLong);
        if (!record)
            return tooLong ? failRecords(QStringLiteral("TLS: the server sent a record longer than TLS allows"))
                           : kWouldBlock;
        size_t n = 0;
        unsigned char type = 0;
        if (record[0] != Tls::kApplicationData)
            return failRecords(
                QStringLiteral("TLS: the server sent a record that is not a protected one (type %1)").arg(record[0]));
        if (!r.traffic.open(record, recordSize, plain.data(), &n, &type)) {
            ERR_clear_error();
            return failRecords(QStringLiteral("TLS: a record from the server failed its integrity check"));
        }
        if (type == Tls::kApplicationData) {
            if (n == 0)
                continue;
            const size_t now = std::min(n, size);
            std::memcpy(data, plain.data(), now);
            if (now < n) {
                r.plain = QByteArray(reinterpret_cast<const char *>(plain.data()) + now, qsizetype(n - now));
                r.plainAt = 0;
            }
            return ssize_t(now);
        }
        if (type == Tls::kAlert) {
            if (n != 2)
                return failRecords(QStringLiteral("TLS: the server sent a malformed alert"));
            if (plain[1] == 0) { // close_notify
                r.closed = true;
                return 0;
            }
            if (plain[1] == 90) // user_canceled: a close_notify follows
                continue;
            return failRecords(QStringLiteral("TLS: the server ended the session: %1 (alert %2)")
                                   .arg(QString::fromLatin1(SSL_alert_desc_string_long(plain[1])))
                                   .arg(plain[1]));
        }
        if (type != Tls::kHandshake)
            return failRecords(QStringLiteral("TLS: the server sent a record of unknown type %1").arg(type));
        r.handshake.append(reinterpret_cast<const char *>(plain.data()), qsizetype(n));
        if (!handshakeMessages())
            return kFailed;
    }
}

// The server's post-handshake messages: later session tickets are passed over (the context keeps
// the first connection's); a key update changes the key, and is answered when the server asks.
bool TlsSession::handshakeMessages()
{
    TlsRecords &r = *m_records;
    QByteArray &h = r.handshake;
    const auto fail = [this](const QString &why) {
        failRecords(why);
        return false;
    };
    while (h.size() >= 4) {
        const auto *m = reinterpret_cast<const unsigned char *>(h.constData());
        const qsizetype length = qsizetype(m[1]) << 16 | qsizetype(m[2]) << 8 | m[3];
        if (length > TlsRecords::kMaxHandshakeBytes)
            return fail(QStringLiteral("TLS: the server sent a handshake message of %1 bytes").arg(length));
        if (h.size() < 4 + length)
            return true;
        if (m[0] == 24) { // key_update: the last message of its record (RFC 8446, section 5.1)
            if (length != 1 || m[4] > 1 || h.size() != 5)
                return fail(QStringLiteral("TLS: the server sent a malformed key update"));
            const bool answer = m[4] == 1;
            h.clear();
            if (!r.traffic.update())
                return fail(QStringLiteral("TLS: the server's key update cannot be applied"));
            if (!answer)
                return true;
            // OpenSSL sends the client's own key update; it must not read meanwhile.
            m_input->blocked = true;
            const bool sent = SSL_key_update(m_ssl, SSL_KEY_UPDATE_NOT_REQUESTED) == 1 && SSL_do_handshake(m_ssl) == 1;
            m_input->blocked = false;
            if (!sent) {
                ERR_clear_error();
                return fail(QStringLiteral("TLS: the server's key update cannot be answered"));
            }
            return true;
        }
        if (m[0] != 4) // new_session_ticket
            return fail(QStringLiteral("TLS: the server sent an unexpected handshake message (type %1)").arg(m[0]));
        h.remove(0, 4 + length);
    }
    return true;
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
