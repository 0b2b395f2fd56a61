// SPDX-License-Identifier: MIT
// What validation's files share: the checker that collects problems (not a public header).
#pragma once

#include "model/validation.h"

#include <cmath>

namespace ServeScope::Validation {

class Checker {
public:
    QList<Problem> problems;

    void error(const QString &path, const Reason &reason, int variant = -1)
    {
        problems << Problem::of(path, reason, Severity::Error, variant);
    }
    void warning(const QString &path, const Reason &reason, int variant = -1)
    {
        problems << Problem::of(path, reason, Severity::Warning, variant);
    }
    void atLeast(const QString &path, double value, double min)
    {
        if (std::isnan(value) || value < min)
            error(path,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be at least %1"), { formatNumber(min) } });
    }
    void atMost(const QString &path, double value, double max)
    {
        if (value > max)
            error(
                path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be at most %1"), { formatNumber(max) } });
    }
    void range(const QString &path, double value, double min, double max)
    {
        atLeast(path, value, min);
        atMost(path, value, max);
    }
    void finite(const QString &path, double value, double min, double max)
    {
        if (!std::isfinite(value))
            error(path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a finite number") });
        else
            range(path, value, min, max);
    }
};

/// load: the matrix's points (or a capacity search's levels), their stop rules and planned durations
/// (validationload.cpp).
void checkLoad(Checker &c, const LoadMatrix &load, const Dataset &dataset);

} // namespace ServeScope::Validation
