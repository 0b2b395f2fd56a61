// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <vector>

namespace ServeScope {

/// A parsed JSON (or converted TOML) value that keeps member order and source positions, so
/// readers report `line N` and writers keep schema order. QJsonDocument does neither, keeps the
/// last duplicate key silently and has no depth limit, hence this small parser.
struct JsonNode {
    enum class Type : quint8 { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    bool boolean = false;
    double number = 0;
    QString string;
    std::vector<QString> keys; ///< Object member names, in file order
    std::vector<JsonNode> children; ///< Object member values (parallel to keys) or Array items
    int line = 0; ///< 1-based; 0 when not from a file
    int column = 0;

    bool isObject() const noexcept { return type == Type::Object; }
    bool isArray() const noexcept { return type == Type::Array; }
    bool isString() const noexcept { return type == Type::String; }
    bool isNumber() const noexcept { return type == Type::Number; }
    bool isBool() const noexcept { return type == Type::Bool; }
    bool isNull() const noexcept { return type == Type::Null; }
    /// The member named key of an object, or nullptr.
    const JsonNode *member(const QString &key) const;
    const JsonNode *member(QLatin1String key) const;
    /// Appends a member (objects) without checking for duplicates.
    JsonNode &add(const QString &key, JsonNode value);
    QJsonValue toJsonValue() const;

    static JsonNode fromJsonValue(const QJsonValue &value);
    static JsonNode makeString(const QString &s);
    static JsonNode makeNumber(double d);
    static JsonNode makeBool(bool b);
    static JsonNode makeObject();
    static JsonNode makeArray();
};

struct JsonLimits {
    qsizetype maxBytes = 8 * 1024 * 1024;
    int maxDepth = 64;
};

/// Strict RFC 8259 parse with limits: size, depth, valid UTF-8, no duplicate keys, no NaN or
/// Infinity. On failure returns false and sets *error to "line L, column C: reason" (with the
/// JSON path when known); the message never quotes string values from the input. `shown`, when
/// given, receives the same line in the application's language (context "ServeScope::Syntax").
bool parseJsonTree(
    const QByteArray &bytes, JsonNode *out, QString *error, const JsonLimits &limits = {}, QString *shown = nullptr);

/// Sets *error to why's C-locale line and, when `shown` is given, *shown to its translation; returns false.
bool syntaxFailure(const Reason &why, QString *error, QString *shown);

/// Pretty-printed UTF-8 JSON, members in the node's order, scalar arrays on one line.
QByteArray writeJsonTree(const JsonNode &node);

/// The same tree as block YAML 1.2, members in the node's order: strings double-quoted, numbers
/// shortest, infinities `.inf`, an array's object items as `- first: value`.
QByteArray writeYamlTree(const JsonNode &node);

/// UTF-8 text to a QString, keeping a U+FEFF at its start: QString::fromUtf8 drops it as a
/// byte-order mark, which loses the character when a string value starts with it.
QString utf8Text(QByteArrayView utf8);

/// Line (1-based) of the first invalid UTF-8 sequence, or 0 when the bytes are valid UTF-8.
int firstInvalidUtf8Line(const QByteArray &bytes);

} // namespace ServeScope
