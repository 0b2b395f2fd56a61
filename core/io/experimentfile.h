// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// The experiment file layouts ServeScope reads (see docs/experiment-files.md).
enum class ExperimentFormat : quint8 {
    Auto, ///< detect from the file name and content
    Json, ///< the native JSON (docs/experiment-files.md)
    BenchConfig, ///< flat bench_config.json (vllm bench serve flag names)
    TomlLoadMatrix, ///< [client] + [load_matrix.*]
    TomlBench, ///< [bench], [bench.dataset], [bench.load]
    EnvSnapshot, ///< a JSON object holding only "env_snapshot" (an experiment with just that)
};

QString experimentFormatName(ExperimentFormat f);

/// Outcome of reading a file. On failure `errors` holds one "path: reason (line N)" per line
/// (or "line L, column C: reason" for syntax errors); messages never repeat string values.
struct ExperimentReadResult : ShownLines {
    bool ok = false;
    Experiment experiment;
    ExperimentFormat format = ExperimentFormat::Auto;
    QStringList errors;
    /// "path: reason (line N)" for what an imported layout held that ServeScope ignored (unknown
    /// keys, settings of another dataset); the experiment is still read.
    QStringList warnings;
};

/// Native JSON. A missing "variants" list reads as one variant named "baseline".
ExperimentReadResult readExperimentJson(const QByteArray &bytes);
/// Native JSON in schema order (our writer, not QJsonDocument's sorted keys), UTF-8, ends in '\n'.
QByteArray writeExperimentJson(const Experiment &experiment);

/// Any supported layout; `name` is used when the file carries no experiment name (typically the
/// file's base name). Auto detection: JSON with "load", "variants" or an "endpoint" object is native, other JSON is
/// bench_config; TOML with [bench] is TomlBench, with [client] or [load_matrix] TomlLoadMatrix.
ExperimentReadResult importExperiment(
    const QByteArray &bytes, ExperimentFormat format = ExperimentFormat::Auto, const QString &name = QString());
/// Reads a file (refusing ones over the 8 MiB limit before reading them). Auto: a .json file is
/// only ever JSON (native, env snapshot or bench_config by content), a .toml file only TOML, any
/// other name by content as importExperiment() does.
ExperimentReadResult loadExperimentFile(const QString &path, ExperimentFormat format = ExperimentFormat::Auto);
/// Writes native JSON atomically (QSaveFile). Returns an empty string or the error.
QString saveExperimentFile(const QString &path, const Experiment &experiment);

/// Flat bench_config.json for one variant (resolved against the baseline). Per-point fields
/// are written as one value when all points agree, else as lists. Fails (empty result, *error
/// set) when the experiment cannot be expressed (e.g. rate points with different caps).
QByteArray exportBenchConfig(const Experiment &experiment, int variantIndex, QString *error);

/// Bytes a run stores as its resolved configuration (native JSON), and the way back.
QByteArray serializeExperiment(const Experiment &experiment);
ExperimentReadResult deserializeExperiment(const QByteArray &bytes);

/// Largest experiment file accepted, in bytes.
inline constexpr qsizetype kMaxExperimentFileBytes = 8 * 1024 * 1024;

} // namespace ServeScope
