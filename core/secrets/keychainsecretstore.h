// SPDX-License-Identifier: MIT
#pragma once

#include "secrets/secretstore.h"

#include <QQueue>
#include <QTimer>

#include <chrono>
#include <memory>
#include <optional>

namespace QKeychain {
class Job;
}

namespace ServeScope {

class MemorySecretStore;

/// Stores secrets in the OS keychain through QtKeychain, on the GUI thread.
///
/// QtKeychain runs one job at a time process-wide and a locked keyring can prompt forever, so every job gets
/// a watchdog. When it fires, the request fails with SecretError::Timeout, the store switches to SessionOnly
/// for the rest of its life (or until retryKeychain()), and all further requests are served by an in-memory
/// session store with SecretResult::sessionOnly set. A job that answers after its watchdog is ignored.
/// The plaintext fallback of QtKeychain is always off.
class KeychainSecretStore final : public SecretStore {
    Q_OBJECT
public:
    /// `service` names the keychain entries' collection; tests pass a random one.
    explicit KeychainSecretStore(const QString &service = defaultService(), QObject *parent = nullptr);
    ~KeychainSecretStore() override;

    static QString defaultService();
    QString service() const { return m_service; }

    static constexpr std::chrono::milliseconds defaultWatchdog { 5000 };
    void setWatchdogInterval(std::chrono::milliseconds interval);
    std::chrono::milliseconds watchdogInterval() const;

    SecretAvailability availability() const override { return m_availability; }

    /// The user chose "keep for this session only" (e.g. after a locked-keyring error).
    void useSessionOnly(const QString &reason);
    /// Why the store is session-only (C-locale text); empty while Available.
    QString sessionOnlyReason() const { return m_reason; }
    /// Goes back to the keychain unless a timed-out job is still stuck in QtKeychain's queue. Returns success.
    bool retryKeychain();

    /// Keychain jobs, process-wide, that timed out and have not answered yet.
    static int abandonedJobs();

protected:
    void doRead(const QString &keyId, Callback done) override;
    void doWrite(const QString &keyId, const QByteArray &secret, Callback done) override;
    void doRemove(const QString &keyId, Callback done) override;

private:
    enum class Op : quint8 { Read, Write, Remove };
    struct Request {
        Op op = Op::Read;
        QString keyId;
        QByteArray secret;
        Callback done;
    };

    void enqueue(Request request);
    void startNext();
    QKeychain::Job *createJob(const Request &request);
    void jobFinished(quint64 ticket, QKeychain::Job *job);
    void watchdogFired();
    void serveFromSession(Request request);
    void switchToSessionOnly(const QString &reason);

    QString m_service;
    QString m_reason;
    SecretAvailability m_availability = SecretAvailability::Available;
    MemorySecretStore *m_session = nullptr;
    QQueue<Request> m_queue;
    std::optional<Request> m_current;
    std::shared_ptr<bool> m_currentAbandoned;
    quint64 m_ticket = 0;
    QTimer m_watchdog;
};

} // namespace ServeScope
