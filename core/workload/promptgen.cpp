// SPDX-License-Identifier: MIT
#include "promptgen.h"
#include "promptseeds.h"

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

} // namespace

// SHA-256 through OpenSSL, whose assembly is many times faster than QCryptographicHash's: a prompt of a thousand
// token IDs is hashed each time its request is built, on the engine's thread.
PromptHash hashOf(const QByteArray &bytes)
{
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char *>(bytes.constData()), size_t(bytes.size()), digest);
    return PromptHash(QByteArrayView(digest, sizeof digest));
}

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

} // namespace ServeScope
