// SPDX-License-Identifier: MIT
// The floor the engine's CPU per event is measured against: a bare reader that does only what the
// kernel makes any client do for a stream of server-sent events (connect, send the request, one
// edge-triggered epoll set, recv into one buffer) and counts the events by their "data: " prefix.
// No HTTP decoding, no JSON, no timestamps, no records. Linux only.
#pragma once

#include "model/records.h"

#include <QByteArray>
#include <QVector>

namespace ServeScope::Testing {

struct FloorFigures {
    bool ok = false;
    QByteArray error; ///< why not ok
    int completed = 0; ///< streams that reached "data: [DONE]"
    qint64 dataEvents = 0; ///< "data: " lines, [DONE] left out
    double cpuS = 0; ///< user + system CPU of the reading thread
    qint64 sleeps = 0; ///< its voluntary context switches
    double wallS = 0; ///< from the first request sent to the last stream done
};

/// Opens one connection per body to host:port, sends every body as `POST path` at once on a
/// thread named "engine-floor", and reads every stream to its [DONE]; at most `timeoutMs`.
FloorFigures readFloor(
    const QByteArray &host, int port, const QByteArray &path, const QVector<PreparedRequest> &bodies, int timeoutMs);

} // namespace ServeScope::Testing
