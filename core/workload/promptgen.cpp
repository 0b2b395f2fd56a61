// SPDX-License-Identifier: MIT
#include "promptgen.h"

#include "model/apirequest.h"
#include "sonnet.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtEndian>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <random>

#include <openssl/sha.h>

namespace ServeScope {

namespace {

constexpr int kMinTokenId = 1000;
constexpr int kMaxTokenId = 30000;

quint64 splitmix64(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

QStringList loadPool()
{
    QFile f(QStringLiteral(":/servescope/workload/sonnet.txt"));
    if (!f.open(QIODevice::ReadOnly))
        return { QStringLiteral("the"), QStringLiteral("quick"), QStringLiteral("brown"), QStringLiteral("fox") };
    static const QRegularExpression notWord(QStringLiteral("[^A-Za-z']+"));
    QStringList words = QString::fromUtf8(f.readAll()).toLower().split(notWord, Qt::SkipEmptyParts);
    words.removeDuplicates();
    return words;
}

// SHA-256 through OpenSSL, whose assembly is many times faster than QCryptographicHash's: a prompt of a thousand
// token IDs is hashed each time its request is built, on the engine's thread.
PromptHash hashOf(const QByteArray &bytes)
{
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char *>(bytes.constData()), size_t(bytes.size()), digest);
    return PromptHash(QByteArrayView(digest, sizeof digest));
}

} // namespace

PromptGenerator::PromptGenerator(const Experiment &experiment)
    : m_experiment(experiment)
    , m_pool(loadPool())
{
    Reason why;
    if (!loadDataset(experiment.dataset, &m_content, &m_error, &why, traceRowsNeeded(experiment)))
        m_error = Reason::shown("ServeScope::Dataset", QT_TRANSLATE_NOOP("ServeScope::Dataset", "dataset %1: %2"),
            { experiment.dataset.name, why.translated() });
}

bool PromptGenerator::usesTokenIds() const
{
    const QString &name = m_experiment.dataset.name;
    const Api api = m_experiment.endpoint.api();
    return (name == QLatin1String("random") || name == QLatin1String("shared_prefix") || name == QLatin1String("trace"))
        && (api == Api::Completions || api == Api::SglangGenerate)
        && m_experiment.endpoint.dialect != Dialect::OpenAiStrict;
}

quint64 PromptGenerator::seedFor(qint64 datasetSeed, int point, int repeat, bool warmup)
{
    quint64 s = splitmix64(quint64(datasetSeed));
    s = splitmix64(s ^ (quint64(point) << 20));
    s = splitmix64(s ^ quint64(repeat));
    return warmup ? splitmix64(s ^ 0x5741524d5550ULL) : s;
}

QList<int> PromptGenerator::lengths(quint64 seed, int target, int count) const
{
    // vLLM's random dataset: uniform integers in [L(1-r), L(1+r)]; r = 0 gives fixed lengths.
    const double r = qBound(0.0, m_experiment.dataset.rangeRatio, 1.0);
    const int lo = qMax(1, int(std::floor(target * (1 - r))));
    const int hi = qMax(lo, int(std::ceil(target * (1 + r))));
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> dist(lo, hi);
    QList<int> out;
    out.reserve(count);
    for (int i = 0; i < count; ++i)
        out << (lo == hi ? lo : dist(rng));
    return out;
}

QString PromptGenerator::words(quint64 seed, int count) const
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<qsizetype> pick(0, m_pool.size() - 1);
    QStringList out;
    out.reserve(count);
    for (int i = 0; i < count; ++i)
        out << m_pool.at(pick(rng));
    return out.join(QLatin1Char(' '));
}

QJsonObject PromptGenerator::bodyObject(const QJsonValue &prompt, int outputLen, const QJsonArray *messages) const
{
    const Endpoint &ep = m_experiment.endpoint;
    const Api api = ep.api();
    QJsonObject o = generationBody(api, ep.dialect, ep.model, prompt, outputLen, true);
    if (messages)
        o.insert(QStringLiteral("messages"), *messages);
    for (const auto &item : m_experiment.sampling.items())
        setSamplingField(api, &o, item.first, item.second);
    if (sendsIgnoreEos(m_experiment))
        setSamplingField(api, &o, QStringLiteral("ignore_eos"), true);
    return o;
}

QByteArray PromptGenerator::body(const QJsonValue &prompt, int outputLen, const QJsonArray *messages) const
{
    return QJsonDocument(bodyObject(prompt, outputLen, messages)).toJson(QJsonDocument::Compact);
}

