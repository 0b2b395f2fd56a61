// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"

#include <QJsonObject>
#include <QJsonValue>

namespace ServeScope {

/// The body of one generation request in an API (docs/metrics.md, "APIs"), the one home of each API's request
/// shape: the run's prompts, `check`, Test connection and the side calls all build theirs here.
/// `prompt` is a text, or token IDs for completions and sglang-generate. Streams ask for usage where the API
/// needs asking (chat and completions: stream_options.include_usage).
QJsonObject generationBody(
    Api api, Dialect dialect, const QString &model, const QJsonValue &prompt, int maxTokens, bool stream);

/// Sets a sampling field where the API takes it: sglang-generate's `sampling_params`, the top level otherwise
/// (vLLM's extras such as ignore_eos and min_tokens included).
void setSamplingField(Api api, QJsonObject *body, const QString &name, const QJsonValue &value);

/// Whether the run's generation requests carry `ignore_eos: true`: `dataset.ignore_eos` on any dialect but
/// openai-strict (which never sends it), or the experiment's own sampling field. Only then can a short output
/// mean the server did not honour it.
bool sendsIgnoreEos(const Experiment &resolved);

/// The token counts of a non-streamed answer's usage in an API; -1 for what it does not say.
struct AnswerUsage {
    int promptTokens = -1;
    int outputTokens = -1;
};
AnswerUsage answerUsage(Api api, const QJsonObject &answer);

/// The key and version headers an API authenticates with: `x-api-key` and `anthropic-version` for messages,
/// `Authorization: Bearer` otherwise (nothing without a key, but messages' version).
QList<QPair<QByteArray, QByteArray>> apiAuthHeaders(Api api, const QByteArray &apiKey);

/// The anthropic-version every messages request carries unless the endpoint's own headers set one.
inline constexpr char kAnthropicVersion[] = "2023-06-01";

} // namespace ServeScope
