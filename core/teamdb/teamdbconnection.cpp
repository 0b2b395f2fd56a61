// SPDX-License-Identifier: MIT
#include "teamdbconnection.h"

#include "model/redaction.h"
#include "secrets/secretstore.h"

#include <QSqlDriver>
#include <QSqlError>
#include <QSqlField>
#include <QUuid>

namespace ServeScope {

TeamDbConnection::TeamDbConnection()
    : m_name(QStringLiteral("servescope-teamdb-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{
}

TeamDbConnection::~TeamDbConnection()
{
    close();
}

bool TeamDbConnection::open(const TeamDbUrl &url, const QByteArray &password, QString *error)
{
    close();
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL"))) {
        *error = QStringLiteral("the PostgreSQL driver of Qt SQL (QPSQL) is not installed (Debian: libqt6sql6-psql)");
        return false;
    }
    m_password = password;
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_name);
    m_db.setHostName(url.host);
    m_db.setPort(url.port);
    m_db.setUserName(url.user);
    m_db.setDatabaseName(url.database);
    m_db.setConnectOptions(url.connectOptions());
    if (!password.isEmpty())
        m_db.setPassword(QString::fromUtf8(password));
    if (!m_db.open()) {
        *error = QStringLiteral("cannot connect to %1: %2")
                     .arg(url.toString(), scrub(m_db.lastError().databaseText().simplified()));
        close();
        return false;
    }
    // Notices (`CREATE TABLE IF NOT EXISTS` on an existing table) would go to stderr through libpq.
    return exec(QStringLiteral("SET client_min_messages = warning"), error);
}

void TeamDbConnection::close()
{
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_name);
    }
    m_password.fill('\0');
    m_password.clear();
}

bool TeamDbConnection::failed(const QSqlError &e, QString *error)
{
    m_lastCode = e.nativeErrorCode();
    // libpq's messages run over several lines (DETAIL, CONTEXT, hints): one line for logs and stderr.
    QString text = e.databaseText().simplified();
    if (text.isEmpty())
        text = e.text().simplified();
    *error = scrub(text);
    return false;
}

QString TeamDbConnection::literal(const QVariant &value) const
{
    QSqlField field(QString(), value.metaType());
    field.setValue(value);
    return m_db.driver()->formatValue(field);
}

bool TeamDbConnection::select(QSqlQuery &q, const QString &sql, const QVariantList &values, QString *error)
{
    QString text;
    text.reserve(sql.size() + values.size() * 16);
    qsizetype next = 0;
    for (QChar c : sql) {
        if (c == QLatin1Char('?') && next < values.size())
            text += literal(values.at(next++));
        else
            text += c;
    }
    q.setForwardOnly(true);
    if (q.exec(text))
        return true;
    return failed(q.lastError(), error);
}

bool TeamDbConnection::exec(const QString &sql, QString *error, const QVariantList &values)
{
    QSqlQuery q(m_db);
    return select(q, sql, values, error);
}

bool TeamDbConnection::begin(QString *error)
{
    return exec(QStringLiteral("BEGIN"), error);
}

bool TeamDbConnection::commit(QString *error)
{
    return exec(QStringLiteral("COMMIT"), error);
}

void TeamDbConnection::rollback()
{
    if (m_db.isOpen())
        QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
}

bool TeamDbConnection::lastFailureRetryable()
{
    const QString code = m_lastCode;
    if (code.startsWith(QLatin1String("08")) || code.startsWith(QLatin1String("57P")) || code == u"40001"
        || code == u"40P01" || code == u"23505")
        return true;
    // A connection the server dropped often reports no SQLSTATE at all: probe it.
    if (!m_db.isOpen())
        return true;
    QSqlQuery probe(m_db);
    probe.exec(QStringLiteral("ROLLBACK"));
    return !probe.exec(QStringLiteral("SELECT 1"));
}

QString TeamDbConnection::scrub(const QString &text) const
{
    return m_password.isEmpty() ? text : Redactor({ m_password }).apply(text);
}

} // namespace ServeScope
