// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>

namespace ServeScope::Cli {

/// Text meant for people — help, usage errors and messages on stderr — in the user's language.
/// Machine output (stdout lines, CSV, JSON, JUnit, manifests) never goes through it.
class CliText {
    Q_DECLARE_TR_FUNCTIONS(ServeScope::Cli)
};

/// Installs ServeScope's and Qt's translations for SERVESCOPE_LANG, else the system locale
/// (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). Call once the application object exists.
void installTranslations();

/// Translates a command's one-line summary (marked with QT_TRANSLATE_NOOP in the registration).
QString summaryText(const char *summary);

} // namespace ServeScope::Cli
