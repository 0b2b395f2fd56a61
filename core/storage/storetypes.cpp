// SPDX-License-Identifier: MIT
#include "storetypes.h"

#include <array>

namespace ServeScope {

namespace {
constexpr std::array<const char *, 5> kStatus = { "running", "finished", "cancelled", "failed", "interrupted" };
}

QString runStatusCode(RunStatus s)
{
    return QString::fromLatin1(kStatus[size_t(s)]);
}

RunStatus runStatusFromCode(QStringView code)
{
    for (size_t i = 0; i < kStatus.size(); ++i) {
        if (code == QLatin1String(kStatus[i]))
            return RunStatus(i);
    }
    return RunStatus::Failed;
}

} // namespace ServeScope