QByteArray PromptGenerator::tokenIdBody(const QByteArray &idsJson, int outputLen) const
{
    // The body without its IDs, then the IDs' own text as its first member: as a JSON array a thousand IDs cost
    // far more to build and write than the rest of the body.
    const QString key
        = m_experiment.endpoint.api() == Api::SglangGenerate ? QStringLiteral("input_ids") : QStringLiteral("prompt");
    QJsonObject o = bodyObject(QJsonArray(), outputLen);
    o.remove(key);
    const QByteArray rest = QJsonDocument(o).toJson(QJsonDocument::Compact); // "{...}"
    QByteArray out;
    out.reserve(key.size() + idsJson.size() + rest.size() + 4);
    out += "{\"";
    out += key.toLatin1();
    out += "\":";
    out += idsJson;
    if (rest.size() > 2)
        out += ',';
    out += QByteArrayView(rest).sliced(1);
    return out;
}

QList<PreparedRequest> PromptGenerator::generate(int point, int repeat, bool warmup, int count,
    const TokenCounter &counter, QList<int> *measuredOut, QString *error) const
{
    QString ignored;
    QString &why = error ? *error : ignored;
    why = m_error;
    if (!m_error.isEmpty())
        return {};
    const LoadPoint &lp = m_experiment.load.points.at(point);
    const quint64 seed = seedFor(m_experiment.dataset.seed, point, repeat, warmup);
    const QString &name = m_experiment.dataset.name;
    if (name == QLatin1String("sonnet"))
        return sonnet(lp, seed, count, counter, measuredOut, &why);
    if (name == QLatin1String("custom"))
        return custom(lp, seed, count, counter, measuredOut);
    if (name == QLatin1String("sharegpt"))
        return shareGpt(lp, seed, count, counter, measuredOut, &why);
    if (name == QLatin1String("shared_prefix"))
        return sharedPrefix(lp, seed, warmup, count, counter, measuredOut);
    if (name == QLatin1String("multi_turn"))
        return multiTurn(lp, seed, count, counter, measuredOut);
    if (name == QLatin1String("trace"))
        return replay(lp, seed, warmup, count, counter, measuredOut, &why);
    if (!usesTokenIds())
        return randomText(lp, seed, count, counter, measuredOut);
    return randomTokenIds(lp, seed, count, measuredOut);
}

std::vector<qint32> PromptGenerator::randomTokenIds(quint64 seed, int i, int inputLen)
{
    std::mt19937_64 rng(splitmix64(seed + quint64(i)));
    std::uniform_int_distribution<int> id(kMinTokenId, kMaxTokenId - 1);
    std::vector<qint32> ids(size_t(std::max(0, inputLen)));
    for (qint32 &v : ids)
        v = id(rng);
    return ids;
}

QByteArray PromptGenerator::idsJson(const std::vector<qint32> &ids)
{
    QByteArray out;
    out.reserve(qsizetype(ids.size()) * 7 + 2);
    out += '[';
    char digits[16];
    for (size_t k = 0; k < ids.size(); ++k) {
        if (k > 0)
            out += ',';
        const std::to_chars_result end = std::to_chars(digits, digits + sizeof digits, ids[k]);
        out.append(digits, end.ptr - digits);
    }
    out += ']';
    return out;
}

PreparedRequest PromptGenerator::randomTokenRequest(quint64 seed, int i, int inputLen, int outputLen) const
{
    const QByteArray prompt = idsJson(randomTokenIds(seed, i, inputLen));
    return { tokenIdBody(prompt, outputLen), inputLen, outputLen, hashOf(prompt) };
}

// Random token-ID requests built as the engine sends them: a request's IDs depend only on the set's seed and its
// index, so building it late sends exactly what building it early would; only the lengths are kept.
class RandomTokenPrompts final : public PromptList {
public:
    RandomTokenPrompts(const PromptGenerator &generator, quint64 seed, QList<int> inLens, QList<int> outLens)
        : m_generator(generator)
        , m_seed(seed)
        , m_inLens(std::move(inLens))
        , m_outLens(std::move(outLens))
    {
    }
    int size() const override { return int(m_inLens.size()); }
    PreparedRequest at(int i) const override
    {
        return m_generator.randomTokenRequest(m_seed, i, m_inLens.at(i), m_outLens.at(i));
    }
    // The IDs and their hash without the body around them: a million-request point stores its prompts before
    // its load starts, and building each body only to parse it again was most of that wait.
    std::optional<PromptContent> prompt(int i) const override
    {
        const std::vector<qint32> ids = PromptGenerator::randomTokenIds(m_seed, i, m_inLens.at(i));
        PromptContent content { hashOf(PromptGenerator::idsJson(ids)), {}, {} };
        content.tokens.resize(qsizetype(ids.size() * sizeof(qint32)));
        qToLittleEndian<qint32>(ids.data(), qsizetype(ids.size()), content.tokens.data());
        return content;
    }

private:
    const PromptGenerator m_generator;
    const quint64 m_seed;
    const QList<int> m_inLens, m_outLens;
};

