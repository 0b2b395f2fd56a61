// SPDX-License-Identifier: MIT
#include "secrets/keychainsecretstore.h"

#include "secrets/memorysecretstore.h"

#include <qt6keychain/keychain.h>

#include <QPointer>

#include <atomic>

namespace ServeScope {

namespace {

// QtKeychain's job queue is process-wide, so a stuck job concerns every store in the process.
std::atomic<int> s_abandonedJobs { 0 };

SecretError mapError(QKeychain::Error error)
{
    switch (error) {
    case QKeychain::NoError:
        return SecretError::None;
    case QKeychain::EntryNotFound:
        return SecretError::NotFound;
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        return SecretError::Unavailable;
    case QKeychain::CouldNotDeleteEntry:
    case QKeychain::OtherError:
        break;
    }
    return SecretError::Other;
}

bool isValidUtf8(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes).toUtf8() == bytes;
}

} // namespace

KeychainSecretStore::KeychainSecretStore(const QString &service, QObject *parent)
    : SecretStore(parent)
    , m_service(service)
    , m_session(new MemorySecretStore(this))
{
    m_watchdog.setSingleShot(true);
    m_watchdog.setInterval(defaultWatchdog);
    connect(&m_watchdog, &QTimer::timeout, this, &KeychainSecretStore::watchdogFired);
}

// A job still in flight keeps running inside QtKeychain; it is never deleted here because its backend callback
// holds a raw pointer to it. Its finished() connection to this object is dropped automatically.
KeychainSecretStore::~KeychainSecretStore() = default;

QString KeychainSecretStore::defaultService()
{
    return QStringLiteral("ServeScope");
}

void KeychainSecretStore::setWatchdogInterval(std::chrono::milliseconds interval)
{
    m_watchdog.setInterval(interval);
}

std::chrono::milliseconds KeychainSecretStore::watchdogInterval() const
{
    return m_watchdog.intervalAsDuration();
}

int KeychainSecretStore::abandonedJobs()
{
    return s_abandonedJobs.load();
}

void KeychainSecretStore::useSessionOnly(const QString &reason)
{
    switchToSessionOnly(reason.isEmpty() ? QStringLiteral("session only at the user's request") : reason);
    startNext();
}

bool KeychainSecretStore::retryKeychain()
{
    if (s_abandonedJobs.load() > 0)
        return false;
    if (m_availability == SecretAvailability::Available)
        return true;
    m_availability = SecretAvailability::Available;
    m_reason.clear();
    emit availabilityChanged();
    return true;
}

void KeychainSecretStore::switchToSessionOnly(const QString &reason)
{
    if (m_availability == SecretAvailability::SessionOnly)
        return;
    m_availability = SecretAvailability::SessionOnly;
    m_reason = reason;
    emit availabilityChanged();
}

void KeychainSecretStore::doRead(const QString &keyId, Callback done)
{
    // A key the user entered for this session wins over an older keychain copy.
    if (m_session->contains(keyId))
        return serveFromSession({ Op::Read, keyId, {}, std::move(done) });
    enqueue({ Op::Read, keyId, {}, std::move(done) });
}

void KeychainSecretStore::doWrite(const QString &keyId, const QByteArray &secret, Callback done)
{
    enqueue({ Op::Write, keyId, secret, std::move(done) });
}

void KeychainSecretStore::doRemove(const QString &keyId, Callback done)
{
    m_session->erase(keyId);
    enqueue({ Op::Remove, keyId, {}, std::move(done) });
}

void KeychainSecretStore::enqueue(Request request)
{
    m_queue.enqueue(std::move(request));
    startNext();
}

void KeychainSecretStore::serveFromSession(Request request)
{
    const QString reason = m_reason;
    auto reply = [done = std::move(request.done), reason](const SecretResult &r) {
        SecretResult out = r;
        out.sessionOnly = true;
        if (!out.ok && out.error == SecretError::NotFound && !reason.isEmpty())
            out.message = out.message % QStringLiteral(" (keychain not in use: ") % reason % QLatin1Char(')');
        done(out);
    };
    switch (request.op) {
    case Op::Read:
        m_session->read(request.keyId, this, std::move(reply));
        break;
    case Op::Write:
        m_session->write(request.keyId, request.secret, this, std::move(reply));
        break;
    case Op::Remove:
        m_session->remove(request.keyId, this, std::move(reply));
        break;
    }
}

