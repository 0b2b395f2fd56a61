// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QUrl>

namespace ServeScope {

/// `path` appended to the base URL's own path: http://h/gw/ + /v1/models -> http://h/gw/v1/models.
/// Every request an endpoint receives (streams, side calls, checks) is addressed this way.
QUrl joinUrlPath(const QUrl &base, const QString &path);

} // namespace ServeScope
