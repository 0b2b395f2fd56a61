// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"
#include "resultfiles/resultfile.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QVector>

#include <limits>

namespace ServeScope {

/// A result file of another benchmark tool (AIPerf, GuideLLM, genai-bench, inference-perf,
/// llmperf, llm-d Benchmark Report) read into the runs the importer stores: one ResultRun per
/// point, each statistic under the vLLM key whose definition it equals (docs/import.md, "Other
/// tools"). The tool's name is ResultRun::source; its version and what was left out ride along
/// as servescope_tool_version and servescope_import_note.
struct ToolFile {
    enum class Kind {
        NotOther, ///< no other tool's keys: a vLLM or SGLang file (or nothing the importer reads)
        Read, ///< `runs` hold the file's points
        Refused, ///< a tool's file whose layout is not known: `refusal` says which tool, version and key
    };
    Kind kind = Kind::NotOther;
    QString tool; ///< "aiperf", "guidellm", "genai-bench", "inference-perf", "llmperf", "llm-d"
    QString version; ///< the tool's version or layout as the file gives it ("0.8.0.dev18, report 2")
    QVector<ResultRun> runs;
    QList<Reason> warnings; ///< what was left out or is defined differently, per file
    Reason refusal;
};

/// Sniffs which tool wrote `path` from its keys (and name) and reads it, with the files it names or
/// sits beside (AIPerf's profile_export.jsonl, genai-bench's experiment_metadata.json, llmperf's
/// individual responses).
ToolFile readToolFile(const QString &path);

namespace ToolRead {

inline constexpr const char *kCtx = "ServeScope::Import";
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// A Benchmark Report's load stage, kept only while a folder's reports are put in stage order.
inline constexpr const char *kStageKey = "servescope_stage";

/// A number, or a string that holds one ("550"); false for null, missing, or text.
bool numberOf(const QJsonValue &v, double *out);
double numberOr(const QJsonValue &v, double fallback);

/// Sets run.numbers[key] to what `v` holds when it holds a number (numberOf()); false otherwise.
bool putNumber(ResultRun &run, const QString &key, const QJsonValue &v);

/// A file of `tool` read at `version` (Kind::Read), its points still to add with addPoint().
ToolFile readOf(const QString &tool, const QString &version);
/// Adds a point read from the file: the tool as its source, and beside it the tool's version
/// (`toolVersion`, else the file's) and what was left out and why (servescope_tool_version,
/// servescope_import_note).
void addPoint(ToolFile &t, ResultRun run, const QString &note, const QString &toolVersion = {});

/// Milliseconds per one of the unit's values: "ms" 1, "s"/"sec" 1000, "us" 1e-3, "ns" 1e-6; 0 unknown.
double msPerUnit(const QString &unit);

/// Sets `{stat}_{metric}_ms` (vLLM's keys; with `servescope` the ServeScope-only ones such as ttfc,
/// ttfo) from a statistic name the tool uses: mean/avg, median/p50, std/stddev/std_dev, pN.
void putStatistic(ResultRun &run, const QString &metric, QString stat, double valueMs, bool servescope = false);

/// Copies every statistic of `dist` (keys as the tool spells them) in `unitMs` milliseconds per value.
void putDistribution(ResultRun &run, const QString &metric, const QJsonObject &dist, double unitMs,
    bool servescope = false, const QString &percentileObject = {});

/// A file beside `path` whose name replaces `suffix` with `sibling` (same prefix), if it exists.
QString siblingOf(const QString &path, const QString &suffix, const QString &sibling);

/// Refused: "<tool> <version>: layout not known (key <key>: <found>)".
ToolFile refuse(const QString &tool, const QString &version, const QString &key, const QString &found);

ToolFile readAiperf(const QString &path, const QJsonObject &o);
ToolFile readAiperfRecords(const QString &path);
ToolFile readGuidellm(const QString &path, const QJsonObject &o);
ToolFile readGenaiBench(const QString &path, const QJsonObject &o);
ToolFile readInferencePerf(const QString &path, const QJsonObject &o);
ToolFile readLlmperf(const QString &path, const QJsonObject &summary);
ToolFile readLlmperfRecords(const QString &path, const QJsonArray &records);
ToolFile readBenchmarkReport(const QString &path, const QJsonObject &o);

} // namespace ToolRead

} // namespace ServeScope
