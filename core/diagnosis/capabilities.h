// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringView>

namespace ServeScope {

/// What one capability answer of a preflight means for a run, and what to do about it: English
/// for machine output (`check`), translated for the window's Test connection.
struct CapabilityNote {
    QString means;
    QString fix; ///< empty when nothing needs doing
};

/// `key` is usage_sent, role_chunk_first, tokenize, metrics or ignore_eos; `value` -1 unknown, 0 no, 1 yes.
CapabilityNote capabilityNote(QStringView key, int value, bool translated = false);

} // namespace ServeScope
