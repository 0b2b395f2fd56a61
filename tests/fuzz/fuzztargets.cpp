// SPDX-License-Identifier: MIT
#include "fuzztargets.h"

namespace ServeScope::Fuzz {

std::span<const Target> targets()
{
    static constexpr Target all[] = {
        { "sseparser", &sseParser },
        { "httpresponse", &httpResponse },
        { "experiment_json", &experimentJson },
        { "experiment_toml", &experimentToml },
        { "resultfile", &resultFile },
        { "chunkjson", &chunkJson },
        { "yamlsubset", &yamlSubset },
    };
    return all;
}

Splitter::Splitter(QByteArrayView input) noexcept
    : m_state(0xcbf29ce484222325ULL)
{
    // FNV-1a over the input: the split follows the bytes, so libFuzzer's mutations also vary it.
    for (char c : input)
        m_state = (m_state ^ quint8(c)) * 0x100000001b3ULL;
    m_state |= 1;
}

qsizetype Splitter::next() noexcept
{
    // xorshift64
    m_state ^= m_state << 13;
    m_state ^= m_state >> 7;
    m_state ^= m_state << 17;
    return qsizetype(m_state % 64) + 1;
}

} // namespace ServeScope::Fuzz
