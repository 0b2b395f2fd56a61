// SPDX-License-Identifier: MIT
#include "tls13records.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cstring>

namespace ServeScope::Tls {

namespace {

constexpr size_t kTag = 16;

// HKDF-Expand-Label (RFC 8446, section 7.1) with an empty context.
bool expandLabel(const EVP_MD *md, const unsigned char *secret, size_t secretSize, const char *label,
    unsigned char *out, size_t outSize)
{
    QByteArray info;
    info.append(char(outSize >> 8)).append(char(outSize & 0xff)).append(char(6 + std::strlen(label)));
    info.append("tls13 ").append(label).append('\0');
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

int nibble(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
        : c >= 'a' && c <= 'f'  ? c - 'a' + 10
        : c >= 'A' && c <= 'F'  ? c - 'A' + 10
                                : -1;
}

} // namespace

TrafficSecret::~TrafficSecret()
{
    OPENSSL_cleanse(bytes.data(), bytes.size());
}

bool TrafficSecret::fromKeyLine(const char *line, const char *label, TrafficSecret *out)
{
    const size_t labelSize = std::strlen(label);
    if (std::strncmp(line, label, labelSize) != 0 || line[labelSize] != ' ')
        return false;
    const char *hex = std::strchr(line + labelSize + 1, ' '); // after the client random
    if (!hex)
        return false;
    ++hex;
    TrafficSecret secret;
    for (; hex[0] && hex[1]; hex += 2) {
        const int hi = nibble(hex[0]), lo = nibble(hex[1]);
        if (hi < 0 || lo < 0 || secret.size == secret.bytes.size())
            return false;
        secret.bytes[secret.size++] = static_cast<unsigned char>(hi << 4 | lo);
    }
    if (secret.size == 0 || hex[0])
        return false;
    *out = secret;
    return true;
}

void RecordCounter::count(const char *data, size_t size)
{
    while (size > 0) {
        if (m_bodyLeft > 0) {
            const size_t n = std::min(size, m_bodyLeft);
            data += n;
            size -= n;
            if ((m_bodyLeft -= n) == 0)
                ++m_records;
            continue;
        }
        m_header[m_headerGot++] = static_cast<unsigned char>(*data++);
        --size;
        if (m_headerGot == kHeader) {
            m_headerGot = 0;
            m_bodyLeft = size_t(m_header[3]) << 8 | m_header[4];
            if (m_bodyLeft == 0)
                ++m_records;
        }
    }
}

Traffic::~Traffic()
{
    OPENSSL_cleanse(m_iv.data(), m_iv.size());
    EVP_CIPHER_CTX_free(m_ctx);
}

bool Traffic::start(const ssl_st *ssl, const TrafficSecret &secret, bool seal, quint64 seq)
{
    const SSL_CIPHER *suite = SSL_get_current_cipher(ssl);
    const EVP_CIPHER *aead
        = SSL_version(ssl) == TLS1_3_VERSION && suite ? aeadOf(SSL_CIPHER_get_protocol_id(suite)) : nullptr;
    const EVP_MD *md = suite ? SSL_CIPHER_get_handshake_digest(suite) : nullptr;
    if (!aead || !md || secret.size != size_t(EVP_MD_get_size(md)))
        return false;
    m_secret = secret;
    m_md = md;
    m_seal = seal;
    if (!install(aead))
        return false;
    m_seq = seq;
    return true;
}

bool Traffic::install(const EVP_CIPHER *cipher)
{
    std::array<unsigned char, EVP_MAX_KEY_LENGTH> key {};
    if (!m_ctx && !(m_ctx = EVP_CIPHER_CTX_new()))
        return false;
    const int keySize = cipher ? EVP_CIPHER_get_key_length(cipher) : EVP_CIPHER_CTX_get_key_length(m_ctx);
    const bool ok = keySize > 0 && size_t(keySize) <= key.size()
        && expandLabel(m_md, m_secret.bytes.data(), m_secret.size, "key", key.data(), size_t(keySize))
        && expandLabel(m_md, m_secret.bytes.data(), m_secret.size, "iv", m_iv.data(), m_iv.size())
        && EVP_CipherInit_ex(m_ctx, cipher, nullptr, key.data(), nullptr, m_seal ? 1 : 0) == 1;
    OPENSSL_cleanse(key.data(), key.size());
    m_seq = 0;
    return ok;
}

bool Traffic::update()
{
    TrafficSecret next;
    next.size = m_secret.size;
    if (!expandLabel(m_md, m_secret.bytes.data(), m_secret.size, "traffic upd", next.bytes.data(), next.size))
        return false;
    m_secret = next;
    return install(nullptr);
}

bool Traffic::open(
    const unsigned char *record, size_t size, unsigned char *plain, size_t *contentSize, unsigned char *type)
{
    if (size <= kHeader + kTag || size > kHeader + kMaxProtected || record[0] != kApplicationData)
        return false;
    std::array<unsigned char, 12> nonce = m_iv;
    for (size_t i = 0; i < 8; ++i)
        nonce[nonce.size() - 1 - i] ^= static_cast<unsigned char>(m_seq >> (8 * i));
    const size_t body = size - kHeader - kTag;
    int got = 0, last = 0;
    const bool authentic = EVP_DecryptInit_ex(m_ctx, nullptr, nullptr, nullptr, nonce.data()) == 1
        && EVP_DecryptUpdate(m_ctx, nullptr, &got, record, int(kHeader)) == 1
        && EVP_DecryptUpdate(m_ctx, plain, &got, record + kHeader, int(body)) == 1
        && EVP_CIPHER_CTX_ctrl(
               m_ctx, EVP_CTRL_AEAD_SET_TAG, int(kTag), const_cast<unsigned char *>(record + size - kTag))
            == 1
        && EVP_DecryptFinal_ex(m_ctx, plain + got, &last) == 1;
    if (!authentic)
        return false;
    ++m_seq;
    // The content, then its type, then any padding of zeros (section 5.2).
    size_t n = size_t(got + last);
    while (n > 0 && plain[n - 1] == 0)
        --n;
    if (n == 0 || n > kMaxContent + 1)
        return false;
    *type = plain[n - 1];
    *contentSize = n - 1;
    return true;
}

bool Traffic::seal(unsigned char type, const char *data, size_t size, QByteArray *out)
{
    do {
        const size_t content = std::min(size, kMaxContent);
        const size_t length = content + 1 + kTag;
        const qsizetype at = out->size();
        out->resize(at + qsizetype(kHeader + length));
        auto *record = reinterpret_cast<unsigned char *>(out->data() + at);
        record[0] = kApplicationData;
        record[1] = record[2] = 3;
        record[3] = static_cast<unsigned char>(length >> 8);
        record[4] = static_cast<unsigned char>(length & 0xff);
        std::array<unsigned char, 12> nonce = m_iv;
        for (size_t i = 0; i < 8; ++i)
            nonce[nonce.size() - 1 - i] ^= static_cast<unsigned char>(m_seq >> (8 * i));
        int got = 0, more = 0, last = 0;
        const bool sealed = EVP_EncryptInit_ex(m_ctx, nullptr, nullptr, nullptr, nonce.data()) == 1
            && EVP_EncryptUpdate(m_ctx, nullptr, &got, record, int(kHeader)) == 1
            && EVP_EncryptUpdate(
                   m_ctx, record + kHeader, &got, reinterpret_cast<const unsigned char *>(data), int(content))
                == 1
            && EVP_EncryptUpdate(m_ctx, record + kHeader + got, &more, &type, 1) == 1
            && EVP_EncryptFinal_ex(m_ctx, record + kHeader + got + more, &last) == 1
            && EVP_CIPHER_CTX_ctrl(m_ctx, EVP_CTRL_AEAD_GET_TAG, int(kTag), record + kHeader + content + 1) == 1;
        if (!sealed) {
            out->resize(at);
            return false;
        }
        ++m_seq;
        data += content;
        size -= content;
    } while (size > 0);
    return true;
}

} // namespace ServeScope::Tls
