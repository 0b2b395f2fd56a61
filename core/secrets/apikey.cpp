// SPDX-License-Identifier: MIT
#include "secrets/apikey.h"

#include "model/keytext.h"
#include "model/validation.h"
#include "secrets/keychainsecretstore.h"

#include <QPointer>
#include <QRegularExpression>

namespace ServeScope {

namespace {

bool isConventionalName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Z_][A-Z0-9_]{0,63}$"));
    return re.match(name).hasMatch();
}

QString describeVariable(const QString &name)
{
    return isConventionalName(name) ? QStringLiteral("environment variable %1").arg(name)
                                    : QStringLiteral("the named environment variable");
}

SecretResult finishKey(SecretResult r)
{
    if (!r.ok)
        return r;
    const TrimmedKey t = trimKey(r.secret);
    r.secret = t.key;
    r.trimmed = t.trimmed;
    if (r.secret.isEmpty())
        return SecretResult::failure(SecretError::NotFound, QStringLiteral("the stored key is empty"));
    return r;
}

} // namespace

TrimmedKey trimKey(QStringView pasted)
{
    const QStringView core = trimmedKeyText(pasted);
    const qsizetype begin = core.data() - pasted.data();
    const qsizetype end = begin + core.size();
    TrimmedKey out;
    out.key = core.toUtf8();
    out.removedLeading = int(begin);
    out.removedTrailing = int(pasted.size() - end);
    out.trimmed = out.removedLeading > 0 || out.removedTrailing > 0;
    for (QChar c : core) {
        if (isKeyPadding(c)) {
            out.innerWhitespace = true;
            break;
        }
    }
    return out;
}

TrimmedKey trimKey(const QByteArray &pastedUtf8)
{
    return trimKey(QString::fromUtf8(pastedUtf8));
}

std::optional<KeyReference> KeyReference::parse(const QString &text)
{
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    if (colon <= 0 || colon == text.size() - 1)
        return std::nullopt;
    const QStringView scheme = QStringView(text).left(colon);
    const QString name = text.mid(colon + 1);
    if (scheme == u"env")
        return environment(name);
    if (scheme == u"keychain")
        return keychain(name);
    return std::nullopt;
}

KeyReference KeyReference::forEndpoint(const Endpoint &endpoint)
{
    if (!endpoint.keychainEntry.isEmpty())
        return keychain(endpoint.keychainEntry);
    if (!endpoint.apiKeyEnv.isEmpty())
        return environment(endpoint.apiKeyEnv);
    return {};
}

QString KeyReference::toString() const
{
    switch (kind) {
    case Kind::Environment:
        return QStringLiteral("env:") + name;
    case Kind::Keychain:
        return QStringLiteral("keychain:") + name;
    case Kind::None:
        break;
    }
    return {};
}

SecretResult readApiKeyFromEnvironment(const QString &variable)
{
    if (!isValidEnvironmentName(variable))
        return SecretResult::failure(SecretError::Other,
            QStringLiteral("api_key_env must name an environment variable ([A-Za-z_][A-Za-z0-9_]*), not hold a key"));
    const QByteArray name = variable.toLatin1();
    if (!qEnvironmentVariableIsSet(name.constData()))
        return SecretResult::failure(SecretError::NotFound, describeVariable(variable) % QStringLiteral(" is not set"));
    SecretResult r = finishKey(SecretResult::success(qgetenv(name.constData())));
    if (!r.ok)
        r.message = describeVariable(variable) % QStringLiteral(" is empty");
    return r;
}

void resolveApiKey(const KeyReference &ref, SecretStore &store, QObject *context, SecretStore::Callback done)
{
    if (ref.kind == KeyReference::Kind::Keychain && !ref.name.isEmpty()) {
        store.read(ref.name, context, [done = std::move(done)](const SecretResult &r) { done(finishKey(r)); });
        return;
    }
    SecretResult result = ref.kind == KeyReference::Kind::Environment
        ? readApiKeyFromEnvironment(ref.name)
        : SecretResult::failure(SecretError::NotFound, QStringLiteral("the endpoint has no API key reference"));
    QMetaObject::invokeMethod(
        &store,
        [ctx = QPointer<QObject>(context), hadContext = context != nullptr, done = std::move(done),
            result = std::move(result)] {
            if (done && (!hadContext || ctx))
                done(result);
        },
        Qt::QueuedConnection);
}

SecretResult resolveApiKeyBlocking(const KeyReference &ref, SecretStore *store)
{
    if (ref.kind != KeyReference::Kind::Keychain || ref.name.isEmpty()) {
        if (ref.kind == KeyReference::Kind::Environment)
            return readApiKeyFromEnvironment(ref.name);
        return SecretResult::failure(SecretError::NotFound, QStringLiteral("the endpoint has no API key reference"));
    }
    if (store)
        return finishKey(readSecretBlocking(*store, ref.name));
    KeychainSecretStore keychain;
    return finishKey(readSecretBlocking(keychain, ref.name));
}

} // namespace ServeScope
