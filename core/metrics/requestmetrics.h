// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <vector>

namespace ServeScope {

/// Which tool's definitions a number follows (docs/metrics.md): `vllm bench serve` or SGLang's `bench_serving`.
enum class DefinitionsProfile : quint8 { Vllm = 0, Sglang = 1 };

QString definitionsCode(DefinitionsProfile p);
/// "vllm" or "sglang"; anything else gives Vllm and sets *ok to false.
DefinitionsProfile definitionsFromCode(QStringView code, bool *ok = nullptr);

/// What one request contributes to the aggregates, in seconds (converted once from int64 ns).
struct RequestMetrics {
    bool counted = false; ///< successful: status Ok and at least one token event (vLLM) / text event (SGLang)
    bool failed = false; ///< failed, or a 2xx stream without any token event
    bool cancelled = false;
    bool hasTtfc = false; ///< a content, reasoning or tool-call event arrived
    bool hasTtfo = false; ///< a content or tool-call event arrived: the answer, not reasoning
    bool hasTpot = false; ///< outputTokens > 1
    bool outputEstimated = false;
    bool inputEstimated = false;
    double ttft = 0;
    double ttfc = 0;
    double ttfo = 0; ///< time to the first output token: the first content or tool-call event
    double e2el = 0;
    double tpot = 0; ///< 0 when !hasTpot (that is what goodput uses)
    bool hasAtpot = false; ///< an answer (hasTtfo) of more than one token after the reasoning's
    double atpot = 0; ///< the answer's TPOT: (E2EL - TTFO) / (outputTokens - reasoningTokens - 1)
    qint64 e2elNs = 0; ///< E2EL as an exact offset from start
    int inputTokens = 0;
    int outputTokens = 0;
    /// The server's own output count (usage, or `/tokenize` of the text) whatever the profile
    /// counts; -1 when there is only an estimate.
    int serverOutputTokens = -1;
    int tokenEvents = 0;
    int reasoningTokens = 0; ///< RequestRecord::reasoningTokens
    bool reasoningEstimated = false;
};

/// Derives one request's figures under a profile.
RequestMetrics deriveRequest(const RequestRecord &r, DefinitionsProfile profile);

/// Appends one request's ITL gaps in ns (pooled across requests: 4 bytes each while they fit) to
/// *itl, its content-only gaps to *citl; either may be null. Its ITLs are nsToSeconds of each.
/// Nothing is appended for a request deriveRequest() does not count.
void appendTokenGapsNs(const RequestRecord &r, DefinitionsProfile profile, NsList *itl, NsList *citl);

} // namespace ServeScope
