// SPDX-License-Identifier: MIT
// servescope-cli import-endpoint FILE: the endpoint of a Claude Code settings.json, a Codex auth.json or
// config.toml, or a .env file, printed as an experiment's "endpoint" object. A literal key goes to the OS keychain
// and the endpoint names its entry; the key itself never reaches stdout, stderr or a file.
#include "clitext.h"
#include "command.h"

#include "io/endpointfiles.h"
#include "secrets/apikey.h"
#include "secrets/keychainsecretstore.h"

#include <QCommandLineParser>
#include <QFile>
#include <QTextStream>

#include <cstdio>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

constexpr const char kName[] = "servescope-cli import-endpoint: ";

// Stores the file's key under `entry`; false (with the reason on stderr) when the keychain did not keep it.
bool storeKey(const QByteArray &key, const QString &entry, QTextStream &err)
{
    KeychainSecretStore store;
    const SecretResult written = writeSecretBlocking(store, entry, trimKey(key).key);
    if (written.ok && !written.sessionOnly)
        return true;
    err << kName
        << CliText::tr("cannot store the key in the keychain (entry %1): %2")
               .arg(entry, written.message.isEmpty() ? secretErrorCode(written.error) : written.message)
        << '\n';
    return false;
}

void sayWhereTheKeyIs(const EndpointFileRead &read, QTextStream &err)
{
    const QString variable = read.endpoint.apiKeyEnv;
    if (!variable.isEmpty() && qEnvironmentVariableIsEmpty(variable.toLocal8Bit().constData()))
        err << "warning: " << CliText::tr("environment variable %1 is not set here: set it before a run").arg(variable)
            << '\n';
    if (read.keyIsPlaceholder)
        err << "warning: "
            << CliText::tr("the key in the file (%1) is a placeholder, not a real key: nothing was stored in the "
                           "keychain. Put the real key in the file and import it again, keep it in the keychain "
                           "with the window's endpoint profile, or export it in an environment variable and name "
                           "that variable as the endpoint's api_key_env.")
                   .arg(read.keySource)
            << '\n';
}

int runImportEndpoint(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(CliText::tr(
        "Reads the endpoint of a Claude Code settings.json, a Codex auth.json or config.toml, or a .env file\n"
        "and prints it as the \"endpoint\" object of an experiment file. A key the file holds is stored in the\n"
        "OS keychain (service ServeScope) and the endpoint names its entry; a key variable the file names becomes\n"
        "api_key_env. The file is only read. Exit 0 when read, 1 when the keychain did not keep the key, 2 when\n"
        "the file holds no endpoint."));
    parser.addHelpOption();
    parser.addPositionalArgument(
        QStringLiteral("FILE"), CliText::tr("settings.json, settings.local.json, auth.json, config.toml or .env."));
    const QCommandLineOption entryOption(QStringLiteral("keychain-entry"),
        CliText::tr("Keychain entry for the key (default: import-claude-code, import-codex or import-dotenv)."),
        QStringLiteral("ID"));
    parser.addOption(entryOption);
    const QCommandLineOption noStoreOption(QStringLiteral("no-store-key"),
        CliText::tr("Do not store the file's key; the endpoint names --keychain-entry only when it is given."));
    parser.addOption(noStoreOption);
    QTextStream err(stderr);
    if (const std::optional<int> done = parseCommand(parser, args, "import-endpoint", Positional::Allowed))
        return *done;
    if (parser.positionalArguments().size() != 1) {
        err << kName << CliText::tr("expected one FILE (see --help)") << '\n';
        return ExitUsage;
    }
    if (parser.isSet(entryOption) && parser.value(entryOption).trimmed().isEmpty()) {
        err << kName << CliText::tr("--keychain-entry needs an entry id") << '\n';
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().first();
    EndpointFileRead read = readEndpointFile(path);
    if (!read.ok) {
        err << kName << path << ": " << read.shownLine(read.error) << '\n';
        return ExitUsage;
    }
    for (const QString &note : read.shownLines(read.notes))
        err << "note: " << note << '\n';
    const QString entry
        = parser.isSet(entryOption) ? parser.value(entryOption).trimmed() : defaultImportKeychainEntry(read.kind);
    Endpoint endpoint = read.endpoint;
    if (!read.key.isEmpty()) {
        if (parser.isSet(noStoreOption)) {
            err << "note: "
                << CliText::tr("the key in the file (%1) was not stored (--no-store-key)").arg(read.keySource) << '\n';
            if (parser.isSet(entryOption))
                endpoint.keychainEntry = entry;
        } else {
            const bool stored = storeKey(read.key, entry, err);
            read.key.fill('\0');
            if (!stored)
                return ExitFailed;
            endpoint.keychainEntry = entry;
            err << "note: "
                << CliText::tr("the key in the file (%1) is stored in the keychain as entry %2 (service %3)")
                       .arg(read.keySource, entry, KeychainSecretStore::defaultService())
                << '\n';
        }
    }
    sayWhereTheKeyIs(read, err);
    err.flush();
    QFile out;
    out.open(stdout, QIODevice::WriteOnly);
    out.write(writeEndpointJson(endpoint));
    return ExitOk;
}

const CommandRegistration reg({ "import-endpoint",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Read an endpoint from a Claude Code, Codex or .env file"),
    &runImportEndpoint });

} // namespace
