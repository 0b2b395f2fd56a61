// SPDX-License-Identifier: MIT
// A lexical pass run before toml++. Debian 12's toml++ 3.3.0 has undefined behaviour on some
// inputs: its Unicode whitespace test reaches __builtin_unreachable() for most code points in
// U+00A1-U+0499, U+2C8E-U+3087 and U+FBD6-U+FEFE wherever it looks for whitespace (upstream
// issues 190 and 295), and its table-header parser asserts that a key follows '[' (an
// assumption, so undefined behaviour, when it is built with clang and NDEBUG). This pass refuses
// the places where that can happen — non-ASCII outside string values and comments (invalid TOML
// anyway, as are control characters there), in quoted keys, after a backslash in a multi-line
// string, and a table header without a key — with an error in toml++'s "line L, column C:
// reason" form. Found by fuzz_experiment_toml and fuzz_experiment_json.
#include "importers.h"

#include <QCoreApplication>

namespace ServeScope {

namespace {

// A lexer just precise enough to know, at each byte, whether toml++ reads it inside a string
// value, a key, a comment or a bare token (number, date, boolean), and so whether it may call
// its whitespace test on a non-ASCII code point there.
class TomlGuard {
public:
    explicit TomlGuard(const QByteArray &bytes)
        : m_s(bytes)
    {
    }
    bool run(QString *error, QString *shown);

private:
    char at(qsizetype i) const { return i < m_s.size() ? m_s.at(i) : '\0'; }
    static bool nonAscii(char c) { return quint8(c) >= 0x80; }
    static bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
    static bool bareKeyChar(char c)
    {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }
    /// Column in code points, as toml++ counts.
    bool fail(qsizetype i, const char *reason);
    bool string(char quote); // m_i at the opening quote; leaves m_i after the closing one
    bool header();
    bool bareEnds(char c) const;
    bool structural(char c, bool lineStart);

