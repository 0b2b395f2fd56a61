// SPDX-License-Identifier: MIT
#include "engineconfig.h"

#include <algorithm>
#include <cmath>

namespace ServeScope {

TransportKind resolveTransport(const EndpointConfig &endpoint)
{
    if (endpoint.transport != TransportKind::Auto)
        return endpoint.transport;
    const bool plain = endpoint.url.scheme() == QLatin1String("http");
    return plain && !endpoint.http2 && !endpoint.useProxy ? TransportKind::Lean : TransportKind::Pool;
}

int LoadSpec::peakStreams() const
{
    if (mode == Mode::Concurrency)
        return numPrompts > 0 ? std::min(concurrency, numPrompts) : concurrency;
    // Without a cap, a finite rate keeps about rate x 30 s of requests live; pools grow on demand.
    int peak = maxConcurrency > 0 ? maxConcurrency
        : std::isinf(requestRate) ? (numPrompts > 0 ? numPrompts : 1024)
                                  : std::max(16, int(std::ceil(requestRate * 30)));
    if (numPrompts > 0)
        peak = std::min(peak, numPrompts);
    return std::max(1, peak);
}

} // namespace ServeScope
