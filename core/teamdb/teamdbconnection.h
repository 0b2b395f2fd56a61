// SPDX-License-Identifier: MIT
#pragma once

#include "teamdburl.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

namespace ServeScope {

/// One QPSQL connection to the team database, used on the thread that opened it. The password is
/// held only by the driver for the connection's lifetime; every error text passes through scrub().
class TeamDbConnection final {
public:
    TeamDbConnection();
    ~TeamDbConnection();
    TeamDbConnection(const TeamDbConnection &) = delete;
    TeamDbConnection &operator=(const TeamDbConnection &) = delete;

    /// Connects (QPSQL, TLS options from the URL); `password` may be empty (libpq's own sources apply).
    bool open(const TeamDbUrl &url, const QByteArray &password, QString *error);
    void close();
    QSqlDatabase &database() { return m_db; }

    /// Runs a statement whose `?` marks are replaced by `values`, each formatted by the driver (its
    /// quoting and bytea escaping). Never a server-side prepared statement: QPSQL would warn on stderr
    /// when it cannot deallocate one on a lost connection. On failure *error is set, on one line, scrubbed.
    bool exec(const QString &sql, QString *error, const QVariantList &values = {});
    /// The same into `q` (forward only), for a statement with rows to read.
    bool select(QSqlQuery &q, const QString &sql, const QVariantList &values, QString *error);
    /// One value formatted as an SQL literal.
    QString literal(const QVariant &value) const;

    bool begin(QString *error);
    bool commit(QString *error);
    void rollback();

    /// After a failure: whether trying again on a new connection may succeed — the connection is gone
    /// (SQLSTATE class 08, a terminated backend, no answer to a probe), a serialization failure or
    /// deadlock, or another publisher inserted the same run first.
    bool lastFailureRetryable();
    /// Removes the password from a text (libpq never puts it into messages; this makes sure).
    QString scrub(const QString &text) const;

private:
    bool failed(const QSqlError &e, QString *error);

    QString m_name;
    QSqlDatabase m_db;
    QByteArray m_password;
    QString m_lastCode; ///< SQLSTATE of the last failure
};

} // namespace ServeScope
