// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// The coding tools' files an endpoint can be read from (docs/experiment-files.md, "Endpoints from other tools").
enum class EndpointFileKind : quint8 {
    Unknown,
    ClaudeCodeSettings, ///< ~/.claude/settings.json, settings.local.json: {"env": {"ANTHROPIC_*": ...}}
    CodexAuth, ///< ~/.codex/auth.json: {"OPENAI_API_KEY": ...} (gateways' guides add base_url, model)
    CodexConfig, ///< ~/.codex/config.toml: model, model_provider, [model_providers.NAME]
    DotEnv, ///< KEY=value lines: OPENAI_* or ANTHROPIC_* variables
};

/// "claude-code-settings", "codex-auth", "codex-config", "dotenv" ("unknown" for Unknown).
QString endpointFileKindName(EndpointFileKind kind);

/// The keychain entry an imported key is stored under unless the user names one: "import-claude-code",
/// "import-codex" (auth.json and config.toml describe the same provider) or "import-dotenv".
QString defaultImportKeychainEntry(EndpointFileKind kind);

/// What readEndpointFile() found. Nothing in `error` or `notes` repeats a value from the file except the names
/// of variables and keys; the key itself is only ever in `key`.
struct EndpointFileRead : ShownLines {
    bool ok = false;
    EndpointFileKind kind = EndpointFileKind::Unknown;
    /// C-locale reason when !ok ("not a Claude Code settings.json, ..."); shownLine() gives it translated.
    QString error;
    /// baseUrl, path (defaultPath() of the API the file names), model, and apiKeyEnv when the file names a
    /// variable instead of holding the key. dialect is openai-strict: these files point at vendors' APIs and
    /// gateways, which refuse vLLM's extra request fields. keychainEntry is never set.
    Endpoint endpoint;
    /// The key the file holds literally (UTF-8, whitespace around it removed), held only in memory: the caller
    /// stores it in the keychain and drops it. Empty when the file holds none, names a variable, or holds a
    /// placeholder.
    QByteArray key;
    /// The file's key is a placeholder from a setup guide ("your-api-key", "sk-xxx", "你的密钥", ...), see
    /// isPlaceholderKey(); `key` is then empty.
    bool keyIsPlaceholder = false;
    /// Where the key came from: a variable or member name such as "ANTHROPIC_AUTH_TOKEN"; empty when none.
    QString keySource;
    /// C-locale sentences for people ("model not set in the file", ...); shownLines() gives them translated.
    QStringList notes;
};

/// Largest file readEndpointFile() reads, in bytes.
inline constexpr qsizetype kMaxEndpointFileBytes = 1024 * 1024;

/// Reads a Claude Code settings.json, a Codex auth.json or config.toml, or a .env file (detected by content, the
/// file name as a hint). The file is only read. Anything else, a file over kMaxEndpointFileBytes, binary or
/// malformed text, or nesting deeper than 32 gives ok = false with a specific reason.
EndpointFileRead readEndpointFile(const QString &path);
/// The same for bytes already read; `fileName` (a name or path) is only a hint to the format.
EndpointFileRead readEndpointBytes(const QByteArray &bytes, const QString &fileName);

/// True for a key a setup guide left to be replaced. After trimming whitespace, a key is a placeholder when
/// 1. it is empty;
/// 2. it holds any character other than printable ASCII without spaces ("你的密钥", "your key here", "sk-xxx…");
/// 3. it is wrapped in <…>, [...], {…} or (…) ("<API_KEY>", "{{token}}");
/// 4. lower-cased with '-', '_' and '.' removed, it starts with "your", "insert", "enter", "paste", "replace" or
///    "change", or is one of "apikey", "key", "token", "secret", "placeholder", "todo", "tbd", "fixme", "dummy",
///    "example", "redacted";
/// 5. what follows its prefix segments (at most three, each of at most 5 letters and digits ending in '-' or
///    '_', as "sk-", "sk-ant-api03-", "sk-proj-") is made only of 'x', 'X', '*', '.', '-' and '_' ("sk-xxxx",
///    "XXXXXXXX", "sk-ant-****").
bool isPlaceholderKey(QStringView key);

/// The endpoint as the object an experiment file's "endpoint" takes (base_url, path, model, api_key_env or
/// keychain_entry, dialect, protocol, ...), pretty-printed UTF-8 JSON ending in '\n'.
QByteArray writeEndpointJson(const Endpoint &endpoint);

} // namespace ServeScope
