// SPDX-License-Identifier: MIT
// SSE framing: the events must not depend on how the stream is cut into reads.
#include "engine/sseparser.h"
#include "fuzztargets.h"

namespace ServeScope::Fuzz {

namespace {

struct Framed {
    QVector<SseEvent> events;
    bool overflowed = false;
    bool pendingAfterFinish = false;
};

// chunk 0: the whole input in one read; 1: one byte per read; otherwise Splitter sizes.
Framed frame(SseParser &parser, QByteArrayView input, int chunking)
{
    Framed f;
    Splitter split(input);
    for (qsizetype at = 0; at < input.size();) {
        const qsizetype n = chunking == 0 ? input.size() : chunking == 1 ? 1 : split.next();
        const QByteArrayView piece = input.sliced(at, std::min(n, input.size() - at));
        parser.feed(piece, f.events);
        at += piece.size();
    }
    parser.finish(f.events);
    f.overflowed = parser.overflowed();
    f.pendingAfterFinish = parser.hasPending();
    return f;
}

QString checkEvents(const Framed &f, qsizetype cap, Api api = Api::Chat)
{
    if (f.pendingAfterFinish)
        return QStringLiteral("bytes still pending after finish()");
    for (const SseEvent &e : f.events) {
        if (e.data.size() > cap)
            return QStringLiteral("an event of %1 bytes passed the %2-byte cap").arg(e.data.size()).arg(cap);
        if (e.kind != EventKind::Comment && e.kind != EventKind::Error && e.kind != classifyEventData(api, e.data))
            return QStringLiteral("an event's kind differs from classifyEventData of its data (API %1)")
                .arg(apiName(api));
    }
    return QString();
}

} // namespace

QString sseParser(QByteArrayView input)
{
    (void)looksLikeJsonError(input);
    (void)classifySseData(input);
    // Every API's reading of the events, framed whole.
    for (const Api api : { Api::Completions, Api::Responses, Api::Messages, Api::SglangGenerate }) {
        SseParser parser;
        parser.setApi(api);
        if (QString broken = checkEvents(frame(parser, input, 0), SseParser::kDefaultMaxEventBytes, api);
            !broken.isEmpty())
            return broken;
    }
    // The default cap, and a small one so the overflow path is reached by short inputs.
    for (const qsizetype cap : { SseParser::kDefaultMaxEventBytes, qsizetype(32) }) {
        SseParser parser;
        parser.setMaxEventBytes(cap);
        const Framed whole = frame(parser, input, 0);
        if (QString broken = checkEvents(whole, cap); !broken.isEmpty())
            return broken;
        for (int chunking : { 1, 2 }) {
            parser.reset(); // a transport reuses one parser per stream slot
            const Framed cut = frame(parser, input, chunking);
            if (cut.events != whole.events || cut.overflowed != whole.overflowed)
                return QStringLiteral("events differ when the input is split into reads (chunking %1, cap %2)")
                    .arg(chunking)
                    .arg(cap);
        }
    }
    return QString();
}

} // namespace ServeScope::Fuzz
