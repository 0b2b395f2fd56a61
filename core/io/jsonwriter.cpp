// SPDX-License-Identifier: MIT
// writeJsonTree(): pretty JSON in the node's member order (QJsonDocument would sort keys).
#include "jsontree.h"

#include <charconv>
#include <cmath>

namespace ServeScope {

namespace {

void writeString(QByteArray &out, const QString &s)
{
    out += '"';
    const QByteArray utf8 = s.toUtf8();
    for (char c : utf8) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void writeNumber(QByteArray &out, double d)
{
    char buf[64];
    // Shortest text that reads back as the same double; integers without a fraction.
    const auto result = std::to_chars(buf, buf + sizeof buf, d);
    out.append(buf, result.ptr - buf);
}

bool isScalar(const JsonNode &n)
{
    return !n.isArray() && !n.isObject();
}

bool isFlat(const JsonNode &n)
{
    if (n.isObject())
        return n.children.empty();
    if (!n.isArray())
        return true;
    for (const JsonNode &c : n.children) {
        if (!isScalar(c))
            return false;
    }
    return true;
}

void write(QByteArray &out, const JsonNode &n, int indent)
{
    const QByteArray pad(indent * 2, ' ');
    const QByteArray padIn((indent + 1) * 2, ' ');
    switch (n.type) {
    case JsonNode::Type::Null:
        out += "null";
        return;
    case JsonNode::Type::Bool:
        out += n.boolean ? "true" : "false";
        return;
    case JsonNode::Type::Number:
        writeNumber(out, n.number);
        return;
    case JsonNode::Type::String:
        writeString(out, n.string);
        return;
    case JsonNode::Type::Array:
        if (isFlat(n)) {
            out += '[';
            for (size_t i = 0; i < n.children.size(); ++i) {
                if (i)
                    out += ", ";
                write(out, n.children[i], indent + 1);
            }
            out += ']';
            return;
        }
        out += "[\n";
        for (size_t i = 0; i < n.children.size(); ++i) {
            out += padIn;
            write(out, n.children[i], indent + 1);
            out += i + 1 < n.children.size() ? ",\n" : "\n";
        }
        out += pad + ']';
        return;
    case JsonNode::Type::Object:
        if (n.children.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        for (size_t i = 0; i < n.children.size(); ++i) {
            out += padIn;
            writeString(out, n.keys[i]);
            out += ": ";
            write(out, n.children[i], indent + 1);
            out += i + 1 < n.children.size() ? ",\n" : "\n";
        }
        out += pad + '}';
        return;
    }
}

} // namespace

QByteArray writeJsonTree(const JsonNode &node)
{
    QByteArray out;
    write(out, node, 0);
    out += '\n';
    return out;
}

} // namespace ServeScope
