// SPDX-License-Identifier: MIT
// .env files: the OPENAI_* variables of OpenAI's SDKs, or the ANTHROPIC_* ones Claude Code reads.
#include "endpointfilereaders.h"

#include "model/validation.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>

namespace ServeScope::EndpointFiles {

namespace {

// The variable a whole value refers to: ${VAR}, ${VAR:-default}, ${VAR-default} or $VAR.
QString referenceIn(const QString &value)
{
    static const QRegularExpression re(
        QStringLiteral("^\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)(?::?-[^}]*)?\\}|([A-Za-z_][A-Za-z0-9_]*))$"));
    const QRegularExpressionMatch m = re.match(value);
    if (!m.hasMatch())
        return QString();
    return m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
}

// A double-quoted value from just after its opening quote; false when the line has no closing quote.
bool doubleQuoted(QStringView rest, QString *out)
{
    for (qsizetype i = 0; i < rest.size(); ++i) {
        const QChar c = rest.at(i);
        if (c == QLatin1Char('"'))
            return true;
        if (c == QLatin1Char('\\') && i + 1 < rest.size()) {
            const QChar e = rest.at(++i);
            *out += e == QLatin1Char('n') ? QChar(u'\n') : e == QLatin1Char('t') ? QChar(u'\t') : e;
            continue;
        }
        *out += c;
    }
    return false;
}

bool parseLine(QStringView line, EnvLine *out)
{
    QStringView l = line.trimmed();
    if (l.startsWith(QLatin1String("export")) && l.size() > 6 && l.at(6).isSpace())
        l = l.mid(7).trimmed();
    const qsizetype eq = l.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return false;
    out->name = l.left(eq).trimmed().toString();
    if (!isValidEnvironmentName(out->name))
        return false;
    const QStringView rest = l.mid(eq + 1).trimmed();
    if (rest.startsWith(QLatin1Char('"'))) {
        if (!doubleQuoted(rest.mid(1), &out->value))
            return false;
    } else if (rest.startsWith(QLatin1Char('\''))) {
        const qsizetype end = rest.indexOf(QLatin1Char('\''), 1);
        if (end < 0)
            return false;
        out->value = rest.mid(1, end - 1).toString(); // single quotes: literal, never a reference
        return true;
    } else {
        static const QRegularExpression comment(QStringLiteral("\\s#"));
        const qsizetype hash = rest.startsWith(QLatin1Char('#')) ? 0 : rest.toString().indexOf(comment);
        out->value = (hash < 0 ? rest : rest.left(hash)).trimmed().toString();
    }
    out->reference = referenceIn(out->value.trimmed());
    return true;
}

enum class Family { OpenAi, Anthropic };

class DotEnvReader {
public:
    DotEnvReader(const QList<EnvLine> &lines)
        : m_lines(lines)
    {
        for (const EnvLine &l : lines)
            m_byName.insert(l.name, l); // the last assignment wins, as in a shell
    }

    bool has(const char *name) const { return m_byName.contains(QLatin1String(name)); }

    // A variable's value for a URL or a model: a reference to another variable of the file is followed once.
    QString value(const QString &name, Reading &r) const
    {
        const EnvLine l = m_byName.value(name);
        if (l.reference.isEmpty())
            return l.value.trimmed();
        const auto it = m_byName.constFind(l.reference);
        if (it != m_byName.constEnd() && it->reference.isEmpty())
            return it->value.trimmed();
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "%1 refers to variable %2, which the file does not set"),
            { name, l.reference });
        return QString();
    }

