// SPDX-License-Identifier: MIT
// readEndpointFile(): which kind of coding-tool file this is, with the size, binary and syntax guards of the
// project's other readers, and what counts as a placeholder key.
#include "endpointfiles.h"

#include "endpointfilereaders.h"
#include "importers.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace ServeScope {

using EndpointFiles::Reading;

namespace {

EndpointFileRead notAnEndpointFile(EndpointFileKind kind = EndpointFileKind::Unknown)
{
    return Reading(kind).fail(QT_TRANSLATE_NOOP(
        "ServeScope::EndpointFile", "not a Claude Code settings.json, Codex auth.json/config.toml or .env file"));
}

bool hasAnthropicEnv(const JsonNode &root)
{
    const JsonNode *env = root.member(QLatin1String("env"));
    if (!env || !env->isObject())
        return false;
    for (const QString &key : env->keys) {
        if (key.startsWith(QLatin1String("ANTHROPIC_")))
            return true;
    }
    return false;
}

bool isCodexAuth(const JsonNode &root, const QString &name)
{
    if (root.member(QLatin1String("OPENAI_API_KEY")))
        return true;
    return name == QLatin1String("auth.json")
        && (root.member(QLatin1String("api_key")) || root.member(QLatin1String("base_url"))
            || root.member(QLatin1String("tokens")));
}

EndpointFileRead readJson(const QByteArray &bytes, const QString &name)
{
    JsonNode root;
    QString error;
    QString shown;
    if (!parseJsonTree(bytes, &root, &error, JsonLimits { kMaxEndpointFileBytes, 32 }, &shown))
        return Reading(EndpointFileKind::Unknown)
            .failWith(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "not valid JSON: %1"), error, shown);
    if (!root.isObject())
        return notAnEndpointFile();
    if (hasAnthropicEnv(root))
        return EndpointFiles::readClaudeCodeSettings(root);
    if (isCodexAuth(root, name))
        return EndpointFiles::readCodexAuth(root);
    const JsonNode *env = root.member(QLatin1String("env"));
    if (env && env->isObject() && name.startsWith(QLatin1String("settings")))
        return Reading(EndpointFileKind::ClaudeCodeSettings)
            .fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                "a Claude Code settings file whose env sets no ANTHROPIC_* variable: it names no endpoint"));
    return notAnEndpointFile();
}

bool hasCodexProvider(const JsonNode &root)
{
    return root.member(QLatin1String("model_provider")) || root.member(QLatin1String("model_providers"));
}

EndpointFileRead readToml(const QByteArray &bytes)
{
    JsonNode root;
    QString error;
    QString shown;
    if (!parseTomlTree(bytes, &root, &error, &shown))
        return Reading(EndpointFileKind::Unknown)
            .failWith(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "not valid TOML: %1"), error, shown);
    if (hasCodexProvider(root) || root.member(QLatin1String("model")) || root.member(QLatin1String("profile")))
        return EndpointFiles::readCodexConfig(root);
    return notAnEndpointFile();
}

bool isDotEnvName(const QString &name)
{
    return name == QLatin1String(".env") || name.startsWith(QLatin1String(".env."))
        || name.endsWith(QLatin1String(".env"));
}

bool startsWithBrace(const QByteArray &bytes)
{
    QByteArray head = bytes.left(256);
    if (head.startsWith("\xEF\xBB\xBF"))
        head.remove(0, 3);
    return head.trimmed().startsWith('{');
}

} // namespace

QString endpointFileKindName(EndpointFileKind kind)
{
    switch (kind) {
    case EndpointFileKind::Unknown:
        break;
    case EndpointFileKind::ClaudeCodeSettings:
        return QStringLiteral("claude-code-settings");
    case EndpointFileKind::CodexAuth:
        return QStringLiteral("codex-auth");
    case EndpointFileKind::CodexConfig:
        return QStringLiteral("codex-config");
    case EndpointFileKind::DotEnv:
        return QStringLiteral("dotenv");
    }
    return QStringLiteral("unknown");
}

