// SPDX-License-Identifier: MIT
#pragma once

#include "sim/simconfig.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace ServeScope::Sim {

/// The API a generation request came in on: OpenAI's chat and completions, Anthropic's Messages,
/// OpenAI's Responses, SGLang's native /generate. The engine behind them is one.
enum class Endpoint { Chat, Completion, Messages, Responses, Generate };

/// A validated generation request.
struct GenerationRequest {
    Endpoint endpoint = Endpoint::Chat;
    bool stream = false;
    bool includeUsage = false;
    bool ignoreEos = false;
    int maxTokens = 0;
    int minTokens = 0;
    double temperature = 1.0;
    std::vector<qint64> promptIds;
    QByteArray promptText; ///< UTF-8 prompt (chat: the last message's text); kept only for --echo-prompt
    int promptTokens() const { return int(promptIds.size()); }
};

/// An error answered in vLLM's JSON shape.
struct ApiError {
    int status = 400;
    QByteArray type = "BadRequestError";
    QString message;
    QString param; ///< the offending field, empty for none
};

/// Validates the body of a generation route; false fills `error`.
bool parseGeneration(
    Endpoint endpoint, const QByteArray &body, const SimConfig &config, GenerationRequest *out, ApiError *error);
/// Validates a /tokenize body (`prompt` text or `messages`) into token IDs.
bool parseTokenize(const QByteArray &body, const SimConfig &config, std::vector<qint64> *ids, ApiError *error);
/// `{"object":"error","message":...,"type":...,"param":...,"code":...}`
QByteArray errorBody(const ApiError &error);
/// The error in the shape of `endpoint`'s API: Anthropic's `{"type":"error","error":{"type":...,"message":...}}`
/// for Messages (its type from the status), SGLang's `{"error":{"message":...}}` for /generate, else errorBody().
QByteArray errorBody(Endpoint endpoint, const ApiError &error);

} // namespace ServeScope::Sim
