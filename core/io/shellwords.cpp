// SPDX-License-Identifier: MIT
#include "shellwords.h"

#include <QRegularExpression>

namespace ServeScope {

namespace {

class Splitter {
public:
    QList<ShellCommand> commands;

    void run(const QString &text)
    {
        for (qsizetype i = 0; i < text.size(); ++i) {
            const QChar c = text.at(i);
            if (c == QLatin1Char('\\') && i + 1 < text.size()) {
                i = escape(text, i);
            } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
                i = quoted(text, i);
            } else if (c == QLatin1Char('#') && !m_inWord) {
                while (i + 1 < text.size() && text.at(i + 1) != QLatin1Char('\n'))
                    ++i;
            } else if (c == QLatin1Char('\n') || c == QLatin1Char(';') || c == QLatin1Char('&')
                || c == QLatin1Char('|')) {
                if (c == QLatin1Char('&') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('>')) {
                    endWord();
                    m_dropNext = true; // &> file
                    ++i;
                    continue;
                }
                if (c == QLatin1Char('\n'))
                    ++m_line;
                endCommand();
            } else if (c == QLatin1Char('>') || c == QLatin1Char('<')) {
                i = redirection(text, i);
            } else if (c.isSpace()) {
                endWord();
            } else {
                m_word += c;
                m_inWord = true;
            }
        }
        endCommand();
    }

private:
    qsizetype escape(const QString &text, qsizetype i)
    {
        const QChar next = text.at(i + 1);
        if (next == QLatin1Char('\n')) {
            ++m_line; // a continuation
        } else if (next == QLatin1Char('\r') && i + 2 < text.size() && text.at(i + 2) == QLatin1Char('\n')) {
            ++m_line;
            return i + 2;
        } else {
            m_word += next;
            m_inWord = true;
        }
        return i + 1;
    }

    qsizetype quoted(const QString &text, qsizetype i)
    {
        const QChar q = text.at(i);
        m_inWord = true;
        for (++i; i < text.size() && text.at(i) != q; ++i) {
            if (q == QLatin1Char('"') && text.at(i) == QLatin1Char('\\') && i + 1 < text.size()
                && QStringLiteral("\"\\$`").contains(text.at(i + 1)))
                ++i;
            if (text.at(i) == QLatin1Char('\n'))
                ++m_line;
            m_word += text.at(i);
        }
        return i;
    }

    qsizetype redirection(const QString &text, qsizetype i)
    {
        // A file-descriptor number right before it ("2>") belongs to the operator.
        if (m_inWord && m_word.size() == 1 && m_word.at(0).isDigit()) {
            m_word.clear();
            m_inWord = false;
        }
        endWord();
        while (i + 1 < text.size() && (text.at(i + 1) == QLatin1Char('>') || text.at(i + 1) == QLatin1Char('&'))) {
            ++i;
            if (text.at(i) == QLatin1Char('&')) {
                while (i + 1 < text.size() && text.at(i + 1).isDigit())
                    ++i; // 2>&1 names no file
                return i;
            }
        }
        m_dropNext = true;
        return i;
    }

    void endWord()
    {
        if (!m_inWord)
            return;
        if (m_dropNext)
            m_dropNext = false;
        else
            m_current.words << m_word;
        m_word.clear();
        m_inWord = false;
    }

    void endCommand()
    {
        endWord();
        m_dropNext = false;
        finish(m_current);
        if (!m_current.words.isEmpty() || !m_current.assignedNames.isEmpty())
            commands << m_current;
        m_current = ShellCommand();
        m_current.line = m_line;
    }

    static void finish(ShellCommand &c)
    {
        static const QRegularExpression assignment(QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*)=(.*)$"));
        static const QStringList prefixes { QStringLiteral("nohup"), QStringLiteral("env"), QStringLiteral("exec"),
            QStringLiteral("time") };
        while (!c.words.isEmpty()) {
            const QRegularExpressionMatch m = assignment.match(c.words.first());
            if (m.hasMatch()) {
                c.assignedNames << m.captured(1); // the value is dropped: it may be a key
                c.assignedFrom << shellVariableName(m.captured(2)); // only a variable's name is kept
                c.words.removeFirst();
            } else if (c.words.first() == QLatin1String("export")) {
                c.exported = true;
                c.words.removeFirst();
            } else if (prefixes.contains(c.words.first())) {
                c.words.removeFirst();
            } else {
                break;
            }
        }
    }

    ShellCommand m_current;
    QString m_word;
    bool m_inWord = false;
    bool m_dropNext = false;
    int m_line = 1;
};

} // namespace

QList<ShellCommand> splitShellCommands(const QString &text)
{
    Splitter s;
    s.run(text);
    return s.commands;
}

QString shellVariableName(const QString &word)
{
    static const QRegularExpression var(QStringLiteral("^\\$\\{?([A-Za-z_][A-Za-z0-9_]*)\\}?$"));
    const QRegularExpressionMatch m = var.match(word);
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace ServeScope
