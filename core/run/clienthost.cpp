// SPDX-License-Identifier: MIT
#include "clienthost.h"

#include "engine/fdlimit.h"

#include <QFile>
#include <QSysInfo>
#include <QThread>

namespace ServeScope {

namespace {

QString firstLine(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readLine()).trimmed();
}

QString cpuModel()
{
    QFile f(QStringLiteral("/proc/cpuinfo"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    while (!f.atEnd()) {
        const QByteArray line = f.readLine();
        if (line.startsWith("model name"))
            return QString::fromUtf8(line.mid(line.indexOf(':') + 1)).trimmed();
    }
    return {};
}

} // namespace

QJsonObject clientHostInfo()
{
    QJsonObject o;
    o.insert(QStringLiteral("servescope_version"), QStringLiteral(SERVESCOPE_VERSION));
    o.insert(QStringLiteral("hostname"), QSysInfo::machineHostName());
    o.insert(QStringLiteral("os"), QSysInfo::prettyProductName());
    o.insert(QStringLiteral("kernel"), QSysInfo::kernelVersion());
    o.insert(QStringLiteral("cpu_model"), cpuModel());
    o.insert(QStringLiteral("cpu_cores"), QThread::idealThreadCount());
    const QString governor = firstLine(QStringLiteral("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
    o.insert(QStringLiteral("cpu_governor"), governor.isEmpty() ? QStringLiteral("unknown") : governor);
    o.insert(QStringLiteral("open_file_limit"), double(openFileLimit()));
    return o;
}

} // namespace ServeScope
