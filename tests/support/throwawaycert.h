// SPDX-License-Identifier: MIT
// A throwaway self-signed certificate for TLS tests and the benches, made with the openssl tool.
#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace ServeScope::Testing {

/// Writes `c.pem` and `k.pem` (CN=localhost) into `dir`; false when openssl could not. ECDSA
/// P-256, as gateways commonly serve: with RSA 2048 the simulator's one core signs 4,096
/// handshakes in more than the engine's 10 s connect timeout.
inline bool makeThrowawayCertificate(const QTemporaryDir &dir)
{
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
        { QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
            QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
            QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=localhost"),
            QStringLiteral("-keyout"), dir.filePath(QStringLiteral("k.pem")), QStringLiteral("-out"),
            dir.filePath(QStringLiteral("c.pem")) });
    return openssl.waitForFinished(60000) && openssl.exitStatus() == QProcess::NormalExit && openssl.exitCode() == 0;
}

} // namespace ServeScope::Testing
