// SPDX-License-Identifier: MIT
#include "jsontree.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringDecoder>

#include <charconv>
#include <cmath>

namespace ServeScope {

const JsonNode *JsonNode::member(const QString &key) const
{
    for (size_t i = 0; i < keys.size(); ++i) {
        if (keys[i] == key)
            return &children[i];
    }
    return nullptr;
}

const JsonNode *JsonNode::member(QLatin1String key) const
{
    for (size_t i = 0; i < keys.size(); ++i) {
        if (keys[i] == key)
            return &children[i];
    }
    return nullptr;
}

JsonNode &JsonNode::add(const QString &key, JsonNode value)
{
    keys.push_back(key);
    children.push_back(std::move(value));
    return children.back();
}

QJsonValue JsonNode::toJsonValue() const
{
    switch (type) {
    case Type::Null:
        return QJsonValue(QJsonValue::Null);
    case Type::Bool:
        return boolean;
    case Type::Number:
        return number;
    case Type::String:
        return string;
    case Type::Array: {
        QJsonArray a;
        for (const JsonNode &c : children)
            a.append(c.toJsonValue());
        return a;
    }
    case Type::Object: {
        QJsonObject o;
        for (size_t i = 0; i < keys.size(); ++i)
            o.insert(keys[i], children[i].toJsonValue());
        return o;
    }
    }
    return QJsonValue();
}

JsonNode JsonNode::fromJsonValue(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Bool:
        return makeBool(v.toBool());
    case QJsonValue::Double:
        return makeNumber(v.toDouble());
    case QJsonValue::String:
        return makeString(v.toString());
    case QJsonValue::Array: {
        JsonNode n = makeArray();
        const QJsonArray a = v.toArray();
        for (const QJsonValue &item : a)
            n.children.push_back(fromJsonValue(item));
        return n;
    }
    case QJsonValue::Object: {
        JsonNode n = makeObject();
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            n.add(it.key(), fromJsonValue(it.value()));
        return n;
    }
    default:
        return JsonNode();
    }
}

JsonNode JsonNode::makeString(const QString &s)
{
    JsonNode n;
    n.type = Type::String;
    n.string = s;
    return n;
}

JsonNode JsonNode::makeNumber(double d)
{
    JsonNode n;
    n.type = Type::Number;
    n.number = d;
    return n;
}

JsonNode JsonNode::makeBool(bool b)
{
    JsonNode n;
    n.type = Type::Bool;
    n.boolean = b;
    return n;
}

JsonNode JsonNode::makeObject()
{
    JsonNode n;
    n.type = Type::Object;
    return n;
}

JsonNode JsonNode::makeArray()
{
    JsonNode n;
    n.type = Type::Array;
    return n;
}

QString utf8Text(QByteArrayView utf8)
{
    if (!utf8.startsWith("\xEF\xBB\xBF"))
        return QString::fromUtf8(utf8);
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom);
    return decoder.decode(utf8);
}

int firstInvalidUtf8Line(const QByteArray &bytes)
{
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype n = bytes.size();
    int line = 1;
    for (qsizetype i = 0; i < n;) {
        const unsigned char c = p[i];
        if (c == '\n')
            ++line;
        int extra = 0;
        quint32 cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return line;
        }
        for (int k = 1; k <= extra; ++k) {
            if (i + k >= n || (p[i + k] & 0xC0) != 0x80)
                return line;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        static const quint32 minimum[] = { 0, 0x80, 0x800, 0x10000 };
        if (cp < minimum[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return line;
        i += extra + 1;
    }
    return 0;
}

} // namespace ServeScope
