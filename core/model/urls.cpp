// SPDX-License-Identifier: MIT
#include "urls.h"

namespace ServeScope {

QUrl joinUrlPath(const QUrl &base, const QString &path)
{
    QUrl url = base;
    QString basePath = base.path();
    while (basePath.endsWith(QLatin1Char('/')))
        basePath.chop(1);
    url.setPath(basePath + (path.startsWith(QLatin1Char('/')) ? path : QLatin1Char('/') + path));
    return url;
}

} // namespace ServeScope
