// SPDX-License-Identifier: MIT
#include "runowner.h"

#include <QCoreApplication>
#include <QFile>
#include <QSysInfo>

namespace ServeScope::RunOwner {

namespace {

// Field 22 of /proc/<pid>/stat (starttime), empty when the process does not exist or has exited; the command name
// before it may hold spaces and parentheses, so fields are counted after its last ')'.
QByteArray startTime(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray stat = f.read(4096);
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0)
        return {};
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    // After the name: state is field 3, so starttime (22) is index 22 - 3. A zombie (Z) or dead (X)
    // process has exited; only its parent has not reaped it yet.
    if (fields.isEmpty() || fields.at(0) == "Z" || fields.at(0) == "X")
        return {};
    return fields.size() > 19 ? fields.at(19) : QByteArray();
}

} // namespace

QString current()
{
    const qint64 pid = QCoreApplication::applicationPid();
    return QStringLiteral("%1 %2 %3")
        .arg(QSysInfo::machineHostName())
        .arg(pid)
        .arg(QString::fromLatin1(startTime(pid)));
}

bool isGone(const QString &owner)
{
    const QStringList parts = owner.split(u' ');
    if (parts.size() != 3)
        return true;
    if (parts.at(0) != QSysInfo::machineHostName())
        return false;
    bool ok = false;
    const qint64 pid = parts.at(1).toLongLong(&ok);
    if (!ok || pid <= 0)
        return true;
    const QByteArray started = startTime(pid);
    return started.isEmpty() || started != parts.at(2).toLatin1();
}

} // namespace ServeScope::RunOwner
