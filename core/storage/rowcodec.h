// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariantList>

namespace ServeScope {

/// Maps RequestRecord and PointSummary to and from rows of `requests`, `request_events` and
/// `point_repeats`. Kept apart from the connections so the writer and the readers agree on columns.
class RowCodec final {
public:
    /// INSERT INTO requests with positional placeholders, in RequestInserter::insert() order; the
    /// last one is the row id the writer assigned (it also keys the event blob).
    static QString insertRequestSql();

    /// Columns a select must return, in readRequest() order; `r` aliases requests, `v` variants,
    /// `e` request_events (blob may be NULL).
    static QString requestColumns(int schemaVersion);
    /// Fills a record from the current row; false and *error when the event blob is invalid.
    static bool readRequest(const QSqlQuery &q, qint64 runId, bool withEvents, RequestRecord *r, QString *error);

    /// INSERT OR REPLACE INTO point_repeats, in bindSummary() order.
    static QString insertSummarySql();
    /// The point_repeats columns bindSummary() binds, in its order (the team database inserts them too).
    static QStringList summaryInsertColumns();
    static void bindSummary(QSqlQuery &q, const PointSummary &s, qint64 variantId);
    /// The values bindSummary() binds, in summaryInsertColumns() order.
    static QVariantList summaryValues(const PointSummary &s, qint64 variantId);
    /// Columns in readSummary() order for a file of that schema version; `p` aliases
    /// point_repeats, `v` variants.
    static QString summaryColumns(int schemaVersion);
    static void readSummary(const QSqlQuery &q, PointSummary *s);

    /// The first token event's and first content event's absolute times, or -1.
    /// A point estimate's row (project file and team database alike), joined to its variant's name.
    static QString estimateSelectSql();
    static PointEstimate readEstimate(const QSqlQuery &q, qint64 runId);

    static qint64 firstTokenNs(const RequestRecord &r);
    static qint64 firstContentNs(const RequestRecord &r);
};

} // namespace ServeScope
