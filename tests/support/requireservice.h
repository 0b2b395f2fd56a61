// SPDX-License-Identifier: MIT
#pragma once

#include <QTest>

/// For a test that needs a service CI provides (PostgreSQL, a private keyring session, the CLI
/// beside the tests): without it the test skips on a developer's machine, and fails under
/// CI=true, where a skip would pass for a check that never ran.
#define SERVESCOPE_REQUIRE_SERVICE(available, why)                                                                     \
    do {                                                                                                               \
        if (!(available)) {                                                                                            \
            if (qEnvironmentVariable("CI") == QLatin1String("true"))                                                   \
                QFAIL(qPrintable(QStringLiteral("CI=true and a service CI provides is missing: ") + (why)));           \
            QSKIP(qPrintable(why));                                                                                    \
        }                                                                                                              \
    } while (false)
