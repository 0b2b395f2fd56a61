// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"

#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace ServeScope {

enum class VariableType : quint8 { Int, Double, Bool, String, StringList, Enum, Any };

/// A variable a variant may change. Paths ending in ".*" are families: `server.args.*`,
/// `sampling.*` and `endpoint.headers.*` accept any name; the well-known members of a family
/// have their own typed entries.
struct VariableInfo {
    QString path;
    VariableType type = VariableType::Any;
    double min = -1e300; ///< inclusive bounds for Int/Double
    double max = 1e300;
    QStringList choices; ///< for Enum
    bool allowInfinity = false; ///< accepts "inf" (request rates)
    QString description;
};

/// Every registered path (including the ".*" families), in documentation order.
const QList<VariableInfo> &knownVariables();
/// The entry that governs a concrete path, or nullopt for an unknown path.
std::optional<VariableInfo> lookupVariable(const QString &path);
/// Empty when value suits info, else a reason such as "must be at least 1".
Reason checkVariableValue(const VariableInfo &info, const QJsonValue &value);

/// The value of a variable in an experiment (Undefined when unset). A `load.<field>` path
/// reads the common value of all points, or an array of per-point values when they differ.
QJsonValue readVariable(const Experiment &experiment, const QString &path);
/// Sets a variable; `load.<field>` sets it on every point. Returns an empty string or the reason
/// it failed (unknown path, wrong type, out of range).
QString writeVariable(Experiment &experiment, const QString &path, const QJsonValue &value);

/// The configuration a variant runs with: the experiment, then the baseline's changes, then the
/// variant's own changes. Invalid changes are skipped (validate() reports them); the result
/// keeps only the resolved variant in `variants`.
Experiment resolveVariant(const Experiment &experiment, int variantIndex);

struct VariableDifference {
    QString path;
    QJsonValue baseline; ///< Undefined when unset
    QJsonValue variant;
    bool operator==(const VariableDifference &) const = default;
};

/// Variables whose resolved value differs between the baseline and the variant, in the order
/// the variants mention them.
QList<VariableDifference> diffVariants(const Experiment &experiment, int variantIndex);

/// Warnings about one variant: several differing variables without a reason; a server.args.*
/// change that no launch command (and no simulator endpoint) can apply.
QList<Problem> variantWarnings(const Experiment &experiment, int variantIndex);

/// The other engine's name for an equivalent server flag (max_num_seqs <-> max_running_requests,
/// ...), or an empty string. engine is the engine the returned name belongs to.
QString equivalentServerArg(const QString &argName, const QString &engine);

/// JSON value as short C-locale text for messages ("8", "\"x\"", "[1,2]", "unset").
QString describeValue(const QJsonValue &value);

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::VariableDifference)
