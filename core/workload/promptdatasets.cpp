// SPDX-License-Identifier: MIT
// The datasets beside random: a shared prefix, multi-turn sessions, production traces, sonnet, ShareGPT and
// custom prompts.
#include "promptgen.h"
#include "promptseeds.h"

#include "model/apirequest.h"
#include "sonnet.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace ServeScope {

namespace {

// Each request's group: warmups prime the groups in turn; measured requests draw them with a Zipf exponent,
// or with none take every group equally often (as many times as `count` allows) in a seeded order.
QList<int> groupsOf(quint64 seed, int groups, double zipf, bool warmup, int count)
{
    QList<int> out;
    out.reserve(count);
    for (int i = 0; i < count; ++i)
        out << i % groups;
    if (warmup)
        return out;
    std::mt19937_64 rng(splitmix64(seed ^ 0x475250ULL));
    if (zipf <= 0) {
        std::shuffle(out.begin(), out.end(), rng);
        return out;
    }
    std::vector<double> weights(static_cast<std::size_t>(groups));
    for (int g = 0; g < groups; ++g)
        weights[size_t(g)] = 1.0 / std::pow(double(g + 1), zipf);
    std::discrete_distribution<int> pick(weights.begin(), weights.end());
    for (int &g : out)
        g = pick(rng);
    return out;
}

} // namespace

QList<PreparedRequest> PromptGenerator::sharedPrefix(const LoadPoint &lp, quint64 seed, bool warmup, int count,
    const TokenCounter &counter, QList<int> *measuredOut) const
{
    const Dataset &d = m_experiment.dataset;
    const int groups = qMax(1, d.groups);
    const int prefixLen = d.prefixLen, suffixLen = qMax(1, lp.inputLen - d.prefixLen);
    const QList<int> group = groupsOf(seed, groups, d.zipf, warmup, count);
    // A group's prefix is the same at every point and repeat: the dataset's seed and the group decide it.
    const auto prefixSeed
        = [&](int g) { return splitmix64(splitmix64(quint64(d.seed)) ^ (0x5052454649ULL + quint64(g))); };
    QList<PreparedRequest> out(count);
    QList<int> measured(count, lp.inputLen);
    if (usesTokenIds()) {
        const auto ids = [](quint64 s, int n, QJsonArray *into) {
            std::mt19937_64 rng(s);
            std::uniform_int_distribution<int> id(kMinTokenId, kMaxTokenId - 1);
            for (int t = 0; t < n; ++t)
                into->append(id(rng));
        };
        for (int i = 0; i < count; ++i) {
            QJsonArray prompt;
            ids(prefixSeed(group[i]), prefixLen, &prompt);
            ids(splitmix64(seed + quint64(i)), suffixLen, &prompt);
            out[i] = { body(prompt, lp.outputLen), lp.inputLen, lp.outputLen,
                hashOf(QJsonDocument(prompt).toJson(QJsonDocument::Compact)) };
        }
    } else {
        QList<quint64> prefixSeeds, suffixSeeds;
        for (int g = 0; g < groups; ++g)
            prefixSeeds << prefixSeed(g);
        for (int i = 0; i < count; ++i)
            suffixSeeds << splitmix64(seed + quint64(i));
        QList<int> ignored;
        const QStringList prefixes = sizedWords(prefixSeeds, QList<int>(groups, prefixLen), counter, &ignored);
        const QStringList suffixes = sizedWords(suffixSeeds, QList<int>(count, suffixLen), counter, &ignored);
        QStringList texts;
        for (int i = 0; i < count; ++i)
            texts << prefixes[group[i]] + QLatin1Char(' ') + suffixes[i];
        measured = counter ? counter(texts) : QList<int>(count, -1);
        for (int i = 0; i < count; ++i)
            out[i] = { body(texts[i], lp.outputLen), lp.inputLen, lp.outputLen, hashOf(texts[i].toUtf8()) };
    }
    if (measuredOut)
        *measuredOut = measured;
    return out;
}

