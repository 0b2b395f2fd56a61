// SPDX-License-Identifier: MIT
#include "streamtransport.h"

#include "model/clock.h"

namespace ServeScope {

QList<QPair<QByteArray, QByteArray>> requestHeaders(const EndpointConfig &endpoint, const QByteArray &requestId)
{
    QList<QPair<QByteArray, QByteArray>> h;
    h.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    h.append(qMakePair(QByteArray("Accept"), QByteArray("text/event-stream")));
    h.append(qMakePair(QByteArray("Accept-Encoding"), QByteArray("identity")));
    h.append(qMakePair(QByteArray("x-request-id"), QByteArray(requestId)));
    h.append(endpointHeaders(endpoint));
    return h;
}

std::unique_ptr<StreamState> StreamTransport::newStream(const StreamRequest &request)
{
    auto s = std::make_unique<StreamState>();
    RequestRecord &r = s->record;
    r.index = request.index;
    r.slot = request.slot;
    r.scheduledNs = request.scheduledNs;
    r.slotNs = request.slotNs;
    r.targetInputLen = request.prepared.targetInputLen;
    r.targetOutputLen = request.prepared.targetOutputLen;
    r.promptHash = request.prepared.promptHash;
    s->requestId = "servescope-" + QByteArray::number(request.index) + '-' + QByteArray::number(monotonicNs(), 36);
    return s;
}

} // namespace ServeScope
