// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>

#include <array>
#include <cstddef>

struct ssl_st;
struct evp_cipher_ctx_st;
struct evp_md_st;
struct evp_cipher_st;

namespace ServeScope::Tls {

inline constexpr size_t kHeader = 5; ///< a record's type, version and length
inline constexpr size_t kMaxContent = 16384; ///< a record's content, without its type byte
inline constexpr size_t kMaxProtected = 16384 + 256; ///< a protected record's body
inline constexpr unsigned char kApplicationData = 23, kAlert = 21, kHandshake = 22;
/// The key-log label of the secret the server's application records are protected with.
inline constexpr char kServerApplicationSecret[] = "SERVER_TRAFFIC_SECRET_0";

/// A TLS 1.3 traffic secret as OpenSSL hands it to a key-log callback; cleansed when it goes.
/// Never written anywhere: it lives in memory for as long as its connection's keys are made from it.
struct TrafficSecret {
    std::array<unsigned char, 64> bytes {};
    size_t size = 0;

    TrafficSecret() = default;
    TrafficSecret(const TrafficSecret &other) = default;
    TrafficSecret &operator=(const TrafficSecret &other) = default;
    ~TrafficSecret();
    /// The secret of a key-log line that is `label`, the client random and the secret, in hex;
    /// false for any other line.
    static bool fromKeyLine(const char *line, const char *label, TrafficSecret *out);
};

/// Counts the whole records of a TLS byte stream that passes through in pieces of any size.
class RecordCounter {
public:
    void count(const char *data, size_t size);
    bool atBoundary() const noexcept { return m_headerGot == 0 && m_bodyLeft == 0; }
    quint64 records() const noexcept { return m_records; }

private:
    quint64 m_records = 0;
    size_t m_headerGot = 0, m_bodyLeft = 0;
    std::array<unsigned char, kHeader> m_header {};
};

/// One direction of a TLS 1.3 connection's application traffic, protected here with its suite's
/// AEAD (RFC 8446, section 5.2) rather than by OpenSSL's record layer, as the kernel's TLS does once
/// OpenSSL has made the keys: AES-128-GCM, AES-256-GCM or ChaCha20-Poly1305 through one EVP
/// context, the key and IV made from the traffic secret by HKDF-Expand-Label, each record's nonce
/// the IV xor its sequence number. OpenSSL's record layer goes through the session's state, BIOs
/// and buffers for each record, cold again by a stream's next event; this touches one cipher
/// context (docs/engine.md).
class Traffic {
public:
    Traffic() = default;
    ~Traffic();
    Traffic(const Traffic &) = delete;
    Traffic &operator=(const Traffic &) = delete;

    /// Keys from `secret` for the suite `ssl` negotiated, to open (or seal) records from number `seq`
    /// on; false, with nothing set, when that is not TLS 1.3 with one of the three AEADs above.
    bool start(const ssl_st *ssl, const TrafficSecret &secret, bool seal, quint64 seq);
    /// The next secret after a key update (section 7.2), numbered from 0 again.
    bool update();
    /// Opens one whole record into `plain` (room for kMaxProtected bytes): its content's size and
    /// type. False when it is not a protected record, fails its tag, or has no type.
    bool open(const unsigned char *record, size_t size, unsigned char *plain, size_t *contentSize, unsigned char *type);
    /// Appends `data` to `out` as records of `type`, at most kMaxContent bytes of content each.
    bool seal(unsigned char type, const char *data, size_t size, QByteArray *out);

private:
    bool install(const evp_cipher_st *cipher);
    TrafficSecret m_secret;
    const evp_md_st *m_md = nullptr;
    evp_cipher_ctx_st *m_ctx = nullptr;
    std::array<unsigned char, 12> m_iv {};
    quint64 m_seq = 0;
    bool m_seal = false;
};

} // namespace ServeScope::Tls
