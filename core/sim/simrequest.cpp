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

bool parsePromptSource(Endpoint endpoint, const QJsonObject &obj, std::vector<qint64> *ids, ApiError *e)
{
    if (endpoint == Endpoint::Completion) {
        if (!obj.contains(QLatin1String("prompt")))
            return bad(e, QStringLiteral("prompt"), QStringLiteral("Field required: prompt."));
        return parsePrompt(obj.value(QLatin1String("prompt")), ids, e);
    }
    const QJsonValue messages = obj.value(QLatin1String("messages"));
    if (!messages.isArray() || messages.toArray().isEmpty())
        return bad(e, QStringLiteral("messages"), QStringLiteral("messages must be a non-empty list of messages."));
    if (!SimTokenizer::encodeMessages(messages.toArray(), ids))
        return bad(e, QStringLiteral("messages"),
            QStringLiteral("Each message needs a string role and string (or text parts) content."));
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
    if (!parseObject(body, &obj, error) || !checkModel(obj, config, error))
        return false;
    *out = GenerationRequest {};
    out->endpoint = endpoint;
    if (!parsePromptSource(endpoint, obj, &out->promptIds, error) || !parseSampling(obj, out, error))
        return false;
    const int maxLen = config.scheduler.maxModelLen;
    const int room = maxLen - out->promptTokens();
    int maxTokens = 0;
    const char *field = "max_tokens";
    if (endpoint == Endpoint::Chat && obj.contains(QLatin1String("max_completion_tokens"))
        && !obj.value(QLatin1String("max_completion_tokens")).isNull())
        field = "max_completion_tokens";
    if (!intField(obj, field, 1, qMax(room, 1), &maxTokens, error)
        || !intField(obj, "min_tokens", 0, 0, &out->minTokens, error))
        return false;
    if (out->minTokens > maxTokens)
        return bad(error, QStringLiteral("min_tokens"),
            QStringLiteral("min_tokens must be less than or equal to max_tokens=%1, got %2.")
                .arg(maxTokens)
                .arg(out->minTokens));
    if (out->promptTokens() + maxTokens > maxLen) {
        const QString where = endpoint == Endpoint::Chat ? QStringLiteral("messages") : QStringLiteral("prompt");
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
    if (config.stream.echoPrompt)
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

} // namespace ServeScope::Sim
