// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

namespace ServeScope {

enum class Severity : quint8 { Error, Warning };

/// One finding about an experiment: `path` is a file path such as `load.points[2].concurrency`,
/// `reason` a C-locale sentence such as `must be at least 1` (printed as "path: reason").
struct Problem {
    QString path;
    QString reason;
    Severity severity = Severity::Error;
    int variant = -1; ///< the variant it concerns, -1 when it concerns the whole experiment

    bool isError() const noexcept { return severity == Severity::Error; }
    /// "path: reason"
    QString toString() const;
    bool operator==(const Problem &) const = default;
};

bool hasErrors(const QList<Problem> &problems);

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::Problem)
