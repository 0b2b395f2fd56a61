// SPDX-License-Identifier: MIT
#include "secrets/memorysecretstore.h"

namespace ServeScope {

MemorySecretStore::MemorySecretStore(QObject *parent)
    : SecretStore(parent)
{
}

MemorySecretStore::~MemorySecretStore()
{
    clear();
}

void MemorySecretStore::setAvailability(SecretAvailability availability)
{
    if (m_availability == availability)
        return;
    m_availability = availability;
    emit availabilityChanged();
}

void MemorySecretStore::setForcedError(SecretError error, const QString &message)
{
    m_forcedError = error;
    m_forcedMessage = message;
}

void MemorySecretStore::clear()
{
    // Overwrite before release so freed heap blocks do not keep key bytes around longer than needed.
    for (QByteArray &value : m_entries)
        value.fill('\0');
    m_entries.clear();
}

bool MemorySecretStore::failForced(const Callback &done)
{
    if (m_forcedError == SecretError::None)
        return false;
    const QString message = m_forcedMessage.isEmpty() ? QStringLiteral("simulated failure") : m_forcedMessage;
    deliverLater(done, SecretResult::failure(m_forcedError, message));
    return true;
}

void MemorySecretStore::doRead(const QString &keyId, Callback done)
{
    if (failForced(done))
        return;
    const auto it = m_entries.constFind(keyId);
    if (it == m_entries.constEnd()) {
        deliverLater(done,
            SecretResult::failure(SecretError::NotFound, QStringLiteral("no secret stored under '%1'").arg(keyId)));
        return;
    }
    deliverLater(done, SecretResult::success(it.value()));
}

void MemorySecretStore::doWrite(const QString &keyId, const QByteArray &secret, Callback done)
{
    if (failForced(done))
        return;
    QByteArray &slot = m_entries[keyId];
    slot.fill('\0');
    slot = secret;
    deliverLater(done, SecretResult::success());
}

void MemorySecretStore::erase(const QString &keyId)
{
    auto it = m_entries.find(keyId);
    if (it != m_entries.end()) {
        it.value().fill('\0');
        m_entries.erase(it);
    }
}

void MemorySecretStore::doRemove(const QString &keyId, Callback done)
{
    if (failForced(done))
        return;
    erase(keyId);
    deliverLater(done, SecretResult::success());
}

} // namespace ServeScope
