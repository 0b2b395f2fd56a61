// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "secrets/secretstore.h"

#include <optional>

namespace ServeScope {

/// A pasted key after trimming: whitespace around a pasted key is trimmed and reported, never kept.
struct TrimmedKey {
    QByteArray key; ///< UTF-8
    bool trimmed = false; ///< something was removed around the key
    int removedLeading = 0; ///< characters removed before the key
    int removedTrailing = 0; ///< characters removed after it
    bool innerWhitespace = false; ///< whitespace left inside the key: probably a broken paste
};

/// Removes whitespace around a key: Unicode spaces and line breaks plus the invisible characters that come with
/// copy and paste (zero-width space/joiners, word joiner, byte-order mark).
TrimmedKey trimKey(QStringView pasted);
TrimmedKey trimKey(const QByteArray &pastedUtf8);

/// Where an endpoint's API key lives: a named environment variable (`api_key_env`) or a keychain entry id.
/// It never holds the key itself.
struct KeyReference {
    enum class Kind : quint8 { None = 0, Environment, Keychain };
    Kind kind = Kind::None;
    QString name; ///< variable name or keychain entry id

    static KeyReference environment(const QString &variable) { return { Kind::Environment, variable }; }
    static KeyReference keychain(const QString &entryId) { return { Kind::Keychain, entryId }; }
    /// Where an endpoint's key lives: its keychain entry, else its variable, else none. The CLI and the
    /// GUI both resolve through this, so they agree on the precedence.
    static KeyReference forEndpoint(const Endpoint &endpoint);
    /// "env:VAR" or "keychain:ID"; nullopt for anything else.
    static std::optional<KeyReference> parse(const QString &text);
    QString toString() const;
    bool isNull() const { return kind == Kind::None || name.isEmpty(); }
    friend bool operator==(const KeyReference &, const KeyReference &) = default;
};

/// Reads and trims a key from an environment variable. The message names the variable only when it looks like
/// a conventional variable name, so a key pasted into `api_key_env` by mistake is never echoed.
SecretResult readApiKeyFromEnvironment(const QString &variable);

/// Resolves `ref` to key bytes (trimmed; SecretResult::trimmed reports it). Environment references are answered
/// without touching `store`. Completes asynchronously like SecretStore calls.
void resolveApiKey(const KeyReference &ref, SecretStore &store, QObject *context, SecretStore::Callback done);

/// CLI only (spins a local event loop for keychain references). With a null store a KeychainSecretStore on
/// the default service is used.
SecretResult resolveApiKeyBlocking(const KeyReference &ref, SecretStore *store = nullptr);

} // namespace ServeScope
