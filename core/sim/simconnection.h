// SPDX-License-Identifier: MIT
#pragma once
// Internal to the simulator: one accepted connection of SimServer.

#include "sim/simserver.h"

#include <QTcpSocket>

namespace ServeScope::Sim {

struct SimServer::Connection : QObject {
    Connection(QTcpSocket *s, const ServerParams &p)
        : QObject(s)
        , socket(s)
        , parser(p.maxHeaderBytes, p.maxBodyBytes)
    {
    }
    QTcpSocket *socket;
    std::unique_ptr<SimTlsSession> tls; ///< HTTPS: the bytes on the socket are its records
    HttpRequestParser parser;
    std::unique_ptr<SimStream> stream;
    QByteArray held; ///< output kept back during a stall
    qint64 lastActivityNs = 0;
    bool rawBody = false; ///< --wrong-content-length: the stream is written unchunked
    bool busy = false, keepAlive = true, closing = false, stalled = false, completeAfterStall = false;
};

} // namespace ServeScope::Sim
