// SPDX-License-Identifier: MIT
#pragma once

#include "engineconfig.h"
#include "model/records.h"
#include "sseparser.h"

#include <functional>
#include <utility>
#include <vector>

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

/// What the JSON of a request's data events said, gathered as they are parsed (digest()).
struct EventDigest {
    bool usage = false; ///< some event carried a non-empty usage object (the last one counts)
    int promptTokens = 0, completionTokens = 0;
    int reasoningTokens = -1; ///< usage.completion_tokens_details.reasoning_tokens of that usage; -1: not sent
    int cachedTokens = -1; ///< usage.prompt_tokens_details.cached_tokens of that usage; -1: not sent
    int contentEvents = 0;
    int reasoningEvents = 0;
    QString text; ///< content + reasoning, kept up to kMaxKeptTextChars (cut in finalizeRecord)
    QString reasoningText; ///< the reasoning alone, kept the same way
    bool ended = false; ///< [DONE] or a finish_reason was seen
    qsizetype malformed = -1; ///< index (in record.eventKinds) of the first event that is not valid JSON
    QByteArray malformedHead; ///< its first 120 bytes
    bool hasError = false;
    QByteArray firstError; ///< the payload of the first error event
    QString model, systemFingerprint; ///< as the first event carrying them said (kept bounded)
};

/// The hot-path state of one request: framing, a timestamp and kind per event, and the data
/// events' payloads until they are parsed. The transport calls digest() when it has time (the
/// lean one after each batch of reads), so a stream holds only its unparsed payloads, and
/// finalizeRecord() parses what is left.
struct StreamState final : SseSink {
    RequestRecord record;
    QByteArray requestId;
    SseParser parser;
    QByteArray bodyHead; ///< the first bytes of the body, for diagnostics (until a 2xx stream's first token)
    bool sawToken = false;
    qint64 lastEventNs = 0; ///< absolute; 0 before the first event
    qint64 connectStartNs = 0; ///< absolute; 0 when not connecting
    EventDigest parsed;

    /// Frames decoded body bytes that arrived at `nowNs`. Returns the number of events. After an
    /// event over the parser's cap, overflowEnd() says how the transport must end the request.
    int onBody(QByteArrayView bytes, qint64 nowNs, const EventTap &tap);
    bool overflowed() const noexcept { return parser.overflowed(); }
    StreamEnd overflowEnd() const;
    /// True when framed data events wait for their JSON parse.
    bool hasUnparsed() const noexcept { return !m_pending.empty(); }
    /// Parses the waiting data events into `parsed` and drops their payloads.
    void digest();

    void onEvent(EventKind kind, QByteArrayView data) override;

private:
    friend void finalizeRecord(StreamState &, const StreamEnd &, const Redactor &);
    QByteArray m_pendingBytes; ///< waiting payloads back to back
    std::vector<std::pair<qsizetype, qsizetype>> m_pending; ///< (event index, end in m_pendingBytes)
    qint64 m_nowNs = 0; ///< the arrival time of the bytes being framed
    const EventTap *m_tap = nullptr;
    int m_framed = 0;
    bool m_headDropped = false;
};

/// Generated text kept per record (characters); the rest is counted but not kept.
inline constexpr qsizetype kMaxKeptTextChars = 1 << 20;

/// Whether a usage count of output tokens contradicts the stream it came with (docs/metrics.md, "Usage
/// against the stream"): content events arrived and the count is 0 or under half their number. A server sends
/// at most one content event per token; the half leaves room for a gateway that splits a token's text in two.
bool usageBelowStream(int usageTokens, int contentEvents);

/// Builds the complete record after the request ended: flushes the parser, maps status and
/// transport errors to failure classes (docs/metrics.md), parses every event's JSON for usage and the
/// generated text. The error text and the kept generated text pass through `redactor`
/// (endpointRedactor(): the key and every secret header value).
void finalizeRecord(StreamState &state, const StreamEnd &end, const Redactor &redactor);

/// The timeout a request has run into at `nowNs`, or None. `connecting` is the connect phase.
ErrorClass expiredTimeout(const StreamState &state, const Timeouts &timeouts, qint64 nowNs, QString *text);

/// The failure class of a non-2xx HTTP status.
ErrorClass classifyHttpStatus(int status);

} // namespace ServeScope
