// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace ServeScope {

class ProjectStore;

/// The prompts one (variant, point, repeat) of a stored run sent, in submission order, with the
/// output length each asked for (docs/import.md, "A point's prompts as a dataset").
struct PointPrompts {
    QString variant;
    int point = 0;
    int repeat = 1;
    QString pointLabel;
    QStringList prompts;
    QList<int> outputTokens;
    /// The variant as the run ran it, read from the run's configuration once; `configured` is
    /// false when that configuration could not be read.
    Experiment resolved;
    bool configured = false;
};

/// Reads them from the run's measured requests and the project's prompts table. Fails, saying
/// why, for a run that kept no prompts (imported, or written before prompts were kept), for
/// token-ID prompts (neither tool replays them from a file) and for an unknown variant or point.
bool loadPointPrompts(ProjectStore &store, qint64 runId, const QString &variant, int point, int repeat,
    PointPrompts *out, QString *error);

/// vLLM's `custom` dataset: one `{"prompt": ..., "output_tokens": N}` per line.
QByteArray customJsonl(const PointPrompts &p);
/// SGLang's (and vLLM's) ShareGPT file: the prompts as first turns, with empty replies.
QByteArray shareGptJson(const PointPrompts &p);

/// Writes both files into `dir` (created if missing) as STEM.jsonl and STEM.sharegpt.json, STEM
/// naming the variant, point and repeat; their paths go to `customPath` and `shareGptPath`.
bool writePointPrompts(
    const PointPrompts &p, const QString &dir, QString *customPath, QString *shareGptPath, QString *error);

/// The commands that replay `p` from `customPath` (vllm bench serve) and `shareGptPath`
/// (sglang.bench_serving), built from `p.resolved`; `warnings` gets what a tool cannot reproduce
/// (SGLang's shuffle, one output length for all prompts).
QStringList replayCommands(
    const PointPrompts &p, const QString &customPath, const QString &shareGptPath, QStringList *warnings);

} // namespace ServeScope