QList<PreparedRequest> PromptGenerator::multiTurn(
    const LoadPoint &lp, quint64 seed, int count, const TokenCounter &counter, QList<int> *measuredOut) const
{
    const Dataset &d = m_experiment.dataset;
    const int turns = qMax(1, d.turns);
    const int n = (count + turns - 1) / turns * turns;
    QList<int> inLens = lengths(seed, lp.inputLen, n);
    const QList<int> outLens = lengths(splitmix64(seed ^ 0x4f5554ULL), lp.outputLen, n);
    QList<int> measured;
    QStringList texts;
    if (m_content.shareGpt) {
        // ShareGPT conversations with enough user turns, in a seeded order: each session one of them, its turns the
        // user's messages as written (their counted lengths are the inputs).
        QList<const ShareGptPair *> eligible;
        for (const ShareGptPair &p : m_content.shareGpt->pairs) {
            if (p.laterPrompts.size() + 1 >= turns)
                eligible << &p;
        }
        std::shuffle(eligible.begin(), eligible.end(), std::mt19937_64(seed));
        for (int i = 0; i < n; ++i) {
            const ShareGptPair &p = *eligible.at(i / turns % eligible.size());
            texts << (i % turns == 0 ? p.prompt : p.laterPrompts.at(i % turns - 1));
        }
        measured = counter ? counter(texts) : QList<int>(n, -1);
        for (int i = 0; i < n; ++i)
            inLens[i] = measured.value(i, -1) >= 0 ? measured[i] : int(texts[i].split(u' ', Qt::SkipEmptyParts).size());
    } else {
        QList<quint64> seeds;
        for (int i = 0; i < n; ++i)
            seeds << splitmix64(seed + quint64(i));
        texts = sizedWords(seeds, inLens, counter, &measured);
    }
    // The system prompt is every session's, at every point and repeat: the dataset's seed decides it.
    QJsonArray system;
    int systemTokens = 0;
    if (d.prefixLen > 0) {
        QList<int> counted;
        const QStringList text = sizedWords(
            { splitmix64(splitmix64(quint64(d.seed)) ^ 0x53595354454dULL) }, { d.prefixLen }, counter, &counted);
        system.append(QJsonObject {
            { QStringLiteral("role"), QStringLiteral("system") }, { QStringLiteral("content"), text.first() } });
        systemTokens = counted.value(0, -1) >= 0 ? counted.first() : d.prefixLen;
    }
    QList<PreparedRequest> out(n);
    int conversation = 0; // the tokens a turn's conversation so far is expected to hold
    for (int i = 0; i < n; ++i) {
        const int turn = i % turns;
        if (turn == 0)
            conversation = d.prefixLen;
        const QJsonObject user { { QStringLiteral("role"), QStringLiteral("user") },
            { QStringLiteral("content"), texts[i] } };
        QJsonArray messages = system;
        messages.append(user);
        PreparedRequest &r = out[i];
        r.body = body(texts[i], outLens[i], &messages);
        r.targetInputLen = conversation + inLens[i];
        r.targetOutputLen = outLens[i];
        r.promptHash = hashOf(texts[i].toUtf8());
        r.turn = turn;
        const QByteArray message = QJsonDocument(user).toJson(QJsonDocument::Compact);
        r.historyAt = int(r.body.indexOf(message));
        r.messageEnd = r.historyAt + int(message.size());
        // Only a first turn's prompt is known before it is sent; later ones carry the answers.
        measured[i] = turn == 0 && measured.value(i, -1) >= 0 ? measured[i] + systemTokens : -1;
        conversation += inLens[i] + outLens[i];
    }
    if (measuredOut)
        *measuredOut = measured;
    return out;
}

// Row i's prompt: its hash_ids blocks in turn (a block's tokens depend only on its id within this prompt set,
// so rows that share ids share those tokens exactly), then tokens of its own; the last block is cut to the
// row's length. A point or repeat replays the trace with blocks of its own, so none is primed by another.
QList<PromptGenerator::Piece> PromptGenerator::tracePieces(quint64 seed, int i) const
{
    const Trace &t = *m_content.trace;
    const int blockSize = qMax(1, m_experiment.dataset.blockSize);
    const TraceRow &row = t.rows[size_t(i)];
    QList<Piece> pieces;
    int covered = 0;
    for (quint32 b = 0; b < row.blockCount && covered < row.inputLen; ++b) {
        const int n = qMin(blockSize, row.inputLen - covered);
        pieces << Piece { splitmix64(seed ^ splitmix64(t.blocks[row.firstBlock + b] + 0x424c4bULL)), n };
        covered += n;
    }
    if (covered < row.inputLen)
        pieces << Piece { splitmix64(seed + quint64(i)), row.inputLen - covered };
    return pieces;
}

