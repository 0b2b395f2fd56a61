// SPDX-License-Identifier: MIT
// `servescope-cli import-endpoint` as a process inside a private D-Bus session with a throwaway gnome-keyring
// (scripts/with-keyring.sh): the endpoint JSON on stdout, the file's key in the keychain and nowhere else, a
// placeholder key stored nowhere and said so.
#include "requireservice.h"
#include "secrets/keychainsecretstore.h"
#include "simchild.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

namespace {

struct Outcome {
    int exitCode = -1;
    QByteArray out, err;
};

Outcome importEndpoint(const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : { "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE" })
        env.insert(QLatin1String(name), QStringLiteral("C"));
    env.remove(QStringLiteral("SERVESCOPE_LANG"));
    env.remove(QStringLiteral("TEAM_CLAUDE_TOKEN"));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(SimChild::cli(), QStringList { QStringLiteral("import-endpoint") } + args);
    p.waitForFinished(60000);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonObject object(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    return error.error == QJsonParseError::NoError ? doc.object() : QJsonObject();
}

// What the CLI stored, read back as the app reads it (the default service, "ServeScope").
SecretResult keychainEntry(const QString &id)
{
    KeychainSecretStore store;
    store.setWatchdogInterval(std::chrono::seconds(20));
    return readSecretBlocking(store, id);
}

// The same entry as libsecret's own tool sees it, when Debian's libsecret-tools is installed.
std::optional<QByteArray> secretToolLookup(const QString &id)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("secret-tool"));
    if (tool.isEmpty())
        return std::nullopt;
    QProcess p;
    p.start(tool,
        { QStringLiteral("lookup"), QStringLiteral("server"), KeychainSecretStore::defaultService(),
            QStringLiteral("user"), id });
    if (!p.waitForFinished(10000))
        return std::nullopt;
    return p.readAllStandardOutput();
}

} // namespace

