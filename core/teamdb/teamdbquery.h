// SPDX-License-Identifier: MIT
#pragma once

#include "runbundle.h"
#include "teamdburl.h"

#include <QDateTime>
#include <QStringList>
#include <QVector>

namespace ServeScope {

/// Which published runs a listing shows; empty fields do not filter. Tags must all be present.
struct TeamRunFilter {
    QString experiment;
    QString model;
    QString engine;
    QDateTime since; ///< started at or after (UTC)
    QDateTime until; ///< started before (UTC)
    QStringList tags;
};

/// One published run as a listing shows it (from `runs` and `run_tags` only).
struct TeamRunListing {
    QString uid;
    QString name;
    QString status;
    QDateTime started;
    QString experiment, model, engine;
    QStringList tags; ///< sorted
    qint64 requests = 0;
    int variants = 0;
    int points = 0;
    QString publishedBy; ///< the database user who published it
    QDateTime publishedAt;
};

/// Published runs matching the filter, oldest start first. A database without ServeScope's tables
/// lists nothing.
bool listTeamRuns(const TeamDbUrl &url, const QByteArray &password, const TeamRunFilter &filter,
    QVector<TeamRunListing> *out, QString *error);

/// Reads a published run whole by its stable id or a unique prefix of at least 8 hex digits; *uid is
/// the full id. *unknown is set when the id is malformed, unknown or ambiguous (not a database failure).
bool fetchTeamRun(const TeamDbUrl &url, const QByteArray &password, const QString &idOrPrefix, RunBundle *out,
    QString *uid, bool *unknown, QString *error);

} // namespace ServeScope
