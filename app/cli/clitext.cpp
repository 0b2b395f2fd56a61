// SPDX-License-Identifier: MIT
#include "clitext.h"

#include "translations.h"

namespace ServeScope::Cli {

void installTranslations()
{
    const QString override = qEnvironmentVariable("SERVESCOPE_LANG");
    const QLocale locale = override.isEmpty() ? QLocale::system() : QLocale(override);
    // The locale only picks the language: numbers and times the CLI prints stay in the C locale.
    if (locale.language() != QLocale::English && locale.language() != QLocale::C)
        installTranslators(locale);
}

QString summaryText(const char *summary)
{
    return QCoreApplication::translate("ServeScope::Cli", summary);
}

} // namespace ServeScope::Cli
