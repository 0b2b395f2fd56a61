// SPDX-License-Identifier: MIT
// The team database's password from an environment variable or the OS keychain (a throwaway gnome-keyring
// in a private D-Bus session, scripts/with-keyring.sh), never echoed.
#include "requireservice.h"
#include "secrets/keychainsecretstore.h"
#include "teamdb/teamdbpassword.h"

#include <QDir>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestTeamDbPassword final : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void fromEnvironment()
    {
        qputenv("TEAMDB_TEST_PW", "  pw-from-env\n");
        const SecretResult r = resolveDbPasswordBlocking(KeyReference::environment(QStringLiteral("TEAMDB_TEST_PW")));
        QVERIFY(r.ok);
        QCOMPARE(r.secret, QByteArray("pw-from-env"));
        QVERIFY(r.trimmed);
        const SecretResult unset = resolveDbPasswordBlocking(KeyReference::environment(QStringLiteral("TEAMDB_UNSET")));
        QVERIFY(!unset.ok);
        QVERIFY2(unset.message.contains(QLatin1String("TEAMDB_UNSET is not set")), qPrintable(unset.message));
        const SecretResult pasted = resolveDbPasswordBlocking(KeyReference::environment(QStringLiteral("hunter2 pw")));
        QVERIFY(!pasted.ok);
        QVERIFY(!pasted.message.contains(QLatin1String("hunter2")));
    }

    void fromKeychain()
    {
        const QString home = qEnvironmentVariable("HOME");
        SERVESCOPE_REQUIRE_SERVICE(
            !qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS") && home.startsWith(QDir::tempPath() + u'/'),
            QStringLiteral("needs a private D-Bus session with a throwaway gnome-keyring (run through "
                           "scripts/with-keyring.sh)"));
        // The CLI reads the default service; this keyring is the test's own.
        KeychainSecretStore store;
        const QString id = QStringLiteral("teamdb-%1").arg(QRandomGenerator::global()->generate(), 0, 16);
        QVERIFY(writeSecretBlocking(store, id, "pw-from-keychain").ok);
        const SecretResult r = resolveDbPasswordBlocking(KeyReference::keychain(id), &store);
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(r.secret, QByteArray("pw-from-keychain"));
        const SecretResult fresh = resolveDbPasswordBlocking(KeyReference::keychain(id));
        QVERIFY2(fresh.ok, qPrintable(fresh.message));
        QCOMPARE(fresh.secret, QByteArray("pw-from-keychain"));
        QVERIFY(removeSecretBlocking(store, id).ok);
        const SecretResult gone = resolveDbPasswordBlocking(KeyReference::keychain(id), &store);
        QVERIFY(!gone.ok);
        QVERIFY2(gone.message.startsWith(QStringLiteral("database password from keychain entry '") + id),
            qPrintable(gone.message));
    }
};

QTEST_GUILESS_MAIN(TestTeamDbPassword)
#include "tst_teamdbpassword.moc"
