// SPDX-License-Identifier: MIT
#include "teamdbflags.h"

#include "clitext.h"

#include "teamdb/teamdbpassword.h"

namespace ServeScope::Cli {

QList<QCommandLineOption> teamDbOptions()
{
    return {
        { QStringLiteral("db"),
            CliText::tr("Team database: postgresql://USER@HOST:PORT/DBNAME[?sslmode=MODE&sslrootcert=FILE] "
                        "(never with a password)"),
            QStringLiteral("URL") },
        { QStringLiteral("db-password-env"), CliText::tr("Environment variable holding the database password"),
            QStringLiteral("VAR") },
        { QStringLiteral("db-password"),
            CliText::tr("Where the database password is: env:VAR or keychain:ID (OS keychain, service ServeScope)"),
            QStringLiteral("REF") },
    };
}

bool readTeamDbAccess(const QCommandLineParser &parser, TeamDbAccess *out, QString *error)
{
    if (!parser.isSet(QStringLiteral("db"))) {
        *error = CliText::tr("--db URL is required");
        return false;
    }
    const std::optional<TeamDbUrl> url = TeamDbUrl::parse(parser.value(QStringLiteral("db")), error);
    if (!url)
        return false;
    out->url = *url;
    const bool env = parser.isSet(QStringLiteral("db-password-env"));
    const bool ref = parser.isSet(QStringLiteral("db-password"));
    if (env && ref) {
        *error = CliText::tr("give either --db-password-env or --db-password, not both");
        return false;
    }
    if (!env && !ref)
        return true;
    std::optional<KeyReference> reference = env
        ? KeyReference::environment(parser.value(QStringLiteral("db-password-env")))
        : KeyReference::parse(parser.value(QStringLiteral("db-password")));
    if (!reference) {
        *error = CliText::tr("--db-password must be env:VAR or keychain:ID (the reference, never the password)");
        return false;
    }
    const SecretResult secret = resolveDbPasswordBlocking(*reference);
    if (!secret.ok) {
        *error = secret.message;
        return false;
    }
    out->password = secret.secret;
    return true;
}

QString oneField(QString s)
{
    for (QChar &c : s) {
        if (c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r'))
            c = QLatin1Char(' ');
    }
    return s;
}

} // namespace ServeScope::Cli
