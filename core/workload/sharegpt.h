// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace ServeScope {

/// The first two turns of a ShareGPT conversation: vLLM's prompt and reference completion; and the user's later
/// turns (the conversation's third, fifth, ... entries), which multi_turn sessions send after the server's answers.
struct ShareGptPair {
    QString prompt;
    QString completion;
    QStringList laterPrompts;
};

/// The conversations kept from a ShareGPT file, in a seeded shuffled order.
struct ShareGptSet {
    QList<ShareGptPair> pairs;
    qint64 conversations = 0; ///< entries in the file with at least two turns
};

/// Conversations kept from one file (bounded memory: at most this many, one entry parsed at a time).
inline constexpr int kShareGptKeep = 4096;
/// Largest single conversation entry read, in bytes.
inline constexpr qsizetype kShareGptMaxEntryBytes = 16 * 1024 * 1024;

/// Streams a ShareGPT JSON file (a list of {"conversations": [{"from": ..., "value": ...}, ...]})
/// and keeps, of the entries with at least two turns (as vLLM filters them), the kShareGptKeep
/// that a shuffle seeded by `seed` puts first, in that order. The file is read in chunks and one
/// entry is parsed at a time, so memory stays bounded whatever the file's size. The result is
/// cached per (file, size, modification time, seed) for the life of the process. Null with
/// *error when the file cannot be read or holds no such conversation.
/// `reason`, when given, receives what *error was made from (context "ServeScope::Dataset").
std::shared_ptr<const ShareGptSet> loadShareGpt(
    const QString &path, qint64 seed, QString *error, Reason *reason = nullptr);

/// vLLM's length filter (is_valid_sequence): prompt 4..1024 tokens, output at least 4 (unless
/// the output length is fixed), prompt + output at most 2048.
bool shareGptLengthsValid(int promptLen, int outputLen, bool fixedOutput);

} // namespace ServeScope