QString defaultImportKeychainEntry(EndpointFileKind kind)
{
    switch (kind) {
    case EndpointFileKind::ClaudeCodeSettings:
        return QStringLiteral("import-claude-code");
    case EndpointFileKind::CodexAuth:
    case EndpointFileKind::CodexConfig:
        return QStringLiteral("import-codex");
    case EndpointFileKind::DotEnv:
        return QStringLiteral("import-dotenv");
    case EndpointFileKind::Unknown:
        break;
    }
    return QStringLiteral("import");
}

bool isPlaceholderKey(QStringView key)
{
    const QString k = EndpointFiles::trimmedKey(key.toString());
    if (k.isEmpty())
        return true;
    for (const QChar c : k) {
        if (c.unicode() < 0x21 || c.unicode() > 0x7E)
            return true;
    }
    const char16_t first = k.front().unicode();
    const char16_t last = k.back().unicode();
    if ((first == u'<' && last == u'>') || (first == u'[' && last == u']') || (first == u'{' && last == u'}')
        || (first == u'(' && last == u')'))
        return true;
    QString folded;
    for (const QChar c : k) {
        if (c != QLatin1Char('-') && c != QLatin1Char('_') && c != QLatin1Char('.'))
            folded += c.toLower();
    }
    for (const char *start : { "your", "insert", "enter", "paste", "replace", "change" }) {
        if (folded.startsWith(QLatin1String(start)))
            return true;
    }
    for (const char *word :
        { "apikey", "key", "token", "secret", "placeholder", "todo", "tbd", "fixme", "dummy", "example", "redacted" }) {
        if (folded == QLatin1String(word))
            return true;
    }
    static const QRegularExpression prefix(QStringLiteral("^(?:[A-Za-z0-9]{1,5}[-_]){1,3}"));
    static const QRegularExpression filler(QStringLiteral("^[xX*._-]*$"));
    const QRegularExpressionMatch m = prefix.match(k);
    return filler.match(QStringView(k).mid(m.hasMatch() ? m.capturedLength() : 0)).hasMatch();
}

EndpointFileRead readEndpointBytes(const QByteArray &bytes, const QString &fileName)
{
    const QString name = QFileInfo(fileName).fileName().toLower();
    Reading r(EndpointFileKind::Unknown);
    if (bytes.size() > kMaxEndpointFileBytes)
        return r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "the file is larger than %1 bytes"),
            { QString::number(kMaxEndpointFileBytes) });
    if (bytes.contains('\0'))
        return r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "the file is binary, not text"));
    if (const int line = firstInvalidUtf8Line(bytes))
        return r.fail(
            QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "line %1 is not UTF-8 text"), { QString::number(line) });
    if (name.endsWith(QLatin1String(".json")) || startsWithBrace(bytes))
        return readJson(bytes, name);
    if (name.endsWith(QLatin1String(".toml")))
        return readToml(bytes);
    int ignored = 0;
    const QList<EndpointFiles::EnvLine> lines = EndpointFiles::parseDotEnv(utf8Text(bytes), &ignored);
    if (isDotEnvName(name) || EndpointFiles::isEndpointDotEnv(lines))
        return EndpointFiles::readDotEnv(lines, ignored);
    // Any other name: Codex's config.toml under another name.
    JsonNode root;
    QString error;
    if (parseTomlTree(bytes, &root, &error) && hasCodexProvider(root))
        return EndpointFiles::readCodexConfig(root);
    return notAnEndpointFile();
}

EndpointFileRead readEndpointFile(const QString &path)
{
    Reading r(EndpointFileKind::Unknown);
    const QFileInfo info(path);
    if (!info.exists())
        return r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "no such file"));
    if (!info.isFile())
        return r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "not a regular file"));
    if (info.size() > kMaxEndpointFileBytes)
        return r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "the file is larger than %1 bytes"),
            { QString::number(kMaxEndpointFileBytes) });
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "cannot be read: %1"), { file.errorString() });
    // One byte past the limit, so a file that grew after the size check is still refused.
    return readEndpointBytes(file.read(kMaxEndpointFileBytes + 1), path);
}

QByteArray writeEndpointJson(const Endpoint &endpoint)
{
    return writeJsonTree(endpointTree(endpoint));
}

} // namespace ServeScope
