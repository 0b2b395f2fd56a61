// SPDX-License-Identifier: MIT
// The fuzz targets' bodies (docs/style.md, Fuzzing). Each runs one input through a parser's
// public entry points the way the application calls them and checks what must hold for any
// input. libFuzzer drives them from fuzzmain.cpp under clang; tst_fuzzregressions replays the
// seeds and the regression fixtures through the same functions in the normal build.
#pragma once

#include <QByteArrayView>
#include <QString>

#include <span>

namespace ServeScope::Fuzz {

/// Each returns an empty string, or which property the input broke (a crash is a failure too).
QString sseParser(QByteArrayView input);
QString httpResponse(QByteArrayView input);
QString experimentJson(QByteArrayView input);
QString experimentToml(QByteArrayView input);
QString resultFile(QByteArrayView input);
QString chunkJson(QByteArrayView input);
QString yamlSubset(QByteArrayView input);

struct Target {
    const char *name; ///< directory name under tests/fuzz/seeds and tests/data/fuzz-regressions
    QString (*run)(QByteArrayView input);
};
/// Every target, in the order scripts/fuzz.sh runs them.
std::span<const Target> targets();

/// Deterministic chunk sizes (1..64) derived from the input, so one input always splits the same way.
class Splitter {
public:
    explicit Splitter(QByteArrayView input) noexcept;
    qsizetype next() noexcept;

private:
    quint64 m_state;
};

} // namespace ServeScope::Fuzz
