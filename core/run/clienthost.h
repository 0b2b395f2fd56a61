// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>

namespace ServeScope {

/// The client host every run records (docs/design.md): CPU model, cores,
/// frequency governor, kernel, open-file limit and ServeScope version.
QJsonObject clientHostInfo();

} // namespace ServeScope
