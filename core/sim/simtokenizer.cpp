// SPDX-License-Identifier: MIT
#include "sim/simtokenizer.h"

#include <QFile>
#include <QJsonObject>
#include <QJsonValue>

namespace ServeScope::Sim {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

quint64 mix(quint64 x)
{
    // splitmix64 finaliser: stable across runs and platforms, unlike qHash's seeded hash.
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

qint64 wordId(QByteArrayView word)
{
    quint64 h = 1469598103934665603ULL; // FNV-1a
    for (char c : word)
        h = (h ^ quint8(c)) * 1099511628211ULL;
    return 1000 + qint64(mix(h) % 31000); // the "safe" ID range a client draws token prompts from
}

QByteArray jsonEscape(const QByteArray &raw)
{
    QByteArray out;
    for (char c : raw) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (quint8(c) < 0x20) {
            out += QByteArray("\\u00") + QByteArray::number(quint8(c), 16).rightJustified(2, '0');
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

void SimTokenizer::encode(QByteArrayView text, std::vector<qint64> *ids)
{
    qsizetype i = 0;
    const qsizetype n = text.size();
    while (i < n) {
        while (i < n && isSpace(text[i]))
            ++i;
        const qsizetype start = i;
        while (i < n && !isSpace(text[i]))
            ++i;
        if (i > start)
            ids->push_back(wordId(text.sliced(start, i - start)));
    }
}

int SimTokenizer::count(QByteArrayView text)
{
    int c = 0;
    bool inWord = false;
    for (char ch : text) {
        const bool space = isSpace(ch);
        if (!space && !inWord)
            ++c;
        inWord = !space;
    }
    return c;
}

bool SimTokenizer::encodeMessages(const QJsonArray &messages, std::vector<qint64> *ids)
{
    for (const QJsonValue &v : messages) {
        if (!v.isObject())
            return false;
        const QJsonObject m = v.toObject();
        const QJsonValue role = m.value(QLatin1String("role"));
        const QJsonValue content = m.value(QLatin1String("content"));
        if (!role.isString())
            return false;
        // <|start|> role <|sep|> ... <|end|>: the role name is one token whatever it is.
        ids->push_back(1);
        ids->push_back(wordId(role.toString().toUtf8()));
        ids->push_back(2);
        if (content.isString()) {
            encode(content.toString().toUtf8(), ids);
        } else if (content.isArray()) {
            for (const QJsonValue &part : content.toArray()) {
                const QJsonObject p = part.toObject();
                if (p.value(QLatin1String("type")).toString() != QLatin1String("text"))
                    return false;
                encode(p.value(QLatin1String("text")).toString().toUtf8(), ids);
            }
        } else if (!content.isNull() && !content.isUndefined()) {
            return false;
        }
        ids->push_back(3);
    }
    ids->insert(ids->end(), { 1, 4, 2 }); // the assistant turn the model continues
    return true;
}

std::vector<quint64> SimTokenizer::blockHashes(const std::vector<qint64> &ids, int blockSize)
{
    std::vector<quint64> out;
    quint64 h = 0xcbf29ce484222325ULL;
    for (size_t full = ids.size() / size_t(blockSize), b = 0; b < full; ++b) {
        for (int i = 0; i < blockSize; ++i)
            h = mix(h ^ quint64(ids[b * size_t(blockSize) + size_t(i)]));
        out.push_back(h);
    }
    return out;
}

SonnetText::SonnetText()
{
    QFile f(QStringLiteral(":/servescope/sim/sonnet.txt"));
    QByteArray all;
    if (f.open(QIODevice::ReadOnly))
        all = f.readAll();
    for (const QByteArray &w : all.simplified().split(' ')) {
        if (w.isEmpty())
            continue;
        m_raw.push_back(' ' + w);
        m_words.push_back(jsonEscape(' ' + w));
    }
    if (m_words.empty()) {
        m_raw.push_back(QByteArray(" token"));
        m_words.push_back(QByteArray(" token"));
    }
}

const SonnetText &SonnetText::instance()
{
    static const SonnetText text;
    return text;
}

QByteArray SonnetText::text(qint64 start, int count) const
{
    QByteArray out;
    for (int i = 0; i < count; ++i)
        out += m_raw[size_t((start + i) % qint64(m_raw.size()))];
    return out;
}

} // namespace ServeScope::Sim
