// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>

namespace ServeScope {

/// The run's log lines and outcome messages, written for people in the application's language
/// (the window's log and the CLI's stderr). Their arguments — URLs, names, figures and the
/// messages of lower layers — stay as they are.
class RunText {
    Q_DECLARE_TR_FUNCTIONS(ServeScope::Run)
};

} // namespace ServeScope
