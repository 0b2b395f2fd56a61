// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QByteArray>
#include <QString>

#include <limits>

namespace ServeScope {

/// Setup of one line of SGLang's bench_serving JSON lines (`--output-file`).
struct SglangLineSetup {
    QString backend = QStringLiteral("sglang-oai-chat");
    QString tag; ///< the same for every point of a run's variant, so the lines read back as one run
    QString datasetName = QStringLiteral("random");
    double requestRate = std::numeric_limits<double>::infinity(); ///< written as bare Infinity when infinite
    int maxConcurrency = 0; ///< 0 is written as null
    int randomInputLen = 0, randomOutputLen = 0;
    double randomRangeRatio = 1.0; ///< SGLang's [L r, L] rule
};

/// One line in SGLang's key set (`mean_e2e_latency_ms`, `p95_itl_ms`, `concurrency`, ...) from a
/// summary computed with the sglang definitions that holds percentiles 95 and 99 (aggregatePoint
/// with percentiles {95, 99}); no per-request arrays. Ends with a newline.
QByteArray writeSglangResultLine(const SglangLineSetup &setup, const PointSummary &summary);

/// ServeScope's random lengths (a centre and a spread, dataset.range_ratio) as SGLang's: the
/// ratio r with [L r, L] spanning the same range, and L.
void sglangRandomLengths(int centreIn, int centreOut, double spread, SglangLineSetup *setup);

} // namespace ServeScope
