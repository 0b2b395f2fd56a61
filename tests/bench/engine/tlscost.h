// SPDX-License-Identifier: MIT
#pragma once

#include "engine/tlsclient.h"

typedef struct ssl_ctx_st SSL_CTX;

namespace ServeScope::Testing {

/// What TLS charges the engine's client, without sockets: `sessions` of the engine's own
/// TlsSession against an OpenSSL server in the same thread on memory BIOs, the client's CPU for one
/// handshake and for one record of `bytes` plaintext bytes, fed and read as HttpConnection does,
/// the sessions taking turns as streams do.
struct TlsCost {
    double handshakeUs = 0;
    double sessionUs = 0; ///< the rest of a connection's life: its session made, the tickets read, freed
    double recordUs = 0;
    bool ok = false;
};
TlsCost measureTlsCost(SSL_CTX *serverCtx, const TlsContext &clientCtx, int sessions, int records, int bytes);

/// A server context on the throwaway certificate in `certDir` (c.pem, k.pem); null when it cannot load.
SSL_CTX *tlsCostServer(const QString &certDir);

} // namespace ServeScope::Testing
