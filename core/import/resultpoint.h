// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"
#include "resultfiles/resultfile.h"

namespace ServeScope {

class StoreWriter;

/// Where one file line lands in a project: its run, variant and point.
struct PointPlace : PointKey {
    qint64 runId = 0;
};

/// The stored summary of one file line. With per-request arrays the distributions (the whole
/// percentile ladder) are recomputed from them as vLLM does; every statistic the file itself
/// carries then overrides the recomputed one, so what is read back is what the tool reported.
/// Without arrays only the file's statistics are there: the ladder percentiles it does not give
/// stay 0 and the counts of TPOT/ITL samples are unknown.
PointSummary importedSummary(const ResultRun &run, const PointPlace &place, const QString &definitions);

/// The file's requests as records (times rebuilt at 1 ns from the arrays' seconds, one content
/// event at TTFT and one per ITL gap), `count` of them from request `from` (all with -1); empty
/// without arrays.
QVector<RequestRecord> importedRecords(
    const ResultRun &run, const PointPlace &place, qsizetype from = 0, qsizetype count = -1);

/// Stores one file line as its point through `writer`: its requests, built and handed over a batch
/// at a time (the writer caught up with after each, so a point of 600,000 requests never holds them
/// all as records), then its summary (importedSummary) and the estimates a native point gets.
void storeImportedPoint(StoreWriter &writer, const ResultRun &run, const PointPlace &place, const QString &definitions);

} // namespace ServeScope
