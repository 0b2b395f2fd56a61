// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/promptlist.h"
#include "model/records.h"
#include "workload/datasets.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace ServeScope {

/// Builds the prompts of the experiment's dataset (docs/metrics.md, "Seeds"), seeded per
/// (point, repeat) so every variant sees the same requests; warmups get their own seeds.
/// random: prompts of exact server-counted length; sonnet: vLLM's sonnet construction (see
/// SonnetPrompts); sharegpt: first turns of conversations that pass vLLM's length filter;
/// custom: the JSONL file's prompts; shared_prefix: each prompt one of `groups` seeded prefixes of prefix_len
/// tokens and a suffix of its own (vLLM's prefix_repetition, SGLang's generated-shared-prefix; warmups prime the
/// groups in turn); trace: a production trace's requests in order, rows with equal Mooncake hash_ids sharing those
/// prompt blocks exactly; multi_turn: sessions of `turns` chat turns, each a user message of input_len tokens after
/// a system prompt of prefix_len tokens the sessions share (the engine puts the conversation so far, with the
/// server's own answers, before each later turn's message). A dataset that cannot be built (a file that
/// cannot be read, sharegpt) leaves error() set, and generate() then returns nothing.
class PromptGenerator {
public:
    explicit PromptGenerator(const Experiment &experiment);

    /// Why the dataset cannot be built; empty when it can.
    QString error() const { return m_error; }
    /// Token-ID prompts for the random and shared_prefix datasets on the completions and sglang-generate APIs
    /// with vLLM/SGLang dialects; text otherwise.
    bool usesTokenIds() const;
    /// True when prompts are text, whose length only the server's tokenizer can tell.
    bool wantsTokenCounts() const { return !usesTokenIds(); }

    /// `count` requests for a point (multi_turn: whole sessions, `count` rounded up to a multiple of the turns). For
    /// text prompts, `counter` (when given) sizes each text with the server's tokenizer (random: adjusting by whole
    /// words up to three times; sonnet: drawing again a prompt that is too long). `measured` (optional) receives each
    /// prompt's /tokenize count, -1 where unknown. Empty, with *error set, when the prompts cannot be built.
    QList<PreparedRequest> generate(int point, int repeat, bool warmup, int count, const TokenCounter &counter = {},
        QList<int> *measured = nullptr, QString *error = nullptr) const;

    /// The same requests as generate() for the engine: random and trace token-ID prompts are built as each is sent
    /// (a million of them, or a trace's long prompts, would otherwise be held for the whole point), every other
    /// dataset's before the point.
    /// Null, with *error set, when the prompts cannot be built.
    std::shared_ptr<const PromptList> prompts(int point, int repeat, bool warmup, int count,
        const TokenCounter &counter = {}, QList<int> *measured = nullptr, QString *error = nullptr) const;

    /// A trace replayed in open loop: the send offsets (ns from the point's start) of its first `count` requests
    /// at the point's request rate (traceOffsetsNs()). Empty for every other dataset and in closed loop, where
    /// the engine draws its own.
    QVector<qint64> arrivalOffsetsNs(int point, int count) const;
    /// The trace a trace dataset replays; nullptr for the other datasets.
    const Trace *trace() const { return m_content.trace.get(); }

    /// The deterministic seed of one prompt set.
    static quint64 seedFor(qint64 datasetSeed, int point, int repeat, bool warmup);

private:
    QList<int> lengths(quint64 seed, int target, int count) const;
    QString words(quint64 seed, int count) const;
    /// The request for one prompt; `messages` (chat) replaces the single user message the prompt makes.
    QByteArray body(const QJsonValue &prompt, int outputLen, const QJsonArray *messages = nullptr) const;
    QJsonObject bodyObject(const QJsonValue &prompt, int outputLen, const QJsonArray *messages = nullptr) const;
    /// A token-ID request's body around `idsJson`, the IDs' JSON text.
    QByteArray tokenIdBody(const QByteArray &idsJson, int outputLen) const;
    QList<PreparedRequest> randomTokenIds(const LoadPoint &lp, quint64 seed, int count, QList<int> *measuredOut) const;
    /// The random token-ID set `seed` as the engine's list: each request built when it is read.
    std::shared_ptr<const PromptList> randomTokenList(
        const LoadPoint &lp, quint64 seed, int count, QList<int> *measuredOut) const;
    /// Request i of the random token-ID prompt set `seed`: `inputLen` random IDs asking for `outputLen` tokens.
    PreparedRequest randomTokenRequest(quint64 seed, int i, int inputLen, int outputLen) const;
    /// Those `inputLen` random IDs alone.
    static std::vector<qint32> randomTokenIds(quint64 seed, int i, int inputLen);
    /// Token IDs as JSON text, byte for byte as QJsonDocument writes them compactly ("[1,2,3]"): what a prompt's
    /// hash is taken of.
    static QByteArray idsJson(const std::vector<qint32> &ids);
    friend class RandomTokenPrompts;
    /// A trace row's prompt as pieces: `tokens` tokens drawn from `seed` each (its shared blocks, then its own).
    struct Piece {
        quint64 seed;
        int tokens;
    };
    QList<Piece> tracePieces(quint64 seed, int row) const;
    PreparedRequest traceTokenRequest(const LoadPoint &lp, quint64 seed, int row) const;
    /// False, with *error, when an open-loop point asks for more requests than the trace has.
    bool traceCovers(const LoadPoint &lp, bool warmup, QString *error) const;
    friend class TraceTokenPrompts;
    QList<PreparedRequest> randomText(
        const LoadPoint &lp, quint64 seed, int count, const TokenCounter &counter, QList<int> *measuredOut) const;
    /// Texts of random words, text i drawn from seeds[i] and sized to targets[i] tokens by `counter` (by whole
    /// words, up to three rounds); *measured gets the last counts (-1 without a counter).
    QStringList sizedWords(const QList<quint64> &seeds, const QList<int> &targets, const TokenCounter &counter,
        QList<int> *measured) const;
    QList<PreparedRequest> sharedPrefix(const LoadPoint &lp, quint64 seed, bool warmup, int count,
        const TokenCounter &counter, QList<int> *measuredOut) const;
    QList<PreparedRequest> multiTurn(
        const LoadPoint &lp, quint64 seed, int count, const TokenCounter &counter, QList<int> *measuredOut) const;
    QList<PreparedRequest> replay(const LoadPoint &lp, quint64 seed, bool warmup, int count,
        const TokenCounter &counter, QList<int> *measuredOut, QString *error) const;
    QList<PreparedRequest> sonnet(const LoadPoint &lp, quint64 seed, int count, const TokenCounter &counter,
        QList<int> *measuredOut, QString *error) const;
    QList<PreparedRequest> shareGpt(const LoadPoint &lp, quint64 seed, int count, const TokenCounter &counter,
        QList<int> *measuredOut, QString *error) const;
    QList<PreparedRequest> custom(
        const LoadPoint &lp, quint64 seed, int count, const TokenCounter &counter, QList<int> *measuredOut) const;

    Experiment m_experiment;
    QStringList m_pool;
    DatasetContent m_content;
    QString m_error;
};

} // namespace ServeScope
