// SPDX-License-Identifier: MIT
// What each convention (ServeScope's profiles, other tools' published figures) means by each metric,
// and which pairs of figures a comparison across conventions may judge.
#include "metrics/definitions.h"

#include "model/runorigin.h"

#include <QCoreApplication>

#include <algorithm>

namespace ServeScope {

namespace {

constexpr const char *kCtx = "ServeScope::Definitions";

using How = MetricDefinition::How;

struct Entry {
    const char *convention;
    const char *family;
    How how;
    const char *clock;
    const char *weighting;
    const char *tokens;
    const char *text;
};

// One row per (convention, family) a convention publishes; a family missing here is not stored.
// Clocks: the event that starts and stops each request's figure ("first-event" counts a role-only
// delta, "first-text" the first content or reasoning, "first-content" ignores reasoning), or a
// formula over them; equal clocks measure the same interval.
const Entry kEntries[] = {
    // ServeScope's vLLM profile and `vllm bench serve`'s files.
    { "vllm", "ttft", How::Published, "first-event", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "request sent → first streamed event with choices (a role-only delta counts; reasoning counts)") },
    { "vllm", "ttfo", How::Published, "first-answer", "request", "",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "request sent → first content or tool-call event (reasoning excluded)") },
    { "vllm", "tpot", How::Published, "decode(first-event,last-event)", "request", "usage",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "(E2EL − TTFT) / (output tokens − 1) per request, each request once; tokens from the server's usage") },
    { "vllm", "itl", How::Published, "event-gaps", "gap", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "every gap between token events, all requests' gaps pooled") },
    { "vllm", "e2el", How::Published, "last-event", "request", "",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "request sent → last token event (usage chunk and [DONE] excluded)") },
    { "vllm", "output_throughput", How::Published, "tokens/duration", "point", "usage",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "output tokens / duration; tokens from the server's usage") },
    { "vllm", "total_token_throughput", How::Published, "tokens/duration", "point", "usage",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "input and output tokens / duration; tokens from the server's usage") },

    // ServeScope's SGLang profile and `bench_serving`'s files.
    { "sglang", "ttft", How::Published, "first-text", "request", "",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "request sent → first event with text (content, reasoning or tool call)") },
    { "sglang", "ttfo", How::Published, "first-answer", "request", "",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "request sent → first content or tool-call event (reasoning excluded)") },
    { "sglang", "tpot", How::Published, "decode(first-text,last-line)", "request", "requested",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "(E2EL − TTFT) / (output tokens − 1) per request; output tokens as requested (max_tokens)") },
    { "sglang", "itl", How::Published, "text-gaps", "gap", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "every gap between events with text, all requests' gaps pooled") },
    { "sglang", "e2el", How::Published, "last-line", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → last line received ([DONE] included)") },
    { "sglang", "output_throughput", How::Published, "tokens/duration", "point", "requested",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "output tokens / duration; output tokens as requested") },
    { "sglang", "total_token_throughput", How::Published, "tokens/duration", "point", "requested",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "input and output tokens / duration; input as the dataset's target, output as requested") },

    // NVIDIA AIPerf's profile_export_aiperf.json.
    { "aiperf", "ttft", How::Published, "first-text", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → first response with content (reasoning counts)") },
    { "aiperf", "ttfo", How::Published, "first-answer", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → first non-reasoning token") },
    { "aiperf", "tpot", How::Published, "decode(first-text,last-line)", "request", "tokenizer",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "(request latency − TTFT) / (output tokens − 1) per request; tokens counted by the client's tokenizer") },
    { "aiperf", "itl", How::Published, "text-gaps", "gap", "",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "every gap between response chunks (inter_chunk_latency), pooled") },
    { "aiperf", "e2el", How::Published, "last-line", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → last response received") },
    { "aiperf", "output_throughput", How::Published, "tokens/duration", "point", "tokenizer",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "output tokens / benchmark duration; tokens counted by the client's tokenizer") },
    { "aiperf", "total_token_throughput", How::Published, "tokens/duration", "point", "tokenizer",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "input and output tokens / benchmark duration; tokens counted by the client's tokenizer") },

    // GuideLLM's benchmarks.json.
    { "guidellm", "ttft", How::Published, "first-text", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → first token iteration (reasoning counts)") },
    { "guidellm", "ttfo", How::Published, "first-answer", "request", "",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "request sent → first non-reasoning token (GuideLLM 0.8 and later)") },
    { "guidellm", "tpot", How::Published, "decode(first-text,last-text)", "token", "usage",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "(last token − first token) / (output tokens − 1) per request, the distribution weighted by output "
            "tokens") },
    { "guidellm", "e2el", How::Published, "last-line", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → request end") },
    { "guidellm", "output_throughput", How::Published, "tokens/duration", "point", "usage",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "output tokens / benchmark duration; tokens from the server's usage") },
    { "guidellm", "total_token_throughput", How::Published, "tokens/duration", "point", "usage",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "input and output tokens / benchmark duration; tokens from the server's usage") },

    // genai-bench's scenario files.
    { "genai-bench", "ttft", How::Published, "first-text", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → first chunk with text (reasoning counts)") },
    { "genai-bench", "tpot", How::Published, "decode(first-text,last-line)", "request", "usage",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "(E2E latency − TTFT) / (output tokens − 1) per request; tokens from the server's usage") },
    { "genai-bench", "e2el", How::Published, "last-line", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → last chunk received") },
    { "genai-bench", "output_throughput", How::Published, "tokens/duration", "point", "usage",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "output tokens / run duration; tokens from the server's usage") },
    { "genai-bench", "total_token_throughput", How::Published, "tokens/duration", "point", "usage",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "input and output tokens / run duration; tokens from the server's usage") },

    // kubernetes-sigs inference-perf's lifecycle metrics.
    { "inference-perf", "ttft", How::Published, "first-chunk", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "request sent → first chunk received (older versions stamp the blank line between events)") },
    { "inference-perf", "tpot", How::Published, "decode(first-chunk,last-chunk)", "request", "tokenizer",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "(last token − first token) / (output tokens − 1) per request; tokens counted by the client's "
            "tokenizer") },
    { "inference-perf", "e2el", How::Published, "last-line", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → response complete") },
    { "inference-perf", "output_throughput", How::Published, "tokens/duration", "point", "tokenizer",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "output tokens per second; tokens counted by the client's tokenizer") },
    { "inference-perf", "total_token_throughput", How::Published, "tokens/duration", "point", "tokenizer",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "input and output tokens per second; tokens counted by the client's tokenizer") },

    // Ray llmperf: TPOT is ServeScope's, recomputed from its individual responses when they are there.
    { "llmperf", "ttft", How::Published, "first-content", "request", "",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "request sent → first chunk with non-empty content (reasoning ignored)") },
    { "llmperf", "e2el", How::Published, "last-line", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "request sent → stream closed") },
    { "llmperf", "output_throughput", How::Published, "tokens/duration", "point", "llama-tokenizer",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "output tokens / duration; tokens counted by a fixed llama tokenizer") },
    { "llmperf+records", "tpot", How::Recomputed, "decode(first-content,last-line)", "request", "llama-tokenizer",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "(E2EL − TTFT) / (output tokens − 1) per request, recomputed from llmperf's per-request records; tokens "
            "counted by a fixed llama tokenizer") },

    // AIPerf's profile_export.jsonl alone: vLLM's formulas over AIPerf's per-request values.
    { "aiperf-records", "ttft", How::Recomputed, "first-text", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "request sent → first response with content, recomputed from AIPerf's per-request records") },
    { "aiperf-records", "ttfo", How::Recomputed, "first-answer", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "request sent → first non-reasoning token, recomputed from AIPerf's per-request records") },
    { "aiperf-records", "tpot", How::Recomputed, "decode(first-text,last-line)", "request", "tokenizer",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "(request latency − TTFT) / (output tokens − 1) per request, recomputed from AIPerf's per-request "
            "records; tokens counted by the client's tokenizer") },
    { "aiperf-records", "itl", How::Recomputed, "text-gaps", "gap", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "every gap between response chunks, pooled, recomputed from AIPerf's per-request records") },
    { "aiperf-records", "e2el", How::Recomputed, "last-line", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions",
            "request sent → last response received, recomputed from AIPerf's per-request records") },
    { "aiperf-records", "output_throughput", How::Recomputed, "tokens/duration", "point", "tokenizer",
        QT_TRANSLATE_NOOP(
            "ServeScope::Definitions", "output tokens / the records' span; tokens counted by the client's tokenizer") },

    // A Benchmark Report whose harness is none of the above: its figures as that harness defines them.
    { "llm-d", "ttft", How::Published, "harness", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "as the report's harness defines it") },
    { "llm-d", "tpot", How::Published, "harness", "request", "harness",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "as the report's harness defines it") },
    { "llm-d", "e2el", How::Published, "harness", "request", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "as the report's harness defines it") },
    { "llm-d", "output_throughput", How::Published, "harness", "point", "harness",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "the report's mean output token rate") },
};

