// SPDX-License-Identifier: MIT
// Precompiled once per build for the tests without widgets (SERVESCOPE_PCH): core.h and QtTest.
#include "core.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
