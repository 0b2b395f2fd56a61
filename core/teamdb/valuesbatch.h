// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QVariantList>

namespace ServeScope {

class TeamDbConnection;

/// Multi-row INSERTs for the bulk tables: QPSQL runs each prepared statement as its own EXECUTE round
/// trip, so rows are formatted by the driver itself (its quoting and bytea escaping) into
/// `INSERT … VALUES (…), (…)` statements of up to `rows` rows or about 4 MB.
class ValuesBatch final {
public:
    /// `head`: `INSERT INTO t (a, b)`; `tail`: appended to each statement (`ON CONFLICT DO NOTHING`).
    ValuesBatch(TeamDbConnection &db, QString head, QString tail = {}, int rows = 1000);

    /// Adds a row; a null QVariant of a type is NULL. Sends a full statement; false and *error when it failed.
    bool add(const QVariantList &row, QString *error);
    /// Sends what is left.
    bool finish(QString *error);

    /// A QString PostgreSQL's text type can hold: U+0000 becomes U+FFFD.
    static QString text(const QString &s);

private:
    TeamDbConnection &m_db;
    QString m_head, m_tail;
    int m_maxRows;
    QString m_sql;
    int m_rows = 0;
};

} // namespace ServeScope
