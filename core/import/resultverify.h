// SPDX-License-Identifier: MIT
#pragma once

#include "resultfiles/resultfile.h"

#include <QString>
#include <QVector>

namespace ServeScope {

/// What `import --verify` found for one statistic key of a result file.
struct KeyCheck {
    enum class Verdict {
        Reproduced, ///< recomputed from the arrays within 1e-12 relative
        Explained, ///< differs, for a known reason (in `reason`)
        Mismatched, ///< differs, no known reason
        NotReproducible, ///< the file lacks what it needs (`reason` names the array)
    };
    QString key;
    Verdict verdict = Verdict::NotReproducible;
    double fileValue = 0;
    double recomputed = 0;
    double relative = 0; ///< |recomputed - file| / |file| (absolute difference when file is 0)
    QString reason;
};

/// Relative tolerance of "reproduced".
inline constexpr double kVerifyTolerance = 1e-12;

/// Every statistic key of one run recomputed from its arrays and compared. Setup keys (duration,
/// num_prompts, request_rate, lengths, ...) and ServeScope's own servescope_* keys are not checked.
QVector<KeyCheck> verifyResultRun(const ResultRun &run);

/// "reproduced", "explained", "mismatched", "not-reproducible".
QString verdictCode(KeyCheck::Verdict v);

} // namespace ServeScope
