// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>

#include <openssl/bio.h>

namespace ServeScope::Testing {

/// What an OpenSSL memory BIO holds, taken out of it (the TLS tests' wire between two sessions).
inline QByteArray drainMemoryBio(BIO *bio)
{
    char *data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    QByteArray out(data, n > 0 ? n : 0);
    (void)BIO_reset(bio);
    return out;
}

} // namespace ServeScope::Testing
