// SPDX-License-Identifier: MIT
#include "teamdburl.h"

#include <QFileInfo>
#include <QUrl>
#include <QUrlQuery>

namespace ServeScope {

namespace {

const QString kPasswordRefused = QStringLiteral(
    "the database URL carries a password; passwords never go into a URL: give it with --db-password-env VAR "
    "or --db-password keychain:ID");
const QString kForm = QStringLiteral("postgresql://USER@HOST:PORT/DBNAME[?sslmode=MODE&sslrootcert=FILE]");

bool fail(QString *error, const QString &message)
{
    *error = message;
    return false;
}

// Looked at on the raw text before anything else: `user:secret@host` or `?password=…`, even in a URL
// QUrl would not accept, is refused without being repeated.
bool carriesPassword(const QString &text)
{
    const qsizetype scheme = text.indexOf(QLatin1String("://"));
    const QString rest = scheme < 0 ? text : text.mid(scheme + 3);
    qsizetype end = rest.size();
    for (QChar c : { QLatin1Char('/'), QLatin1Char('?'), QLatin1Char('#') }) {
        const qsizetype at = rest.indexOf(c);
        if (at >= 0)
            end = std::min(end, at);
    }
    const QString authority = rest.left(end);
    const qsizetype at = authority.lastIndexOf(QLatin1Char('@'));
    if (at >= 0 && authority.left(at).contains(QLatin1Char(':')))
        return true;
    const qsizetype query = rest.indexOf(QLatin1Char('?'));
    if (query < 0)
        return false;
    const QUrlQuery items(rest.mid(query + 1));
    for (const auto &[key, value] : items.queryItems(QUrl::FullyDecoded)) {
        if (key.compare(QLatin1String("password"), Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

bool readQuery(const QUrl &url, TeamDbUrl *out, QString *error)
{
    static const QStringList modes = { QStringLiteral("disable"), QStringLiteral("allow"), QStringLiteral("prefer"),
        QStringLiteral("require"), QStringLiteral("verify-ca"), QStringLiteral("verify-full") };
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == u"sslmode") {
            if (!modes.contains(value))
                return fail(error, QStringLiteral("sslmode must be one of %1").arg(modes.join(QLatin1String(", "))));
            out->sslMode = value;
        } else if (key == u"sslrootcert") {
            // QPSQL turns every ';' of its options into a space, so such a path cannot be passed.
            if (value.isEmpty() || value.contains(QLatin1Char(';')))
                return fail(error, QStringLiteral("sslrootcert must name a CA file (without ';')"));
            if (!QFileInfo(value).isFile())
                return fail(error, QStringLiteral("sslrootcert: %1 is not a readable file").arg(value));
            out->sslRootCert = value;
        } else {
            return fail(error,
                QStringLiteral("the database URL has an unknown parameter '%1' (known: sslmode, sslrootcert)")
                    .arg(key));
        }
    }
    return true;
}

// libpq's conninfo quoting: single quotes, with ' and \ escaped by a backslash.
QString quoted(QString value)
{
    value.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    value.replace(QLatin1Char('\''), QLatin1String("\\'"));
    return QLatin1Char('\'') + value + QLatin1Char('\'');
}

} // namespace

std::optional<TeamDbUrl> TeamDbUrl::parse(const QString &text, QString *error)
{
    if (carriesPassword(text)) {
        *error = kPasswordRefused;
        return std::nullopt;
    }
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    TeamDbUrl out;
    bool ok = url.isValid() && (url.scheme() == u"postgresql" || url.scheme() == u"postgres");
    if (!ok) {
        fail(error, QStringLiteral("the database URL must have the form ") + kForm);
        return std::nullopt;
    }
    out.user = url.userName(QUrl::FullyDecoded);
    out.host = url.host(QUrl::FullyDecoded);
    out.port = url.port(5432);
    QString path = url.path(QUrl::FullyDecoded);
    if (path.startsWith(QLatin1Char('/')))
        path.remove(0, 1);
    out.database = path;
    if (out.user.isEmpty())
        ok = fail(error, QStringLiteral("the database URL names no user: ") + kForm);
    else if (out.host.isEmpty())
        ok = fail(error, QStringLiteral("the database URL names no host: ") + kForm);
    else if (out.database.isEmpty() || out.database.contains(QLatin1Char('/')))
        ok = fail(error, QStringLiteral("the database URL names no database (one path segment): ") + kForm);
    else if (!url.fragment().isEmpty())
        ok = fail(error, QStringLiteral("the database URL must not have a fragment (#…)"));
    else
        ok = readQuery(url, &out, error);
    if (!ok)
        return std::nullopt;
    return out;
}

QString TeamDbUrl::toString() const
{
    QUrl url;
    url.setScheme(QStringLiteral("postgresql"));
    url.setUserName(user);
    url.setHost(host);
    url.setPort(port);
    url.setPath(QLatin1Char('/') + database);
    QUrlQuery query;
    if (!sslMode.isEmpty())
        query.addQueryItem(QStringLiteral("sslmode"), sslMode);
    if (!sslRootCert.isEmpty())
        query.addQueryItem(QStringLiteral("sslrootcert"), sslRootCert);
    url.setQuery(query);
    return url.toString();
}

QString TeamDbUrl::connectOptions(int connectTimeoutSeconds) const
{
    QStringList options = { QStringLiteral("connect_timeout=%1").arg(connectTimeoutSeconds),
        QStringLiteral("application_name=servescope") };
    if (!sslMode.isEmpty())
        options << QStringLiteral("sslmode=") + sslMode;
    if (!sslRootCert.isEmpty())
        options << QStringLiteral("sslrootcert=") + quoted(sslRootCert);
    return options.join(QLatin1Char(';'));
}

} // namespace ServeScope
