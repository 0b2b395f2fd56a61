// SPDX-License-Identifier: MIT
#pragma once

#include "sim/simrequest.h"

#include <QByteArray>

namespace ServeScope::Sim {

/// Per-request fault plan, drawn from the seeded generator when the request arrives.
struct FaultPlan {
    int disconnectAfter = -1; ///< abort the connection once this many tokens were generated
    int malformedAt = -1; ///< the token event with this index is truncated JSON
    int stallAt = -1; ///< hold output for --stall-ms once this many tokens were generated
    int closeAt = -1; ///< --close-streams-midway: close the connection once this many tokens were generated
};

/// One generation request in flight and its response bytes. The JSON of every event is built
/// from templates made once per request, so a step appends bytes and allocates nothing.
class SimStream final {
public:
    SimStream(quint64 id, const GenerationRequest &request, int outputTokens, qint64 textStart,
        const QByteArray &modelJson, const StreamParams &params, bool stamp, Flavor flavor = Flavor::Vllm);

    quint64 id() const { return m_id; }
    const GenerationRequest &request() const { return m_request; }
    int generated() const { return m_generated; }
    bool finished() const { return m_finished; }
    FaultPlan faults;

    /// The role-only first chat delta (nothing for completions).
    void appendRole(QByteArray &out);
    /// The events that open a stream before its first token, once: Messages' message_start (with the
    /// cached tokens, so call it at admission) and ping, Responses' response.created and
    /// response.in_progress; nothing on the other APIs.
    void appendHead(QByteArray &out);
    /// Records `tokens` new tokens; appends the events due (role with the first token unless it was
    /// sent early, content per --tokens-per-chunk, then usage and [DONE] when `finished`).
    void appendTokens(QByteArray &out, int tokens, bool finished);
    /// The prompt tokens the prefix cache held, sent in usage as prompt_tokens_details.cached_tokens.
    void setCachedTokens(int tokens) { m_cached = tokens; }
    /// The complete non-streaming JSON body.
    QByteArray fullResponse() const;

private:
    void appendStamp(QByteArray &out) const;
    void appendContent(QByteArray &out, int count, bool last);
    /// Tokens from m_sent on, as one event with `head` (content or reasoning).
    void appendTokenEvent(QByteArray &out, const QByteArray &head, int count, bool last);
    /// --chunk-chars: events of exactly that many characters of the text generated so far.
    void appendCharChunks(QByteArray &out, bool finished);
    void appendTextEvent(QByteArray &out, QByteArrayView raw, bool last);
    void appendUsage(QByteArray &out) const;

    // Messages, Responses and /generate: events named by `event:` (the first two), parts around the
    // reasoning and the answer, usage always at the end.
    bool dialect() const { return m_request.endpoint >= Endpoint::Messages; }
    /// `event: type` and the start of its JSON (`{"type":"type"`, with Responses' sequence_number).
    void beginEvent(QByteArray &out, const char *type);
    /// JSON-escaped text of `count` tokens from output token `from`.
    void appendText(QByteArray &out, int from, int count) const;
    void appendParts(QByteArray &out, int due, bool finished);
    void appendDelta(QByteArray &out, bool reasoning, int count, bool last);
    void appendPartStart(QByteArray &out, bool reasoning);
    void appendPartEnd(QByteArray &out, bool reasoning);
    /// Responses' output item (reasoning or message), in progress or done with its text.
    void appendItem(QByteArray &out, bool reasoning, bool done);
    void appendEnd(QByteArray &out);
    QByteArray dialectResponse() const;

    quint64 m_id;
    GenerationRequest m_request;
    int m_outputTokens;
    qint64 m_textStart;
    QByteArray m_objectHead; ///< {"id":...,"object":...,"created":...,"model":...,
    QByteArray m_contentHead, m_contentTail, m_finalTail;
    QByteArray m_reasoningHead; ///< chat with reasoning: the delta's reasoning field instead of content
    QByteArray m_reasoningField;
    QByteArray m_hex, m_modelJson; ///< the request's 16-digit hex ID; the model as a JSON string
    QByteArray m_objectMid; ///< Responses: the response object after its status
    QByteArray m_reasoningRef, m_answerRef; ///< Responses: `,"item_id":...,"output_index":...,"content_index":0`
    QByteArray m_malformed; ///< the event a --malformed-rate fault sends instead of a token event
    const char *m_deltaType = "", *m_reasoningDeltaType = "";
    qint64 m_created;
    int m_answerIndex = 0; ///< the answer's content block / output item: 1 after a reasoning one
    int m_sequence = 0; ///< Responses' sequence_number
    bool m_headSent = false, m_answerStarted = false;
    int m_reasoning = 0; ///< the first tokens of the output that are reasoning
    int m_cached = 0;
    int m_tokensPerChunk;
    int m_chunkChars;
    QByteArray m_echo; ///< prompt text still to send (--echo-prompt), raw
    QByteArray m_pending; ///< --chunk-chars: raw text generated but not yet sent
    /// What usage says of the prompt, the prompt's cached tokens and `generated` output tokens (--wrong-usage).
    int saidPrompt() const;
    int saidCached() const;
    int saidOutput(int generated) const;

    StreamParams::WrongUsage m_wrongUsage;
    bool m_earlyRole, m_usage, m_stamp;
    bool m_roleSent = false, m_finished = false;
    int m_generated = 0, m_sent = 0, m_events = 0;
};

/// Appends the decimal digits of `v` without allocating.
void appendNumber(QByteArray &out, qint64 v);

} // namespace ServeScope::Sim
