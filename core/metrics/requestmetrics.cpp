// SPDX-License-Identifier: MIT
#include "metrics/requestmetrics.h"

#include "model/clock.h"

namespace ServeScope {

QString definitionsCode(DefinitionsProfile p)
{
    return p == DefinitionsProfile::Sglang ? QStringLiteral("sglang") : QStringLiteral("vllm");
}

DefinitionsProfile definitionsFromCode(QStringView code, bool *ok)
{
    const bool sglang = code.compare(QLatin1String("sglang"), Qt::CaseInsensitive) == 0;
    const bool vllm = code.compare(QLatin1String("vllm"), Qt::CaseInsensitive) == 0;
    if (ok)
        *ok = sglang || vllm;
    return sglang ? DefinitionsProfile::Sglang : DefinitionsProfile::Vllm;
}

namespace {

// The events that open and advance the stream under each profile: vLLM counts every data event
// with non-empty choices (a role-only first delta included); SGLang only events with text.
bool countsAsToken(EventKind k, DefinitionsProfile p) noexcept
{
    return p == DefinitionsProfile::Vllm ? isTokenEvent(k) : isContentEvent(k);
}

// Appends each gap between token events to *itl, and between two content events to *citl, in ns.
void appendGaps(const RequestRecord &r, DefinitionsProfile p, NsList *itl, NsList *citl)
{
    const qsizetype n = qMin(r.eventNs.size(), r.eventKinds.size());
    qint64 prevNs = -1;
    bool prevContent = false;
    for (qsizetype i = 0; i < n; ++i) {
        const EventKind k = r.eventKinds.at(i);
        if (!countsAsToken(k, p))
            continue;
        const qint64 t = r.eventNs.at(i);
        const bool content = isContentEvent(k);
        if (prevNs >= 0) {
            if (itl)
                itl->append(t - prevNs);
            // Gaps next to a role or finish-only chunk are near zero by nature; content ITL drops them.
            if (citl && content && prevContent)
                citl->append(t - prevNs);
        }
        prevNs = t;
        prevContent = content;
    }
}

} // namespace

RequestMetrics deriveRequest(const RequestRecord &r, DefinitionsProfile profile)
{
    RequestMetrics m;
    if (r.status == RequestStatus::Cancelled) {
        m.cancelled = true;
        return m;
    }
    const qsizetype n = qMin(r.eventNs.size(), r.eventKinds.size());
    qint64 firstTok = -1, lastTok = -1, firstContent = -1, firstOutput = -1, lastAny = -1;
    for (qsizetype i = 0; i < n; ++i) {
        const EventKind k = r.eventKinds.at(i);
        const qint64 t = r.eventNs.at(i);
        lastAny = qMax(lastAny, t);
        if (isContentEvent(k) && firstContent < 0)
            firstContent = t;
        if ((k == EventKind::Content || k == EventKind::ToolCall) && firstOutput < 0)
            firstOutput = t;
        if (countsAsToken(k, profile)) {
            if (firstTok < 0)
                firstTok = t;
            lastTok = t;
            ++m.tokenEvents;
        }
    }
    if (r.status != RequestStatus::Ok || firstTok < 0) {
        m.failed = true;
        return m;
    }
    m.counted = true;
    m.ttft = nsToSeconds(firstTok);
    m.hasTtfc = firstContent >= 0;
    m.ttfc = m.hasTtfc ? nsToSeconds(firstContent) : 0.0;
    m.hasTtfo = firstOutput >= 0;
    m.ttfo = m.hasTtfo ? nsToSeconds(firstOutput) : 0.0;
    m.reasoningTokens = r.reasoningTokens;
    m.reasoningEstimated = r.reasoningEstimated;
    // vLLM ends at the last token event; SGLang at the last line received, [DONE] included.
    m.e2elNs = profile == DefinitionsProfile::Vllm ? lastTok : lastAny;
    m.e2el = nsToSeconds(m.e2elNs);
    m.outputEstimated = r.outputEstimated;
    if (profile == DefinitionsProfile::Vllm) {
        m.inputTokens = r.promptTokens;
        m.inputEstimated = r.inputEstimated;
        m.outputTokens = r.completionTokens;
    } else {
        // bench_serving counts the dataset's input length, and as output the requested max_tokens
        // unless a chunk carries usage — which it never asks for (no stream_options), so against an
        // OpenAI-compatible server the requested length is what it counts.
        m.inputTokens = r.targetInputLen > 0 ? r.targetInputLen : r.promptTokens;
        m.inputEstimated = r.targetInputLen <= 0 && r.inputEstimated;
        m.outputTokens = r.targetOutputLen > 0 ? r.targetOutputLen : r.completionTokens;
        m.outputEstimated = r.targetOutputLen <= 0 && r.outputEstimated;
    }
    m.serverOutputTokens = r.outputEstimated ? -1 : r.completionTokens;
    m.hasTpot = m.outputTokens > 1;
    m.tpot = m.hasTpot ? (m.e2el - m.ttft) / double(m.outputTokens - 1) : 0.0;
    const int answerTokens = m.outputTokens - r.reasoningTokens;
    m.hasAtpot = m.hasTtfo && answerTokens > 1;
    m.atpot = m.hasAtpot ? (m.e2el - m.ttfo) / double(answerTokens - 1) : 0.0;
    return m;
}

void appendTokenGapsNs(const RequestRecord &r, DefinitionsProfile profile, NsList *itl, NsList *citl)
{
    if (r.status != RequestStatus::Ok)
        return;
    const qsizetype n = qMin(r.eventNs.size(), r.eventKinds.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (countsAsToken(r.eventKinds.at(i), profile))
            return appendGaps(r, profile, itl, citl);
    }
}

} // namespace ServeScope
