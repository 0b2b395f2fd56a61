// SPDX-License-Identifier: MIT
#include "requestinserter.h"

#include "rowcodec.h"

#include <QSqlDriver>
#include <QVariant>

#include <sqlite3.h>

namespace ServeScope {

namespace {

void bindText(sqlite3_stmt *s, int i, const QString &text)
{
    if (text.isEmpty()) {
        sqlite3_bind_null(s, i);
        return;
    }
    const QByteArray utf8 = text.toUtf8();
    sqlite3_bind_text(s, i, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
}

void bindUtf8(sqlite3_stmt *s, int i, const QByteArray &utf8)
{
    if (utf8.isEmpty())
        sqlite3_bind_null(s, i);
    else
        sqlite3_bind_text(s, i, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
}

void bindNs(sqlite3_stmt *s, int i, qint64 ns)
{
    if (ns < 0)
        sqlite3_bind_null(s, i);
    else
        sqlite3_bind_int64(s, i, ns);
}

} // namespace

RequestInserter::~RequestInserter()
{
    finalize();
}

void RequestInserter::finalize()
{
    sqlite3_finalize(m_request);
    sqlite3_finalize(m_blob);
    m_request = m_blob = nullptr;
    m_handle = nullptr;
}

bool RequestInserter::prepare(QSqlDatabase &db, QString *error)
{
    finalize();
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0) {
        *error = QStringLiteral("the SQLite driver exposes no handle");
        return false;
    }
    m_handle = *static_cast<sqlite3 *const *>(handle.constData());
    const QByteArray requestSql = RowCodec::insertRequestSql().toUtf8();
    if (sqlite3_prepare_v3(m_handle, requestSql.constData(), -1, SQLITE_PREPARE_PERSISTENT, &m_request, nullptr)
            != SQLITE_OK
        || sqlite3_prepare_v3(m_handle, "INSERT INTO request_events (request_id, blob) VALUES (?, ?)", -1,
               SQLITE_PREPARE_PERSISTENT, &m_blob, nullptr)
            != SQLITE_OK) {
        *error = QString::fromUtf8(sqlite3_errmsg(m_handle));
        finalize();
        return false;
    }
    return true;
}

bool RequestInserter::step(sqlite3_stmt *stmt, QString *error)
{
    const int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    if (rc == SQLITE_DONE)
        return true;
    *error = QString::fromUtf8(sqlite3_errmsg(m_handle));
    return false;
}

bool RequestInserter::insert(
    const RequestRecord &r, qint64 variantId, qint64 id, const QByteArray &blob, QString *error)
{
    sqlite3_stmt *s = m_request;
    int i = 1;
    for (qint64 v : { r.runId, variantId, qint64(r.point), qint64(r.repeat), qint64(r.index), qint64(r.warmup),
             qint64(r.slot), r.scheduledNs, r.slotNs, r.startNs, r.endNs, r.connectNs, r.tlsNs })
        sqlite3_bind_int64(s, i++, v);
    bindNs(s, i++, RowCodec::firstTokenNs(r));
    bindNs(s, i++, RowCodec::firstContentNs(r));
    sqlite3_bind_int(s, i++, r.httpStatus);
    sqlite3_bind_int(s, i++, int(r.status));
    const QByteArray code = errorClassCode(r.errorClass).toLatin1();
    sqlite3_bind_text(s, i++, code.constData(), int(code.size()), SQLITE_TRANSIENT);
    bindText(s, i++, r.errorText);
    for (int v : { r.promptTokens, r.completionTokens, int(r.outputEstimated), r.targetInputLen, r.targetOutputLen })
        sqlite3_bind_int(s, i++, v);
    bindText(s, i++, r.protocol);
    if (r.promptHash.isEmpty())
        sqlite3_bind_null(s, i++);
    else
        sqlite3_bind_blob(s, i++, r.promptHash.constData(), int(r.promptHash.size()), SQLITE_TRANSIENT);
    bindUtf8(s, i++, r.generatedText);
    sqlite3_bind_int64(s, i++, id);
    sqlite3_bind_int(s, i++, int(r.inputEstimated));
    sqlite3_bind_int(s, i++, r.reasoningTokens);
    sqlite3_bind_int(s, i++, int(r.reasoningEstimated));
    sqlite3_bind_int(s, i++, r.cachedTokens);
    if (!step(s, error))
        return false;
    if (blob.isEmpty())
        return true;
    sqlite3_bind_int64(m_blob, 1, id);
    sqlite3_bind_blob(m_blob, 2, blob.constData(), int(blob.size()), SQLITE_STATIC);
    return step(m_blob, error);
}

bool RequestInserter::inTransaction() const
{
    return m_handle && sqlite3_get_autocommit(m_handle) == 0;
}

} // namespace ServeScope
