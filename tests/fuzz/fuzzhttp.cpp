// SPDX-License-Identifier: MIT
// HTTP/1.1 response decoding: the outcome must not depend on how the bytes arrive; an event
// stream body then goes through the SSE framer as the engine does.
#include "engine/httpresponse.h"
#include "engine/sseparser.h"
#include "fuzztargets.h"

namespace ServeScope::Fuzz {

namespace {

struct Decoded {
    bool ok = true;
    QByteArray body;
    QByteArray error, contentType, location;
    int status = 0;
    int framing = 0;
    bool headers = false, complete = false, keepAlive = false, eventStream = false, closeEnds = false;
    qint64 trailing = 0, remaining = 0;
    bool operator==(const Decoded &) const = default;
};

Decoded decode(QByteArrayView input, int chunking)
{
    HttpResponseDecoder d;
    Decoded r;
    Splitter split(input);
    for (qsizetype at = 0; at < input.size() && r.ok;) {
        const qsizetype n = chunking == 0 ? input.size() : chunking == 1 ? 1 : split.next();
        const QByteArrayView piece = input.sliced(at, std::min(n, input.size() - at));
        r.ok = d.feed(piece, r.body);
        at += piece.size();
    }
    r.error = d.error();
    r.contentType = d.contentType();
    r.location = d.location();
    r.status = d.status();
    r.framing = int(d.framing());
    r.headers = d.headersComplete();
    r.complete = d.complete();
    r.keepAlive = d.keepAlive();
    r.eventStream = d.isEventStream();
    r.closeEnds = d.closeEndsResponse();
    r.trailing = d.trailingBytes();
    r.remaining = d.remainingBytes();
    return r;
}

} // namespace

QString httpResponse(QByteArrayView input)
{
    const Decoded whole = decode(input, 0);
    if (whole.body.size() > input.size())
        return QStringLiteral("decoded body is longer than the response");
    if (!whole.ok && whole.error.isEmpty())
        return QStringLiteral("feed() failed without an error");
    if (whole.remaining < 0)
        return QStringLiteral("negative remaining bytes");
    for (int chunking : { 1, 2 }) {
        if (!(decode(input, chunking) == whole))
            return QStringLiteral("decoding differs when the response is split into reads (chunking %1)").arg(chunking);
    }
    if (whole.ok && whole.eventStream) {
        SseParser parser;
        QVector<SseEvent> events;
        parser.feed(whole.body, events);
        parser.finish(events);
    } else {
        (void)looksLikeJsonError(whole.body);
    }
    return QString();
}

} // namespace ServeScope::Fuzz
