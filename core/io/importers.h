// SPDX-License-Identifier: MIT
// Internal: the readers behind importExperiment(), each taking an already parsed tree.
#pragma once

#include "io/experimentfile.h"
#include "io/jsontree.h"

namespace ServeScope {

ExperimentReadResult readExperimentTree(const JsonNode &root);
ExperimentReadResult importBenchConfigTree(const JsonNode &root, const QString &name);
ExperimentReadResult importLoadMatrixToml(const JsonNode &root, const QString &name);
ExperimentReadResult importBenchToml(const JsonNode &root, const QString &name);
/// TOML text to a tree (tables keep file order); false with *error "line L, column C: reason".
bool parseTomlTree(const QByteArray &bytes, JsonNode *out, QString *error);
/// Tree of the native JSON (schema order).
JsonNode experimentToTree(const Experiment &experiment);

} // namespace ServeScope
