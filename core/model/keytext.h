// SPDX-License-Identifier: MIT
#pragma once

#include <QStringView>

namespace ServeScope {

/// What copy and paste brings around a key: Unicode spaces and line breaks, zero-width space and joiners, the
/// word joiner and the byte-order mark.
bool isKeyPadding(QChar c);
/// `text` without that padding on either side (the key library's trimKey, an imported file's key).
QStringView trimmedKeyText(QStringView text);

} // namespace ServeScope
