// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"

#include <QHash>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// What importCommand() made of a pasted snippet.
struct CommandImportResult : ShownLines {
    bool ok = false;
    Experiment experiment;
    QStringList errors;
    /// "line N: --flag: reason" for what was ignored or read with another meaning.
    QStringList warnings;
    bool hasServer = false; ///< a server command or a list of tuning flags was read
    bool hasBench = false; ///< a benchmark command was read
};

/// Server and benchmark command lines (docs/experiment-files.md, "Command lines"): `vllm serve`,
/// `python -m vllm.entrypoints.openai.api_server`, `python -m sglang.launch_server` give
/// server.engine, server.args (registry names) and server.launch.argv; `vllm bench serve`,
/// `python benchmark_serving.py` and `python -m sglang.bench_serving` give the endpoint, dataset,
/// one load point, percentiles and goodput; a bare list of flags (`--a 1 --b 2`) gives one SGLang
/// variant per flag. A server and a benchmark command in one snippet make one experiment. A key
/// value is never kept: `--api-key $VAR` and `export VAR=...` keep only the variable's name.
/// Pure: nothing is run or expanded.
CommandImportResult importCommand(const QString &text, const QString &name);

/// `current` with what an imported snippet sets: a server command replaces `server` (and, for a
/// list of tuning flags, the variants); a benchmark command replaces the dataset, load, metrics and
/// the endpoint's path and dialect, and sets its base URL, model, key variable and sampling where
/// the command names them. The rest of `current` (headers, proxy, keychain entry, ...) stays.
Experiment mergeImportedCommand(const Experiment &current, const CommandImportResult &imported);

enum class BenchTool { Vllm, Sglang };
/// Whether the replaying tool may shuffle the dataset file (as ServeScope and both tools do by
/// default) or must send its prompts in the file's order (vLLM's --disable-shuffle).
enum class DatasetOrder { Shuffled, AsInFile };

/// Point `point` of a resolved experiment as the command that replays it: `vllm bench serve` or
/// `python -m sglang.bench_serving`, one flag per line with backslash continuations. The key goes
/// through OPENAI_API_KEY (`export OPENAI_API_KEY="$VAR"` when the experiment names another
/// variable), never its value. `warnings` gets what the tool cannot express. importCommand() reads
/// the output back to the same point. A custom dataset's point with output length 0 means each
/// line's own `output_tokens` (`--custom-output-len -1`).
QString benchCommandFor(const Experiment &resolved, int point, BenchTool tool, QStringList *warnings = nullptr,
    DatasetOrder order = DatasetOrder::Shuffled);

namespace CommandImport {

/// Where the importer's messages go: each C-locale line in `lines`, and its translation (context
/// "ServeScope::Command") in `shown` under it.
struct Messages {
    QStringList *lines = nullptr;
    QHash<QString, QString> *shown = nullptr;
    void add(const Reason &why) const;
    /// "line N: --flag: reason"
    void add(int line, const QString &flag, const Reason &why) const;
};

/// One `--name value...` of a command line (name without the dashes).
struct Flag {
    QString name;
    QStringList values;
};

/// Flags of `words` from index `from`; words that are not flag values are appended to positionals.
QList<Flag> parseFlags(const QStringList &words, qsizetype from, QStringList *positionals);
/// "8" -> 8, "0.9" -> 0.9, "true" -> true, other text as a string; several values -> a list.
QJsonValue typedValue(const QStringList &values);
/// Reads a benchmark client's flags into x (endpoint, dataset, one load point, metrics).
void readBenchFlags(const QList<Flag> &flags, const QString &tool, int line, Experiment *x, const Messages &warnings,
    const Messages &errors);

} // namespace CommandImport

} // namespace ServeScope
