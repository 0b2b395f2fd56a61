// SPDX-License-Identifier: MIT
// What the three kinds of coding-tool files hold and how each becomes an Endpoint (docs/experiment-files.md,
// "Endpoints from other tools"). Messages name variables and members, never their values.
#include "endpointfilereaders.h"

#include "model/keytext.h"
#include "model/validation.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>
#include <QUrl>

namespace ServeScope::EndpointFiles {

namespace {

bool isClaudeAlias(const QString &model)
{
    static const QRegularExpression alias(
        QStringLiteral("^(default|sonnet|opus|haiku|opusplan)(\\[1m\\])?$"), QRegularExpression::CaseInsensitiveOption);
    return alias.match(model).hasMatch();
}

} // namespace

// The key without the whitespace and invisible characters around it, as the key library trims a pasted key.
QString trimmedKey(const QString &value)
{
    return trimmedKeyText(value).toString();
}

// A member that must be a string when present; null counts as absent. `bad` is set (after r.fail()) otherwise.
const JsonNode *stringMember(const JsonNode &obj, const char *key, const QString &where, Reading &r, bool *bad)
{
    const JsonNode *n = obj.member(QLatin1String(key));
    if (!n || n->isNull())
        return nullptr;
    if (!n->isString()) {
        r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "%1 must be a string"), { where + QLatin1String(key) });
        *bad = true;
        return nullptr;
    }
    return n;
}

QString stringOf(const JsonNode *n)
{
    return n ? n->string.trimmed() : QString();
}

// Claude Code's model settings in the order it prefers them, after ANTHROPIC_MODEL and the top-level "model".
const char *const kClaudeModelFallbacks[4] = { "ANTHROPIC_DEFAULT_SONNET_MODEL", "ANTHROPIC_DEFAULT_OPUS_MODEL",
    "ANTHROPIC_SMALL_FAST_MODEL", "ANTHROPIC_DEFAULT_HAIKU_MODEL" };

Reading::Reading(EndpointFileKind kind)
{
    result.kind = kind;
    result.endpoint.dialect = Dialect::OpenAiStrict;
}

void Reading::note(const char *source, const QStringList &args)
{
    const Reason why = Reason::in(kCtx, source, args);
    const QString line = why.text();
    result.notes << line;
    if (const QString shown = why.translated(); shown != line)
        result.shown.insert(line, shown);
}

EndpointFileRead Reading::fail(const char *source, const QStringList &args)
{
    const Reason why = Reason::in(kCtx, source, args);
    return failWith("%1", why.text(), why.translated());
}

EndpointFileRead Reading::failWith(const char *source, const QString &detail, const QString &shownDetail)
{
    if (!result.error.isEmpty())
        return result; // the first failure is the one reported
    result.ok = false;
    result.key.clear();
    result.error = Reason::in(kCtx, source, { detail }).text();
    if (const QString shown = Reason::in(kCtx, source, { shownDetail }).translated(); shown != result.error)
        result.shown.insert(result.error, shown);
    return result;
}

EndpointFileRead Reading::finish()
{
    result.ok = result.error.isEmpty();
    return result;
}

bool Reading::checkUrl(const QString &url, const QString &from, QString *trimmed)
{
    QString t = url.trimmed();
    while (t.endsWith(QLatin1Char('/')))
        t.chop(1);
    const QUrl u(t, QUrl::StrictMode);
    const QString scheme = u.scheme().toLower();
    if (!u.isValid() || u.host().isEmpty() || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
        fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "%1 is not an http:// or https:// URL"), { from });
        return false;
    }
    if (!u.userInfo().isEmpty()) {
        fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                 "the URL in %1 holds a user name or password, which an endpoint's base URL must not"),
            { from });
        return false;
    }
    if (u.hasQuery() || u.hasFragment()) {
        fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                 "the URL in %1 has a query or fragment (?… or #…), which an endpoint's base URL cannot carry"),
            { from });
        return false;
    }
    *trimmed = t;
    return true;
}

bool Reading::setOpenAiBase(const QString &url, Api api, const QString &from)
{
    QString t;
    if (!checkUrl(url, from, &t))
        return false;
    const QString path = defaultPath(api); // "/v1/..." for chat and responses
    const QString urlPath = QUrl(t).path();
    if (urlPath == QLatin1String("/v1") || urlPath.endsWith(QLatin1String("/v1"))) {
        result.endpoint.baseUrl = t.chopped(3);
        result.endpoint.path = path;
    } else {
        result.endpoint.baseUrl = t;
        result.endpoint.path = path.mid(3);
        note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                 "the URL in %1 does not end in /v1: requests go to it followed by %2, as the tool sends them"),
            { from, result.endpoint.path });
    }
    return true;
}

