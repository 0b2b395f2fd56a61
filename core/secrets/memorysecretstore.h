// SPDX-License-Identifier: MIT
#pragma once

#include "secrets/secretstore.h"

#include <QHash>

namespace ServeScope {

/// Keeps secrets in process memory only: for unit tests, and as the "keep for this session only" fallback of
/// KeychainSecretStore. Answers asynchronously like a real store.
class MemorySecretStore final : public SecretStore {
    Q_OBJECT
public:
    explicit MemorySecretStore(QObject *parent = nullptr);
    ~MemorySecretStore() override;

    SecretAvailability availability() const override { return m_availability; }
    /// Lets tests present the store as a keychain (Available) or as a session-only store.
    void setAvailability(SecretAvailability availability);

    /// Makes every following call fail with `error` (tests of locked/unavailable keychains); None clears it.
    void setForcedError(SecretError error, const QString &message = {});

    bool contains(const QString &keyId) const { return m_entries.contains(keyId); }
    qsizetype size() const { return m_entries.size(); }
    /// Drops an entry at once (no callback); used by KeychainSecretStore to un-shadow a keychain entry.
    void erase(const QString &keyId);
    void clear();

protected:
    void doRead(const QString &keyId, Callback done) override;
    void doWrite(const QString &keyId, const QByteArray &secret, Callback done) override;
    void doRemove(const QString &keyId, Callback done) override;

private:
    bool failForced(const Callback &done);

    QHash<QString, QByteArray> m_entries;
    SecretAvailability m_availability = SecretAvailability::Available;
    SecretError m_forcedError = SecretError::None;
    QString m_forcedMessage;
};

} // namespace ServeScope
