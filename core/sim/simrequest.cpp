// SPDX-License-Identifier: MIT
#include "sim/simrequest.h"

#include "sim/simtokenizer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace ServeScope::Sim {

namespace {

bool bad(ApiError *e, const QString &param, const QString &message)
{
    *e = ApiError { 400, "BadRequestError", message, param };
    return false;
}

bool parseObject(const QByteArray &body, QJsonObject *obj, ApiError *e)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return bad(e, QString(), QStringLiteral("The request body is not a JSON object."));
    *obj = doc.object();
    return true;
}

bool checkModel(const QJsonObject &obj, const SimConfig &config, ApiError *e)
{
    const QJsonValue model = obj.value(QLatin1String("model"));
    if (model.isUndefined() || model.isNull())
        return true;
    if (!model.isString())
        return bad(e, QStringLiteral("model"), QStringLiteral("model must be a string."));
    if (model.toString() != config.server.model) {
        *e = ApiError { 404, "NotFoundError", QStringLiteral("The model `%1` does not exist.").arg(model.toString()),
            QStringLiteral("model") };
        return false;
    }
    return true;
}

// An integer field: absent gives `fallback`; present must be a whole number >= minimum.
bool intField(const QJsonObject &obj, const char *name, int minimum, int fallback, int *out, ApiError *e)
{
    const QJsonValue v = obj.value(QLatin1String(name));
    if (v.isUndefined() || v.isNull()) {
        *out = fallback;
        return true;
    }
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || std::floor(d) != d || d < minimum || d > 1e9)
        return bad(e, QString::fromLatin1(name),
            QStringLiteral("%1 must be an integer >= %2, got %3.")
                .arg(QString::fromLatin1(name))
                .arg(minimum)
                .arg(QString::fromUtf8(QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact))));
    *out = int(d);
    return true;
}

bool boolField(const QJsonObject &obj, const QJsonObject::const_iterator &it, bool *out, ApiError *e)
{
    if (it == obj.constEnd() || it->isNull())
        return true;
    if (!it->isBool())
        return bad(e, it.key(), QStringLiteral("%1 must be a boolean.").arg(it.key()));
    *out = it->toBool();
    return true;
}

bool parsePrompt(const QJsonValue &prompt, std::vector<qint64> *ids, ApiError *e)
{
    QJsonValue p = prompt;
    if (p.isArray() && p.toArray().size() == 1 && (p.toArray().at(0).isString() || p.toArray().at(0).isArray()))
        p = p.toArray().at(0); // a batch of one
    if (p.isString()) {
        SimTokenizer::encode(p.toString().toUtf8(), ids);
        return true;
    }
    if (p.isArray() && !p.toArray().isEmpty()) {
        for (const QJsonValue &t : p.toArray()) {
            const double d = t.toDouble(-1);
            if (!t.isDouble() || std::floor(d) != d || d < 0 || d > 2147483647.0)
                return bad(
                    e, QStringLiteral("prompt"), QStringLiteral("prompt token IDs must be non-negative integers."));
            ids->push_back(qint64(d));
        }
        return true;
    }
    return bad(e, QStringLiteral("prompt"),
        QStringLiteral("prompt must be a string or a non-empty list of token IDs (one prompt per request)."));
}

/// Responses' input items as chat messages: a string is one user message; `input_text` and
/// `output_text` parts count as text parts.
QJsonArray responsesMessages(const QJsonValue &input)
{
    if (input.isString())
        return QJsonArray { QJsonObject {
            { QStringLiteral("role"), QStringLiteral("user") }, { QStringLiteral("content"), input } } };
    QJsonArray messages;
    for (const QJsonValue &item : input.toArray()) {
        QJsonObject m = item.toObject();
        if (const QJsonValue content = m.value(QLatin1String("content")); content.isArray()) {
            QJsonArray parts;
            for (const QJsonValue &part : content.toArray()) {
                QJsonObject p = part.toObject();
                const QString type = p.value(QLatin1String("type")).toString();
                if (type == QLatin1String("input_text") || type == QLatin1String("output_text"))
                    p.insert(QStringLiteral("type"), QStringLiteral("text"));
                parts.append(p);
            }
            m.insert(QStringLiteral("content"), parts);
        }
        messages.append(m);
    }
    return messages;
}