// Every convention counts requests and time alike.
const Entry kShared[] = {
    { "", "request_throughput", How::Published, "count/duration", "point", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "completed requests / duration") },
    { "", "success_rate", How::Published, "completed/finished", "point", "",
        QT_TRANSLATE_NOOP("ServeScope::Definitions", "completed / (completed + failed)") },
};

// What a convention shares with another: llmperf with its records is llmperf plus their TPOT.
QString baseConvention(const QString &convention)
{
    return convention == QLatin1String("llmperf+records") ? QStringLiteral("llmperf") : convention;
}

MetricDefinition definitionOf(const QString &convention, const QString &family)
{
    const auto fill = [](const Entry &e) {
        MetricDefinition d;
        d.how = e.how;
        d.clock = QLatin1String(e.clock);
        d.weighting = QLatin1String(e.weighting);
        d.tokens = QLatin1String(e.tokens);
        d.text = e.text;
        return d;
    };
    for (const Entry &e : kShared) {
        if (family == QLatin1String(e.family))
            return fill(e);
    }
    for (const QString &c : { convention, baseConvention(convention) }) {
        for (const Entry &e : kEntries) {
            if (c == QLatin1String(e.convention) && family == QLatin1String(e.family))
                return fill(e);
        }
    }
    return {};
}

