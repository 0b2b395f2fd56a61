// SPDX-License-Identifier: MIT
// A local TCP port nothing listens on, for a server a test starts a moment later or for a refused
// connection. It is taken below the kernel's ephemeral range (ip_local_port_range): a port the
// kernel hands out for `listen(0)` and takes back is soon handed out again, to another test's
// server on port 0 or to an outgoing connection, while one below that range is only ever taken by
// number.
#pragma once

#include <QFile>
#include <QHostAddress>
#include <QList>
#include <QRandomGenerator>
#include <QTcpServer>

#include <algorithm>

namespace ServeScope::Testing {

inline quint16 unusedPort()
{
    int low = 32768;
    QFile range(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    if (range.open(QIODevice::ReadOnly)) {
        const int first = range.readAll().simplified().split(' ').value(0).toInt();
        low = first > 4096 ? first : low;
    }
    const int from = std::max(1025, low - 12000);
    for (int attempt = 0; attempt < 200; ++attempt) {
        const auto port = quint16(QRandomGenerator::global()->bounded(from, low));
        QTcpServer probe;
        if (probe.listen(QHostAddress::LocalHost, port))
            return port;
    }
    QTcpServer probe; // every port tried is taken: one the kernel picks
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace ServeScope::Testing
