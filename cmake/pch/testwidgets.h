// SPDX-License-Identifier: MIT
// Precompiled once per build for the widget tests (SERVESCOPE_PCH): widgets.h and QtTest, which
// brings its Widgets helpers when QT_WIDGETS_LIB is defined.
#include "widgets.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
