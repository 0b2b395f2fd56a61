// SPDX-License-Identifier: MIT
// The floor the engine's CPU per event is measured against: a bare reader that does only what the
// kernel makes any client do for a stream of server-sent events (connect, send the request, one
// edge-triggered epoll set, recv into one buffer) and counts the events by their "data: " prefix.
// No HTTP decoding, no JSON, no timestamps, no records. Linux only.
//
// Beside it, the engine's batched receive path alone (engine/receivering.h): the same streams read
// through one io_uring (multishot recvmsg into a ring of provided buffers, so one system call
// collects the bytes of many sockets), each piece carrying its kernel receive stamp
// (SO_TIMESTAMPNS) as the engine's do. Built when liburing is installed.
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
    double processCpuS = 0; ///< of the whole process meanwhile (io_uring's own workers are in it)
    qint64 sleeps = 0; ///< its voluntary context switches
    qint64 reads = 0; ///< pieces of stream handed over by the kernel (recv calls that returned bytes, or completions)
    qint64 stampedReads = 0; ///< of those, with a kernel receive stamp (the io_uring path only)
    qint64 waits = 0; ///< system calls that waited for readiness or completions
    double wallS = 0; ///< from the first request sent to the last stream done
};

enum class FloorReceive {
    Epoll, ///< the floor: epoll_wait + recv per socket
    Uring, ///< the engine's receive ring: multishot recvmsg with provided buffers and receive stamps
};

/// Whether this build has the io_uring path (liburing was found).
bool uringFloorBuilt();

/// Opens one connection per body to host:port, sends every body as `POST path` at once on a
/// thread named "engine-floor", and reads every stream to its [DONE]; at most `timeoutMs`.
FloorFigures readFloor(const QByteArray &host, int port, const QByteArray &path, const QVector<PreparedRequest> &bodies,
    int timeoutMs, FloorReceive receive = FloorReceive::Epoll);

} // namespace ServeScope::Testing
