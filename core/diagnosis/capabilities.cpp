// SPDX-License-Identifier: MIT
#include "capabilities.h"

#include <QCoreApplication>

namespace ServeScope {

namespace {

struct NoteText {
    const char *key;
    int value;
    const char *means;
    const char *fix;
};

// What `run` does today with each answer (docs/engine.md, docs/metrics.md).
constexpr NoteText kNotes[] = {
    { "usage_sent", 1, QT_TRANSLATE_NOOP("ServeScope::Capabilities", "token counts come from the server's usage chunk"),
        "" },
    { "usage_sent", 0,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "a run counts output tokens with /tokenize of the generated text, else as content "
            "events (output-estimated: TPOT and token throughput are wrong when an event carries more or less than "
            "one token), and takes input tokens from the prompt's /tokenize count, else a calibrated estimate "
            "(input-estimated)"),
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "let usage through: ServeScope always asks for it (stream_options.include_usage); a "
            "gateway must forward stream_options and the final usage chunk") },
    { "role_chunk_first", 1,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "the first event carries only the role: with the vllm definitions TTFT counts it, "
            "and a run reports role-chunk-before-token when it leaves before the first token (as some gateways send "
            "it)"),
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "nothing for vLLM itself; behind a gateway compare with the sglang definitions (first "
            "text) too") },
    { "role_chunk_first", 0,
        QT_TRANSLATE_NOOP(
            "ServeScope::Capabilities", "the first event carries text: TTFT is the first token under both definitions"),
        "" },
    { "tokenize", 1,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "prompts are sized to each point's input length with the server's tokenizer (/tokenize)"),
        "" },
    { "tokenize", 0,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "text prompts are sized by three max_tokens 1 calibration requests that read "
            "usage.prompt_tokens (one word per token when their answers carry no usage: input-length-deviation); "
            "output and, without usage, input counts are estimates"),
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "serve /tokenize under the base URL (vLLM does), or let the non-streaming usage "
            "through the gateway") },
    { "metrics", 1,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "after warmup a run waits (at most 10 s) until /metrics reports nothing running before "
            "its clock starts"),
        "" },
    { "metrics", 0,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "a run cannot see the server drain after warmup: the measured clock starts at once, "
            "while warmup requests may still be running"),
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "serve the Prometheus /metrics under the base URL (vLLM and SGLang do), or leave "
            "warmup out") },
    { "ignore_eos", 1,
        QT_TRANSLATE_NOOP(
            "ServeScope::Capabilities", "outputs run to the requested length: TPOT and throughput compare across runs"),
        "" },
    { "ignore_eos", 0,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "ignore_eos is dropped or refused: outputs stop at the model's end of sequence "
            "(ignore-eos-not-honoured), or every request fails when the field is refused; TPOT and throughput are "
            "not comparable"),
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "use a server or gateway that passes ignore_eos (vLLM, SGLang; dialect openai-strict "
            "never sends it), or set dataset.ignore_eos to false and compare by tokens") },
    { "ignore_eos", -1,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "the answer carried no usage: whether outputs reach the requested length is unknown"),
        QT_TRANSLATE_NOOP(
            "ServeScope::Capabilities", "run one short point and look at the output lengths in its result file") },
    { "stream_buffered", 1,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "the stream arrives in blocks, many token events per read: something between client and server "
            "buffers it, so a run's TPOT and ITL would describe that buffer and its TTFT would be late "
            "(buffered-stream; those points' TPOT and ITL are marked invalid)"),
        QT_TRANSLATE_NOOP("ServeScope::Capabilities",
            "turn buffering off for this route (nginx: proxy_buffering off) or measure the server directly") },
    { "stream_buffered", 0,
        QT_TRANSLATE_NOOP(
            "ServeScope::Capabilities", "token events arrive as the server sends them: TPOT and ITL are the server's"),
        "" },
    { "stream_buffered", -1,
        QT_TRANSLATE_NOOP("ServeScope::Capabilities", "the answer had too few token events to tell"), "" },
    { "tokenize", -1, QT_TRANSLATE_NOOP("ServeScope::Capabilities", "not probed"), "" },
    { "metrics", -1, QT_TRANSLATE_NOOP("ServeScope::Capabilities", "not probed"), "" },
};

} // namespace

CapabilityNote capabilityNote(QStringView key, int value, bool translated)
{
    const auto text = [translated](const char *s) {
        if (!*s)
            return QString();
        return translated ? QCoreApplication::translate("ServeScope::Capabilities", s) : QString::fromLatin1(s);
    };
    for (const NoteText &n : kNotes)
        if (key == QLatin1String(n.key) && value == n.value)
            return { text(n.means), text(n.fix) };
    return {};
}

} // namespace ServeScope
