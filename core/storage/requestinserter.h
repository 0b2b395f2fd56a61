// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QSqlDatabase>
#include <QString>

struct sqlite3;
struct sqlite3_stmt;

namespace ServeScope {

/// The writer's hot path: inserts a request row and its event blob through SQLite's own prepared
/// statements on the Qt connection's handle (QSqlDriver::handle()). Binding ~30 values through
/// QSqlQuery costs several times more than the insert itself, which capped the insert rate far
/// below the 100,000 requests/s the engine can produce. Same thread and transaction as the Qt
/// connection; columns as RowCodec::insertRequestSql().
class RequestInserter final {
public:
    RequestInserter() = default;
    ~RequestInserter();
    RequestInserter(const RequestInserter &) = delete;
    RequestInserter &operator=(const RequestInserter &) = delete;

    bool prepare(QSqlDatabase &db, QString *error);
    void finalize();
    /// Inserts the row with the given id, and the blob when it is not empty.
    bool insert(const RequestRecord &r, qint64 variantId, qint64 id, const QByteArray &blob, QString *error);
    /// A transaction is open on the connection (SQLite ends one itself on some errors, a full disk among them).
    bool inTransaction() const;

private:
    bool step(sqlite3_stmt *stmt, QString *error);

    sqlite3 *m_handle = nullptr;
    sqlite3_stmt *m_request = nullptr;
    sqlite3_stmt *m_blob = nullptr;
};

} // namespace ServeScope
