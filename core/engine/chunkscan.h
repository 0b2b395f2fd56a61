// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArrayView>
#include <QString>

namespace ServeScope {

/// What a record keeps from one streamed chunk's JSON, as QJsonDocument would read it: string
/// values are the raw bytes between their quotes (escapes not decoded) and empty when the member
/// is missing or not a string.
struct ChunkFields {
    QByteArrayView model, systemFingerprint; ///< top-level "model", "system_fingerprint"
    QByteArrayView text, content; ///< choices[0].text, choices[0].delta.content
    /// choices[0].delta.reasoning_content and .delta.reasoning: vLLM renamed the first to the second and
    /// for a while sends both with the same text, other servers one or the other.
    QByteArrayView reasoningContent, reasoning;
    bool usage = false; ///< "usage" is an object with at least one member
    int promptTokens = 0, completionTokens = 0; ///< its members (0 when missing or not a number)
    /// usage.completion_tokens_details.reasoning_tokens and usage.prompt_tokens_details.cached_tokens; -1
    /// when missing or not a number.
    int reasoningTokens = -1, cachedTokens = -1;
    bool finishReason = false; ///< choices[0].finish_reason is a string
};

/// One pass over a data event's payload, without allocating, that checks it is a JSON object and
/// fills `out`. False when it is not valid JSON, or takes a form whose reading this scan leaves to
/// QJsonDocument: an escaped member name, a member the record reads given twice, nesting deeper
/// than 64, an exponent, an integer part of more than 15 digits, a token count with a fraction,
/// a control character, `\u0000`, an unpaired surrogate or a Unicode non-character. The caller
/// then parses it with QJsonDocument, which decides whether it is malformed. So whenever this
/// returns true, the fields equal QJsonDocument's reading of the same bytes (the chunkjson fuzz
/// target checks that).
bool scanChunk(QByteArrayView json, ChunkFields *out);

/// Appends the decoded value of a string body that scanChunk() accepted.
void appendJsonString(QString &out, QByteArrayView raw);

} // namespace ServeScope
