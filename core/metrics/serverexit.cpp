// SPDX-License-Identifier: MIT
#include "metrics/serverexit.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace ServeScope {

QString serverExitLine(const ServerExit &exit)
{
    QJsonObject o { { QStringLiteral("variant"), exit.variant }, { QStringLiteral("pid"), double(exit.pid) } };
    if (exit.signal > 0)
        o.insert(QStringLiteral("signal"), exit.signal);
    else
        o.insert(QStringLiteral("exit_code"), exit.exitCode);
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

std::optional<ServerExit> serverExitFromLine(const QString &line)
{
    const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
    if (!o.value(QLatin1String("variant")).isString())
        return std::nullopt;
    ServerExit exit;
    exit.variant = o.value(QLatin1String("variant")).toString();
    exit.pid = qint64(o.value(QLatin1String("pid")).toDouble());
    exit.signal = o.value(QLatin1String("signal")).toInt(0);
    exit.exitCode = exit.signal > 0 ? -1 : o.value(QLatin1String("exit_code")).toInt(-1);
    return exit;
}

} // namespace ServeScope