    void keys(Reading &r, std::initializer_list<const char *> names) const
    {
        QList<Reading::KeyCandidate> candidates;
        for (const char *name : names) {
            if (const auto it = m_byName.constFind(QLatin1String(name)); it != m_byName.constEnd())
                candidates.append({ it->name, it->value, it->reference });
        }
        r.chooseKey(candidates);
        const QString ref = r.result.endpoint.apiKeyEnv;
        if (!ref.isEmpty() && m_byName.contains(ref))
            r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                       "%1 is also set in this file, but a run reads it from the environment, not from the file"),
                { ref });
    }

    void model(Reading &r, const QStringList &preferred) const
    {
        for (const QString &name : preferred) {
            if (const QString m = value(name, r); !m.isEmpty()) {
                r.result.endpoint.model = m;
                if (name != preferred.first())
                    r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "model taken from %1"), { name });
                return;
            }
        }
        for (const EnvLine &l : m_lines) {
            if (!l.name.endsWith(QLatin1String("_MODEL")) || preferred.contains(l.name))
                continue;
            if (const QString m = value(l.name, r); !m.isEmpty()) {
                r.result.endpoint.model = m;
                r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "model taken from %1"), { l.name });
                return;
            }
        }
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "model not set in the file"));
    }

    bool openAi(Reading &r) const
    {
        const char *baseName = has("OPENAI_BASE_URL") ? "OPENAI_BASE_URL" : "OPENAI_API_BASE";
        const QString base = value(QLatin1String(baseName), r);
        if (base.isEmpty()) {
            r.setOpenAiBase(QStringLiteral("https://api.openai.com/v1"), Api::Chat, QString());
            r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                "OPENAI_BASE_URL is not set: OpenAI's API, https://api.openai.com/v1, is used"));
        } else if (!r.setOpenAiBase(base, Api::Chat, QLatin1String(baseName))) {
            return false;
        }
        keys(r, { "OPENAI_API_KEY" });
        model(r, { QStringLiteral("OPENAI_MODEL") });
        return true;
    }

    bool anthropic(Reading &r) const
    {
        const QString base = value(QStringLiteral("ANTHROPIC_BASE_URL"), r);
        if (base.isEmpty()) {
            r.setAnthropicBase(QStringLiteral("https://api.anthropic.com"), QString());
            r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                "ANTHROPIC_BASE_URL is not set: Claude Code's default, https://api.anthropic.com, is used"));
        } else if (!r.setAnthropicBase(base, QStringLiteral("ANTHROPIC_BASE_URL"))) {
            return false;
        }
        keys(r, { "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN" });
        QStringList models { QStringLiteral("ANTHROPIC_MODEL") };
        for (const char *name : kClaudeModelFallbacks)
            models << QLatin1String(name);
        model(r, models);
        return true;
    }

    bool hasOpenAi() const { return has("OPENAI_BASE_URL") || has("OPENAI_API_BASE") || has("OPENAI_API_KEY"); }
    bool hasAnthropic() const
    {
        return has("ANTHROPIC_BASE_URL") || has("ANTHROPIC_API_KEY") || has("ANTHROPIC_AUTH_TOKEN");
    }
    bool hasOpenAiBase() const { return has("OPENAI_BASE_URL") || has("OPENAI_API_BASE"); }

private:
    const QList<EnvLine> &m_lines;
    QHash<QString, EnvLine> m_byName;
};

} // namespace

QList<EnvLine> parseDotEnv(const QString &text, int *ignored)
{
    QList<EnvLine> lines;
    *ignored = 0;
    for (QStringView line : QStringView(text).split(QLatin1Char('\n'))) {
        const QStringView t = line.trimmed();
        if (t.isEmpty() || t.startsWith(QLatin1Char('#')))
            continue;
        EnvLine l;
        if (parseLine(t, &l))
            lines.append(l);
        else
            ++*ignored;
    }
    return lines;
}

bool isEndpointDotEnv(const QList<EnvLine> &lines)
{
    const DotEnvReader reader(lines);
    return reader.hasOpenAi() || reader.hasAnthropic();
}

EndpointFileRead readDotEnv(const QList<EnvLine> &lines, int ignored)
{
    Reading r(EndpointFileKind::DotEnv);
    const DotEnvReader reader(lines);
    if (!reader.hasOpenAi() && !reader.hasAnthropic())
        return r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
            "the file sets none of OPENAI_BASE_URL, OPENAI_API_BASE, OPENAI_API_KEY, ANTHROPIC_BASE_URL, "
            "ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN"));
    // Both families: the one with a base URL, else OpenAI's.
    const bool anthropic = !reader.hasOpenAi() || (reader.has("ANTHROPIC_BASE_URL") && !reader.hasOpenAiBase());
    if (reader.hasOpenAi() && reader.hasAnthropic())
        r.note(anthropic ? QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                   "the file sets both OPENAI_* and ANTHROPIC_* variables: the ANTHROPIC_* ones are used")
                         : QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                             "the file sets both OPENAI_* and ANTHROPIC_* variables: the OPENAI_* ones are used"));
    if (!(anthropic ? reader.anthropic(r) : reader.openAi(r)))
        return r.result;
    if (ignored > 0)
        r.note(
            QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "lines that are not NAME=value assignments were ignored: %1"),
            { QString::number(ignored) });
    return r.finish();
}

} // namespace ServeScope::EndpointFiles
