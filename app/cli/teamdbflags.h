// SPDX-License-Identifier: MIT
#pragma once

#include "teamdb/teamdburl.h"

#include <QByteArray>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

namespace ServeScope::Cli {

/// --db URL, --db-password env:VAR|keychain:ID and --db-password-env VAR, shared by publish, pull and runs.
QList<QCommandLineOption> teamDbOptions();

/// Where the team database is and its password (empty: none given, libpq's own ~/.pgpass or
/// PGPASSWORD apply).
struct TeamDbAccess {
    TeamDbUrl url;
    QByteArray password;
};

/// Reads the options; false and *error (never holding the password or a URL that carries one) otherwise.
bool readTeamDbAccess(const QCommandLineParser &parser, TeamDbAccess *out, QString *error);

/// A field of tab-separated line output: tabs and line breaks become spaces.
QString oneField(QString s);

} // namespace ServeScope::Cli
