// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <optional>

namespace ServeScope {

/// Where the team database is: `postgresql://USER@HOST[:PORT]/DBNAME[?sslmode=MODE&sslrootcert=FILE]`.
/// It never holds a password: parse() refuses a URL that carries one (docs/teamdb.md).
struct TeamDbUrl {
    QString user;
    QString host;
    int port = 5432;
    QString database;
    QString sslMode; ///< libpq's sslmode (disable … verify-full); empty: libpq's default
    QString sslRootCert; ///< CA file for verify-ca / verify-full; empty: libpq's default

    /// Reads a URL; nullopt and *error otherwise. Error texts never repeat the URL, so a password
    /// written into it by mistake is not echoed.
    static std::optional<TeamDbUrl> parse(const QString &text, QString *error);
    /// The URL without any secret, as a user may see it.
    QString toString() const;
    /// QPSQL connect options (`key=value;…`): connect timeout, application name and the TLS settings.
    QString connectOptions(int connectTimeoutSeconds = 10) const;
};

} // namespace ServeScope
