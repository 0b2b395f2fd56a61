// SPDX-License-Identifier: MIT
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <QVector>

namespace ServeScope {

/// The project file's schema and its migrations by `PRAGMA user_version`.
class Schema final {
public:
    /// `PRAGMA application_id` of every project file: "SSSP".
    static constexpr quint32 ApplicationId = 0x53535350;
    /// The newest schema this build reads and writes.
    static constexpr int Version = 7;

    /// One migration: the statements that take the file from version - 1 to version.
    struct Step {
        int version = 0;
        QStringList statements;
    };

    /// The built-in migrations, oldest first.
    static const QVector<Step> &steps();

    /// Applies every step newer than the file's user_version, each in its own transaction that
    /// also sets user_version (and the application id), so a failed step leaves the previous
    /// version intact. Refuses a file whose version is newer than the last step. Must run before
    /// `PRAGMA foreign_keys=ON` (a step may rebuild a table).
    static bool migrate(QSqlDatabase &db, const QVector<Step> &steps, QString *error);
    static bool migrate(QSqlDatabase &db, QString *error) { return migrate(db, steps(), error); }

    /// Metrics with a Distribution in PointSummary (distributionFields()) that point_repeats holds at
    /// `version`: TTFO and ATPOT from version 6.
    static QStringList distributionMetrics(int version = Version);
    /// The ALTER TABLE statements that add to point_repeats the distributions `version` added
    /// (distributionStats() columns each, reals of `realType`: the project file's or the team database's).
    static QStringList addedDistributionColumns(int version, QLatin1String realType);
    /// Statistic suffixes of each distribution column (`ttft_mean`, `ttft_p99`, ...).
    static const QStringList &distributionStats();

    /// Reads an integer pragma; -1 on error.
    static qint64 pragmaValue(QSqlDatabase &db, const QString &pragma);
};

} // namespace ServeScope
