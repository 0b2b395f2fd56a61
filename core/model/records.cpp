// SPDX-License-Identifier: MIT
#include "records.h"

#include <array>

namespace ServeScope {

namespace {
constexpr std::array<const char *, 13> kCodes = {
    "",
    "auth",
    "not_found",
    "rate_limited",
    "server_error",
    "connect",
    "tls",
    "timeout_connect",
    "timeout_first_token",
    "timeout_idle",
    "timeout_total",
    "protocol",
    "cancelled",
};
}

QString errorClassCode(ErrorClass c)
{
    return QString::fromLatin1(kCodes[size_t(c)]);
}

ErrorClass errorClassFromCode(QStringView code)
{
    for (size_t i = 0; i < kCodes.size(); ++i) {
        if (code == QLatin1String(kCodes[i]))
            return ErrorClass(i);
    }
    return ErrorClass::None;
}

} // namespace ServeScope
