// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonArray>

#include <vector>

namespace ServeScope::Sim {

/// The simulator's token rule (docs/simulator.md): a token is a run of non-whitespace bytes; a
/// list of token IDs is as many tokens as it has entries; a chat prompt is the words of every
/// message's text plus kChatTokensPerMessage per message plus kChatTokensForReply. Token IDs are
/// a stable hash of the word, so the same text always gives the same IDs and block hashes.
class SimTokenizer final {
public:
    static constexpr int kChatTokensPerMessage = 4;
    static constexpr int kChatTokensForReply = 3;

    /// Appends the token IDs of `text` to `ids`.
    static void encode(QByteArrayView text, std::vector<qint64> *ids);
    static int count(QByteArrayView text);
    /// Chat template of `messages` (objects with role and content string or text parts); false
    /// when a message is malformed.
    static bool encodeMessages(const QJsonArray &messages, std::vector<qint64> *ids);
    /// Chained hashes of the full `blockSize`-token blocks of `ids`.
    static std::vector<quint64> blockHashes(const std::vector<qint64> &ids, int blockSize);
};

/// Generated text: the words of the sonnet dataset, each as one token with a leading space,
/// already escaped for a JSON string.
class SonnetText final {
public:
    static const SonnetText &instance();
    int size() const { return int(m_words.size()); }
    /// JSON-escaped token `i` (modulo the word count), e.g. ` fairest`.
    const QByteArray &jsonToken(qint64 i) const { return m_words[size_t(i % qint64(m_words.size()))]; }
    /// Raw (unescaped) text of `count` tokens starting at `start`.
    QByteArray text(qint64 start, int count) const;

private:
    SonnetText();
    std::vector<QByteArray> m_words, m_raw;
};

} // namespace ServeScope::Sim
