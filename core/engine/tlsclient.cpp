// SPDX-License-Identifier: MIT
#include "tlsclient.h"

#include <QStringList>

#include <algorithm>
#include <cstring>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <array>

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
    static constexpr size_t kHeader = 5;
    static constexpr size_t kMaxBody = 16384 + 256; ///< TLS 1.3's largest protected record

    const char *view = nullptr;
    size_t viewLeft = 0;
    QByteArray kept;
    qsizetype keptAt = 0;
    // Records OpenSSL took since the server's application key (TlsRecords' first sequence number).
    // OpenSSL reads a record's header, then its body, and no further (no read-ahead), so at the key's
    // change it stands at a record's boundary and every later record passes through take().
    bool counting = false;
    quint64 records = 0;
    size_t headerGot = 0, bodyLeft = 0;
    std::array<unsigned char, kHeader> header {};

    void count(const char *data, size_t size)
    {
        while (size > 0) {
            if (bodyLeft > 0) {
                const size_t n = std::min(size, bodyLeft);
                data += n;
                size -= n;
                if ((bodyLeft -= n) == 0)
                    ++records;
                continue;
            }
            header[headerGot++] = static_cast<unsigned char>(*data++);
            --size;
            if (headerGot == kHeader) {
                headerGot = 0;
                bodyLeft = size_t(header[3]) << 8 | header[4];
                if (bodyLeft == 0)
                    ++records;
            }
        }
    }
    bool atBoundary() const { return headerGot == 0 && bodyLeft == 0; }
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
        const size_t body = have >= kHeader ? size_t(at[3]) << 8 | at[4] : 0;
        if (body > kMaxBody) {
            *tooLong = true;
            return nullptr;
        }
        if (have < kHeader || have < kHeader + body) {
            if (!fromKept && have > 0) {
                kept.append(view, qsizetype(viewLeft));
                view = nullptr;
                viewLeft = 0;
            }
            return nullptr;
        }
        *size = kHeader + body;
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
            count(out, n);
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

namespace {

// HKDF-Expand-Label of TLS 1.3 (RFC 8446, section 7.1) with an empty context.
bool expandLabel(const EVP_MD *md, const unsigned char *secret, size_t secretSize, const char *label,
    unsigned char *out, size_t outSize)
{
    const QByteArray full = QByteArrayLiteral("tls13 ") + label;
    QByteArray info;
    info.append(char(outSize >> 8)).append(char(outSize & 0xff)).append(char(full.size())).append(full).append('\0');
    static EVP_KDF *const hkdf = EVP_KDF_fetch(nullptr, OSSL_KDF_NAME_HKDF, nullptr); // for the process's life
    EVP_KDF_CTX *ctx = hkdf ? EVP_KDF_CTX_new(hkdf) : nullptr;
    if (!ctx)
        return false;
    int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
    const OSSL_PARAM params[] = {
        OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char *>(EVP_MD_get0_name(md)), 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<unsigned char *>(secret), secretSize),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info.data(), size_t(info.size())),
        OSSL_PARAM_construct_end(),
    };
    const bool ok = EVP_KDF_derive(ctx, out, outSize, params) == 1;
    EVP_KDF_CTX_free(ctx);
    return ok;
}

// The AEAD of a TLS 1.3 cipher suite by its code; nullptr for any other suite.
const EVP_CIPHER *aeadOf(quint16 suite)
{
    static const struct Ciphers { // fetched once, for the process's life
        EVP_CIPHER *aes128 = EVP_CIPHER_fetch(nullptr, "AES-128-GCM", nullptr);
        EVP_CIPHER *aes256 = EVP_CIPHER_fetch(nullptr, "AES-256-GCM", nullptr);
        EVP_CIPHER *chacha = EVP_CIPHER_fetch(nullptr, "ChaCha20-Poly1305", nullptr);
    } ciphers;
    switch (suite) {
    case 0x1301:
        return ciphers.aes128;
    case 0x1302:
        return ciphers.aes256;
    case 0x1303:
        return ciphers.chacha;
    default:
        return nullptr;
    }
}

