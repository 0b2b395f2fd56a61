// SPDX-License-Identifier: MIT
// A streamed chunk's JSON: whenever the engine's scan accepts an event, what it read must be what
// QJsonDocument reads from the same bytes (docs/engine.md, Hot path).
#include "engine/chunkscan.h"
#include "fuzztargets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ServeScope::Fuzz {

namespace {

QString decoded(QByteArrayView raw)
{
    QString s;
    appendJsonString(s, raw);
    return s;
}

QString differs(const char *what, const QString &scanned, const QString &qt)
{
    return scanned == qt ? QString()
                         : QStringLiteral("%1: the scan read \"%2\", QJsonDocument \"%3\"")
                               .arg(QLatin1String(what), scanned.left(80), qt.left(80));
}

} // namespace

QString chunkJson(QByteArrayView input)
{
    ChunkFields f;
    if (!scanChunk(input, &f))
        return QString(); // left to QJsonDocument, which then decides alone
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(input.data(), input.size()), &err);
    if (err.error != QJsonParseError::NoError)
        return QStringLiteral("the scan accepted what QJsonDocument refuses: ") + err.errorString();
    if (!doc.isObject())
        return QStringLiteral("the scan accepted a document that is not an object");
    const QJsonObject o = doc.object();
    const QJsonObject u = o.value(QLatin1String("usage")).toObject();
    const QJsonObject c = o.value(QLatin1String("choices")).toArray().at(0).toObject();
    const QJsonObject delta = c.value(QLatin1String("delta")).toObject();
    if (f.usage != !u.isEmpty())
        return QStringLiteral("usage: the scan says %1").arg(f.usage);
    if (f.usage
        && (f.promptTokens != u.value(QLatin1String("prompt_tokens")).toInt()
            || f.completionTokens != u.value(QLatin1String("completion_tokens")).toInt()))
        return QStringLiteral("usage counts: the scan read %1/%2").arg(f.promptTokens).arg(f.completionTokens);
    const QJsonValue reasoning
        = u.value(QLatin1String("completion_tokens_details")).toObject().value(QLatin1String("reasoning_tokens"));
    if (f.reasoningTokens != (reasoning.isDouble() ? reasoning.toInt() : -1))
        return QStringLiteral("reasoning_tokens: the scan read %1").arg(f.reasoningTokens);
    const QJsonValue cached
        = u.value(QLatin1String("prompt_tokens_details")).toObject().value(QLatin1String("cached_tokens"));
    if (f.cachedTokens != (cached.isDouble() ? cached.toInt() : -1))
        return QStringLiteral("cached_tokens: the scan read %1").arg(f.cachedTokens);
    if (f.finishReason != c.value(QLatin1String("finish_reason")).isString())
        return QStringLiteral("finish_reason: the scan says %1").arg(f.finishReason);
    for (const QString &broken : {
             differs("model", decoded(f.model), o.value(QLatin1String("model")).toString()),
             differs("system_fingerprint", decoded(f.systemFingerprint),
                 o.value(QLatin1String("system_fingerprint")).toString()),
             differs("text", decoded(f.text), c.value(QLatin1String("text")).toString()),
             differs("content", decoded(f.content), delta.value(QLatin1String("content")).toString()),
             differs("reasoning_content", decoded(f.reasoningContent),
                 delta.value(QLatin1String("reasoning_content")).toString()),
             differs("reasoning", decoded(f.reasoning), delta.value(QLatin1String("reasoning")).toString()),
         })
        if (!broken.isEmpty())
            return broken;
    return QString();
}

} // namespace ServeScope::Fuzz
