// SPDX-License-Identifier: MIT
#pragma once

#include "tlscontext.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <sys/types.h>

struct ssl_st;
struct bio_st;

namespace ServeScope {

struct TlsInput;
struct TlsRecords;

/// One TLS session whose records the connection moves itself: bytes read from the socket are
/// fed in (and read in place), plaintext comes out, and what OpenSSL wants sent is taken out to
/// write to the socket. OpenSSL does the handshake, the certificate check and all the client sends;
/// on TLS 1.3 the server's records after its first application data are decrypted here with the
/// suite's AEAD (AES-GCM or ChaCha20-Poly1305), keyed from the server's traffic secret, and its
/// key updates are followed (and answered through OpenSSL); TLS 1.2 stays with OpenSSL throughout.
/// The connection's reads and their timestamps are therefore those of a plain connection.
/// Every call returns at once.
class TlsSession {
public:
    static constexpr ssize_t kWouldBlock = -1; ///< needs more bytes from the socket
    static constexpr ssize_t kFailed = -2;

    /// `host` is the name sent by SNI and, when the context verifies, checked against the certificate.
    TlsSession(const TlsContext &context, const QByteArray &host);
    ~TlsSession();
    TlsSession(const TlsSession &) = delete;
    TlsSession &operator=(const TlsSession &) = delete;

    /// 1 when the handshake is done, kWouldBlock or kFailed otherwise.
    ssize_t handshake();
    /// Bytes read from the socket, read in place (no copy): they must stay as they
    /// are until handshake() or read() has answered kWouldBlock (everything was taken), or until
    /// keepUnread() has copied what is left.
    void feed(const char *data, size_t size);
    /// Keeps the bytes of the last feed() not taken yet (the reader stopped early, e.g. at the end
    /// of a response) for the next calls, so the caller may reuse its buffer.
    void keepUnread();
    /// Plaintext: a count of bytes, 0 when the peer closed the session, kWouldBlock or kFailed.
    ssize_t read(char *data, size_t size);
    /// Whether the handshake resumed the context's session instead of a full one.
    bool resumed() const;
    /// Encrypts all of `data` for sending.
    bool write(const char *data, size_t size);
    /// Appends what must be written to the socket (records, handshake messages) to `out`.
    void takeOutgoing(QByteArray *out);
    /// Why the last call failed: the verification result or OpenSSL's error queue, in words.
    const QString &error() const noexcept { return m_error; }

private:
    friend class TlsContext; // sets keyLine() as its contexts' key-log callback
    static void keyLine(const ssl_st *ssl, const char *line);
    void takeRecords();
    ssize_t readRecords(char *data, size_t size);
    bool handshakeMessages();
    ssize_t failRecords(const QString &why);
    ssize_t result(int rc, bool handshake);
    std::unique_ptr<TlsInput> m_input; ///< what OpenSSL reads: the fed bytes, then what was kept
    std::unique_ptr<TlsRecords> m_records; ///< TLS 1.3: the server's records, once OpenSSL is done reading
    ssl_st *m_ssl;
    QByteArray m_outgoing; ///< what OpenSSL wrote to m_out, until takeOutgoing()
    bio_st *m_in, *m_out; ///< owned by m_ssl
    QString m_error;
};

} // namespace ServeScope
