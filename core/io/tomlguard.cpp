// SPDX-License-Identifier: MIT
// A lexical pass run before toml++. Debian 12's toml++ 3.3.0 has undefined behaviour on some
// inputs: its Unicode whitespace test reaches __builtin_unreachable() for most code points in
// U+00A1-U+0499, U+2C8E-U+3087 and U+FBD6-U+FEFE wherever it looks for whitespace (upstream
// issues 190 and 295), and its table-header parser assumes a key follows '['. This pass refuses
// exactly the places where that can happen — non-ASCII outside string values and comments
// (invalid TOML anyway), in quoted keys, after a backslash in a multi-line string, and a table
// header without a key — with an error in toml++'s "line L, column C: reason" form.
#include "importers.h"

namespace ServeScope {

namespace {

class TomlGuard {
public:
    explicit TomlGuard(const QByteArray &bytes)
        : m_s(bytes)
    {
    }
    bool run(QString *error);

private:
    char at(qsizetype i) const { return i < m_s.size() ? m_s.at(i) : '\0'; }
    static bool nonAscii(char c) { return quint8(c) >= 0x80; }
    static bool bareKeyChar(char c)
    {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }
    /// Column in code points, as toml++ counts.
    bool fail(qsizetype i, const char *reason);
    bool string(char quote); // m_i at the opening quote; leaves m_i after the closing one
    bool header();
    bool isKeyAhead() const; // after a string: is it followed by '=' or '.' (a key)?

    const QByteArray &m_s;
    qsizetype m_i = 0;
    int m_depth = 0; // [ ] and { } nesting inside a value
    bool m_inValue = false; // after '=' on this logical line
    QString m_error;
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
    m_error = QStringLiteral("line %1, column %2: ").arg(line).arg(column) + QLatin1String(reason);
    return false;
}

bool TomlGuard::isKeyAhead() const
{
    qsizetype k = m_i;
    while (at(k) == ' ' || at(k) == '\t')
        ++k;
    return at(k) == '=' || at(k) == '.';
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
                return fail(m_i, "a non-ASCII character cannot follow a backslash");
            if (multi && (at(m_i) == ' ' || at(m_i) == '\t' || at(m_i) == '\r' || at(m_i) == '\n')) {
                while (at(m_i) == ' ' || at(m_i) == '\t' || at(m_i) == '\r' || at(m_i) == '\n')
                    ++m_i;
                if (nonAscii(at(m_i)))
                    return fail(m_i, "a line-ending backslash cannot be followed by a non-ASCII character");
                continue;
            }
        }
        ++m_i;
    }
    // Before '=' it is a key; inside a value (an inline table) one followed by '=' or '.'.
    const bool key = !m_inValue || isKeyAhead();
    if (key && firstNonAscii >= 0)
        return fail(firstNonAscii, "non-ASCII characters in keys are not supported");
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
        return fail(m_i, "expected a key in the table header");
    // The rest of the header goes through the main loop as keys (not in a value).
    return true;
}

bool TomlGuard::run(QString *error)
{
    bool lineStart = true;
    if (m_s.startsWith("\xEF\xBB\xBF"))
        m_i = 3; // toml++ skips a byte-order mark
    while (m_i < m_s.size()) {
        const char c = m_s.at(m_i);
        if (c == '#') {
            while (m_i < m_s.size() && m_s.at(m_i) != '\n')
                ++m_i;
            continue;
        }
        if (c == '"' || c == '\'') {
            if (!string(c))
                break;
            lineStart = false;
            continue;
        }
        if (nonAscii(c)) {
            fail(m_i, "non-ASCII character outside a string or comment");
            break;
        }
        if (quint8(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            fail(m_i, "control character outside a string");
            break;
        }
        if (c == '\n') {
            if (m_depth == 0)
                m_inValue = false;
            lineStart = true;
            ++m_i;
            continue;
        }
        if (c == '[' && lineStart && !m_inValue) {
            if (!header())
                break;
            lineStart = false;
            continue;
        }
        if (c == '=' && m_depth == 0)
            m_inValue = true;
        else if (m_inValue && (c == '[' || c == '{'))
            ++m_depth;
        else if (m_inValue && (c == ']' || c == '}') && m_depth > 0)
            --m_depth;
        if (c != ' ' && c != '\t' && c != '\r')
            lineStart = false;
        ++m_i;
    }
    if (!m_error.isEmpty()) {
        *error = m_error;
        return false;
    }
    return true;
}

} // namespace

bool checkTomlForParser(const QByteArray &bytes, QString *error)
{
    return TomlGuard(bytes).run(error);
}

} // namespace ServeScope
