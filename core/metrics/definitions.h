// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// The convention a run's figures follow (docs/import.md, "Why the numbers differ"): "vllm" and
/// "sglang" (ServeScope's two profiles, and those tools' own files), "aiperf", "guidellm",
/// "genai-bench", "inference-perf", "llmperf" (their published figures), "aiperf-records" and
/// "llmperf-records" (ServeScope's figures recomputed from those tools' per-request files alone),
/// "llm-d" (a Benchmark Report whose harness is none of these).
QString conventionOf(const QString &definitions, const QByteArray &originJson);

/// How one convention defines one metric family.
struct MetricDefinition {
    enum class How { Published, Recomputed, Absent };
    How how = How::Absent;
    QString clock; ///< machine word of the interval or formula; equal clocks measure the same thing
    QString weighting; ///< "request", "token", "gap", "point": what one value of the distribution is
    QString tokens; ///< where token counts come from: "usage", "tokenizer", "llama-tokenizer", "requested", ""
    const char *text = nullptr; ///< the formula for people (context "ServeScope::Definitions")

    QString shown() const; ///< `text` in the application's language; "not stored" when absent
};

/// Whether two sides' figures of one family can be compared (docs/import.md).
enum class Comparability {
    AsPublished, ///< the same definition: the delta's verdict stands
    AfterRecompute, ///< the definitions differ, but a side's stored requests hold the other's clock
    NotComparable, ///< a side has no such figure, or counts tokens or weighs values differently
};
QString comparabilityCode(Comparability c); ///< "as-published", "after-recompute", "not-comparable"
QString comparabilityShown(Comparability c); ///< in the application's language

/// One metric family of a comparison across conventions: each side's definition and the verdict.
struct DefinitionRow {
    QString family; ///< "ttft", "ttfo", "tpot", "itl", "e2el", "output_throughput", …
    MetricDefinition a, b;
    Comparability comparability = Comparability::AsPublished;
    QStringList differences; ///< machine words: "absent", "clock", "weighting", "tokens"
};

/// A family's name for people: "TTFT", "Output throughput", … (context "ServeScope::Definitions").
QString familyShown(const QString &family);

/// The families a headline key belongs to: "median_ttft_ms" -> "ttft", "output_throughput" -> itself.
QString metricFamily(const QString &key);

/// Per family of the headline metrics, both conventions' definitions; empty when A and B follow
/// one convention (nothing to reconcile). `aMeasured`/`bMeasured`: the side is a ServeScope run whose
/// requests hold every event (so a differing clock can be recomputed from them).
QList<DefinitionRow> compareDefinitions(const QString &a, bool aMeasured, const QString &b, bool bMeasured);

} // namespace ServeScope
