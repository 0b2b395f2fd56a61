// SPDX-License-Identifier: MIT
#include "problem.h"

namespace ServeScope {

QString Problem::toString() const
{
    return path.isEmpty() ? reason : path + QLatin1String(": ") + reason;
}

bool hasErrors(const QList<Problem> &problems)
{
    for (const Problem &p : problems) {
        if (p.isError())
            return true;
    }
    return false;
}

} // namespace ServeScope