bool parsePromptSource(Endpoint endpoint, const QJsonObject &obj, std::vector<qint64> *ids, ApiError *e)
{
    if (endpoint == Endpoint::Completion) {
        if (!obj.contains(QLatin1String("prompt")))
            return bad(e, QStringLiteral("prompt"), QStringLiteral("Field required: prompt."));
        return parsePrompt(obj.value(QLatin1String("prompt")), ids, e);
    }
    if (endpoint == Endpoint::Generate) {
        if (const QJsonValue text = obj.value(QLatin1String("text")); text.isString()) {
            SimTokenizer::encode(text.toString().toUtf8(), ids);
            return true;
        }
        const QJsonValue inputIds = obj.value(QLatin1String("input_ids"));
        if (!inputIds.isArray() || inputIds.toArray().isEmpty() || !parsePrompt(inputIds, ids, e))
            return bad(e, QStringLiteral("text"),
                QStringLiteral("Either text (a string) or input_ids (a non-empty list of token IDs) should be "
                               "provided."));
        return true;
    }
    QJsonArray messages;
    QJsonValue system;
    if (endpoint == Endpoint::Responses) {
        const QJsonValue input = obj.value(QLatin1String("input"));
        if (input.isUndefined())
            return bad(e, QStringLiteral("input"), QStringLiteral("Field required: input."));
        if (!input.isString() && (!input.isArray() || input.toArray().isEmpty()))
            return bad(e, QStringLiteral("input"), QStringLiteral("input must be a string or a non-empty list."));
        messages = responsesMessages(input);
        system = obj.value(QLatin1String("instructions"));
    } else {
        const QJsonValue list = obj.value(QLatin1String("messages"));
        if (!list.isArray() || list.toArray().isEmpty())
            return bad(e, QStringLiteral("messages"), QStringLiteral("messages must be a non-empty list of messages."));
        messages = list.toArray();
        if (endpoint == Endpoint::Messages)
            system = obj.value(QLatin1String("system"));
    }
    if (system.isString() || system.isArray()) // Anthropic's system, Responses' instructions: a system message
        messages.prepend(QJsonObject {
            { QStringLiteral("role"), QStringLiteral("system") }, { QStringLiteral("content"), system } });
    const QString where = endpoint == Endpoint::Responses ? QStringLiteral("input") : QStringLiteral("messages");
    if (!SimTokenizer::encodeMessages(messages, ids))
        return bad(e, where, QStringLiteral("Each message needs a string role and string (or text parts) content."));
    return true;
}

bool parseSampling(const QJsonObject &obj, GenerationRequest *out, ApiError *e)
{
    const QJsonValue t = obj.value(QLatin1String("temperature"));
    if (!t.isUndefined() && !t.isNull()) {
        if (!t.isDouble() || t.toDouble() < 0)
            return bad(e, QStringLiteral("temperature"), QStringLiteral("temperature must be a number >= 0."));
        out->temperature = t.toDouble();
    }
    int n = 1;
    if (!intField(obj, "n", 1, 1, &n, e))
        return false;
    if (n != 1)
        return bad(e, QStringLiteral("n"), QStringLiteral("n must be 1 on this server."));
    if (!boolField(obj, obj.constFind(QLatin1String("stream")), &out->stream, e)
        || !boolField(obj, obj.constFind(QLatin1String("ignore_eos")), &out->ignoreEos, e))
        return false;
    const QJsonValue so = obj.value(QLatin1String("stream_options"));
    if (!so.isUndefined() && !so.isNull()) {
        if (!so.isObject())
            return bad(e, QStringLiteral("stream_options"), QStringLiteral("stream_options must be an object."));
        const QJsonObject o = so.toObject();
        if (!boolField(o, o.constFind(QLatin1String("include_usage")), &out->includeUsage, e))
            return false;
        if (!out->stream)
            return bad(e, QStringLiteral("stream_options"),
                QStringLiteral("Stream options can only be defined when `stream=True`."));
    }
    return true;
}

/// The text --echo-prompt sends back: a completion's prompt string, or the text of a chat's last message.
QByteArray promptTextOf(Endpoint endpoint, const QJsonObject &obj)
{
    if (endpoint == Endpoint::Completion)
        return obj.value(QLatin1String("prompt")).toString().toUtf8();
    const QJsonValue content
        = obj.value(QLatin1String("messages")).toArray().last().toObject().value(QLatin1String("content"));
    if (content.isString())
        return content.toString().toUtf8();
    QByteArray text;
    for (const QJsonValue &part : content.toArray())
        text += part.toObject().value(QLatin1String("text")).toString().toUtf8();
    return text;
}

} // namespace

