// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/records.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace ServeScope {

/// Counts prompt tokens as the server does (its /tokenize), for a batch of chat prompts at once.
/// Returns one count per text, -1 where the server could not say.
using TokenCounter = std::function<QList<int>(const QStringList &texts)>;

/// Builds prompts of exact server-counted length (docs/metrics.md, "Seeds"), seeded per
/// (point, repeat) so every variant sees the same requests; warmups get their own seeds.
class PromptGenerator {
public:
    explicit PromptGenerator(const Experiment &experiment);

    /// Token-ID prompts on /v1/completions for vLLM/SGLang dialects; text otherwise.
    bool usesTokenIds() const;
    bool isChat() const;

    /// `count` requests for a point. For chat prompts, `counter` (when given) sizes each text
    /// with the server's tokenizer, adjusting by whole words up to three times.
    /// `measured` (optional) receives each prompt's /tokenize count, -1 where unknown.
    QList<PreparedRequest> generate(int point, int repeat, bool warmup, int count, const TokenCounter &counter = {},
        QList<int> *measured = nullptr) const;

    /// The deterministic seed of one prompt set.
    static quint64 seedFor(qint64 datasetSeed, int point, int repeat, bool warmup);

private:
    QList<int> lengths(quint64 seed, int target, int count) const;
    QString words(quint64 seed, int count) const;
    QByteArray body(const QJsonValue &prompt, int outputLen) const;

    Experiment m_experiment;
    QStringList m_pool;
};

} // namespace ServeScope
