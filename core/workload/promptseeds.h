// SPDX-License-Identifier: MIT
// What the prompt generator's files share: the seed mixer and the prompt hash (not a public header).
#pragma once

#include "model/prompthash.h"

#include <QByteArray>

namespace ServeScope {

/// The token IDs random prompts are drawn from (below them: a tokenizer's special tokens).
inline constexpr int kMinTokenId = 1000;
inline constexpr int kMaxTokenId = 30000;

/// SplitMix64: one seed into the next, for every seeded choice of the generator.
inline quint64 splitmix64(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// A prompt's identity: the first bytes of the SHA-256 of its text or token IDs.
PromptHash hashOf(const QByteArray &bytes);

} // namespace ServeScope
