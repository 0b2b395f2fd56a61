// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

namespace ServeScope::TestHelpers {

/// Every widget test: settings in a throwaway location of its own process (tests run in parallel, and one
/// resetting the window's layout must not reach into another), removed at exit, and any warning fails the test
/// except the offscreen platform's own notices.
inline void initGuiTest()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ServeScopeTests"));
    QCoreApplication::setApplicationName(
        QStringLiteral("servescope-gui-tests-%1").arg(QCoreApplication::applicationPid()));
    static const QString settingsFile = QSettings().fileName();
    qAddPostRoutine([] { QFile::remove(settingsFile); });
    QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*")));
}

} // namespace ServeScope::TestHelpers
