// SPDX-License-Identifier: MIT
// A small reader for the YAML that llm-d Benchmark Reports are written in (see yamlsubset.h).
#include "import/yamlsubset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringList>
#include <QVector>

#include <cmath>
#include <limits>

namespace ServeScope::Yaml {

namespace {

struct Line {
    int number = 0; ///< 1-based
    int indent = 0;
    QString text; ///< without indentation and comment
};

struct Failure {
    QString what;
    int line = 0;
};

// The position of a comment's '#' (start of text or after a space, outside quotes), or -1.
qsizetype commentAt(const QString &s)
{
    QChar quote;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s.at(i);
        if (!quote.isNull()) {
            if (c == quote) {
                if (quote == u'\'' && i + 1 < s.size() && s.at(i + 1) == u'\'')
                    ++i; // '' inside single quotes
                else
                    quote = QChar();
            } else if (c == u'\\' && quote == u'"') {
                ++i;
            }
            continue;
        }
        if ((c == u'"' || c == u'\'')
            && (i == 0 || s.at(i - 1) == u' ' || s.at(i - 1) == u':' || s.at(i - 1) == u'-' || s.at(i - 1) == u'['
                || s.at(i - 1) == u'{' || s.at(i - 1) == u','))
            quote = c;
        else if (c == u'#' && (i == 0 || s.at(i - 1) == u' '))
            return i;
    }
    return -1;
}

class Parser {
public:
    explicit Parser(QVector<Line> lines)
        : m_lines(std::move(lines))
    {
    }

    QJsonValue document()
    {
        if (m_lines.isEmpty())
            return QJsonValue::Null;
        QJsonValue v = block(m_lines.first().indent);
        if (m_pos < m_lines.size())
            fail(QStringLiteral("unexpected indentation"), m_lines.at(m_pos).number);
        return v;
    }

    Failure failure;

private:
    QVector<Line> m_lines;
    qsizetype m_pos = 0;
    int m_depth = 0;

    void fail(const QString &what, int line)
    {
        if (failure.what.isEmpty())
            failure = { what, line };
    }
    bool failed() const { return !failure.what.isEmpty(); }

    static bool isItem(const QString &t) { return t == u'-' || t.startsWith(QLatin1String("- ")); }

    QJsonValue block(int indent)
    {
        if (++m_depth > 200) {
            fail(QStringLiteral("nesting too deep"), m_lines.at(m_pos).number);
            return {};
        }
        QJsonValue v = isItem(m_lines.at(m_pos).text) ? sequence(indent) : mapping(indent);
        --m_depth;
        return v;
    }

    // Where a key's colon is: the first ": " or a trailing ':' outside quotes.
    static qsizetype keyColon(const QString &t)
    {
        if (t.startsWith(u'"') || t.startsWith(u'\'')) {
            const QChar q = t.at(0);
            qsizetype i = 1;
            for (; i < t.size(); ++i) {
                if (t.at(i) == q) {
                    if (q == u'\'' && i + 1 < t.size() && t.at(i + 1) == u'\'') {
                        ++i;
                        continue;
                    }
                    break;
                }
                if (q == u'"' && t.at(i) == u'\\')
                    ++i;
            }
            const qsizetype after = i + 1;
            if (after < t.size() && t.at(after) == u':' && (after + 1 == t.size() || t.at(after + 1) == u' '))
                return after;
            return -1;
        }
        if (t.startsWith(u'{') || t.startsWith(u'['))
            return -1;
        for (qsizetype i = 0; i < t.size(); ++i) {
            if (t.at(i) == u':' && (i + 1 == t.size() || t.at(i + 1) == u' '))
                return i;
        }
        return -1;
    }

