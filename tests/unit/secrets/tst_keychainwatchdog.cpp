// SPDX-License-Identifier: MIT
// A keyring that never answers, made real and deterministic: the session bus address points at a Unix socket
// that accepts connections but never speaks, so QtKeychain's libsecret backend waits forever in the D-Bus
// handshake, as it would behind a keyring prompt nobody answers. Closing the socket later makes the stuck job
// finish, which exercises the late-completion path.
#include "secrets/keychainsecretstore.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

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
    bool wait(int ms = 10000) const
    {
        return QTest::qWaitFor([c = calls] { return *c > 0; }, ms) && *calls == 1;
    }
};

const QByteArray kSecret = QByteArrayLiteral("sk-watchdog-5e4d3c2b1a09f8e7");
constexpr std::chrono::milliseconds kWatchdog { 300 };

} // namespace

class TestKeychainWatchdog final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    int m_listener = -1;
    std::unique_ptr<KeychainSecretStore> m_lingering; // destroyed while its job is still stuck

    void closeListener()
    {
        if (m_listener >= 0)
            ::close(m_listener);
        m_listener = -1;
    }

private slots:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        QVERIFY(m_dir.isValid());
        const QByteArray path = QFile::encodeName(m_dir.filePath(QStringLiteral("bus")));
        sockaddr_un addr {};
        addr.sun_family = AF_UNIX;
        QVERIFY(size_t(path.size()) < sizeof(addr.sun_path));
        memcpy(addr.sun_path, path.constData(), size_t(path.size()));
        m_listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(m_listener >= 0);
        QCOMPARE(::bind(m_listener, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
        QCOMPARE(::listen(m_listener, 16), 0); // never accept(): the handshake waits forever
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + path);
        // Keep QtKeychain on its libsecret backend whatever desktop the test runs under.
        for (const char *var : { "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION", "KDE_SESSION_VERSION",
                 "GNOME_DESKTOP_SESSION_ID" })
            qunsetenv(var);
    }

    void cleanupTestCase() { closeListener(); }

    void hungKeychainTimesOut()
    {
        KeychainSecretStore store(QStringLiteral("servescope-watchdog-test"));
        store.setWatchdogInterval(kWatchdog);
        QCOMPARE(store.watchdogInterval(), kWatchdog);
        int changes = 0;
        connect(&store, &SecretStore::availabilityChanged, this, [&] { ++changes; });

        Probe w;
        QElapsedTimer clock;
        clock.start();
        store.write(QStringLiteral("k"), kSecret, nullptr, w.callback());
        QVERIFY(w.wait());
        const qint64 elapsed = clock.elapsed();
        QVERIFY2(elapsed >= kWatchdog.count() - 20 && elapsed < 5000, qPrintable(QString::number(elapsed)));
        QCOMPARE(w.result->error, SecretError::Timeout);
        QVERIFY(!w.result->ok);
        QVERIFY(w.result->sessionOnly);
        QVERIFY(!w.result->message.contains(QString::fromUtf8(kSecret)));
        QCOMPARE(store.availability(), SecretAvailability::SessionOnly);
        QVERIFY(store.sessionOnlyReason().contains(QStringLiteral("did not answer")));
        QCOMPARE(changes, 1);
        QCOMPARE(KeychainSecretStore::abandonedJobs(), 1);
        QVERIFY2(!store.retryKeychain(), "the stuck job still blocks QtKeychain's queue");

        // From now on: served from memory at once, and the result says so.
        QElapsedTimer fast;
        fast.start();
        SecretResult r = writeSecretBlocking(store, QStringLiteral("k"), kSecret);
        QVERIFY(r.ok);
        QVERIFY(r.sessionOnly);
        r = readSecretBlocking(store, QStringLiteral("k"));
        QCOMPARE(r.secret, kSecret);
        QVERIFY(r.sessionOnly);
        r = readSecretBlocking(store, QStringLiteral("other"));
        QCOMPARE(r.error, SecretError::NotFound);
        QVERIFY(r.sessionOnly);
        QVERIFY(r.message.contains(QStringLiteral("did not answer")));
        QVERIFY(removeSecretBlocking(store, QStringLiteral("k")).ok);
        QCOMPARE(readSecretBlocking(store, QStringLiteral("k")).error, SecretError::NotFound);
        QVERIFY(fast.elapsed() < 2000); // no second wait for a watchdog
        QCOMPARE(KeychainSecretStore::abandonedJobs(), 1);
        QCOMPARE(changes, 1);
    }

    void queuedRequestsFollowIntoSession()
    {
        // A new store's first job queues behind the stuck one; its own watchdog moves it and everything queued
        // after it to the session store.
        m_lingering = std::make_unique<KeychainSecretStore>(QStringLiteral("servescope-watchdog-test"));
        m_lingering->setWatchdogInterval(kWatchdog);
        Probe first, second, third;
        m_lingering->read(QStringLiteral("a"), nullptr, first.callback());
        m_lingering->write(QStringLiteral("b"), kSecret, nullptr, second.callback());
        m_lingering->read(QStringLiteral("b"), nullptr, third.callback());
        QVERIFY(third.wait());
        QCOMPARE(*first.calls, 1);
        QCOMPARE(first.result->error, SecretError::Timeout);
        QVERIFY(second.result->ok && second.result->sessionOnly);
        QCOMPARE(third.result->secret, kSecret);
        QCOMPARE(KeychainSecretStore::abandonedJobs(), 2);
    }

    void lateCompletionsAreIgnored()
    {
        KeychainSecretStore store(QStringLiteral("servescope-watchdog-test"));
        store.setWatchdogInterval(kWatchdog);
        Probe stuck;
        store.read(QStringLiteral("late"), nullptr, stuck.callback());
        QVERIFY(stuck.wait());
        QCOMPARE(stuck.result->error, SecretError::Timeout);
        QCOMPARE(KeychainSecretStore::abandonedJobs(), 3);
        m_lingering.reset(); // its job is still inside QtKeychain

        // Hang up: every stuck handshake fails, and each abandoned job finally reports back.
        closeListener();
        QTRY_COMPARE_WITH_TIMEOUT(KeychainSecretStore::abandonedJobs(), 0, 20000);
        QTest::qWait(50);
        QCOMPARE(*stuck.calls, 1); // the late answer did not reach the caller a second time
        QCOMPARE(store.availability(), SecretAvailability::SessionOnly);

        // With the queue free again the store may go back to the keychain, which now fails fast (nobody
        // listens on the bus socket) instead of hanging: a plain error, not a timeout.
        QVERIFY(store.retryKeychain());
        QCOMPARE(store.availability(), SecretAvailability::Available);
        store.setWatchdogInterval(std::chrono::seconds(10));
        const SecretResult r = writeSecretBlocking(store, QStringLiteral("k"), kSecret);
        QVERIFY(!r.ok);
        QVERIFY2(r.error != SecretError::Timeout, qPrintable(r.message));
        QVERIFY(!r.sessionOnly);
        QVERIFY(!r.message.contains(QString::fromUtf8(kSecret)));
        QCOMPARE(store.availability(), SecretAvailability::Available);
    }
};

QTEST_GUILESS_MAIN(TestKeychainWatchdog)
#include "tst_keychainwatchdog.moc"
