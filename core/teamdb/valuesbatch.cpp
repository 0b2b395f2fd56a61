// SPDX-License-Identifier: MIT
#include "valuesbatch.h"

#include "teamdbconnection.h"

namespace ServeScope {

namespace {
constexpr qsizetype kMaxStatementChars = 4 * 1024 * 1024;
}

ValuesBatch::ValuesBatch(TeamDbConnection &db, QString head, QString tail, int rows)
    : m_db(db)
    , m_head(std::move(head))
    , m_tail(std::move(tail))
    , m_maxRows(rows)
{
}

QString ValuesBatch::text(const QString &s)
{
    if (!s.contains(QChar(0)))
        return s;
    QString out = s;
    out.replace(QChar(0), QChar(0xFFFD));
    return out;
}

bool ValuesBatch::add(const QVariantList &row, QString *error)
{
    m_sql += m_rows == 0 ? m_head + QStringLiteral(" VALUES (") : QStringLiteral(",(");
    for (int i = 0; i < row.size(); ++i) {
        if (i)
            m_sql += QLatin1Char(',');
        m_sql += m_db.literal(row.at(i));
    }
    m_sql += QLatin1Char(')');
    ++m_rows;
    if (m_rows >= m_maxRows || m_sql.size() >= kMaxStatementChars)
        return finish(error);
    return true;
}

bool ValuesBatch::finish(QString *error)
{
    if (m_rows == 0)
        return true;
    const QString sql = m_tail.isEmpty() ? m_sql : m_sql + QLatin1Char(' ') + m_tail;
    m_sql.clear();
    m_rows = 0;
    return m_db.exec(sql, error);
}

} // namespace ServeScope