bool parseGeneration(
    Endpoint endpoint, const QByteArray &body, const SimConfig &config, GenerationRequest *out, ApiError *error)
{
    QJsonObject obj;
    // SGLang's /generate takes no model name.
    if (!parseObject(body, &obj, error) || (endpoint != Endpoint::Generate && !checkModel(obj, config, error)))
        return false;
    *out = GenerationRequest {};
    out->endpoint = endpoint;
    if (!parsePromptSource(endpoint, obj, &out->promptIds, error))
        return false;
    // /generate's sampling fields sit in sampling_params, beside the top-level stream.
    QJsonObject sampling = obj;
    if (endpoint == Endpoint::Generate) {
        const QJsonValue sp = obj.value(QLatin1String("sampling_params"));
        if (!sp.isUndefined() && !sp.isNull() && !sp.isObject())
            return bad(error, QStringLiteral("sampling_params"), QStringLiteral("sampling_params must be an object."));
        sampling = sp.toObject();
    }
    if (!parseSampling(sampling, out, error)
        || !boolField(obj, obj.constFind(QLatin1String("stream")), &out->stream, error))
        return false;
    const int maxLen = config.scheduler.maxModelLen;
    const int room = maxLen - out->promptTokens();
    int maxTokens = 0;
    int fallback = qMax(room, 1);
    const char *field = "max_tokens";
    const char *minField = "min_tokens";
    if (endpoint == Endpoint::Chat && obj.contains(QLatin1String("max_completion_tokens"))
        && !obj.value(QLatin1String("max_completion_tokens")).isNull())
        field = "max_completion_tokens";
    else if (endpoint == Endpoint::Responses)
        field = "max_output_tokens";
    else if (endpoint == Endpoint::Generate) {
        field = "max_new_tokens";
        minField = "min_new_tokens";
        fallback = 128; // SGLang's default
    } else if (endpoint == Endpoint::Messages && !obj.contains(QLatin1String(field)))
        return bad(error, QStringLiteral("max_tokens"), QStringLiteral("max_tokens: Field required"));
    if (!intField(sampling, field, 1, fallback, &maxTokens, error)
        || !intField(sampling, minField, 0, 0, &out->minTokens, error))
        return false;
    if (out->minTokens > maxTokens)
        return bad(error, QString::fromLatin1(minField),
            QStringLiteral("%1 must be less than or equal to %2=%3, got %4.")
                .arg(QString::fromLatin1(minField),
                    QString::fromLatin1(endpoint == Endpoint::Chat ? "max_tokens" : field)) // vLLM's wording
                .arg(maxTokens)
                .arg(out->minTokens));
    if (out->promptTokens() + maxTokens > maxLen) {
        const QString where = endpoint == Endpoint::Completion ? QStringLiteral("prompt")
            : endpoint == Endpoint::Responses                  ? QStringLiteral("input")
            : endpoint == Endpoint::Generate                   ? QStringLiteral("text")
                                                               : QStringLiteral("messages");
        return bad(error, QString::fromLatin1(field),
            QStringLiteral("This model's maximum context length is %1 tokens. However, you requested %2 tokens "
                           "(%3 in the %4, %5 in the completion). Please reduce the length of the %4 or completion.")
                .arg(maxLen)
                .arg(out->promptTokens() + maxTokens)
                .arg(out->promptTokens())
                .arg(where)
                .arg(maxTokens));
    }
    out->maxTokens = maxTokens;
    if (config.stream.echoPrompt && (endpoint == Endpoint::Chat || endpoint == Endpoint::Completion))
        out->promptText = promptTextOf(endpoint, obj);
    if (config.misbehaviour.dropIgnoreEos) { // as a gateway that forwards only OpenAI's own fields
        out->ignoreEos = false;
        out->minTokens = 0;
    }
    return true;
}

bool parseTokenize(const QByteArray &body, const SimConfig &config, std::vector<qint64> *ids, ApiError *error)
{
    QJsonObject obj;
    if (!parseObject(body, &obj, error) || !checkModel(obj, config, error))
        return false;
    if (obj.contains(QLatin1String("messages")))
        return parsePromptSource(Endpoint::Chat, obj, ids, error);
    if (!obj.value(QLatin1String("prompt")).isString())
        return bad(error, QStringLiteral("prompt"), QStringLiteral("prompt (a string) or messages is required."));
    SimTokenizer::encode(obj.value(QLatin1String("prompt")).toString().toUtf8(), ids);
    return true;
}

QByteArray errorBody(const ApiError &error)
{
    QJsonObject o { { QStringLiteral("object"), QStringLiteral("error") }, { QStringLiteral("message"), error.message },
        { QStringLiteral("type"), QString::fromLatin1(error.type) },
        { QStringLiteral("param"), error.param.isEmpty() ? QJsonValue() : QJsonValue(error.param) },
        { QStringLiteral("code"), error.status } };
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray errorBody(Endpoint endpoint, const ApiError &error)
{
    if (endpoint == Endpoint::Generate)
        return QJsonDocument(
            QJsonObject { { QStringLiteral("error"), QJsonObject { { QStringLiteral("message"), error.message } } } })
            .toJson(QJsonDocument::Compact);
    if (endpoint != Endpoint::Messages)
        return errorBody(error);
    const char *type = error.status == 400           ? "invalid_request_error"
        : error.status == 401                        ? "authentication_error"
        : error.status == 404                        ? "not_found_error"
        : error.status == 429                        ? "rate_limit_error"
        : error.status == 503 || error.status == 529 ? "overloaded_error"
                                                     : "api_error";
    const QJsonObject inner { { QStringLiteral("type"), QString::fromLatin1(type) },
        { QStringLiteral("message"), error.message } };
    return QJsonDocument(
        QJsonObject { { QStringLiteral("type"), QStringLiteral("error") }, { QStringLiteral("error"), inner } })
        .toJson(QJsonDocument::Compact);
}

} // namespace ServeScope::Sim
