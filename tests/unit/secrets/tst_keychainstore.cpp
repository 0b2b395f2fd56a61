// SPDX-License-Identifier: MIT
// Runs against a real gnome-keyring inside a private D-Bus session (scripts/with-keyring.sh), under a random
// service name, so it never sees the developer's own keyring.
#include "requireservice.h"
#include "secrets/apikey.h"
#include "secrets/keychainsecretstore.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <QUuid>

#include <memory>

using namespace ServeScope;

namespace {

struct Probe {
    std::shared_ptr<SecretResult> result = std::make_shared<SecretResult>();
    std::shared_ptr<int> calls = std::make_shared<int>(0);

    SecretStore::Callback callback() const
    {
        return [r = result, c = calls](const SecretResult &res) {
            *r = res;
            ++*c;
        };
    }
    bool wait(int ms = 15000) const
    {
        return QTest::qWaitFor([c = calls] { return *c > 0; }, ms) && *calls == 1;
    }
};

QString randomService()
{
    return QStringLiteral("servescope-test-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
}

// secret-tool sees what QtKeychain's libsecret backend stored (attributes user = key id, server = service).
std::optional<QByteArray> secretToolLookup(const QString &service, const QString &keyId)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("secret-tool"));
    if (tool.isEmpty())
        return std::nullopt;
    QProcess p;
    p.start(tool, { QStringLiteral("lookup"), QStringLiteral("server"), service, QStringLiteral("user"), keyId });
    if (!p.waitForFinished(10000))
        return std::nullopt;
    return p.readAllStandardOutput();
}

} // namespace

class TestKeychainStore final : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<KeychainSecretStore> m_store;
    const QByteArray m_first = QByteArrayLiteral("sk-first-1f0b3c2d9e8a7f6e");
    const QByteArray m_second = QByteArrayLiteral("sk-second-0a9b8c7d6e5f4a3b");

    SecretResult run(const std::function<void(SecretStore::Callback)> &start)
    {
        Probe p;
        start(p.callback());
        if (*p.calls != 0)
            qFatal("callback ran inside the call");
        if (!p.wait())
            qFatal("keychain gave no single answer");
        return *p.result;
    }
    SecretResult read(const QString &id)
    {
        return run([&](auto cb) { m_store->read(id, nullptr, cb); });
    }
    SecretResult write(const QString &id, const QByteArray &secret)
    {
        return run([&](auto cb) { m_store->write(id, secret, nullptr, cb); });
    }
    SecretResult remove(const QString &id)
    {
        return run([&](auto cb) { m_store->remove(id, nullptr, cb); });
    }
    void verifyClean(const SecretResult &r)
    {
        for (const QByteArray &s : { m_first, m_second })
            QVERIFY2(!r.message.contains(QString::fromUtf8(s)), qPrintable(r.message));
    }