PreparedRequest PromptGenerator::traceTokenRequest(const LoadPoint &lp, quint64 seed, int i) const
{
    const TraceRow &row = m_content.trace->rows[size_t(i)];
    QJsonArray prompt;
    for (const Piece &piece : tracePieces(seed, i)) {
        std::mt19937_64 rng(piece.seed);
        std::uniform_int_distribution<int> id(kMinTokenId, kMaxTokenId - 1);
        for (int k = 0; k < piece.tokens; ++k)
            prompt.append(id(rng));
    }
    const int output = lp.outputLen > 0 ? lp.outputLen : row.outputLen;
    return { body(prompt, output), row.inputLen, output, hashOf(QJsonDocument(prompt).toJson(QJsonDocument::Compact)) };
}

bool PromptGenerator::traceCovers(const LoadPoint &lp, bool warmup, QString *error) const
{
    const int rows = int(m_content.trace->rows.size());
    if (m_experiment.load.mode == LoadMode::Rate && !warmup && lp.numPrompts > rows) {
        *error = Reason::shown("ServeScope::Dataset",
            QT_TRANSLATE_NOOP("ServeScope::Dataset", "num_prompts %1 is more than the trace's %2 requests"),
            { QString::number(lp.numPrompts), QString::number(rows) });
        return false;
    }
    return true;
}

QList<PreparedRequest> PromptGenerator::replay(const LoadPoint &lp, quint64 seed, bool warmup, int count,
    const TokenCounter &counter, QList<int> *measuredOut, QString *error) const
{
    const Trace &t = *m_content.trace;
    if (!traceCovers(lp, warmup, error))
        return {};
    count = qMin(count, int(t.rows.size()));
    const auto outputOf = [&](int i) { return lp.outputLen > 0 ? lp.outputLen : t.rows[size_t(i)].outputLen; };
    QList<PreparedRequest> out(count);
    QList<int> measured(count, -1);
    if (usesTokenIds()) {
        for (int i = 0; i < count; ++i) {
            out[i] = traceTokenRequest(lp, seed, i);
            measured[i] = out[i].targetInputLen;
        }
    } else {
        QList<QList<Piece>> pieces(count);
        for (int i = 0; i < count; ++i)
            pieces[i] = tracePieces(seed, i);
        // Text: each distinct piece sized once by the server's count, so a shared block is the same text everywhere.
        QHash<QPair<quint64, int>, int> index;
        QList<quint64> seeds;
        QList<int> targets;
        for (const QList<Piece> &row : std::as_const(pieces))
            for (const Piece &piece : row)
                if (!index.contains({ piece.seed, piece.tokens })) {
                    index.insert({ piece.seed, piece.tokens }, int(seeds.size()));
                    seeds << piece.seed;
                    targets << piece.tokens;
                }
        QList<int> counts;
        const QStringList texts = sizedWords(seeds, targets, counter, &counts);
        for (int i = 0; i < count; ++i) {
            QStringList parts;
            int total = 0;
            for (const Piece &piece : std::as_const(pieces[i])) {
                const int at = index.value({ piece.seed, piece.tokens });
                parts << texts[at];
                total = total < 0 || counts.value(at, -1) < 0 ? -1 : total + counts[at];
            }
            const QString text = parts.join(QLatin1Char(' '));
            measured[i] = total;
            out[i] = { body(text, outputOf(i)), t.rows[size_t(i)].inputLen, outputOf(i), hashOf(text.toUtf8()) };
        }
    }
    if (measuredOut)
        *measuredOut = measured;
    return out;
}

QVector<qint64> PromptGenerator::arrivalOffsetsNs(int point, int count) const
{
    if (!m_content.trace || m_experiment.load.mode != LoadMode::Rate)
        return {};
    return traceOffsetsNs(*m_content.trace, count, m_experiment.load.points.at(point).requestRate);
}

