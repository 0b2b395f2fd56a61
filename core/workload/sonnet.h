// SPDX-License-Identifier: MIT
#pragma once

#include "workload/datasets.h"

namespace ServeScope {

/// vLLM's sonnet dataset (benchmarks/sonnet.txt): every prompt is a fixed instruction, the
/// file's first lines as a shared prefix of about `prefixLen` tokens, then lines drawn at random
/// (with replacement) up to the input length; a drawn prompt longer than the input length is
/// drawn again, so prompts have at most that many tokens. Lengths count as vLLM counts them: the
/// prompt in the chat template, by the server's tokenizer when `counter` is given, else one token
/// per word (an estimate).
class SonnetPrompts final {
public:
    static constexpr const char kBasePrompt[] = "Pick as many lines as you can from these poem lines:\n";
    /// Draws per prompt before giving up (vLLM draws for ever).
    static constexpr int kMaxDraws = 32;

    SonnetPrompts(const QStringList &lines, int prefixLen, const TokenCounter &counter);

    /// `count` prompts for `inputLen` tokens, seeded by `seed`; `lengths` gets each prompt's
    /// token count (-1 where the server could not count). False with *error when the input
    /// length cannot hold the instruction and prefix, or prompts short enough were not found.
    bool build(quint64 seed, int inputLen, int count, QStringList *prompts, QList<int> *lengths, QString *error) const;

    /// Lines of the shared prefix and lines per prompt for `inputLen` (after calibrate()).
    int prefixLines() const;
    int inputLines(int inputLen) const;
    double averageLineTokens() const { return m_avgLen; }
    int baseTokens() const { return m_baseOffset; }

private:
    void calibrate();
    QString draw(quint64 seed, int inputLines) const;
    QList<int> count(const QStringList &texts) const;

    QStringList m_lines;
    int m_prefixLen = 0;
    TokenCounter m_counter;
    double m_avgLen = 1;
    int m_baseOffset = 0;
    bool m_counted = false;
};

} // namespace ServeScope