class TestCliImportEndpoint final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // A copy of a fixture in the test's folder, so the check that the file is untouched cannot disturb the tree.
    QString copyFixture(const char *name)
    {
        const QString target = m_dir.filePath(QLatin1String(name));
        QFile::remove(target);
        if (!QFile::copy(QStringLiteral(SERVESCOPE_TEST_DATA "/endpoint-files/") + QLatin1String(name), target))
            qFatal("cannot copy the fixture");
        return target;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI not set");
        QVERIFY(m_dir.isValid());
        // The CLI writes to the keychain's default service: only ever inside scripts/with-keyring.sh's throwaway
        // session (a fresh HOME under the temp directory), never the developer's own keyring.
        SERVESCOPE_REQUIRE_SERVICE(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")
                && QDir::homePath().startsWith(QDir::tempPath() + u'/'),
            QStringLiteral("needs a private D-Bus session with a throwaway gnome-keyring (run through "
                           "scripts/with-keyring.sh)"));
    }

    void claudeCodeKeyGoesToTheKeychain()
    {
        const QByteArray key = QByteArrayLiteral("sk-ant-test-0123456789abcdef");
        const QString file = copyFixture("claude-settings.json");
        const QByteArray before = readAll(file);
        const Outcome o = importEndpoint({ file });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QJsonObject endpoint = object(o.out);
        QCOMPARE(endpoint.value(QStringLiteral("base_url")).toString(),
            QStringLiteral("https://gateway.example.com/anthropic"));
        QCOMPARE(endpoint.value(QStringLiteral("path")).toString(), QStringLiteral("/v1/messages"));
        QCOMPARE(endpoint.value(QStringLiteral("model")).toString(), QStringLiteral("claude-sonnet-4-5"));
        QCOMPARE(endpoint.value(QStringLiteral("keychain_entry")).toString(), QStringLiteral("import-claude-code"));
        QVERIFY(!endpoint.contains(QStringLiteral("api_key_env")));
        QVERIFY2(o.err.contains("is stored in the keychain as entry import-claude-code (service ServeScope)"),
            o.err.constData());
        // The key is in the keychain, and in neither stream nor the file's neighbourhood.
        const SecretResult stored = keychainEntry(QStringLiteral("import-claude-code"));
        QVERIFY2(stored.ok, qPrintable(stored.message));
        QCOMPARE(stored.secret, key);
        if (const auto seen = secretToolLookup(QStringLiteral("import-claude-code")))
            QCOMPARE(seen->trimmed(), key);
        QVERIFY(!o.out.contains(key));
        QVERIFY(!o.err.contains(key));
        QVERIFY(!o.err.contains("0123456789abcdef"));
        QCOMPARE(readAll(file), before);
        for (const QFileInfo &written : QDir(m_dir.path()).entryInfoList(QDir::Files | QDir::Hidden)) {
            if (written.absoluteFilePath() != QFileInfo(file).absoluteFilePath())
                QVERIFY2(!readAll(written.absoluteFilePath()).contains(key), qPrintable(written.fileName()));
        }
    }

    void namedEntryAndTrimmedToken()
    {
        const QString file = copyFixture("claude-auth-token.settings.local.json");
        const Outcome o = importEndpoint({ file, QStringLiteral("--keychain-entry"), QStringLiteral("tst-token") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QJsonObject endpoint = object(o.out);
        QCOMPARE(endpoint.value(QStringLiteral("keychain_entry")).toString(), QStringLiteral("tst-token"));
        QCOMPARE(endpoint.value(QStringLiteral("model")).toString(), QStringLiteral("kimi-k2-turbo-preview"));
        const SecretResult stored = keychainEntry(QStringLiteral("tst-token"));
        QVERIFY2(stored.ok, qPrintable(stored.message));
        QCOMPARE(stored.secret, QByteArray("sk-test-token-9f8e7d6c5b4a3210"));
        QVERIFY(!o.out.contains("9f8e7d6c5b4a3210"));
        QVERIFY(!o.err.contains("9f8e7d6c5b4a3210"));
        QVERIFY2(o.err.contains("note: model taken from ANTHROPIC_DEFAULT_SONNET_MODEL"), o.err.constData());
    }

    void placeholderIsNotStored()
    {
        const QString file = copyFixture("claude-placeholder.json");
        const Outcome o
            = importEndpoint({ file, QStringLiteral("--keychain-entry"), QStringLiteral("tst-placeholder") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QJsonObject endpoint = object(o.out);
        QCOMPARE(endpoint.value(QStringLiteral("base_url")).toString(), QStringLiteral("https://relay.example.cn"));
        QCOMPARE(endpoint.value(QStringLiteral("model")).toString(), QStringLiteral("glm-4.6"));
        // Nothing names a key that is not there.
        QVERIFY(!endpoint.contains(QStringLiteral("keychain_entry")));
        QVERIFY(!endpoint.contains(QStringLiteral("api_key_env")));
        QVERIFY2(o.err.contains("the key in the file (ANTHROPIC_AUTH_TOKEN) is a placeholder, not a real key: "
                                "nothing was stored in the keychain."),
            o.err.constData());
        QVERIFY(!o.err.contains("is stored in the keychain"));
        QVERIFY(!QString::fromUtf8(o.err).contains(QStringLiteral("你的密钥")));
        QCOMPARE(keychainEntry(QStringLiteral("tst-placeholder")).error, SecretError::NotFound);
    }

    void noStoreKey()
    {
        const QString file = copyFixture("codex-auth.json");
        const Outcome o = importEndpoint({ file, QStringLiteral("--no-store-key"), QStringLiteral("--keychain-entry"),
            QStringLiteral("tst-nostore") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QJsonObject endpoint = object(o.out);
        QCOMPARE(endpoint.value(QStringLiteral("keychain_entry")).toString(), QStringLiteral("tst-nostore"));
        QCOMPARE(endpoint.value(QStringLiteral("path")).toString(), QStringLiteral("/v1/responses"));
        QVERIFY2(o.err.contains("was not stored (--no-store-key)"), o.err.constData());
        QCOMPARE(keychainEntry(QStringLiteral("tst-nostore")).error, SecretError::NotFound);
        QVERIFY(!o.out.contains("abcdef0123456789"));
        QVERIFY(!o.err.contains("abcdef0123456789"));
    }

    void variableReference()
    {
        const Outcome o = importEndpoint({ copyFixture("reference.env") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QJsonObject endpoint = object(o.out);
        QCOMPARE(endpoint.value(QStringLiteral("api_key_env")).toString(), QStringLiteral("TEAM_CLAUDE_TOKEN"));
        QVERIFY(!endpoint.contains(QStringLiteral("keychain_entry")));
        QVERIFY2(o.err.contains("warning: environment variable TEAM_CLAUDE_TOKEN is not set here"), o.err.constData());
    }

    void refusedFiles()
    {
        Outcome o = importEndpoint({ copyFixture("malformed.json") });
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.out.isEmpty());
        QVERIFY2(o.err.contains("not valid JSON"), o.err.constData());
        QVERIFY(!o.err.contains("sk-ant-test"));
        o = importEndpoint({ copyFixture("unrelated.json") });
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.out.isEmpty());
        QVERIFY2(o.err.contains("not a Claude Code settings.json, Codex auth.json/config.toml or .env file"),
            o.err.constData());
        o = importEndpoint({});
        QCOMPARE(o.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliImportEndpoint)
#include "tst_cliimportendpoint.moc"
