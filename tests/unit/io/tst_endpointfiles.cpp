// SPDX-License-Identifier: MIT
// Endpoints from coding tools' files (readEndpointFile): Claude Code settings.json, Codex auth.json and
// config.toml, .env files; the placeholder rule; hostile input; the key never in a message.
#include "io/endpointfiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

namespace {

QString fixture(const char *name)
{
    return QStringLiteral(SERVESCOPE_TEST_DATA "/endpoint-files/") + QLatin1String(name);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Every message of a read, C-locale and translated.
QString allText(const EndpointFileRead &r)
{
    QStringList lines { r.error, r.shownLine(r.error) };
    lines += r.notes;
    lines += r.shownLines(r.notes);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestEndpointFiles final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void fixtures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QString>("keyEnv");
        QTest::addColumn<bool>("placeholder");
        QTest::addColumn<QString>("keySource");

        QTest::newRow("claude code, api key")
            << fixture("claude-settings.json") << "claude-code-settings"
            << "https://gateway.example.com/anthropic"
            << "/v1/messages"
            << "claude-sonnet-4-5" << QByteArray("sk-ant-test-0123456789abcdef") << "" << false << "ANTHROPIC_API_KEY";
        QTest::newRow("claude code, auth token, model fallback")
            << fixture("claude-auth-token.settings.local.json") << "claude-code-settings"
            << "https://api.moonshot.cn/anthropic"
            << "/v1/messages"
            << "kimi-k2-turbo-preview" << QByteArray("sk-test-token-9f8e7d6c5b4a3210") << "" << false
            << "ANTHROPIC_AUTH_TOKEN";
        QTest::newRow("claude code, placeholder") << fixture("claude-placeholder.json") << "claude-code-settings"
                                                  << "https://relay.example.cn"
                                                  << "/v1/messages"
                                                  << "glm-4.6" << QByteArray() << "" << true << "ANTHROPIC_AUTH_TOKEN";
        QTest::newRow("codex config, env_key, responses")
            << fixture("codex-config.toml") << "codex-config"
            << "https://llm.example.com/openai"
            << "/v1/responses"
            << "gpt-5-codex" << QByteArray() << "GATEWAY_API_KEY" << false << "model_providers.gateway.env_key";
        QTest::newRow("codex auth") << fixture("codex-auth.json") << "codex-auth"
                                    << "https://api.openai.com"
                                    << "/v1/responses"
                                    << "" << QByteArray("sk-proj-test-abcdef0123456789") << "" << false
                                    << "OPENAI_API_KEY";
        QTest::newRow("dotenv, export, quotes, comments")
            << fixture("openai.env") << "dotenv"
            << "http://10.0.0.5:8000"
            << "/v1/chat/completions"
            << "Qwen/Qwen3-32B" << QByteArray("sk-local-test-5555aaaa") << "" << false << "OPENAI_API_KEY";
        QTest::newRow("dotenv, ${VAR} reference")
            << fixture("reference.env") << "dotenv"
            << "https://claude.example.org"
            << "/v1/messages"
            << "claude-opus-4-1" << QByteArray() << "TEAM_CLAUDE_TOKEN" << false << "ANTHROPIC_AUTH_TOKEN";
    }
    void fixtures()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, baseUrl);
        QFETCH(QString, path);
        QFETCH(QString, model);
        QFETCH(QByteArray, key);
        QFETCH(QString, keyEnv);
        QFETCH(bool, placeholder);
        QFETCH(QString, keySource);
        const QByteArray before = readAll(file);
        const QDateTime modified = QFileInfo(file).lastModified();
        const EndpointFileRead r = readEndpointFile(file);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(endpointFileKindName(r.kind), kind);
        QCOMPARE(r.endpoint.baseUrl, baseUrl);
        QCOMPARE(r.endpoint.path, path);
        QCOMPARE(r.endpoint.model, model);
        QCOMPARE(r.key, key);
        QCOMPARE(r.endpoint.apiKeyEnv, keyEnv);
        QCOMPARE(r.keyIsPlaceholder, placeholder);
        QCOMPARE(r.keySource, keySource);
        QVERIFY(r.endpoint.keychainEntry.isEmpty());
        QCOMPARE(r.endpoint.dialect, Dialect::OpenAiStrict);
        QVERIFY(r.error.isEmpty());
        // The file is only read.
        QCOMPARE(readAll(file), before);
        QCOMPARE(QFileInfo(file).lastModified(), modified);
        // No message repeats the key: neither the literal nor (for the placeholder) the text in its place.
        const QString text = allText(r);
        if (!key.isEmpty())
            QVERIFY2(!text.contains(QString::fromUtf8(key)), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("你的密钥")), qPrintable(text));
        // The same bytes with only the file name as a hint read the same.
        const EndpointFileRead again = readEndpointBytes(before, QFileInfo(file).fileName());
        QCOMPARE(again.endpoint, r.endpoint);
        QCOMPARE(again.key, r.key);
    }

    void notes()
    {
        const EndpointFileRead placeholder = readEndpointFile(fixture("claude-placeholder.json"));
        QVERIFY(placeholder.notes.contains(
            QStringLiteral("the key in ANTHROPIC_AUTH_TOKEN is a placeholder from a setup guide, not a key")));
        const EndpointFileRead auth = readEndpointFile(fixture("codex-auth.json"));
        QVERIFY(auth.notes.contains(QStringLiteral("model not set in the file (Codex keeps it in config.toml)")));
        const EndpointFileRead token = readEndpointFile(fixture("claude-auth-token.settings.local.json"));
        QVERIFY(token.notes.contains(QStringLiteral("model taken from ANTHROPIC_DEFAULT_SONNET_MODEL")));
        const EndpointFileRead env = readEndpointFile(fixture("openai.env"));
        QVERIFY(env.notes.contains(QStringLiteral("lines that are not NAME=value assignments were ignored: 1")));
        const EndpointFileRead config = readEndpointFile(fixture("codex-config.toml"));
        QVERIFY(config.notes.contains(QStringLiteral("the key is read from environment variable GATEWAY_API_KEY when "
                                                     "a run starts (model_providers.gateway.env_key names it)")));
    }

    void refused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("error");
        QTest::newRow("malformed JSON") << fixture("malformed.json")
                                        << "not valid JSON: line 6, column 1 (at env): expected ',' or '}'";
        QTest::newRow("unrelated JSON") << fixture("unrelated.json")
                                        << "not a Claude Code settings.json, Codex auth.json/config.toml or .env file";
        QTest::newRow("missing") << fixture("no-such-file.json") << "no such file";
        QTest::newRow("folder") << QStringLiteral(SERVESCOPE_TEST_DATA "/endpoint-files") << "not a regular file";
    }
    void refused()
    {
        QFETCH(QString, file);
        QFETCH(QString, error);
        const EndpointFileRead r = readEndpointFile(file);
        QVERIFY(!r.ok);
        QCOMPARE(r.error, error);
        QVERIFY(r.key.isEmpty());
        QVERIFY2(!allText(r).contains(QStringLiteral("sk-ant-test")), qPrintable(allText(r)));
    }

    void hostile_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("error");
        QTest::newRow("too large") << QByteArray(kMaxEndpointFileBytes + 1, 'a') << ".env"
                                   << "the file is larger than 1048576 bytes";
        QTest::newRow("binary") << QByteArray("OPENAI_API_KEY=sk\0\x01\x02", 20) << ".env"
                                << "the file is binary, not text";
        QTest::newRow("not UTF-8") << QByteArray("OPENAI_API_KEY=a\nOPENAI_MODEL=\xff\xfe\n") << ".env"
                                   << "line 2 is not UTF-8 text";
        QTest::newRow("deep nesting") << QByteArray(5000, '[') << "settings.json"
                                      << QStringLiteral("not valid JSON: line 1, column 33 (at ")
                + QStringLiteral("[0]").repeated(32) + QStringLiteral("): nesting deeper than 32 levels");
        QTest::newRow("deep TOML") << QByteArray("model_provider = ") + QByteArray(5000, '[') << "config.toml"
                                   << "";
        QTest::newRow("JSON array") << QByteArray("[1, 2]") << "auth.json"
                                    << "not a Claude Code settings.json, Codex auth.json/config.toml or .env file";
        QTest::newRow("env without endpoint") << QByteArray("PATH=/usr/bin\nHOME=/root\n") << ".env"
                                              << "the file sets none of OPENAI_BASE_URL, OPENAI_API_BASE, "
                                                 "OPENAI_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY or "
                                                 "ANTHROPIC_AUTH_TOKEN";
        QTest::newRow("plain text") << QByteArray("hello world\n") << "notes.txt"
                                    << "not a Claude Code settings.json, Codex auth.json/config.toml or .env file";
        QTest::newRow("TOML without Codex keys") << QByteArray("[server]\nport = 1\n") << "config.toml"
                                                 << "not a Claude Code settings.json, Codex auth.json/config.toml or "
                                                    ".env file";
        QTest::newRow("ChatGPT sign-in") << QByteArray(R"({"OPENAI_API_KEY": null, "tokens": {"id_token": "x"}})")
                                         << "auth.json"
                                         << "the file holds a ChatGPT sign-in, not an API key: there is nothing to "
                                            "import";
        QTest::newRow("settings without ANTHROPIC_") << QByteArray(R"({"env": {"FOO": "1"}})") << "settings.json"
                                                     << "a Claude Code settings file whose env sets no ANTHROPIC_* "
                                                        "variable: it names no endpoint";
        QTest::newRow("non-string key") << QByteArray(R"({"env": {"ANTHROPIC_API_KEY": 12}})") << "settings.json"
                                        << "env.ANTHROPIC_API_KEY must be a string";
    }
    void hostile()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, name);
        QFETCH(QString, error);
        const EndpointFileRead r = readEndpointBytes(bytes, name);
        QVERIFY(!r.ok);
        QVERIFY(!r.error.isEmpty());
        if (!error.isEmpty())
            QCOMPARE(r.error, error);
        QVERIFY(r.key.isEmpty());
    }

    void codexProviders_data()
    {
        QTest::addColumn<QByteArray>("toml");
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("keyEnv");
        QTest::addColumn<QByteArray>("key");
        QTest::newRow("chat by default, /v1 stripped")
            << QByteArray("model = \"m\"\nmodel_provider = \"p\"\n[model_providers.p]\nbase_url = "
                          "\"http://127.0.0.1:8000/v1\"\nenv_key = \"VLLM_KEY\"\n")
            << "http://127.0.0.1:8000"
            << "/v1/chat/completions"
            << "VLLM_KEY" << QByteArray();
        QTest::newRow("another version path kept whole")
            << QByteArray("model = \"glm-4.6\"\nmodel_provider = \"zhipu\"\n[model_providers.zhipu]\nbase_url = "
                          "\"https://open.bigmodel.cn/api/paas/v4\"\nwire_api = \"chat\"\n")
            << "https://open.bigmodel.cn/api/paas/v4"
            << "/chat/completions"
            << "" << QByteArray();
        QTest::newRow("bearer token") << QByteArray(
            "model_provider = \"p\"\n[model_providers.p]\nbase_url = \"https://gw.example/v1\"\n"
            "experimental_bearer_token = \"gw-test-7777bbbb\"\nenv_key = \"IGNORED\"\n")
                                      << "https://gw.example"
                                      << "/v1/chat/completions"
                                      << "" << QByteArray("gw-test-7777bbbb");
        QTest::newRow("built-in openai") << QByteArray("model = \"gpt-5\"\n") << "https://api.openai.com"
                                         << "/v1/responses"
                                         << "OPENAI_API_KEY" << QByteArray();
        QTest::newRow("profile picks the provider")
            << QByteArray("profile = \"local\"\nmodel = \"gpt-5\"\n[profiles.local]\nmodel = \"qwen\"\n"
                          "model_provider = \"vllm\"\n[model_providers.vllm]\nbase_url = \"http://gpu:8000/v1\"\n"
                          "[model_providers.other]\nbase_url = \"http://other/v1\"\n")
            << "http://gpu:8000"
            << "/v1/chat/completions"
            << "" << QByteArray();
    }
    void codexProviders()
    {
        QFETCH(QByteArray, toml);
        QFETCH(QString, baseUrl);
        QFETCH(QString, path);
        QFETCH(QString, keyEnv);
        QFETCH(QByteArray, key);
        const EndpointFileRead r = readEndpointBytes(toml, QStringLiteral("config.toml"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.kind, EndpointFileKind::CodexConfig);
        QCOMPARE(r.endpoint.baseUrl, baseUrl);
        QCOMPARE(r.endpoint.path, path);
        QCOMPARE(r.endpoint.apiKeyEnv, keyEnv);
        QCOMPARE(r.key, key);
    }

    void codexRefusals()
    {
        // A key pasted into env_key is refused without being repeated.
        const QByteArray pasted = "model_provider = \"p\"\n[model_providers.p]\nbase_url = \"https://gw/v1\"\n"
                                  "env_key = \"sk-live-secret-0000\"\n";
        EndpointFileRead r = readEndpointBytes(pasted, QStringLiteral("config.toml"));
        QVERIFY(!r.ok);
        QCOMPARE(r.error, QStringLiteral("model_providers.p.env_key is not an environment variable name"));
        r = readEndpointBytes("model_provider = \"missing\"\n", QStringLiteral("config.toml"));
        QCOMPARE(
            r.error, QStringLiteral("model_provider is missing, but the file has no [model_providers.missing] table"));
        r = readEndpointBytes("model_provider = \"p\"\n[model_providers.p]\nbase_url = \"https://gw/v1\"\nwire_api = "
                              "\"grpc\"\n",
            QStringLiteral("config.toml"));
        QCOMPARE(r.error, QStringLiteral("model_providers.p.wire_api must be chat or responses"));
        // A password in the base URL is never copied into an endpoint.
        r = readEndpointBytes("OPENAI_BASE_URL=https://user:hunter2@gw.example/v1\n", QStringLiteral(".env"));
        QVERIFY(!r.ok);
        QVERIFY2(!r.error.contains(QStringLiteral("hunter2")), qPrintable(r.error));
        r = readEndpointBytes("OPENAI_BASE_URL=ftp://gw.example/v1\n", QStringLiteral(".env"));
        QCOMPARE(r.error, QStringLiteral("OPENAI_BASE_URL is not an http:// or https:// URL"));
    }

    void dotEnvDetails()
    {
        // Content decides for an unknown name; an unset reference for the URL falls back with a note.
        EndpointFileRead r = readEndpointBytes("OPENAI_API_BASE=${BASE}\nOPENAI_API_KEY=$MY_KEY\nMY_KEY=sk-also-here\n"
                                               "CHAT_MODEL=llama\n",
            QStringLiteral("secrets.sh"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.kind, EndpointFileKind::DotEnv);
        QCOMPARE(r.endpoint.baseUrl, QStringLiteral("https://api.openai.com"));
        QCOMPARE(r.endpoint.path, QStringLiteral("/v1/chat/completions"));
        QCOMPARE(r.endpoint.apiKeyEnv, QStringLiteral("MY_KEY"));
        QCOMPARE(r.endpoint.model, QStringLiteral("llama"));
        QVERIFY(r.key.isEmpty());
        QVERIFY(
            r.notes.contains(QStringLiteral("OPENAI_API_BASE refers to variable BASE, which the file does not set")));
        QVERIFY(r.notes.contains(QStringLiteral("model taken from CHAT_MODEL")));
        QVERIFY(!allText(r).contains(QStringLiteral("sk-also-here")));
        // A reference inside the file is followed for the URL; single quotes keep $ literal.
        r = readEndpointBytes("HOST=http://gpu:30000/v1\nOPENAI_BASE_URL=\"${HOST}\"\nOPENAI_API_KEY='$notaref'\n",
            QStringLiteral(".env.local"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.endpoint.baseUrl, QStringLiteral("http://gpu:30000"));
        QCOMPARE(r.key, QByteArray("$notaref"));
        QVERIFY(r.notes.contains(QStringLiteral("model not set in the file")));
    }

    void placeholders_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("placeholder");
        const char *yes[] = { "", "   ", "你的密钥", "your-api-key", "YOUR_KEY", "yourkey", "sk-xxx…", "sk-xxxxxxxx",
            "sk-ant-api03-XXXXXXXXXXXX", "xxxxxxxx", "XXXX", "****", "<your key>", "<API_KEY>", "{{token}}", "[key]",
            "changeme", "CHANGE_ME", "replace-me", "sk-...", "your key here", "placeholder", "api-key", "token", "sk-",
            "Insert-Key-Here", "paste_your_key", "TODO" };
        for (const char *k : yes)
            QTest::newRow(k[0] ? k : "(empty)") << QString::fromUtf8(k) << true;
        const char *no[] = { "sk-ant-test-0123456789abcdef", "sk-proj-test-abcdef0123456789", "EMPTY", "test", "abc",
            "sk-xyz123", "gw-test-7777bbbb", "0123456789abcdef0123456789abcdef", "sk-ant-api03-aXb_9-xx" };
        for (const char *k : no)
            QTest::newRow(k) << QString::fromUtf8(k) << false;
    }
    void placeholders()
    {
        QFETCH(QString, key);
        QFETCH(bool, placeholder);
        QCOMPARE(isPlaceholderKey(key), placeholder);
    }

    void endpointJson()
    {
        EndpointFileRead r = readEndpointFile(fixture("claude-settings.json"));
        r.endpoint.keychainEntry = QStringLiteral("import-claude-code");
        QCOMPARE(writeEndpointJson(r.endpoint),
            QByteArray("{\n"
                       "  \"base_url\": \"https://gateway.example.com/anthropic\",\n"
                       "  \"path\": \"/v1/messages\",\n"
                       "  \"model\": \"claude-sonnet-4-5\",\n"
                       "  \"keychain_entry\": \"import-claude-code\",\n"
                       "  \"dialect\": \"openai-strict\",\n"
                       "  \"protocol\": \"http1\"\n"
                       "}\n"));
        QCOMPARE(defaultImportKeychainEntry(EndpointFileKind::CodexAuth), QStringLiteral("import-codex"));
        QCOMPARE(defaultImportKeychainEntry(EndpointFileKind::CodexConfig), QStringLiteral("import-codex"));
        QCOMPARE(defaultImportKeychainEntry(EndpointFileKind::DotEnv), QStringLiteral("import-dotenv"));
    }

    void largeFileRefusedBeforeReading()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral(".env"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(64LL * 1024 * 1024));
        f.close();
        const EndpointFileRead r = readEndpointFile(path);
        QCOMPARE(r.error, QStringLiteral("the file is larger than 1048576 bytes"));
    }
};

QTEST_GUILESS_MAIN(TestEndpointFiles)
#include "tst_endpointfiles.moc"