    const QByteArray &m_s;
    qsizetype m_i = 0;
    QByteArray m_open; // '[' and '{' open inside a value
    bool m_key = true; // a key comes next or is being read (line start, header, after '{' or ',' in an inline table)
    bool m_inValue = false; // after a key's '=' until the end of its value
    bool m_bare = false; // inside a bare key or bare value: toml++ reads on to its terminator, quotes included
    QString m_error;
    QString m_shown; // m_error in the application's language
};

bool TomlGuard::fail(qsizetype i, const char *reason)
{
    int line = 1, column = 1;
    for (qsizetype k = 0; k < i; ++k) {
        if (m_s.at(k) == '\n') {
            ++line;
            column = 1;
        } else if ((quint8(m_s.at(k)) & 0xC0) != 0x80) {
            ++column;
        }
    }
    const Reason why = Reason::in("ServeScope::Syntax", reason, {});
    Reason at = Reason::in("ServeScope::Syntax", QT_TRANSLATE_NOOP("ServeScope::Syntax", "line %1, column %2: %3"),
        { QString::number(line), QString::number(column), why.text() });
    m_error = at.text();
    at.args.last() = why.translated();
    m_shown = at.translated();
    return false;
}

bool TomlGuard::string(char quote)
{
    const bool multi = at(m_i + 1) == quote && at(m_i + 2) == quote;
    const bool basic = quote == '"';
    m_i += multi ? 3 : 1;
    qsizetype firstNonAscii = -1;
    while (m_i < m_s.size()) {
        const char c = m_s.at(m_i);
        if (c == quote && (!multi || (at(m_i + 1) == quote && at(m_i + 2) == quote))) {
            m_i += multi ? 3 : 1;
            // Up to two more quotes belong to the content ("""a"""" ends in a quote).
            for (int extra = 0; multi && extra < 2 && at(m_i) == quote; ++extra)
                ++m_i;
            break;
        }
        if (!multi && c == '\n')
            break; // toml++ reports the unterminated string
        if (nonAscii(c) && firstNonAscii < 0)
            firstNonAscii = m_i;
        if (basic && c == '\\') {
            ++m_i;
            if (multi && nonAscii(at(m_i)))
                return fail(
                    m_i, QT_TRANSLATE_NOOP("ServeScope::Syntax", "a non-ASCII character cannot follow a backslash"));
            if (multi && space(at(m_i))) {
                while (space(at(m_i)))
                    ++m_i;
                if (nonAscii(at(m_i)))
                    return fail(m_i,
                        QT_TRANSLATE_NOOP("ServeScope::Syntax",
                            "a line-ending backslash cannot be followed by a non-ASCII character"));
                continue;
            }
        }
        ++m_i;
    }
    if (m_key && firstNonAscii >= 0)
        return fail(
            firstNonAscii, QT_TRANSLATE_NOOP("ServeScope::Syntax", "non-ASCII characters in keys are not supported"));
    return true;
}

bool TomlGuard::header()
{
    ++m_i; // '['
    if (at(m_i) == '[')
        ++m_i;
    while (at(m_i) == ' ' || at(m_i) == '\t')
        ++m_i;
    const char c = at(m_i);
    if (!bareKeyChar(c) && c != '"' && c != '\'' && c != ']')
        return fail(m_i, QT_TRANSLATE_NOOP("ServeScope::Syntax", "expected a key in the table header"));
    m_key = true; // the header's key goes through the main loop
    return true;
}

// toml++ ends a bare key at the first byte that is no key character, a bare value only at
// whitespace, ']', '}', ',' or '#'.
bool TomlGuard::bareEnds(char c) const
{
    if (m_key)
        return !bareKeyChar(c);
    return space(c) || c == ']' || c == '}' || c == ',' || c == '#';
}

// Brackets, '=' and ','; false on an error. Any other byte starts a bare token.
bool TomlGuard::structural(char c, bool lineStart)
{
    const char top = m_open.isEmpty() ? '\0' : m_open.back();
    if (c == '[' && lineStart && !m_inValue)
        return header();
    ++m_i;
    if (c == '=' && m_key) {
        m_key = false;
        m_inValue = true;
    } else if ((c == '[' || c == '{') && m_inValue) {
        m_open.append(c);
        m_key = c == '{';
    } else if ((c == ']' && top == '[') || (c == '}' && top == '{')) {
        m_open.chop(1);
    } else if (c == ',' && top == '{') {
        m_key = true;
    } else if (!space(c) && c != '.' && c != ']' && c != '}' && c != ',' && c != '=') {
        m_bare = true;
    }
    return true;
}

bool TomlGuard::run(QString *error, QString *shown)
{
    bool lineStart = true;
    if (m_s.startsWith("\xEF\xBB\xBF"))
        m_i = 3; // toml++ skips a byte-order mark
    while (m_i < m_s.size() && m_error.isEmpty()) {
        const char c = m_s.at(m_i);
        if (nonAscii(c)) {
            fail(m_i, QT_TRANSLATE_NOOP("ServeScope::Syntax", "non-ASCII character outside a string or comment"));
        } else if (quint8(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            fail(m_i, QT_TRANSLATE_NOOP("ServeScope::Syntax", "control character outside a string"));
        } else if (m_bare && !bareEnds(c) && !(m_key && (c == '"' || c == '\''))) {
            ++m_i; // inside a bare token, quotes included
        } else if (c == '#') {
            m_bare = false;
            while (m_i < m_s.size() && m_s.at(m_i) != '\n')
                ++m_i;
        } else if (c == '\n') {
            m_bare = false;
            if (m_open.isEmpty()) {
                m_inValue = false;
                m_key = true;
            }
            lineStart = true;
            ++m_i;
        } else if (c == '"' || c == '\'') {
            m_bare = false;
            lineStart = false;
            string(c);
        } else {
            m_bare = false;
            structural(c, lineStart);
            lineStart = lineStart && (c == ' ' || c == '\t' || c == '\r');
        }
    }
    if (!m_error.isEmpty()) {
        *error = m_error;
        if (shown)
            *shown = m_shown;
        return false;
    }
    return true;
}

} // namespace

bool checkTomlForParser(const QByteArray &bytes, QString *error, QString *shown)
{
    return TomlGuard(bytes).run(error, shown);
}

} // namespace ServeScope
