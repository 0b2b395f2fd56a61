// SPDX-License-Identifier: MIT
#pragma once
// Internal to the simulator: its HTTPS, on OpenSSL directly.

#include <QByteArray>
#include <QString>

#include <memory>

struct ssl_ctx_st;
struct ssl_st;
struct bio_st;

namespace ServeScope::Sim {

/// One OpenSSL server context for every connection of a SimServer: TLS 1.2 and 1.3, the
/// certificate chain and key of --tls-cert and --tls-key, no client certificates. The session
/// tickets it hands out are sealed with its own keys, so a client may resume them on any later
/// connection, as servers that share one context (nginx, uvicorn) allow.
class SimTlsContext {
public:
    /// nullptr, with the reason, when either file cannot be read or they do not match.
    static std::unique_ptr<SimTlsContext> load(const QString &certFile, const QString &keyFile, QString *error);
    ~SimTlsContext();
    SimTlsContext(const SimTlsContext &) = delete;
    SimTlsContext &operator=(const SimTlsContext &) = delete;
    ssl_ctx_st *get() const noexcept { return m_ctx; }

private:
    explicit SimTlsContext(ssl_ctx_st *ctx)
        : m_ctx(ctx)
    {
    }
    ssl_ctx_st *m_ctx;
};

/// One connection's TLS: bytes from the socket go in, plaintext comes out; plaintext to send goes
/// in, records come out. The caller moves the bytes to and from its socket. On TLS 1.3 the records
/// it sends after the handshake and the session tickets are sealed here with the suite's AEAD
/// (Tls::Traffic), not by OpenSSL's record layer, which cost the simulator half as much again as the
/// rest of an event (docs/simulator.md). A client's request for a key update after that
/// ends the connection (the simulator does not answer it); OpenSSL reads everything the client sends.
class SimTlsSession {
public:
    explicit SimTlsSession(const SimTlsContext &context);
    ~SimTlsSession();
    SimTlsSession(const SimTlsSession &) = delete;
    SimTlsSession &operator=(const SimTlsSession &) = delete;

    /// Takes `wire` (read from the socket): the handshake goes on, the plaintext of whole records is
    /// appended to `plain`, and what must be written to the socket to `out`. False when the session
    /// failed (a bad handshake or record) or the client closed it: the connection should go.
    bool receive(const QByteArray &wire, QByteArray *plain, QByteArray *out);
    /// True once, on the first call after the handshake finished.
    bool takeHandshakeDone();
    /// Whether the handshake resumed an earlier session (a ticket this context sealed).
    bool resumed() const;
    /// Appends the records of `plain` to `out`.
    void send(const QByteArray &plain, QByteArray *out);
    /// Appends a close_notify alert to `out`.
    void close(QByteArray *out);

private:
    friend class SimTlsContext; // sets keyLine() as its key-log callback
    struct Records;
    static void keyLine(const ssl_st *ssl, const char *line);
    bool drain(QByteArray *out);
    bool sealing();
    ssl_st *m_ssl;
    bio_st *m_in, *m_out; ///< owned by m_ssl
    bool m_handshakeSeen = false;
    qint64 m_drained = 0; ///< bytes OpenSSL has written so far
    std::unique_ptr<Records> m_records; ///< TLS 1.3, from the server's application secret on
};

} // namespace ServeScope::Sim
