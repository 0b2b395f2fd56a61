// SPDX-License-Identifier: MIT
#pragma once

#include <QLocale>

namespace ServeScope {

/// Installs ServeScope's compiled catalogue (:/i18n/) and Qt's own `qtbase` translations for
/// `locale` on the running application. Call once the application object exists.
void installTranslators(const QLocale &locale);

} // namespace ServeScope
