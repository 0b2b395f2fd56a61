// SPDX-License-Identifier: MIT
#include "secrets/secretstore.h"

#include "model/redaction.h"

#include <QEventLoop>
#include <QPointer>

namespace ServeScope {

QString secretErrorCode(SecretError e)
{
    switch (e) {
    case SecretError::None:
        return QStringLiteral("none");
    case SecretError::NotFound:
        return QStringLiteral("not_found");
    case SecretError::Unavailable:
        return QStringLiteral("unavailable");
    case SecretError::Timeout:
        return QStringLiteral("timeout");
    case SecretError::Other:
        break;
    }
    return QStringLiteral("other");
}

SecretResult SecretResult::success(QByteArray secret)
{
    SecretResult r;
    r.ok = true;
    r.secret = std::move(secret);
    return r;
}

SecretResult SecretResult::failure(SecretError error, QString message)
{
    SecretResult r;
    r.error = error;
    r.message = std::move(message);
    return r;
}

namespace {

// Wraps a caller's callback: skips it once the context is gone and scrubs the secret from the message, so no
// implementation can leak a key through an error string by accident.
SecretStore::Callback guarded(QObject *context, SecretStore::Callback done, QByteArray secret = {})
{
    return [ctx = QPointer<QObject>(context), hadContext = context != nullptr, done = std::move(done),
               secret = std::move(secret)](const SecretResult &result) {
        if (hadContext && !ctx)
            return;
        if (!done)
            return;
        SecretResult r = result;
        r.message = Redactor({ secret, r.secret }).apply(r.message);
        done(r);
    };
}

} // namespace

SecretStore::SecretStore(QObject *parent)
    : QObject(parent)
{
}

SecretStore::~SecretStore() = default;

void SecretStore::read(const QString &keyId, QObject *context, Callback done)
{
    Callback cb = guarded(context, std::move(done));
    if (keyId.isEmpty())
        return deliverLater(cb, SecretResult::failure(SecretError::Other, QStringLiteral("empty key id")));
    doRead(keyId, std::move(cb));
}

void SecretStore::write(const QString &keyId, const QByteArray &secret, QObject *context, Callback done)
{
    Callback cb = guarded(context, std::move(done), secret);
    if (keyId.isEmpty())
        return deliverLater(cb, SecretResult::failure(SecretError::Other, QStringLiteral("empty key id")));
    if (secret.isEmpty())
        return deliverLater(
            cb, SecretResult::failure(SecretError::Other, QStringLiteral("refusing to store an empty key")));
    doWrite(keyId, secret, std::move(cb));
}

void SecretStore::remove(const QString &keyId, QObject *context, Callback done)
{
    Callback cb = guarded(context, std::move(done));
    if (keyId.isEmpty())
        return deliverLater(cb, SecretResult::failure(SecretError::Other, QStringLiteral("empty key id")));
    doRemove(keyId, std::move(cb));
}

void SecretStore::deliverLater(const Callback &done, SecretResult result)
{
    QMetaObject::invokeMethod(
        this, [done, result = std::move(result)] { done(result); }, Qt::QueuedConnection);
}

namespace {

SecretResult waitFor(SecretStore &store, const std::function<void(QObject *, SecretStore::Callback)> &start)
{
    QEventLoop loop;
    SecretResult out = SecretResult::failure(SecretError::Other, QStringLiteral("secret store was destroyed"));
    bool finished = false;
    const auto conn = QObject::connect(&store, &QObject::destroyed, &loop, &QEventLoop::quit);
    start(&loop, [&](const SecretResult &r) {
        out = r;
        finished = true;
        loop.quit();
    });
    if (!finished)
        loop.exec();
    QObject::disconnect(conn);
    return out;
}

} // namespace

SecretResult readSecretBlocking(SecretStore &store, const QString &keyId)
{
    return waitFor(store, [&](QObject *ctx, SecretStore::Callback cb) { store.read(keyId, ctx, std::move(cb)); });
}

SecretResult writeSecretBlocking(SecretStore &store, const QString &keyId, const QByteArray &secret)
{
    return waitFor(
        store, [&](QObject *ctx, SecretStore::Callback cb) { store.write(keyId, secret, ctx, std::move(cb)); });
}

SecretResult removeSecretBlocking(SecretStore &store, const QString &keyId)
{
    return waitFor(store, [&](QObject *ctx, SecretStore::Callback cb) { store.remove(keyId, ctx, std::move(cb)); });
}

} // namespace ServeScope