constexpr size_t kTag = 16;
constexpr size_t kMaxPlain = 16384; ///< a record's content, without its type byte
constexpr size_t kNonce = 12;
constexpr qsizetype kMaxHandshakeBytes = 1 << 17; ///< a post-handshake message longer than this ends the session

} // namespace

// The server's records of a TLS 1.3 session once its handshake is done, decrypted here with the
// session's AEAD instead of by OpenSSL's record layer, as the kernel's TLS would: the key comes from
// the server's application traffic secret, which OpenSSL hands to its key-log callback. OpenSSL's
// record layer walks a dozen structures per record, cold again by the stream's next event; this
// touches one cipher context (about 2 us less per event at 1,024 HTTPS streams, docs/engine.md).
// OpenSSL keeps the handshake, the certificate check, the session tickets before the first
// application data, and everything the client sends.
struct TlsRecords {
    std::array<unsigned char, EVP_MAX_MD_SIZE> secret {};
    size_t secretSize = 0;
    const EVP_MD *md = nullptr;
    EVP_CIPHER_CTX *ctx = nullptr;
    std::array<unsigned char, kNonce> iv {};
    quint64 seq = 0;
    bool active = false, closed = false, failed = false;
    QByteArray plain; ///< a record's plaintext the caller had no room for, from plainAt
    qsizetype plainAt = 0;
    QByteArray handshake; ///< post-handshake messages, until each is whole

    ~TlsRecords()
    {
        OPENSSL_cleanse(secret.data(), secret.size());
        OPENSSL_cleanse(iv.data(), iv.size());
        EVP_CIPHER_CTX_free(ctx);
    }

    // The key and IV of `secret`, for `cipher` (nullptr: the one already set), from sequence number 0.
    bool install(const EVP_CIPHER *cipher)
    {
        std::array<unsigned char, EVP_MAX_KEY_LENGTH> key {};
        if (!ctx && !(ctx = EVP_CIPHER_CTX_new()))
            return false;
        const int keySize = cipher ? EVP_CIPHER_get_key_length(cipher) : EVP_CIPHER_CTX_get_key_length(ctx);
        const bool ok = keySize > 0 && size_t(keySize) <= key.size()
            && expandLabel(md, secret.data(), secretSize, "key", key.data(), size_t(keySize))
            && expandLabel(md, secret.data(), secretSize, "iv", iv.data(), iv.size())
            && EVP_DecryptInit_ex(ctx, cipher, nullptr, key.data(), nullptr) == 1;
        OPENSSL_cleanse(key.data(), key.size());
        seq = 0;
        return ok;
    }

    // The next traffic secret after the server's KeyUpdate (RFC 8446, section 7.2).
    bool update()
    {
        std::array<unsigned char, EVP_MAX_MD_SIZE> next {};
        const bool ok = expandLabel(md, secret.data(), secretSize, "traffic upd", next.data(), secretSize);
        secret = next;
        OPENSSL_cleanse(next.data(), next.size());
        return ok && install(nullptr);
    }
};

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
    if (m_records && m_input->atBoundary() && SSL_pending(m_ssl) == 0)
        takeRecords();
    return ssize_t(n);
}

void TlsSession::keyLine(const ssl_st *ssl, const char *line)
{
    static constexpr char kLabel[] = "SERVER_TRAFFIC_SECRET_0 "; // then the client random and the secret, in hex
    auto *self = static_cast<TlsSession *>(SSL_get_app_data(ssl));
    if (!self || std::strncmp(line, kLabel, sizeof kLabel - 1) != 0)
        return;
    const char *hex = std::strchr(line + sizeof kLabel - 1, ' ');
    auto records = std::make_unique<TlsRecords>();
    const auto nibble = [](char c) {
        return c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f'  ? c - 'a' + 10
            : c >= 'A' && c <= 'F'  ? c - 'A' + 10
                                    : -1;
    };
    for (size_t i = 0; hex && hex[1 + 2 * i] && hex[2 + 2 * i]; ++i) {
        const int hi = nibble(hex[1 + 2 * i]), lo = nibble(hex[2 + 2 * i]);
        if (hi < 0 || lo < 0 || i == records->secret.size())
            return; // not a secret as OpenSSL writes it: its own record layer goes on
        records->secret[i] = static_cast<unsigned char>(hi << 4 | lo);
        records->secretSize = i + 1;
    }
    if (records->secretSize == 0)
        return;
    self->m_records = std::move(records);
    // OpenSSL has just taken the last record of the server's handshake: the records from here on
    // are numbered from 0 under this secret.
    TlsInput &in = *self->m_input;
    in.counting = true;
    in.records = 0;
    in.headerGot = in.bodyLeft = 0;
}

