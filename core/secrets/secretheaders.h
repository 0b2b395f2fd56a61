// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace ServeScope {

/// Headers whose values are secrets, as (name, value) pairs.
using SecretHeaders = QList<QPair<QByteArray, QByteArray>>;

/// The headers an endpoint takes from the environment (`header_env`: name, variable), read now and
/// trimmed like a key. False with the first variable's problem after `where` and the header's name
/// ("endpoint.header_env." or "--header-env "); no value is ever part of it. The one reading of
/// secret headers: the run, `check`, Test connection and the profiles dialog all use it.
bool readSecretHeaders(
    const QList<QPair<QString, QString>> &headerEnv, const QString &where, SecretHeaders *out, QString *error);

} // namespace ServeScope
