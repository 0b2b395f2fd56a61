// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <initializer_list>
#include <utility>

namespace ServeScope::Test {

constexpr qint64 Ms = 1000000; // ns per ms

/// A measured request starting at startMs (absolute, from a zero clock) with events at offsets in ms.
inline RequestRecord makeRecord(int index, double startMs, std::initializer_list<std::pair<double, EventKind>> events,
    int completionTokens, int promptTokens = 100)
{
    RequestRecord r;
    r.index = index;
    r.scheduledNs = r.slotNs = r.startNs = qint64(startMs * Ms);
    qint64 last = 0;
    for (const auto &[t, k] : events) {
        r.eventNs.append(qint64(t * Ms));
        r.eventKinds.append(k);
        last = qint64(t * Ms);
    }
    r.endNs = r.startNs + last;
    r.httpStatus = 200;
    r.completionTokens = completionTokens;
    r.promptTokens = promptTokens;
    r.targetInputLen = promptTokens;
    r.targetOutputLen = completionTokens;
    return r;
}

inline RequestRecord makeFailed(int index, double startMs, double endMs, ErrorClass c = ErrorClass::ServerError)
{
    RequestRecord r;
    r.index = index;
    r.scheduledNs = r.slotNs = r.startNs = qint64(startMs * Ms);
    r.endNs = qint64(endMs * Ms);
    r.httpStatus = 500;
    r.status = RequestStatus::Failed;
    r.errorClass = c;
    r.errorText = QStringLiteral("HTTP 500");
    r.promptTokens = r.targetInputLen = 100;
    return r;
}

/// A plain chat stream: role chunk with the first token at ttftMs, then `tokens - 1` content
/// events every itlMs, a finish-only chunk, usage and [DONE] just after.
inline RequestRecord makeStream(int index, double startMs, double ttftMs, double itlMs, int tokens)
{
    RequestRecord r = makeRecord(index, startMs, {}, tokens);
    auto add = [&](double t, EventKind k) {
        r.eventNs.append(qint64(t * Ms));
        r.eventKinds.append(k);
    };
    add(ttftMs, EventKind::Content);
    double t = ttftMs;
    for (int i = 1; i < tokens; ++i)
        add(t += itlMs, EventKind::Content);
    add(t, EventKind::FinishOnly);
    add(t + 0.1, EventKind::Usage);
    add(t + 0.2, EventKind::Done);
    r.endNs = r.startNs + qint64((t + 0.2) * Ms);
    return r;
}

} // namespace ServeScope::Test
