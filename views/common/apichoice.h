// SPDX-License-Identifier: MIT
#pragma once

class QComboBox;

namespace ServeScope {

/// Fills `combo` with the APIs a request can speak, each item's data its file spelling (apiName).
void addApiItems(QComboBox *combo);

} // namespace ServeScope
