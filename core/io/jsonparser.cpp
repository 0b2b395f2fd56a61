// SPDX-License-Identifier: MIT
// The strict JSON parser behind parseJsonTree() (see jsontree.h for why it exists).
#include "jsontree.h"
#include "model/problem.h"

#include <QCoreApplication>

#include <QStringList>

#include <cmath>

namespace ServeScope {

namespace {

constexpr const char *kCtx = "ServeScope::Syntax";

Reason syntax(const char *source)
{
    return Reason::in(kCtx, source, {});
}

class Parser {
public:
    Parser(const QByteArray &bytes, const JsonLimits &limits)
        : m_p(bytes.constData())
        , m_end(bytes.constData() + bytes.size())
        , m_limits(limits)
    {
    }

    bool parseDocument(JsonNode *out)
    {
        skipSpace();
        if (!parseValue(out, 1))
            return false;
        skipSpace();
        if (m_p != m_end)
            return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "unexpected text after the JSON value")));
        return true;
    }

    QString error;
    QString shown; ///< `error` in the application's language

private:
    const char *m_p;
    const char *m_end;
    JsonLimits m_limits;
    int m_line = 1;
    const char *m_lineStart = m_p;
    QStringList m_path;

    int column() const { return int(m_p - m_lineStart) + 1; }

    bool fail(const Reason &why)
    {
        if (error.isEmpty()) {
            const QString line = QString::number(m_line);
            const QString col = QString::number(column());
            const Reason c = m_path.isEmpty()
                ? Reason::in(
                    kCtx, QT_TRANSLATE_NOOP("ServeScope::Syntax", "line %1, column %2: %3"), { line, col, why.text() })
                : Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Syntax", "line %1, column %2 (at %3): %4"),
                    { line, col, m_path.join(QString()), why.text() });
            error = c.text();
            Reason t = c;
            t.args.last() = why.translated();
            shown = t.translated();
        }
        return false;
    }

    void skipSpace()
    {
        while (m_p != m_end) {
            const char c = *m_p;
            if (c == '\n') {
                ++m_line;
                m_lineStart = m_p + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                return;
            }
            ++m_p;
        }
    }

    bool literal(const char *word)
    {
        const qsizetype len = qstrlen(word);
        if (m_end - m_p < len || qstrncmp(m_p, word, len) != 0)
            return false;
        m_p += len;
        return true;
    }

    bool parseValue(JsonNode *out, int depth)
    {
        if (depth > m_limits.maxDepth)
            return fail(Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Syntax", "nesting deeper than %1 levels"),
                { QString::number(m_limits.maxDepth) }));
        if (m_p == m_end)
            return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "unexpected end of file")));
        out->line = m_line;
        out->column = column();
        switch (*m_p) {
        case '{':
            return parseObject(out, depth);
        case '[':
            return parseArray(out, depth);
        case '"':
            out->type = JsonNode::Type::String;
            return parseString(&out->string);
        case 't':
        case 'f':
        case 'n':
            if (literal("true")) {
                *out = JsonNode::makeBool(true);
            } else if (literal("false")) {
                *out = JsonNode::makeBool(false);
            } else if (literal("null")) {
                out->type = JsonNode::Type::Null;
            } else {
                return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "invalid literal")));
            }
            out->line = m_line;
            out->column = column();
            return true;
        case 'N':
        case 'I':
            return fail(syntax(QT_TRANSLATE_NOOP(
                "ServeScope::Syntax", "NaN and Infinity are not JSON numbers (write \"inf\" where a rate allows it)")));
        default:
            return parseNumber(out);
        }
    }

    bool parseNumber(JsonNode *out)
    {
        const char *start = m_p;
        if (m_p != m_end && *m_p == '-')
            ++m_p;
        if (m_p != m_end && *m_p == 'I')
            return fail(syntax(QT_TRANSLATE_NOOP(
                "ServeScope::Syntax", "NaN and Infinity are not JSON numbers (write \"inf\" where a rate allows it)")));
        auto digits = [this] {
            const char *s = m_p;
            while (m_p != m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
            return m_p - s;
        };
        const char *intStart = m_p;
        if (digits() == 0)
            return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "expected a value")));
        if (*intStart == '0' && m_p - intStart > 1)
            return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "numbers must not have leading zeros")));
        if (m_p != m_end && *m_p == '.') {
            ++m_p;
            if (digits() == 0)
                return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "expected digits after the decimal point")));
        }
        if (m_p != m_end && (*m_p == 'e' || *m_p == 'E')) {
            ++m_p;
            if (m_p != m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            if (digits() == 0)
                return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "expected digits in the exponent")));
        }
        bool ok = false;
        const double d = QByteArray(start, m_p - start).toDouble(&ok);
        if (!ok || !std::isfinite(d))
            return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "number out of range")));
        *out = JsonNode::makeNumber(d);
        out->line = m_line;
        out->column = int(start - m_lineStart) + 1;
        return true;
    }

    bool hex4(char16_t *out)
    {
        if (m_end - m_p < 4)
            return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "incomplete \\u escape")));
        char16_t v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = *m_p++;
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= char16_t(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= char16_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= char16_t(c - 'A' + 10);
            else
                return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "invalid \\u escape")));
        }
        *out = v;
        return true;
    }

    bool parseEscape(QString *out)
    {
        const char c = *m_p++;
        switch (c) {
        case '"':
        case '\\':
        case '/':
            *out += QLatin1Char(c);
            return true;
        case 'b':
            *out += QLatin1Char('\b');
            return true;
        case 'f':
            *out += QLatin1Char('\f');
            return true;
        case 'n':
            *out += QLatin1Char('\n');
            return true;
        case 'r':
            *out += QLatin1Char('\r');
            return true;
        case 't':
            *out += QLatin1Char('\t');
            return true;
        case 'u': {
            char16_t hi = 0;
            if (!hex4(&hi))
                return false;
            if (QChar::isLowSurrogate(hi))
                return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "unpaired surrogate in \\u escape")));
            if (QChar::isHighSurrogate(hi)) {
                char16_t lo = 0;
                if (!literal("\\u") || !hex4(&lo) || !QChar::isLowSurrogate(lo))
                    return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "unpaired surrogate in \\u escape")));
                *out += QChar(hi);
                *out += QChar(lo);
            } else {
                *out += QChar(hi);
            }
            return true;
        }
        default:
            return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "invalid escape in a string")));
        }
    }

    bool parseString(QString *out)
    {
        ++m_p; // opening quote
        const char *runStart = m_p;
        out->clear();
        while (true) {
            if (m_p == m_end)
                return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "unterminated string")));
            const char c = *m_p;
            if (c == '"') {
                *out += utf8Text(QByteArrayView(runStart, m_p - runStart));
                ++m_p;
                return true;
            }
            if (static_cast<unsigned char>(c) < 0x20)
                return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "control character in a string")));
            if (c == '\\') {
                *out += utf8Text(QByteArrayView(runStart, m_p - runStart));
                ++m_p;
                if (m_p == m_end)
                    return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "unterminated string")));
                if (!parseEscape(out))
                    return false;
                runStart = m_p;
                continue;
            }
            ++m_p;
        }
    }

    bool parseArray(JsonNode *out, int depth)
    {
        out->type = JsonNode::Type::Array;
        ++m_p;
        skipSpace();
        if (m_p != m_end && *m_p == ']') {
            ++m_p;
            return true;
        }
        while (true) {
            m_path.append(QStringLiteral("[%1]").arg(out->children.size()));
            JsonNode item;
            skipSpace();
            if (!parseValue(&item, depth + 1))
                return false;
            m_path.removeLast();
            out->children.push_back(std::move(item));
            skipSpace();
            if (m_p != m_end && *m_p == ',') {
                ++m_p;
                continue;
            }
            if (m_p != m_end && *m_p == ']') {
                ++m_p;
                return true;
            }
            return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "expected ',' or ']'")));
        }
    }

    bool parseObject(JsonNode *out, int depth)
    {
        out->type = JsonNode::Type::Object;
        ++m_p;
        skipSpace();
        if (m_p != m_end && *m_p == '}') {
            ++m_p;
            return true;
        }
        while (true) {
            skipSpace();
            if (m_p == m_end || *m_p != '"')
                return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "expected a member name in double quotes")));
            QString key;
            if (!parseString(&key))
                return false;
            const QString part = m_path.isEmpty() ? key : QLatin1Char('.') + key;
            if (out->member(key))
                return fail(Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Syntax", "duplicate key \"%1\""), { key }));
            skipSpace();
            if (m_p == m_end || *m_p != ':')
                return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "expected ':' after a member name")));
            ++m_p;
            skipSpace();
            m_path.append(part);
            JsonNode value;
            if (!parseValue(&value, depth + 1))
                return false;
            m_path.removeLast();
            out->add(key, std::move(value));
            skipSpace();
            if (m_p != m_end && *m_p == ',') {
                ++m_p;
                continue;
            }
            if (m_p != m_end && *m_p == '}') {
                ++m_p;
                return true;
            }
            return fail(syntax(QT_TRANSLATE_NOOP("ServeScope::Syntax", "expected ',' or '}'")));
        }
    }
};

} // namespace

bool syntaxFailure(const Reason &why, QString *error, QString *shown)
{
    *error = why.text();
    if (shown)
        *shown = why.translated();
    return false;
}

bool parseJsonTree(const QByteArray &bytes, JsonNode *out, QString *error, const JsonLimits &limits, QString *shown)
{
    if (bytes.size() > limits.maxBytes)
        return syntaxFailure(Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Syntax", "file is larger than %1 bytes"),
                                 { QString::number(limits.maxBytes) }),
            error, shown);
    if (const int line = firstInvalidUtf8Line(bytes))
        return syntaxFailure(Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Syntax", "line %1: invalid UTF-8"),
                                 { QString::number(line) }),
            error, shown);
    QByteArray body = bytes;
    if (body.startsWith("\xEF\xBB\xBF"))
        body.remove(0, 3);
    Parser parser(body, limits);
    JsonNode root;
    if (!parser.parseDocument(&root)) {
        *error = parser.error;
        if (shown)
            *shown = parser.shown;
        return false;
    }
    *out = std::move(root);
    return true;
}

} // namespace ServeScope
