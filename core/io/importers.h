// SPDX-License-Identifier: MIT
// Internal: the readers behind importExperiment(), each taking an already parsed tree.
#pragma once

#include "io/experimentfile.h"
#include "io/jsontree.h"
#include "io/treereader.h"

namespace ServeScope {

ExperimentReadResult readExperimentTree(const JsonNode &root);
ExperimentReadResult importBenchConfigTree(const JsonNode &root, const QString &name);
ExperimentReadResult importLoadMatrixToml(const JsonNode &root, const QString &name);
ExperimentReadResult importBenchToml(const JsonNode &root, const QString &name);
/// A JSON object holding only "env_snapshot" (the env-probe script's output): an experiment with
/// nothing but that snapshot, each field with source probe unless it names its own.
ExperimentReadResult importEnvSnapshotTree(const JsonNode &root, const QString &name);
bool isEnvSnapshotOnly(const JsonNode &root);
/// Appends the snapshot at `path`: a list of [name, value(, source)] or an object of fields,
/// whose entries get objectSource unless a field is {"value": v, "source": s}.
void readEnvSnapshotNode(
    TreeReader &r, const JsonNode &n, const QString &path, EnvSource objectSource, EnvSnapshot *env);
/// Refuses the TOML text Debian's toml++ 3.3.0 cannot parse without undefined behaviour
/// (tomlguard.cpp); *error "line L, column C: reason", *shown (when given) the same translated.
bool checkTomlForParser(const QByteArray &bytes, QString *error, QString *shown = nullptr);
/// TOML text to a tree (tables keep file order); false with *error "line L, column C: reason" and
/// *shown (when given) the line in the application's language. toml++'s own descriptions of a
/// syntax error are English text from the library; only their "line L, column C" part is translated.
bool parseTomlTree(const QByteArray &bytes, JsonNode *out, QString *error, QString *shown = nullptr);
/// The sampling parameters bench_config.json carries as top-level keys.
const QStringList &benchConfigSamplingKeys();
/// "<dataset>_input_len" / "<dataset>_output_len", the length flags vLLM reads for a dataset.
QString lengthKey(const QString &dataset, bool input);
/// Tree of the native JSON (schema order).
JsonNode experimentToTree(const Experiment &experiment);
/// Tree of an experiment's "endpoint" object (schema order, defaults left out), as experimentToTree() writes it.
JsonNode endpointTree(const Endpoint &endpoint);

} // namespace ServeScope
