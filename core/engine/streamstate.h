// SPDX-License-Identifier: MIT
#pragma once

#include "engineconfig.h"
#include "model/records.h"
#include "sseparser.h"

#include <functional>

namespace ServeScope {

/// Called on the worker thread for every framed event (arrival ns, kind, raw payload). Must be
/// thread-safe: every worker calls it. Used by calibration to match `: t=<ns>` stamps.
using EventTap = std::function<void(qint64 arrivalNs, EventKind kind, QByteArrayView payload)>;

/// What ended a request, from the transport's point of view.
struct StreamEnd {
    ErrorClass transportError = ErrorClass::None; ///< connect, tls, timeouts, protocol, cancelled
    QString transportText;
    bool truncated = false; ///< the connection closed before the body was complete
};

/// The hot-path state of one request: framing, a timestamp and kind per event, raw payloads.
struct StreamState {
    RequestRecord record;
    QByteArray requestId;
    SseParser parser;
    QVector<SseEvent> scratch;
    QVector<QByteArray> payloads; ///< raw payload of each event, parallel to record.eventKinds
    QByteArray bodyHead; ///< the first bytes of the body, for diagnostics
    bool sawToken = false;
    qint64 lastEventNs = 0; ///< absolute; 0 before the first event
    qint64 connectStartNs = 0; ///< absolute; 0 when not connecting

    /// Frames decoded body bytes that arrived at `nowNs`. Returns the number of events. After an
    /// event over the parser's cap, overflowEnd() says how the transport must end the request.
    int onBody(QByteArrayView bytes, qint64 nowNs, const EventTap &tap);
    bool overflowed() const noexcept { return parser.overflowed(); }
    StreamEnd overflowEnd() const;
};

/// Generated text kept per record (characters); the rest is counted but not kept.
inline constexpr qsizetype kMaxKeptTextChars = 1 << 20;

/// Builds the complete record after the request ended: flushes the parser, maps status and
/// transport errors to failure classes (docs/metrics.md), parses every event's JSON for usage and the
/// generated text. `secret` is scrubbed from any error text taken from the server.
void finalizeRecord(StreamState &state, const StreamEnd &end, QByteArrayView secret);
/// The same as finalizeRecord(), scrubbing the endpoint's key and every secret header value.
void finalizeRecord(StreamState &state, const StreamEnd &end, const EndpointConfig &endpoint);

/// The timeout a request has run into at `nowNs`, or None. `connecting` is the connect phase.
ErrorClass expiredTimeout(const StreamState &state, const Timeouts &timeouts, qint64 nowNs, QString *text);

/// The failure class of a non-2xx HTTP status.
ErrorClass classifyHttpStatus(int status);

} // namespace ServeScope