// The clocks a ServeScope run's stored events can give again (TTFC is the first text, content ITL
// the gaps between text events, the sglang profile's E2EL the last line).
bool recomputableClock(const QString &clock)
{
    static const QStringList clocks = { QStringLiteral("first-event"), QStringLiteral("first-text"),
        QStringLiteral("first-answer"), QStringLiteral("event-gaps"), QStringLiteral("text-gaps"),
        QStringLiteral("last-event"), QStringLiteral("last-line") };
    return clocks.contains(clock);
}

} // namespace

QString conventionOf(const QString &definitions, const QByteArray &originJson)
{
    const RunOrigin origin = RunOrigin::fromJson(originJson);
    const QString format = origin.format;
    if (!origin.isImported() || format == QLatin1String("vllm") || format == QLatin1String("sglang"))
        return definitions == QLatin1String("sglang") ? QStringLiteral("sglang") : QStringLiteral("vllm");
    if (format == QLatin1String("aiperf"))
        return origin.file.endsWith(QLatin1String("profile_export.jsonl")) ? QStringLiteral("aiperf-records")
                                                                           : QStringLiteral("aiperf");
    if (format == QLatin1String("llmperf"))
        return origin.arrays ? QStringLiteral("llmperf+records") : QStringLiteral("llmperf");
    if (format == QLatin1String("llm-d")) {
        // "v0.2, harness NAME VERSION": the harness's own convention when it is one known here.
        const QString harness = origin.toolVersion.section(QStringLiteral("harness "), 1).section(u' ', 0, 0);
        if (harness.startsWith(QLatin1String("vllm")))
            return QStringLiteral("vllm");
        if (harness == QLatin1String("servescope"))
            return definitions == QLatin1String("sglang") ? QStringLiteral("sglang") : QStringLiteral("vllm");
        if (harness == QLatin1String("guidellm") || harness == QLatin1String("inference-perf"))
            return harness;
        return QStringLiteral("llm-d");
    }
    return format;
}