bool Reading::setAnthropicBase(const QString &url, const QString &from)
{
    QString t;
    if (!checkUrl(url, from, &t))
        return false;
    result.endpoint.baseUrl = t;
    result.endpoint.path = defaultPath(Api::Messages);
    return true;
}

void Reading::chooseKey(const QList<KeyCandidate> &candidates)
{
    if (candidates.isEmpty()) {
        note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "the file holds no key"));
        return;
    }
    for (const KeyCandidate &c : candidates) {
        if (!c.reference.isEmpty()) {
            result.endpoint.apiKeyEnv = c.reference;
            result.keySource = c.source;
            note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                     "the key is read from environment variable %1 when a run starts (%2 names it)"),
                { c.reference, c.source });
            return;
        }
        if (!isPlaceholderKey(c.value)) {
            result.key = trimmedKey(c.value).toUtf8();
            result.keySource = c.source;
            return;
        }
    }
    // Every one a placeholder: name the one with text in it (guides often set ANTHROPIC_API_KEY to "" on purpose).
    result.keyIsPlaceholder = true;
    result.keySource = candidates.first().source;
    for (const KeyCandidate &c : candidates) {
        if (!trimmedKey(c.value).isEmpty()) {
            result.keySource = c.source;
            break;
        }
    }
    note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "the key in %1 is a placeholder from a setup guide, not a key"),
        { result.keySource });
}

EndpointFileRead readClaudeCodeSettings(const JsonNode &root)
{
    Reading r(EndpointFileKind::ClaudeCodeSettings);
    const JsonNode &env = *root.member(QLatin1String("env"));
    const QString at = QStringLiteral("env.");
    bool bad = false;
    const JsonNode *base = stringMember(env, "ANTHROPIC_BASE_URL", at, r, &bad);
    const JsonNode *apiKey = stringMember(env, "ANTHROPIC_API_KEY", at, r, &bad);
    const JsonNode *token = stringMember(env, "ANTHROPIC_AUTH_TOKEN", at, r, &bad);
    const JsonNode *model = stringMember(env, "ANTHROPIC_MODEL", at, r, &bad);
    const JsonNode *topModel = stringMember(root, "model", QString(), r, &bad);
    if (bad)
        return r.result;
    if (!stringOf(base).isEmpty()) {
        if (!r.setAnthropicBase(base->string, QStringLiteral("env.ANTHROPIC_BASE_URL")))
            return r.result;
    } else {
        r.result.endpoint.baseUrl = QStringLiteral("https://api.anthropic.com");
        r.result.endpoint.path = defaultPath(Api::Messages);
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
            "ANTHROPIC_BASE_URL is not set: Claude Code's default, https://api.anthropic.com, is used"));
    }

    QList<Reading::KeyCandidate> keys;
    if (apiKey)
        keys.append({ QStringLiteral("ANTHROPIC_API_KEY"), apiKey->string, {} });
    if (token)
        keys.append({ QStringLiteral("ANTHROPIC_AUTH_TOKEN"), token->string, {} });
    if (keys.isEmpty() && root.member(QLatin1String("apiKeyHelper")))
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
            "the key comes from apiKeyHelper, a command ServeScope does not run: keep the key in the keychain or "
            "an environment variable"));
    r.chooseKey(keys);
    if (r.result.keySource == QLatin1String("ANTHROPIC_AUTH_TOKEN") && !r.result.keyIsPlaceholder)
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
            "Claude Code sends ANTHROPIC_AUTH_TOKEN as Authorization: Bearer; ServeScope's messages requests send "
            "the key as x-api-key, which most gateways accept too"));

    if (!stringOf(model).isEmpty()) {
        r.result.endpoint.model = stringOf(model);
        return r.finish();
    }
    if (!stringOf(topModel).isEmpty() && !isClaudeAlias(stringOf(topModel))) {
        r.result.endpoint.model = stringOf(topModel);
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "model taken from %1"), { QStringLiteral("model") });
        return r.finish();
    }
    for (const char *name : kClaudeModelFallbacks) {
        if (const QString m = stringOf(stringMember(env, name, at, r, &bad)); !m.isEmpty()) {
            r.result.endpoint.model = m;
            r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "model taken from %1"), { QLatin1String(name) });
            return r.finish();
        }
    }
    if (bad)
        return r.result;
    if (!stringOf(topModel).isEmpty())
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                   "model not set in the file: \"%1\" is one of Claude Code's aliases, not a model id"),
            { stringOf(topModel) });
    else
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "model not set in the file"));
    return r.finish();
}

} // namespace ServeScope::EndpointFiles