QKeychain::Job *KeychainSecretStore::createJob(const Request &request)
{
    QKeychain::Job *job = nullptr;
    switch (request.op) {
    case Op::Read:
        job = new QKeychain::ReadPasswordJob(m_service);
        break;
    case Op::Write: {
        auto *write = new QKeychain::WritePasswordJob(m_service);
        // Text keeps the entry readable with secret-tool; binary (base64 in the keyring) only when it must.
        if (isValidUtf8(request.secret))
            write->setTextData(QString::fromUtf8(request.secret));
        else
            write->setBinaryData(request.secret);
        job = write;
        break;
    }
    case Op::Remove:
        job = new QKeychain::DeletePasswordJob(m_service);
        break;
    }
    job->setKey(request.keyId);
    job->setInsecureFallback(false);
    job->setAutoDelete(true); // deleteLater() after finished(), whoever is still listening
    return job;
}

void KeychainSecretStore::startNext()
{
    if (m_current)
        return;
    if (m_availability == SecretAvailability::SessionOnly) {
        while (!m_queue.isEmpty())
            serveFromSession(m_queue.dequeue());
        return;
    }
    if (m_queue.isEmpty())
        return;
    m_current = m_queue.dequeue();
    const quint64 ticket = ++m_ticket;
    auto abandoned = std::make_shared<bool>(false);
    m_currentAbandoned = abandoned;
    QKeychain::Job *job = createJob(*m_current);
    connect(job, &QKeychain::Job::finished, this, [this, ticket](QKeychain::Job *j) { jobFinished(ticket, j); });
    // Bookkeeping that must survive this store: the job itself is the context.
    connect(job, &QKeychain::Job::finished, job, [abandoned] {
        if (*abandoned)
            s_abandonedJobs.fetch_sub(1);
    });
    job->start();
    m_watchdog.start();
}

void KeychainSecretStore::jobFinished(quint64 ticket, QKeychain::Job *job)
{
    if (!m_current || ticket != m_ticket)
        return; // answered after its watchdog: already reported as a timeout
    m_watchdog.stop();
    Request request = std::move(*m_current);
    m_current.reset();
    m_currentAbandoned.reset();

    const SecretError error = mapError(job->error());
    SecretResult result;
    if (error == SecretError::None || (request.op == Op::Remove && error == SecretError::NotFound)) {
        result = SecretResult::success();
        if (request.op == Op::Read)
            result.secret = static_cast<QKeychain::ReadPasswordJob *>(job)->binaryData();
        else
            m_session->erase(request.keyId); // the keychain copy is current now
    } else {
        static const char *const verbs[] = { "read", "write", "remove" };
        result = SecretResult::failure(error,
            QStringLiteral("keychain %1 of '%2' failed: %3")
                .arg(QLatin1String(verbs[int(request.op)]), request.keyId, job->errorString()));
    }
    const QPointer<KeychainSecretStore> self(this);
    request.done(result);
    if (self) // the callback may have deleted this store
        startNext();
}

void KeychainSecretStore::watchdogFired()
{
    if (!m_current)
        return;
    *m_currentAbandoned = true;
    s_abandonedJobs.fetch_add(1);
    ++m_ticket; // a late finished() no longer matches
    Request request = std::move(*m_current);
    m_current.reset();
    m_currentAbandoned.reset();

    const qint64 ms = m_watchdog.intervalAsDuration().count();
    switchToSessionOnly(QStringLiteral("the keychain did not answer within %1 ms").arg(ms));
    SecretResult result = SecretResult::failure(SecretError::Timeout,
        QStringLiteral("keychain did not answer within %1 ms; keys are kept for this session only").arg(ms));
    result.sessionOnly = true;
    const QPointer<KeychainSecretStore> self(this);
    request.done(result);
    if (self) // the callback may have deleted this store
        startNext();
}

} // namespace ServeScope
