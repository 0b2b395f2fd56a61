// SPDX-License-Identifier: MIT
// OpenSSL's client settings for one https endpoint, shared by its connections, and OpenSSL's errors in words.
#pragma once

#include <QString>

#include <functional>
#include <memory>

struct ssl_ctx_st;
struct ssl_st;
struct ssl_session_st;

namespace ServeScope {

/// OpenSSL's error queue in words ("; " between errors); the queue is left empty.
QString tlsQueuedErrors();

/// OpenSSL's client settings for one https endpoint, shared by a lean transport's connections:
/// the system's certificate authorities or a CA file, or no verification at all (said in every
/// report). TLS 1.2 and 1.3, HTTP/1.1 offered by ALPN. The newest session the server handed out
/// (a TLS 1.3 ticket, or a TLS 1.2 session) is offered by every new connection, so a server that
/// resumes skips sending and proving its certificate again; one that does not, does a full handshake.
/// Used by one thread: the transport's.
class TlsContext {
public:
    /// nullptr, with the reason, when the CA file cannot be read or holds no certificate.
    static std::shared_ptr<TlsContext> make(const QString &caFile, bool skipVerify, QString *error);
    ~TlsContext();
    TlsContext(const TlsContext &) = delete;
    TlsContext &operator=(const TlsContext &) = delete;

    ssl_ctx_st *get() const noexcept { return m_ctx; }
    bool verifies() const noexcept { return m_verify; }
    /// The session a new connection offers to resume, or nullptr before the server gave one.
    ssl_session_st *resumable() const noexcept { return m_session; }
    /// Called (from inside OpenSSL: defer any real work) when a session is kept.
    void setSessionKept(std::function<void()> kept) { m_sessionKept = std::move(kept); }

private:
    TlsContext(ssl_ctx_st *ctx, bool verify);
    static int keepSession(ssl_st *ssl, ssl_session_st *session);
    ssl_ctx_st *m_ctx;
    bool m_verify;
    ssl_session_st *m_session = nullptr; ///< owned
    std::function<void()> m_sessionKept;
};

} // namespace ServeScope