void TlsSession::takeRecords()
{
    TlsRecords &r = *m_records;
    m_input->counting = false;
    const SSL_CIPHER *suite = SSL_get_current_cipher(m_ssl);
    const EVP_CIPHER *aead
        = SSL_version(m_ssl) == TLS1_3_VERSION && suite ? aeadOf(SSL_CIPHER_get_protocol_id(suite)) : nullptr;
    r.md = suite ? SSL_CIPHER_get_handshake_digest(suite) : nullptr;
    if (!aead || !r.md || !r.install(aead)) {
        ERR_clear_error();
        m_records.reset(); // TLS 1.2 or a suite without an AEAD here: OpenSSL goes on reading
        return;
    }
    r.seq = m_input->records;
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
    static thread_local std::array<unsigned char, TlsInput::kMaxBody> plain;
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
        const size_t body = recordSize - TlsInput::kHeader;
        if (record[0] != 23 || body <= kTag)
            return failRecords(
                QStringLiteral("TLS: the server sent a record that is not a protected one (type %1)").arg(record[0]));
        std::array<unsigned char, kNonce> nonce = r.iv;
        for (size_t i = 0; i < 8; ++i)
            nonce[kNonce - 1 - i] ^= static_cast<unsigned char>(r.seq >> (8 * i));
        int got = 0, last = 0;
        const bool authentic = EVP_DecryptInit_ex(r.ctx, nullptr, nullptr, nullptr, nonce.data()) == 1
            && EVP_DecryptUpdate(r.ctx, nullptr, &got, record, int(TlsInput::kHeader)) == 1
            && EVP_DecryptUpdate(r.ctx, plain.data(), &got, record + TlsInput::kHeader, int(body - kTag)) == 1
            && EVP_CIPHER_CTX_ctrl(
                   r.ctx, EVP_CTRL_AEAD_SET_TAG, int(kTag), const_cast<unsigned char *>(record + recordSize - kTag))
                == 1
            && EVP_DecryptFinal_ex(r.ctx, plain.data() + got, &last) == 1;
        if (!authentic) {
            ERR_clear_error();
            return failRecords(QStringLiteral("TLS: a record from the server failed its integrity check"));
        }
        ++r.seq;
        // The content, then its type, then any padding of zeros (RFC 8446, section 5.2).
        size_t n = size_t(got + last);
        while (n > 0 && plain[n - 1] == 0)
            --n;
        if (n == 0)
            return failRecords(QStringLiteral("TLS: the server sent a record without a content type"));
        if (n > kMaxPlain + 1)
            return failRecords(QStringLiteral("TLS: the server sent a record longer than TLS allows"));
        const unsigned char type = plain[--n];
        if (type == 23) { // application data
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
        if (type == 21) { // alert
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
        if (type != 22)
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
        if (length > kMaxHandshakeBytes)
            return fail(QStringLiteral("TLS: the server sent a handshake message of %1 bytes").arg(length));
        if (h.size() < 4 + length)
            return true;
        if (m[0] == 24) { // key_update: the last message of its record (RFC 8446, section 5.1)
            if (length != 1 || m[4] > 1 || h.size() != 5)
                return fail(QStringLiteral("TLS: the server sent a malformed key update"));
            const bool answer = m[4] == 1;
            h.clear();
            if (!r.update())
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
