// SPDX-License-Identifier: MIT
#include "apirequest.h"

#include <QJsonArray>

namespace ServeScope {

QJsonObject generationBody(
    Api api, Dialect dialect, const QString &model, const QJsonValue &prompt, int maxTokens, bool stream)
{
    QJsonObject o;
    if (api != Api::SglangGenerate)
        o.insert(QStringLiteral("model"), model);
    const QJsonArray userTurn { QJsonObject {
        { QStringLiteral("role"), QStringLiteral("user") }, { QStringLiteral("content"), prompt } } };
    switch (api) {
    case Api::Chat:
        o.insert(QStringLiteral("messages"), userTurn);
        // Never both: vLLM/strict OpenAI take max_completion_tokens, SGLang max_tokens.
        o.insert(dialect == Dialect::Sglang ? QStringLiteral("max_tokens") : QStringLiteral("max_completion_tokens"),
            maxTokens);
        break;
    case Api::Completions:
        o.insert(QStringLiteral("prompt"), prompt);
        o.insert(QStringLiteral("max_tokens"), maxTokens);
        break;
    case Api::Responses:
        o.insert(QStringLiteral("input"), prompt);
        o.insert(QStringLiteral("max_output_tokens"), maxTokens);
        break;
    case Api::Messages:
        o.insert(QStringLiteral("messages"), userTurn);
        o.insert(QStringLiteral("max_tokens"), maxTokens);
        break;
    case Api::SglangGenerate:
        o.insert(prompt.isArray() ? QStringLiteral("input_ids") : QStringLiteral("text"), prompt);
        o.insert(QStringLiteral("sampling_params"), QJsonObject { { QStringLiteral("max_new_tokens"), maxTokens } });
        break;
    }
    o.insert(QStringLiteral("stream"), stream);
    if (stream && (api == Api::Chat || api == Api::Completions))
        o.insert(QStringLiteral("stream_options"), QJsonObject { { QStringLiteral("include_usage"), true } });
    return o;
}

bool sendsIgnoreEos(const Experiment &resolved)
{
    return (resolved.dataset.ignoreEos && resolved.endpoint.dialect != Dialect::OpenAiStrict)
        || resolved.sampling.value(QStringLiteral("ignore_eos")).toBool();
}

void setSamplingField(Api api, QJsonObject *body, const QString &name, const QJsonValue &value)
{
    if (api != Api::SglangGenerate) {
        body->insert(name, value);
        return;
    }
    QJsonObject params = body->value(QLatin1String("sampling_params")).toObject();
    params.insert(name, value);
    body->insert(QStringLiteral("sampling_params"), params);
}

AnswerUsage answerUsage(Api api, const QJsonObject &answer)
{
    auto count = [](const QJsonObject &o, const char *key) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isDouble() ? v.toInt() : -1;
    };
    AnswerUsage out;
    switch (api) {
    case Api::Chat:
    case Api::Completions: {
        const QJsonObject u = answer.value(QLatin1String("usage")).toObject();
        out.promptTokens = count(u, "prompt_tokens");
        out.outputTokens = count(u, "completion_tokens");
        break;
    }
    case Api::Responses:
    case Api::Messages: {
        const QJsonObject u = answer.value(QLatin1String("usage")).toObject();
        out.promptTokens = count(u, "input_tokens");
        // Messages' input_tokens leave out what the cache read or wrote.
        if (api == Api::Messages && out.promptTokens >= 0)
            out.promptTokens
                += qMax(0, count(u, "cache_read_input_tokens")) + qMax(0, count(u, "cache_creation_input_tokens"));
        out.outputTokens = count(u, "output_tokens");
        break;
    }
    case Api::SglangGenerate: {
        const QJsonObject m = answer.value(QLatin1String("meta_info")).toObject();
        out.promptTokens = count(m, "prompt_tokens");
        out.outputTokens = count(m, "completion_tokens");
        break;
    }
    }
    return out;
}

QList<QPair<QByteArray, QByteArray>> apiAuthHeaders(Api api, const QByteArray &apiKey)
{
    QList<QPair<QByteArray, QByteArray>> h;
    if (api == Api::Messages) {
        if (!apiKey.isEmpty())
            h.append({ QByteArrayLiteral("x-api-key"), apiKey });
        h.append({ QByteArrayLiteral("anthropic-version"), QByteArray(kAnthropicVersion) });
    } else if (!apiKey.isEmpty()) {
        h.append({ QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + apiKey });
    }
    return h;
}

} // namespace ServeScope
