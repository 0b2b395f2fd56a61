// SPDX-License-Identifier: MIT
#include "model/redaction.h"
#include "model/validation.h"
#include "secrets/apikey.h"
#include "secrets/memorysecretstore.h"

#include <QRegularExpression>
#include <QTest>

#include <memory>

using namespace ServeScope;

namespace {

const QByteArray kSecret = QByteArrayLiteral("sk-test-7c1e0d9a4b2f4e66a1b3");

// One asynchronous answer; `calls` proves it came exactly once and not from inside the call.
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
    bool wait() const
    {
        return QTest::qWaitFor([c = calls] { return *c > 0; }, 5000) && *calls == 1;
    }
};

SecretResult run(const std::function<void(SecretStore::Callback)> &start)
{
    Probe p;
    start(p.callback());
    if (*p.calls != 0)
        qFatal("callback ran inside the call");
    if (!p.wait())
        qFatal("no single answer");
    return *p.result;
}

} // namespace

class TestSecretStore final : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void memoryRoundTrip()
    {
        MemorySecretStore store;
        const QString id = QStringLiteral("endpoint/a");
        auto read = [&] { return run([&](auto cb) { store.read(id, nullptr, cb); }); };

        SecretResult r = read();
        QVERIFY(!r.ok);
        QCOMPARE(r.error, SecretError::NotFound);
        QVERIFY(r.secret.isEmpty());

        r = run([&](auto cb) { store.write(id, kSecret, nullptr, cb); });
        QVERIFY(r.ok);
        QCOMPARE(r.error, SecretError::None);
        QCOMPARE(read().secret, kSecret);

        r = run([&](auto cb) { store.write(id, QByteArrayLiteral("second"), nullptr, cb); });
        QVERIFY(r.ok);
        QCOMPARE(read().secret, QByteArrayLiteral("second"));
        QCOMPARE(store.size(), 1);

        QVERIFY(run([&](auto cb) { store.remove(id, nullptr, cb); }).ok);
        QCOMPARE(read().error, SecretError::NotFound);
        QVERIFY2(run([&](auto cb) { store.remove(id, nullptr, cb); }).ok, "removing a missing entry succeeds");
        QCOMPARE(store.size(), 0);
    }

    void refusesEmptyIdAndEmptySecret()
    {
        MemorySecretStore store;
        SecretResult r = run([&](auto cb) { store.write(QString(), kSecret, nullptr, cb); });
        QCOMPARE(r.error, SecretError::Other);
        r = run([&](auto cb) { store.write(QStringLiteral("x"), QByteArray(), nullptr, cb); });
        QCOMPARE(r.error, SecretError::Other);
        QVERIFY(r.message.contains(QStringLiteral("empty")));
        QCOMPARE(run([&](auto cb) { store.read(QString(), nullptr, cb); }).error, SecretError::Other);
        QCOMPARE(run([&](auto cb) { store.remove(QString(), nullptr, cb); }).error, SecretError::Other);
        QCOMPARE(store.size(), 0);
    }

    void callbackSkippedWhenContextDies()
    {
        MemorySecretStore store;
        auto context = std::make_unique<QObject>();
        Probe p;
        store.write(QStringLiteral("k"), kSecret, context.get(), p.callback());
        context.reset();
        Probe after;
        store.read(QStringLiteral("k"), nullptr, after.callback());
        QVERIFY(after.wait());
        QCOMPARE(*p.calls, 0);
        QCOMPARE(after.result->secret, kSecret); // the write itself still happened
    }

    void forcedErrorIsRedacted()
    {
        MemorySecretStore store;
        // A backend that echoes the key in its error text must not leak it.
        store.setForcedError(
            SecretError::Unavailable, QStringLiteral("locked while storing ") + QString::fromUtf8(kSecret));
        const SecretResult r = run([&](auto cb) { store.write(QStringLiteral("k"), kSecret, nullptr, cb); });
        QCOMPARE(r.error, SecretError::Unavailable);
        QVERIFY(!r.message.contains(QString::fromUtf8(kSecret)));
        QCOMPARE(r.message, QStringLiteral("locked while storing ***"));
        store.setForcedError(SecretError::None);
        QVERIFY(run([&](auto cb) { store.write(QStringLiteral("k"), kSecret, nullptr, cb); }).ok);
    }

    void availabilitySignal()
    {
        MemorySecretStore store;
        QCOMPARE(store.availability(), SecretAvailability::Available);
        int changes = 0;
        connect(&store, &SecretStore::availabilityChanged, this, [&] { ++changes; });
        store.setAvailability(SecretAvailability::SessionOnly);
        store.setAvailability(SecretAvailability::SessionOnly);
        QCOMPARE(changes, 1);
        QCOMPARE(store.availability(), SecretAvailability::SessionOnly);
    }

    void blockingHelpers()
    {
        MemorySecretStore store;
        QVERIFY(writeSecretBlocking(store, QStringLiteral("b"), kSecret).ok);
        QCOMPARE(readSecretBlocking(store, QStringLiteral("b")).secret, kSecret);
        QVERIFY(removeSecretBlocking(store, QStringLiteral("b")).ok);
        QCOMPARE(readSecretBlocking(store, QStringLiteral("b")).error, SecretError::NotFound);
    }

    void errorCodes()
    {
        QCOMPARE(secretErrorCode(SecretError::NotFound), QStringLiteral("not_found"));
        QCOMPARE(secretErrorCode(SecretError::Unavailable), QStringLiteral("unavailable"));
        QCOMPARE(secretErrorCode(SecretError::Timeout), QStringLiteral("timeout"));
        QCOMPARE(secretErrorCode(SecretError::Other), QStringLiteral("other"));
    }

    void trimKey_data()
    {
        QTest::addColumn<QString>("pasted");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<bool>("trimmed");
        QTest::addColumn<int>("leading");
        QTest::addColumn<int>("trailing");
        QTest::addColumn<bool>("inner");
        const QString k = QStringLiteral("sk-abc123");
        const QByteArray kb = QByteArrayLiteral("sk-abc123");
        QTest::newRow("clean") << k << kb << false << 0 << 0 << false;
        QTest::newRow("leading space") << (QStringLiteral(" ") + k) << kb << true << 1 << 0 << false;
        QTest::newRow("trailing newline") << (k + QStringLiteral("\n")) << kb << true << 0 << 1 << false;
        QTest::newRow("windows line end") << (k + QStringLiteral("\r\n")) << kb << true << 0 << 2 << false;
        QTest::newRow("tabs both sides") << (QStringLiteral("\t\t") + k + QStringLiteral("\t")) << kb << true << 2 << 1
                                         << false;
        QTest::newRow("no-break space") << (QChar(0x00A0) + k) << kb << true << 1 << 0 << false;
        QTest::newRow("zero-width space") << (k + QChar(0x200B)) << kb << true << 0 << 1 << false;
        QTest::newRow("byte-order mark") << (QChar(0xFEFF) + k) << kb << true << 1 << 0 << false;
        QTest::newRow("ideographic space") << (k + QChar(0x3000)) << kb << true << 0 << 1 << false;
        QTest::newRow("inner space kept")
            << QStringLiteral(" sk-abc 123 ") << QByteArrayLiteral("sk-abc 123") << true << 1 << 1 << true;
        QTest::newRow("inner newline kept")
            << QStringLiteral("sk-abc\n123") << QByteArrayLiteral("sk-abc\n123") << false << 0 << 0 << true;
        QTest::newRow("only whitespace") << QStringLiteral(" \t\n ") << QByteArray() << true << 4 << 0 << false;
        QTest::newRow("empty") << QString() << QByteArray() << false << 0 << 0 << false;
        QTest::newRow("non-ascii key") << QStringLiteral(" cl\u00e9 ") << QByteArrayLiteral("cl\xc3\xa9") << true << 1
                                       << 1 << false;
    }

    void trimKey()
    {
        QFETCH(QString, pasted);
        QFETCH(QByteArray, key);
        const TrimmedKey t = ServeScope::trimKey(pasted);
        QCOMPARE(t.key, key);
        QTEST(t.trimmed, "trimmed");
        QTEST(t.removedLeading, "leading");
        QTEST(t.removedTrailing, "trailing");
        QTEST(t.innerWhitespace, "inner");
        QCOMPARE(ServeScope::trimKey(pasted.toUtf8()).key, key);
    }

    void keyReference_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("env") << QStringLiteral("env:OPENAI_API_KEY") << true << int(KeyReference::Kind::Environment)
                             << QStringLiteral("OPENAI_API_KEY");
        QTest::newRow("keychain") << QStringLiteral("keychain:endpoint/1:x") << true
                                  << int(KeyReference::Kind::Keychain) << QStringLiteral("endpoint/1:x");
        QTest::newRow("no scheme") << QStringLiteral("OPENAI_API_KEY") << false << 0 << QString();
        QTest::newRow("unknown scheme") << QStringLiteral("file:/etc/key") << false << 0 << QString();
        QTest::newRow("empty name") << QStringLiteral("env:") << false << 0 << QString();
        QTest::newRow("empty") << QString() << false << 0 << QString();
    }

    void keyReference()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        const std::optional<KeyReference> ref = KeyReference::parse(text);
        QCOMPARE(ref.has_value(), valid);
        if (!valid)
            return;
        QTEST(int(ref->kind), "kind");
        QTEST(ref->name, "name");
        QCOMPARE(ref->toString(), text);
        QVERIFY(!ref->isNull());
    }

    void environmentKey_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<bool>("set");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("error");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<bool>("trimmed");
        QTest::addColumn<bool>("nameInMessage");
        const int ok = int(SecretError::None);
        const int missing = int(SecretError::NotFound);
        const int other = int(SecretError::Other);
        QTest::newRow("set") << QStringLiteral("SST_KEY_A") << true << kSecret << ok << kSecret << false << false;
        QTest::newRow("padded") << QStringLiteral("SST_KEY_B") << true << QByteArray(" " + kSecret + "\n") << ok
                                << kSecret << true << false;
        QTest::newRow("unset") << QStringLiteral("SST_KEY_UNSET") << false << QByteArray() << missing << QByteArray()
                               << false << true;
        QTest::newRow("empty") << QStringLiteral("SST_KEY_C") << true << QByteArray() << missing << QByteArray()
                               << false << true;
        QTest::newRow("whitespace only") << QStringLiteral("SST_KEY_D") << true << QByteArrayLiteral(" \n") << missing
                                         << QByteArray() << false << true;
        // A key pasted into api_key_env: refused, and never echoed back.
        QTest::newRow("key as name") << QString::fromUtf8(kSecret) << false << QByteArray() << other << QByteArray()
                                     << false << false;
        QTest::newRow("key-like identifier unset") << QStringLiteral("abc123def456ghi789jkl") << false << QByteArray()
                                                   << missing << QByteArray() << false << false;
    }

    void environmentKey()
    {
        QFETCH(QString, variable);
        QFETCH(bool, set);
        QFETCH(QByteArray, value);
        QFETCH(QByteArray, key);
        QFETCH(bool, nameInMessage);
        const QByteArray name = variable.toUtf8();
        if (set)
            qputenv(name.constData(), value);
        else if (isValidEnvironmentName(variable))
            qunsetenv(name.constData());

        const SecretResult r = readApiKeyFromEnvironment(variable);
        QTEST(int(r.error), "error");
        QCOMPARE(r.ok, r.error == SecretError::None);
        QCOMPARE(r.secret, key);
        QTEST(r.trimmed, "trimmed");
        QCOMPARE(r.message.contains(variable), nameInMessage);
        QVERIFY(!r.message.contains(QString::fromUtf8(kSecret)));
        if (!value.trimmed().isEmpty())
            QVERIFY(!r.message.contains(QString::fromUtf8(value.trimmed())));

        // The async and blocking paths give the same answer.
        MemorySecretStore store;
        const KeyReference ref = KeyReference::environment(variable);
        const SecretResult viaAsync = run([&](auto cb) { resolveApiKey(ref, store, nullptr, cb); });
        QCOMPARE(viaAsync.error, r.error);
        QCOMPARE(viaAsync.secret, r.secret);
        QCOMPARE(resolveApiKeyBlocking(ref, &store).secret, r.secret);
        if (set)
            qunsetenv(name.constData());
    }

    void keychainReferenceThroughStore()
    {
        MemorySecretStore store;
        QVERIFY(writeSecretBlocking(store, QStringLiteral("ep/1"), "  " + kSecret + "\r\n").ok);
        const KeyReference ref = KeyReference::keychain(QStringLiteral("ep/1"));
        SecretResult r = run([&](auto cb) { resolveApiKey(ref, store, nullptr, cb); });
        QVERIFY(r.ok);
        QCOMPARE(r.secret, kSecret);
        QVERIFY(r.trimmed);
        r = resolveApiKeyBlocking(KeyReference::keychain(QStringLiteral("ep/missing")), &store);
        QCOMPARE(r.error, SecretError::NotFound);
        QVERIFY(r.message.contains(QStringLiteral("ep/missing")));
        r = resolveApiKeyBlocking(KeyReference(), &store);
        QCOMPARE(r.error, SecretError::NotFound);
    }

    void redaction()
    {
        QCOMPARE(redactSecret(QStringLiteral("a sk-1 b sk-1"), "sk-1"), QStringLiteral("a *** b ***"));
        QCOMPARE(redactSecret(QStringLiteral("x sk-1 y"), " sk-1\n"), QStringLiteral("x *** y"));
        QCOMPARE(redactSecret(QStringLiteral("nothing"), QByteArray()), QStringLiteral("nothing"));
    }
};

QTEST_GUILESS_MAIN(TestSecretStore)
#include "tst_secretstore.moc"