std::shared_ptr<const PromptList> PromptGenerator::randomTokenList(
    const LoadPoint &lp, quint64 seed, int count, QList<int> *measuredOut) const
{
    QList<int> inLens = lengths(seed, lp.inputLen, count);
    if (measuredOut)
        *measuredOut = inLens;
    return std::make_shared<const RandomTokenPrompts>(
        *this, seed, std::move(inLens), lengths(splitmix64(seed ^ 0x4f5554ULL), lp.outputLen, count));
}

QList<PreparedRequest> PromptGenerator::randomTokenIds(
    const LoadPoint &lp, quint64 seed, int count, QList<int> *measuredOut) const
{
    const std::shared_ptr<const PromptList> list = randomTokenList(lp, seed, count, measuredOut);
    QList<PreparedRequest> out;
    out.reserve(count);
    for (int i = 0; i < count; ++i)
        out << list->at(i);
    return out;
}

// A trace's token-ID requests built as the engine sends them, from the trace's rows the generator shares.
class TraceTokenPrompts final : public PromptList {
public:
    TraceTokenPrompts(const PromptGenerator &generator, const LoadPoint &point, quint64 seed, int count)
        : m_generator(generator)
        , m_point(point)
        , m_seed(seed)
        , m_count(count)
    {
    }
    int size() const override { return m_count; }
    PreparedRequest at(int i) const override { return m_generator.traceTokenRequest(m_point, m_seed, i); }

private:
    const PromptGenerator m_generator;
    const LoadPoint m_point;
    const quint64 m_seed;
    const int m_count;
};

std::shared_ptr<const PromptList> PromptGenerator::prompts(int point, int repeat, bool warmup, int count,
    const TokenCounter &counter, QList<int> *measured, QString *error) const
{
    if (m_error.isEmpty() && m_experiment.dataset.name == QLatin1String("trace") && usesTokenIds()) {
        const LoadPoint &lp = m_experiment.load.points.at(point);
        QString ignored;
        if (!traceCovers(lp, warmup, error ? error : &ignored))
            return nullptr;
        count = qMin(count, int(m_content.trace->rows.size()));
        if (measured) {
            measured->clear();
            for (int i = 0; i < count; ++i)
                *measured << m_content.trace->rows[size_t(i)].inputLen;
        }
        return std::make_shared<const TraceTokenPrompts>(
            *this, lp, seedFor(m_experiment.dataset.seed, point, repeat, warmup), count);
    }
    if (m_error.isEmpty() && m_experiment.dataset.name == QLatin1String("random") && usesTokenIds())
        return randomTokenList(m_experiment.load.points.at(point),
            seedFor(m_experiment.dataset.seed, point, repeat, warmup), count, measured);
    QList<PreparedRequest> built = generate(point, repeat, warmup, count, counter, measured, error);
    return built.isEmpty() ? nullptr : builtPrompts(std::move(built));
}

QList<PreparedRequest> PromptGenerator::randomText(
    const LoadPoint &lp, quint64 seed, int count, const TokenCounter &counter, QList<int> *measuredOut) const
{
    const QList<int> inLens = lengths(seed, lp.inputLen, count);
    const QList<int> outLens = lengths(splitmix64(seed ^ 0x4f5554ULL), lp.outputLen, count);
    QList<PreparedRequest> out(count);
    QList<quint64> seeds;
    for (int i = 0; i < count; ++i)
        seeds << splitmix64(seed + quint64(i));
    QList<int> measured;
    const QStringList texts = sizedWords(seeds, inLens, counter, &measured);
    for (int i = 0; i < count; ++i)
        out[i] = { body(texts[i], outLens[i]), inLens[i], outLens[i], hashOf(texts[i].toUtf8()) };
    if (measuredOut)
        *measuredOut = measured;
    return out;
}

QStringList PromptGenerator::sizedWords(
    const QList<quint64> &seeds, const QList<int> &targets, const TokenCounter &counter, QList<int> *measured) const
{
    // Start from one word per token, then let the server's tokenizer correct the count.
    const qsizetype count = seeds.size();
    QList<int> wordCounts = targets;
    QStringList texts(count);
    *measured = QList<int>(count, -1);
    for (qsizetype i = 0; i < count; ++i)
        texts[i] = words(seeds[i], wordCounts[i]);
    for (int round = 0; counter && round < 3; ++round) {
        *measured = counter(texts);
        bool changed = false;
        for (qsizetype i = 0; i < count; ++i) {
            if (measured->value(i, -1) < 0 || measured->at(i) == targets[i])
                continue;
            wordCounts[i] = qMax(1, wordCounts[i] + (targets[i] - measured->at(i)));
            texts[i] = words(seeds[i], wordCounts[i]);
            changed = true;
        }
        if (!changed)
            break;
        if (round == 2)
            *measured = counter(texts);
    }
    return texts;
}

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