private slots:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        // scripts/with-keyring.sh gives the test a fresh HOME under the temp directory; anything else may be the
        // developer's own session and keyring, which this test must never touch.
        const QString home = QDir::homePath();
        SERVESCOPE_REQUIRE_SERVICE(
            !qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS") && home.startsWith(QDir::tempPath() + u'/'),
            QStringLiteral("needs a private D-Bus session with a throwaway gnome-keyring (run through "
                           "scripts/with-keyring.sh)"));
    }

    void init()
    {
        m_store = std::make_unique<KeychainSecretStore>(randomService());
        m_store->setWatchdogInterval(std::chrono::seconds(20)); // a slow CI box is not a hung keyring
    }

    void cleanup() { m_store.reset(); }

    void writeReadOverwriteDelete()
    {
        const QString id = QStringLiteral("endpoint/") + QUuid::createUuid().toString(QUuid::WithoutBraces);
        QCOMPARE(m_store->availability(), SecretAvailability::Available);

        SecretResult r = write(id, m_first);
        QVERIFY2(r.ok, qPrintable(r.message));
        QVERIFY(!r.sessionOnly);
        r = read(id);
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(r.secret, m_first);
        QVERIFY(!r.sessionOnly);

        QVERIFY(write(id, m_second).ok);
        QCOMPARE(read(id).secret, m_second);
        if (const auto stored = secretToolLookup(m_store->service(), id))
            QCOMPARE(*stored, m_second);

        // A second store on the same service sees the keychain entry: it really left this process.
        KeychainSecretStore other(m_store->service());
        QCOMPARE(readSecretBlocking(other, id).secret, m_second);

        r = remove(id);
        QVERIFY2(r.ok, qPrintable(r.message));
        r = read(id);
        QVERIFY(!r.ok);
        QCOMPARE(r.error, SecretError::NotFound);
        QVERIFY(r.message.contains(id));
        verifyClean(r);
        if (const auto stored = secretToolLookup(m_store->service(), id))
            QVERIFY(stored->isEmpty());
        QVERIFY2(remove(id).ok, "removing a missing entry succeeds");
        QCOMPARE(m_store->availability(), SecretAvailability::Available);
    }

    void readMissing()
    {
        const SecretResult r = read(QStringLiteral("never-written"));
        QCOMPARE(r.error, SecretError::NotFound);
        QVERIFY(!r.sessionOnly);
        QVERIFY(r.secret.isEmpty());
        QCOMPARE(m_store->availability(), SecretAvailability::Available);
    }

    void servicesAreSeparate()
    {
        const QString id = QStringLiteral("shared-id");
        QVERIFY(write(id, m_first).ok);
        KeychainSecretStore other(randomService());
        QCOMPARE(readSecretBlocking(other, id).error, SecretError::NotFound);
        QVERIFY(remove(id).ok);
    }

    void binarySecret()
    {
        const QByteArray bytes("\xff\x00\x01key\xfe", 7);
        QVERIFY(write(QStringLiteral("bin"), bytes).ok);
        QCOMPARE(read(QStringLiteral("bin")).secret, bytes);
        QVERIFY(remove(QStringLiteral("bin")).ok);
    }

    void requestsKeepTheirOrder()
    {
        // Issued back to back without waiting: the store serialises them in call order.
        const QString id = QStringLiteral("ordered");
        Probe w1, r1, w2, r2, d, r3;
        m_store->write(id, m_first, nullptr, w1.callback());
        m_store->read(id, nullptr, r1.callback());
        m_store->write(id, m_second, nullptr, w2.callback());
        m_store->read(id, nullptr, r2.callback());
        m_store->remove(id, nullptr, d.callback());
        m_store->read(id, nullptr, r3.callback());
        QVERIFY(r3.wait());
        for (const Probe *p : { &w1, &r1, &w2, &r2, &d })
            QCOMPARE(*p->calls, 1);
        QCOMPARE(r1.result->secret, m_first);
        QCOMPARE(r2.result->secret, m_second);
        QVERIFY(d.result->ok);
        QCOMPARE(r3.result->error, SecretError::NotFound);
    }

    void resolvesTrimmedKeychainReference()
    {
        QVERIFY(write(QStringLiteral("padded"), " " + m_first + "\n").ok);
        const SecretResult r = resolveApiKeyBlocking(KeyReference::keychain(QStringLiteral("padded")), m_store.get());
        QVERIFY(r.ok);
        QCOMPARE(r.secret, m_first);
        QVERIFY(r.trimmed);
        QVERIFY(remove(QStringLiteral("padded")).ok);
    }

    void sessionOnlyOnRequest()
    {
        const QString id = QStringLiteral("session");
        int changes = 0;
        connect(m_store.get(), &SecretStore::availabilityChanged, this, [&] { ++changes; });
        m_store->useSessionOnly(QStringLiteral("keyring locked"));
        QCOMPARE(m_store->availability(), SecretAvailability::SessionOnly);
        QCOMPARE(changes, 1);

        SecretResult r = write(id, m_first);
        QVERIFY(r.ok);
        QVERIFY(r.sessionOnly);
        r = read(id);
        QCOMPARE(r.secret, m_first);
        QVERIFY(r.sessionOnly);
        // Nothing reached the keychain.
        KeychainSecretStore other(m_store->service());
        QCOMPARE(readSecretBlocking(other, id).error, SecretError::NotFound);

        QVERIFY(m_store->retryKeychain());
        QCOMPARE(m_store->availability(), SecretAvailability::Available);
        QCOMPARE(changes, 2);
        r = read(id); // the key typed for this session still wins
        QCOMPARE(r.secret, m_first);
        QVERIFY(r.sessionOnly);
        QVERIFY(write(id, m_second).ok); // now it goes to the keychain and replaces the session copy
        r = read(id);
        QCOMPARE(r.secret, m_second);
        QVERIFY(!r.sessionOnly);
        QVERIFY(remove(id).ok);
    }

    void callerGoneBeforeAnswer()
    {
        auto context = std::make_unique<QObject>();
        Probe skipped, after;
        m_store->write(QStringLiteral("gone"), m_first, context.get(), skipped.callback());
        context.reset();
        m_store->remove(QStringLiteral("gone"), nullptr, after.callback());
        QVERIFY(after.wait());
        QCOMPARE(*skipped.calls, 0);
    }
};

QTEST_GUILESS_MAIN(TestKeychainStore)
#include "tst_keychainstore.moc"
