// SPDX-License-Identifier: MIT
// Internal: the readers behind readEndpointFile(), one per kind of file, and what they share.
#pragma once

#include "io/endpointfiles.h"
#include "io/jsontree.h"

#include <optional>

namespace ServeScope::EndpointFiles {

/// The translation context of every message about an endpoint file.
inline constexpr const char kCtx[] = "ServeScope::EndpointFile";

/// An EndpointFileRead being filled: notes and the failure keep their translated lines beside them.
class Reading {
public:
    explicit Reading(EndpointFileKind kind);

    EndpointFileRead result;

    /// Adds a note (a template marked with QT_TRANSLATE_NOOP in context kCtx).
    void note(const char *source, const QStringList &args = {});
    /// ok = false with this reason; returns the result.
    EndpointFileRead fail(const char *source, const QStringList &args = {});
    /// ok = false with "template" whose %1 is `detail` (C locale) or `shownDetail` (translated).
    EndpointFileRead failWith(const char *source, const QString &detail, const QString &shownDetail);
    /// ok = true; returns the result.
    EndpointFileRead finish();

    /// An OpenAI-style base URL (Codex's base_url, OPENAI_BASE_URL): ".../v1" becomes the base URL without the
    /// /v1 and defaultPath(api); any other path is kept whole with defaultPath(api) less its "/v1", so requests
    /// go where the tool sends them. False (after fail()) when the URL is unusable; `from` names its variable.
    bool setOpenAiBase(const QString &url, Api api, const QString &from);
    /// Claude Code appends /v1/messages to ANTHROPIC_BASE_URL: the base URL is the value, the path /v1/messages.
    bool setAnthropicBase(const QString &url, const QString &from);

    /// One place a key can be: a literal value, or (env files) a reference to another variable.
    struct KeyCandidate {
        QString source; ///< variable or member name
        QString value; ///< literal value
        QString reference; ///< referenced variable name, when the value is ${VAR} or $VAR
    };
    /// Takes the first candidate that is a reference or a real key; when every one is a placeholder the result
    /// says so. Notes when none is given.
    void chooseKey(const QList<KeyCandidate> &candidates);

private:
    bool checkUrl(const QString &url, const QString &from, QString *trimmed);
};

/// The key without the whitespace and invisible characters around it (as trimKey() in core/secrets, which
/// this library does not link).
QString trimmedKey(const QString &value);
/// obj's member `key` when it is a string; nullptr when it is missing or null. Anything else fails `r` with
/// "WHEREkey must be a string" and sets *bad.
const JsonNode *stringMember(const JsonNode &obj, const char *key, const QString &where, Reading &r, bool *bad);
/// The node's string, trimmed; empty for nullptr.
QString stringOf(const JsonNode *n);
/// Claude Code's model variables in the order it prefers them after ANTHROPIC_MODEL (and settings.json's "model").
extern const char *const kClaudeModelFallbacks[4];

EndpointFileRead readClaudeCodeSettings(const JsonNode &root);
EndpointFileRead readCodexAuth(const JsonNode &root);
EndpointFileRead readCodexConfig(const JsonNode &root);

/// One NAME=value line of a .env file.
struct EnvLine {
    QString name;
    QString value; ///< unquoted, escapes of double quotes applied
    QString reference; ///< VAR when the whole value is ${VAR} or $VAR (unquoted or double-quoted)
};
/// The assignments of a .env text in order; `ignored` counts lines that are neither assignments, comments nor
/// blank.
QList<EnvLine> parseDotEnv(const QString &text, int *ignored);
/// True when the lines hold an OPENAI_* or ANTHROPIC_* variable the reader uses.
bool isEndpointDotEnv(const QList<EnvLine> &lines);
EndpointFileRead readDotEnv(const QList<EnvLine> &lines, int ignored);

} // namespace ServeScope::EndpointFiles
