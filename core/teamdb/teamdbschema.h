// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace ServeScope {

class TeamDbConnection;

/// The team database's tables in PostgreSQL, versioned by the rows of `schema_version` (one per
/// applied step), like the project file's migrations (core/storage/schema.cpp).
class TeamDbSchema final {
public:
    /// The newest schema this build reads and writes.
    static constexpr int Version = 3;

    struct Step {
        int version = 0;
        QStringList statements;
    };
    static const QVector<Step> &steps();

    /// Creates or migrates the tables inside the caller's open transaction, serialised across
    /// publishers by an advisory lock; refuses a database of a newer schema.
    static bool ensure(TeamDbConnection &db, QString *error);
    /// For readers: the database's schema version, 0 when it has no ServeScope tables yet, -1 on
    /// error; refuses (-1, *error) a newer schema.
    static int check(TeamDbConnection &db, QString *error);
    /// The project file's schema whose rows (RowCodec's columns) a team database of `version` holds.
    static constexpr int projectSchema(int version) { return version >= 3 ? 7 : version >= 2 ? 6 : 5; }
};

} // namespace ServeScope
