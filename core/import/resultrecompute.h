// SPDX-License-Identifier: MIT
#pragma once

#include "resultfiles/resultfile.h"

#include <QStringList>

#include <vector>

namespace ServeScope {

/// What a reader of a result file recomputes from its per-request arrays alone, the way vLLM's
/// calculate_metrics does: successful requests are those with an empty error text (all of them
/// when the file has no errors array), TPOT is (latency - ttft) / (output_len - 1) for outputs
/// longer than one token, ITL pools every request's gaps, values are seconds.
struct ArrayStats {
    int requests = 0; ///< entries of ttfts
    int completed = 0, failed = 0;
    int zeroOutputSuccesses = 0; ///< successful entries whose output_lens is 0
    qint64 totalIn = 0, totalOut = 0;
    qint64 chunks = 0; ///< token events: 1 + gaps of each successful request
    std::vector<double> ttft, tpot, itl, e2el;
    double e2elSum = 0; ///< numpy's pairwise sum of e2el (SGLang's concurrency)
    double maxTokensPerS = 0;
    int maxConcurrent = 0;
    bool hasErrors = false, hasInputs = false, hasOutputs = false, hasItls = false, hasLatencies = false,
         hasStarts = false;
};

ArrayStats recomputeArrays(const ResultRun &run);

/// The array a statistic key needs and the file lacks ("latencies"), empty when all are there;
/// "the SLOs" for goodput, "duration" for a throughput of a file without it.
QString missingArrayFor(const ResultRun &run, const ArrayStats &stats, const QString &key);

/// The value of a key recomputed from the arrays (the summary's units: ms, tokens/s, counts);
/// NaN when this key has no rule or its inputs are missing (missingArrayFor says which).
double recomputedValue(const ResultRun &run, const ArrayStats &stats, const QString &key);

/// `{mean|median|std|pNN}_{ttft|tpot|itl|e2el}_ms` from seconds, as vLLM does (x 1000); false for
/// any other key.
bool distributionKey(const QString &key, QString *stat, QString *metric);
double statisticMs(std::vector<double> values, const QString &stat);

} // namespace ServeScope