    QJsonValue mapping(int indent)
    {
        QJsonObject o;
        while (!failed() && m_pos < m_lines.size()) {
            const Line line = m_lines.at(m_pos);
            if (line.indent < indent)
                break;
            if (line.indent > indent) {
                fail(QStringLiteral("unexpected indentation"), line.number);
                break;
            }
            if (isItem(line.text)) {
                fail(QStringLiteral("a sequence item where a key was expected"), line.number);
                break;
            }
            const qsizetype colon = keyColon(line.text);
            if (colon <= 0) {
                fail(QStringLiteral("expected \"key: value\""), line.number);
                break;
            }
            const QString key = scalar(line.text.left(colon).trimmed(), line.number).toVariant().toString();
            if (o.contains(key)) {
                fail(QStringLiteral("key \"%1\" appears twice").arg(key), line.number);
                break;
            }
            const QString rest = line.text.mid(colon + 1).trimmed();
            ++m_pos;
            o.insert(key, valueAfterKey(rest, indent, line.number));
        }
        return o;
    }

    // The value of a key: inline, a nested block, an indentless sequence, or null.
    QJsonValue valueAfterKey(const QString &rest, int indent, int lineNumber)
    {
        if (!rest.isEmpty())
            return scalar(rest, lineNumber);
        if (m_pos < m_lines.size()) {
            const Line &next = m_lines.at(m_pos);
            if (next.indent > indent)
                return block(next.indent);
            if (next.indent == indent && isItem(next.text))
                return sequence(indent);
        }
        return QJsonValue::Null;
    }

    QJsonValue sequence(int indent)
    {
        QJsonArray a;
        while (!failed() && m_pos < m_lines.size()) {
            Line &line = m_lines[m_pos];
            if (line.indent != indent || !isItem(line.text)) {
                if (line.indent > indent)
                    fail(QStringLiteral("unexpected indentation"), line.number);
                break;
            }
            const QString rest = line.text.mid(1).trimmed();
            if (rest.isEmpty()) {
                ++m_pos;
                if (m_pos < m_lines.size() && m_lines.at(m_pos).indent > indent)
                    a.append(block(m_lines.at(m_pos).indent));
                else
                    a.append(QJsonValue::Null);
                continue;
            }
            if (isItem(rest) || keyColon(rest) > 0) {
                // "- key: value" or "- - x": the item is a block starting at the text after "- ".
                const int inner = indent + int(line.text.size() - line.text.mid(1).trimmed().size());
                line.indent = inner;
                line.text = rest;
                a.append(block(inner));
                continue;
            }
            ++m_pos;
            a.append(scalar(rest, line.number));
        }
        return a;
    }

