// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHashFunctions>

#include <array>
#include <cstring>

namespace ServeScope {

/// A prompt's identity, the first 16 bytes of the SHA-256 of its text (the `prompt_hash` column and
/// the `prompts` table's key), held inline: every kept request has one, and as a QByteArray it took
/// a 24-byte handle plus a 48-byte allocation. Empty when the request has no stored prompt.
class PromptHash {
public:
    static constexpr int Size = 16;

    PromptHash() = default;
    /// The first Size bytes of `bytes`; empty when `bytes` is (a stored hash is always Size bytes).
    explicit PromptHash(QByteArrayView bytes) noexcept
    {
        m_size = quint8(qMin<qsizetype>(bytes.size(), Size));
        std::memcpy(m_bytes.data(), bytes.data(), m_size);
    }

    bool isEmpty() const noexcept { return m_size == 0; }
    const char *constData() const noexcept { return m_bytes.data(); }
    int size() const noexcept { return m_size; }
    QByteArray toByteArray() const { return QByteArray(m_bytes.data(), m_size); }

    friend bool operator==(const PromptHash &a, const PromptHash &b) noexcept
    {
        return a.m_size == b.m_size && std::memcmp(a.m_bytes.data(), b.m_bytes.data(), a.m_size) == 0;
    }
    friend bool operator!=(const PromptHash &a, const PromptHash &b) noexcept { return !(a == b); }
    friend size_t qHash(const PromptHash &h, size_t seed = 0) noexcept
    {
        return qHash(QByteArrayView(h.m_bytes.data(), h.m_size), seed);
    }

private:
    std::array<char, Size> m_bytes {};
    quint8 m_size = 0;
};

} // namespace ServeScope