QString MetricDefinition::shown() const
{
    if (how == How::Absent || !text)
        return QCoreApplication::translate(kCtx, QT_TRANSLATE_NOOP("ServeScope::Definitions", "not stored"));
    return QCoreApplication::translate(kCtx, text);
}

QString comparabilityCode(Comparability c)
{
    switch (c) {
    case Comparability::AsPublished:
        return QStringLiteral("as-published");
    case Comparability::AfterRecompute:
        return QStringLiteral("after-recompute");
    case Comparability::NotComparable:
        break;
    }
    return QStringLiteral("not-comparable");
}

QString comparabilityShown(Comparability c)
{
    switch (c) {
    case Comparability::AsPublished:
        return QCoreApplication::translate(
            kCtx, QT_TRANSLATE_NOOP("ServeScope::Definitions", "comparable as published"));
    case Comparability::AfterRecompute:
        return QCoreApplication::translate(
            kCtx, QT_TRANSLATE_NOOP("ServeScope::Definitions", "comparable after recompute"));
    case Comparability::NotComparable:
        break;
    }
    return QCoreApplication::translate(kCtx, QT_TRANSLATE_NOOP("ServeScope::Definitions", "not comparable"));
}

QString familyShown(const QString &family)
{
    static const struct {
        const char *family, *name;
    } names[] = { { "ttft", QT_TRANSLATE_NOOP("ServeScope::Definitions", "TTFT") },
        { "ttfo", QT_TRANSLATE_NOOP("ServeScope::Definitions", "TTFO") },
        { "tpot", QT_TRANSLATE_NOOP("ServeScope::Definitions", "TPOT") },
        { "itl", QT_TRANSLATE_NOOP("ServeScope::Definitions", "ITL") },
        { "e2el", QT_TRANSLATE_NOOP("ServeScope::Definitions", "E2E latency") },
        { "output_throughput", QT_TRANSLATE_NOOP("ServeScope::Definitions", "Output throughput") },
        { "total_token_throughput", QT_TRANSLATE_NOOP("ServeScope::Definitions", "Total token throughput") },
        { "request_throughput", QT_TRANSLATE_NOOP("ServeScope::Definitions", "Request throughput") },
        { "success_rate", QT_TRANSLATE_NOOP("ServeScope::Definitions", "Success rate") } };
    for (const auto &n : names) {
        if (family == QLatin1String(n.family))
            return QCoreApplication::translate(kCtx, n.name);
    }
    return family;
}

QString metricFamily(const QString &key)
{
    for (const char *family : { "ttft", "ttfo", "tpot", "itl", "e2el" }) {
        if (key.endsWith(u'_' + QLatin1String(family) + QLatin1String("_ms")))
            return QLatin1String(family);
    }
    return key;
}

QList<DefinitionRow> compareDefinitions(const QString &a, bool aMeasured, const QString &b, bool bMeasured)
{
    QList<DefinitionRow> rows;
    if (a == b)
        return rows;
    for (const char *family : { "ttft", "ttfo", "tpot", "itl", "e2el", "output_throughput", "total_token_throughput",
             "request_throughput", "success_rate" }) {
        DefinitionRow r;
        r.family = QLatin1String(family);
        r.a = definitionOf(a, r.family);
        r.b = definitionOf(b, r.family);
        if (r.a.how == How::Absent && r.b.how == How::Absent)
            continue;
        if (r.a.how == How::Absent || r.b.how == How::Absent) {
            r.comparability = Comparability::NotComparable;
            r.differences << QStringLiteral("absent");
            rows << r;
            continue;
        }
        if (r.a.clock != r.b.clock)
            r.differences << QStringLiteral("clock");
        if (r.a.weighting != r.b.weighting)
            r.differences << QStringLiteral("weighting");
        if (r.a.tokens != r.b.tokens)
            r.differences << QStringLiteral("tokens");
        if (r.differences.isEmpty())
            r.comparability = Comparability::AsPublished;
        else if (r.differences == QStringList { QStringLiteral("clock") }
            && ((aMeasured && recomputableClock(r.b.clock)) || (bMeasured && recomputableClock(r.a.clock))))
            r.comparability = Comparability::AfterRecompute;
        else
            r.comparability = Comparability::NotComparable;
        rows << r;
    }
    return rows;
}

} // namespace ServeScope
