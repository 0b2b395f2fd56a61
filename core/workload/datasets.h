// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"
#include "workload/sharegpt.h"
#include "workload/trace.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace ServeScope {

/// Counts prompt tokens as the server does (its /tokenize, chat template included), for a batch
/// of prompts at once. Returns one count per text, -1 where the server could not say.
using TokenCounter = std::function<QList<int>(const QStringList &texts)>;

/// One prompt of a custom JSONL dataset: {"prompt": "...", "output_tokens": N} (output optional).
struct CustomPrompt {
    QString prompt;
    int outputLen = 0; ///< 0: the point's output_len
};

/// What a named dataset is built from, read once per point: the sonnet's lines (each keeps its
/// '\n', as Python's readlines() gives them), the prompts of a custom JSONL file, or the kept
/// ShareGPT conversations (read once per process).
struct DatasetContent {
    QStringList lines;
    QList<CustomPrompt> prompts;
    std::shared_ptr<const ShareGptSet> shareGpt;
    std::shared_ptr<const Trace> trace;
    QString warning; ///< e.g. the sonnet file was not found and the built-in copy is used
    Reason warningReason; ///< what `warning` was made from (context "ServeScope::Dataset")
};

/// Largest custom JSONL file read, in bytes (the prompts are held in memory).
inline constexpr qint64 kMaxCustomDatasetBytes = 256LL * 1024 * 1024;

/// Reads the dataset `d` names. random needs nothing; sonnet reads d.path, or the built-in copy of
/// vLLM's benchmarks/sonnet.txt when the path is empty or missing (with a warning); custom reads
/// d.path as JSONL; sharegpt streams d.path (see loadShareGpt()). False with *error saying why it
/// cannot run (C locale) and, when `reason` is given, *reason what it was made from, for the
/// window and stderr to show translated (context "ServeScope::Dataset"). trace reads d.path's first
/// `traceRows` requests (see readTrace()).
bool loadDataset(const Dataset &d, DatasetContent *out, QString *error, Reason *reason = nullptr,
    qsizetype traceRows = kMaxTraceRows);

/// The trace requests `experiment` replays at most: its largest num_prompts when every point has one, else all
/// (up to kMaxTraceRows).
qsizetype traceRowsNeeded(const Experiment &experiment);

/// The dataset problems of every variant (files that cannot be read, malformed custom lines,
/// datasets ServeScope cannot build), as validate reports them before a run.
QList<Problem> checkDatasets(const Experiment &experiment);

} // namespace ServeScope
