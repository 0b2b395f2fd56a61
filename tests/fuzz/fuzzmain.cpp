// SPDX-License-Identifier: MIT
// libFuzzer entry point; SERVESCOPE_FUZZ_TARGET names the function of fuzztargets.h it drives.
#include "fuzztargets.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString broken = ServeScope::Fuzz::SERVESCOPE_FUZZ_TARGET(
        QByteArrayView(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (!broken.isEmpty()) {
        std::fprintf(stderr, "fuzz property broken: %s\n", broken.toUtf8().constData());
        std::abort(); // libFuzzer saves the input as a crash artifact
    }
    return 0;
}
