// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

namespace ServeScope::TestHelpers {

/// Every widget test: settings in a throwaway location, and any warning fails the test except the
/// offscreen platform's own notices.
inline void initGuiTest()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ServeScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("servescope-gui-tests"));
    QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*")));
}

} // namespace ServeScope::TestHelpers