    QJsonValue scalar(const QString &s, int lineNumber)
    {
        if (s.isEmpty() || s == u'~' || s == QLatin1String("null") || s == QLatin1String("Null")
            || s == QLatin1String("NULL"))
            return QJsonValue::Null;
        const QChar c = s.at(0);
        if (c == u'|' || c == u'>') {
            fail(QStringLiteral("block scalars (| and >) are not read"), lineNumber);
            return {};
        }
        if (c == u'&' || c == u'*') {
            fail(QStringLiteral("anchors and aliases are not read"), lineNumber);
            return {};
        }
        if (c == u'!') {
            fail(QStringLiteral("tags are not read"), lineNumber);
            return {};
        }
        if (c == u'{' || c == u'[') {
            QJsonParseError pe;
            const QJsonDocument d = QJsonDocument::fromJson(s.toUtf8(), &pe);
            if (pe.error != QJsonParseError::NoError) {
                fail(QStringLiteral("a flow collection that is not JSON is not read"), lineNumber);
                return {};
            }
            return d.isObject() ? QJsonValue(d.object()) : QJsonValue(d.array());
        }
        if (c == u'"') {
            QJsonParseError pe;
            const QJsonDocument d = QJsonDocument::fromJson(QByteArray("[") + s.toUtf8() + ']', &pe);
            if (pe.error != QJsonParseError::NoError || d.array().size() != 1) {
                fail(QStringLiteral("a double-quoted scalar that does not end where it should"), lineNumber);
                return {};
            }
            return d.array().first();
        }
        if (c == u'\'') {
            if (s.size() < 2 || !s.endsWith(u'\'')) {
                fail(QStringLiteral("a single-quoted scalar that does not end where it should"), lineNumber);
                return {};
            }
            QString inner = s.mid(1, s.size() - 2);
            if (inner.contains(QRegularExpression(QStringLiteral("(^|[^'])'([^']|$)")))) {
                fail(QStringLiteral("a single-quoted scalar that does not end where it should"), lineNumber);
                return {};
            }
            return inner.replace(QLatin1String("''"), QLatin1String("'"));
        }
        if (s == QLatin1String("true") || s == QLatin1String("True") || s == QLatin1String("TRUE"))
            return true;
        if (s == QLatin1String("false") || s == QLatin1String("False") || s == QLatin1String("FALSE"))
            return false;
        static const QStringList inf = { QStringLiteral(".inf"), QStringLiteral(".Inf"), QStringLiteral(".INF"),
            QStringLiteral("+.inf"), QStringLiteral("+.Inf"), QStringLiteral("+.INF") };
        if (inf.contains(s))
            return std::numeric_limits<double>::infinity();
        if (s == QLatin1String("-.inf") || s == QLatin1String("-.Inf") || s == QLatin1String("-.INF"))
            return -std::numeric_limits<double>::infinity();
        if (s == QLatin1String(".nan") || s == QLatin1String(".NaN") || s == QLatin1String(".NAN"))
            return std::numeric_limits<double>::quiet_NaN();
        static const QRegularExpression number(QStringLiteral("^[-+]?(?:\\d[\\d_]*)?(?:\\.\\d*)?(?:[eE][-+]?\\d+)?$"));
        if (s != u'.' && s != u'-' && s != u'+' && number.match(s).hasMatch()
            && s.contains(QRegularExpression(QStringLiteral("\\d")))) {
            bool ok = false;
            QString plain = s;
            plain.remove(u'_');
            const double d = plain.toDouble(&ok);
            if (ok)
                return d;
        }
        return s;
    }
};

} // namespace

QJsonValue parse(const QByteArray &text, QString *error, int *errorLine)
{
    QVector<Line> lines;
    const QStringList raw = QString::fromUtf8(text).split(u'\n');
    bool started = false;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        QString s = raw.at(i);
        if (s.endsWith(u'\r'))
            s.chop(1);
        if (i == 0 && s.startsWith(QChar(0xfeff)))
            s.remove(0, 1);
        const qsizetype hash = commentAt(s);
        if (hash >= 0)
            s.truncate(hash);
        int indent = 0;
        while (indent < s.size() && s.at(indent) == u' ')
            ++indent;
        const QString body = s.mid(indent).trimmed();
        if (body.isEmpty())
            continue;
        if (s.at(indent) == u'\t') {
            if (error)
                *error = QStringLiteral("a tab in the indentation");
            if (errorLine)
                *errorLine = int(i + 1);
            return QJsonValue::Null;
        }
        if (body == QLatin1String("---") || body.startsWith(QLatin1String("%YAML"))) {
            if (started) {
                if (error)
                    *error = QStringLiteral("several documents in one file");
                if (errorLine)
                    *errorLine = int(i + 1);
                return QJsonValue::Null;
            }
            continue;
        }
        if (body == QLatin1String("...")) {
            break;
        }
        started = true;
        lines.append(Line { int(i + 1), indent, body });
    }
    Parser p(std::move(lines));
    const QJsonValue v = p.document();
    if (!p.failure.what.isEmpty()) {
        if (error)
            *error = p.failure.what;
        if (errorLine)
            *errorLine = p.failure.line;
        return QJsonValue::Null;
    }
    if (error)
        error->clear();
    return v;
}

} // namespace ServeScope::Yaml