QList<PreparedRequest> PromptGenerator::sonnet(const LoadPoint &lp, quint64 seed, int count,
    const TokenCounter &counter, QList<int> *measuredOut, QString *error) const
{
    const SonnetPrompts sonnet(m_content.lines, m_experiment.dataset.prefixLen, counter);
    QStringList texts;
    QList<int> measured;
    if (!sonnet.build(seed, lp.inputLen, count, &texts, &measured, error))
        return {};
    QList<PreparedRequest> out(count);
    // As vLLM's prompt_len: the counted length is the request's input length (0: the server's usage).
    for (int i = 0; i < count; ++i)
        out[i] = { body(texts[i], lp.outputLen), qMax(0, measured[i]), lp.outputLen, hashOf(texts[i].toUtf8()) };
    if (measuredOut)
        *measuredOut = measured;
    return out;
}

namespace {

int wordCount(const QString &text)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return int(text.split(space, Qt::SkipEmptyParts).size());
}

} // namespace

QList<PreparedRequest> PromptGenerator::shareGpt(const LoadPoint &lp, quint64 seed, int count,
    const TokenCounter &counter, QList<int> *measuredOut, QString *error) const
{
    // vLLM walks the shuffled conversations, counts prompt and reference completion, and keeps
    // those its length filter passes; each (point, repeat) walks its own seeded order.
    const QList<ShareGptPair> &pairs = m_content.shareGpt->pairs;
    QList<int> order(pairs.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    const int overhead = counter ? qMax(0, counter({ QString() }).value(0, -1)) : 0;
    QList<PreparedRequest> out;
    QList<int> measured;
    const bool fixed = lp.outputLen > 0;
    for (qsizetype at = 0; at < order.size() && out.size() < count;) {
        QStringList texts;
        const qsizetype batch = qMin<qsizetype>(order.size() - at, qMax(16, 2 * (count - int(out.size()))));
        for (qsizetype k = 0; k < batch; ++k)
            texts << pairs.at(order.at(at + k)).prompt << pairs.at(order.at(at + k)).completion;
        const QList<int> counts = counter ? counter(texts) : QList<int>();
        for (qsizetype k = 0; k < batch && out.size() < count; ++k) {
            const ShareGptPair &p = pairs.at(order.at(at + k));
            const int promptLen
                = counts.isEmpty() || counts.value(2 * k, -1) < 0 ? wordCount(p.prompt) : counts[2 * k] - overhead;
            const int completionLen = counts.isEmpty() || counts.value(2 * k + 1, -1) < 0
                ? wordCount(p.completion)
                : counts[2 * k + 1] - overhead;
            const int outputLen = fixed ? lp.outputLen : completionLen;
            if (!shareGptLengthsValid(promptLen, outputLen, fixed))
                continue;
            out << PreparedRequest { body(p.prompt, outputLen), promptLen, outputLen, hashOf(p.prompt.toUtf8()) };
            measured << (counts.isEmpty() ? -1 : promptLen);
        }
        at += batch;
    }
    if (out.isEmpty()) {
        *error = Reason::shown("ServeScope::Dataset",
            QT_TRANSLATE_NOOP("ServeScope::Dataset",
                "sharegpt: none of %1 conversations passes vLLM's length filter (prompt 4 to 1024 tokens, output at "
                "least 4, both at most 2048)"),
            { QString::number(pairs.size()) });
        return {};
    }
    // Fewer than asked for: repeat them, as vLLM oversamples.
    for (qsizetype i = 0; out.size() < count; ++i) {
        out << out.at(i);
        measured << measured.at(i);
    }
    if (measuredOut)
        *measuredOut = measured;
    return out;
}

QList<PreparedRequest> PromptGenerator::custom(
    const LoadPoint &lp, quint64 seed, int count, const TokenCounter &counter, QList<int> *measuredOut) const
{
    // A seeded shuffle per (point, repeat), then the first `count` prompts, cycling when the
    // file has fewer (vLLM shuffles once and oversamples).
    QList<int> order(m_content.prompts.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    QStringList texts;
    QList<int> outLens;
    for (int i = 0; i < count; ++i) {
        const CustomPrompt &p = m_content.prompts.at(order.at(i % order.size()));
        texts << p.prompt;
        outLens << (p.outputLen > 0 ? p.outputLen : lp.outputLen);
    }
    const QList<int> measured = counter ? counter(texts) : QList<int>(count, -1);
    QList<PreparedRequest> out(count);
    for (int i = 0; i < count; ++i)
        out[i] = { body(texts[i], outLens[i]), qMax(0, measured.value(i, -1)), outLens[i], hashOf(texts[i].toUtf8()) };
    if (measuredOut)
        *measuredOut = measured;
    return out;
}

} // namespace ServeScope
