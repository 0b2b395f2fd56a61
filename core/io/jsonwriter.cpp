// SPDX-License-Identifier: MIT
// writeJsonTree(): pretty JSON in the node's member order (QJsonDocument would sort keys); writeYamlTree():
// the same tree as block YAML.
#include "jsontree.h"

#include <QRegularExpression>

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

// A YAML double-quoted scalar: JSON's escapes, plus \uXXXX for what YAML does not allow bare (DEL,
// C1 controls, line and paragraph separators, the byte-order mark).
void writeYamlString(QByteArray &out, const QString &s)
{
    QString escaped;
    escaped.reserve(s.size() + 2);
    escaped += u'"';
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        if (u == u'"')
            escaped += QLatin1String("\\\"");
        else if (u == u'\\')
            escaped += QLatin1String("\\\\");
        else if (u == u'\n')
            escaped += QLatin1String("\\n");
        else if (u == u'\t')
            escaped += QLatin1String("\\t");
        else if (u < 0x20 || u == 0x7f || (u >= 0x80 && u <= 0x9f) || u == 0x2028 || u == 0x2029 || u == 0xfeff)
            escaped += QStringLiteral("\\u%1").arg(unsigned(u), 4, 16, QLatin1Char('0'));
        else
            escaped += c;
    }
    escaped += u'"';
    out += escaped.toUtf8();
}

bool plainKey(const QString &key)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_.]*$"));
    return re.match(key).hasMatch() && key != QLatin1String("true") && key != QLatin1String("false")
        && key != QLatin1String("null");
}

// A scalar (or empty container) on one line: JSON's text is YAML's, but for strings (YAML's own
// escapes) and infinities (which JSON has no word for).
void writeYamlScalar(QByteArray &out, const JsonNode &n)
{
    if (n.isString())
        writeYamlString(out, n.string);
    else if (n.isNumber() && std::isnan(n.number))
        out += ".nan";
    else if (n.isNumber() && std::isinf(n.number))
        out += n.number > 0 ? ".inf" : "-.inf";
    else
        write(out, n, 0);
}

bool yamlInline(const JsonNode &n)
{
    return isScalar(n) || n.children.empty();
}

void writeYaml(QByteArray &out, const JsonNode &n, int indent, bool continuesLine = false);

// One block entry's value after "key:" or "-": inline when scalar or empty, else on the next lines.
void writeYamlValue(QByteArray &out, const JsonNode &n, int indent)
{
    if (yamlInline(n)) {
        out += ' ';
        writeYamlScalar(out, n);
        out += '\n';
        return;
    }
    out += '\n';
    writeYaml(out, n, indent);
}

void writeYaml(QByteArray &out, const JsonNode &n, int indent, bool continuesLine)
{
    const QByteArray pad(indent * 2, ' ');
    if (n.isObject()) {
        for (size_t i = 0; i < n.children.size(); ++i) {
            if (i > 0 || !continuesLine)
                out += pad;
            if (plainKey(n.keys[i]))
                out += n.keys[i].toUtf8();
            else
                writeYamlString(out, n.keys[i]);
            out += ':';
            writeYamlValue(out, n.children[i], indent + 1);
        }
    } else {
        // "- first: v" with the item's other members below it, as YAML is usually written.
        for (const JsonNode &c : n.children) {
            out += pad + '-';
            if (c.isObject() && !c.children.empty()) {
                out += ' ';
                writeYaml(out, c, indent + 1, true);
            } else {
                writeYamlValue(out, c, indent + 1);
            }
        }
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

QByteArray writeYamlTree(const JsonNode &node)
{
    QByteArray out;
    if (yamlInline(node)) {
        writeYamlScalar(out, node);
        out += '\n';
    } else {
        writeYaml(out, node, 0);
    }
    return out;
}

} // namespace ServeScope
