// SPDX-License-Identifier: MIT
#include "streamtransport.h"

namespace ServeScope {

QList<QPair<QByteArray, QByteArray>> requestHeaders(const EndpointConfig &endpoint, const QByteArray &requestId)
{
    QList<QPair<QByteArray, QByteArray>> h;
    h.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    h.append(qMakePair(QByteArray("Accept"), QByteArray("text/event-stream")));
    h.append(qMakePair(QByteArray("Accept-Encoding"), QByteArray("identity")));
    h.append(qMakePair(QByteArray("x-request-id"), QByteArray(requestId)));
    if (!endpoint.apiKey.isEmpty())
        h.append(qMakePair(QByteArray("Authorization"), QByteArray("Bearer " + endpoint.apiKey)));
    for (const auto &extra : endpoint.extraHeaders)
        h.append(extra);
    return h;
}

} // namespace ServeScope
