// SPDX-License-Identifier: MIT
#include "clitext.h"

#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace ServeScope::Cli {

void installTranslations()
{
    QCoreApplication *app = QCoreApplication::instance();
    const QString override = qEnvironmentVariable("SERVESCOPE_LANG");
    const QLocale locale = override.isEmpty() ? QLocale::system() : QLocale(override);
    if (!app || locale.language() == QLocale::English || locale.language() == QLocale::C)
        return;
    // The locale only picks the language: numbers and times the CLI prints stay in the C locale.
    auto *ours = new QTranslator(app);
    if (ours->load(locale, QStringLiteral("servescope"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(ours);
    auto *qt = new QTranslator(app);
    if (qt->load(
            locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
}

QString summaryText(const char *summary)
{
    return QCoreApplication::translate("ServeScope::Cli", summary);
}

} // namespace ServeScope::Cli
