// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>

namespace ServeScope {

/// Why a secret operation failed. Codes, not words: the GUI turns them into tr() text.
enum class SecretError : quint8 {
    None = 0,
    NotFound, ///< no entry under that id (or an unset environment variable)
    Unavailable, ///< keychain locked, access denied, no backend, or the store is in session-only mode
    Timeout, ///< the keychain did not answer before the watchdog fired
    Other, ///< anything else; see the message
};

/// Machine-readable code of a SecretError ("not_found", "unavailable", ...).
QString secretErrorCode(SecretError e);

/// Whether secrets reach the OS keychain or only live in memory for this session.
enum class SecretAvailability : quint8 { Available = 0, SessionOnly = 1 };

/// Outcome of one read/write/remove. `message` never contains the secret (it is redacted before delivery).
struct SecretResult {
    bool ok = false;
    SecretError error = SecretError::None;
    QString message; ///< plain C-locale text for logs and CLI; empty on success
    QByteArray secret; ///< the key bytes, set only by a successful read
    bool sessionOnly = false; ///< served by the in-memory session store, not the keychain
    bool trimmed = false; ///< whitespace around the key was removed (resolveApiKey only)

    static SecretResult success(QByteArray secret = {});
    static SecretResult failure(SecretError error, QString message);
};

/// Asynchronous secret storage for the GUI thread. Every call completes exactly once by invoking its
/// callback later from the event loop, never from inside the call; the callback is skipped when its
/// context object has been destroyed meanwhile (a null context means "always call").
class SecretStore : public QObject {
    Q_OBJECT
public:
    using Callback = std::function<void(const SecretResult &)>;

    explicit SecretStore(QObject *parent = nullptr);
    ~SecretStore() override;

    void read(const QString &keyId, QObject *context, Callback done);
    /// Refuses an empty secret and an empty key id.
    void write(const QString &keyId, const QByteArray &secret, QObject *context, Callback done);
    /// Removing a missing entry succeeds.
    void remove(const QString &keyId, QObject *context, Callback done);

    virtual SecretAvailability availability() const = 0;

signals:
    void availabilityChanged();

protected:
    /// Implementations must call `done` exactly once and asynchronously (after returning to the event loop).
    virtual void doRead(const QString &keyId, Callback done) = 0;
    virtual void doWrite(const QString &keyId, const QByteArray &secret, Callback done) = 0;
    virtual void doRemove(const QString &keyId, Callback done) = 0;

    /// Queues `done(result)` on this object's event loop.
    void deliverLater(const Callback &done, SecretResult result);
};

/// Blocking helpers for the CLI only: they spin a local QEventLoop until the store answers. Never use them on
/// the GUI thread (docs/design.md: no nested event loops there).
SecretResult readSecretBlocking(SecretStore &store, const QString &keyId);
SecretResult writeSecretBlocking(SecretStore &store, const QString &keyId, const QByteArray &secret);
SecretResult removeSecretBlocking(SecretStore &store, const QString &keyId);

} // namespace ServeScope
