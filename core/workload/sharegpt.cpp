// SPDX-License-Identifier: MIT
#include "sharegpt.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>

#include <algorithm>
#include <queue>

namespace ServeScope {

namespace {

constexpr const char *kCtx = "ServeScope::Dataset";

quint64 mix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

struct Kept {
    quint64 key;
    ShareGptPair pair;
    bool operator<(const Kept &o) const { return key < o.key; }
};

/// Scans the top-level list byte by byte (strings and escapes tracked) and hands each element
/// object, as its own bytes, to the caller; nothing else of the file is held.
class EntryScanner {
public:
    Reason error;

    template<typename F> bool scan(QIODevice &in, F onEntry)
    {
        QByteArray entry;
        int depth = 0;
        bool inString = false, escaped = false, started = false;
        qint64 offset = 0;
        while (!in.atEnd()) {
            const QByteArray chunk = in.read(1 << 20);
            for (char c : chunk) {
                ++offset;
                if (depth >= 2)
                    entry += c;
                if (inString) {
                    if (escaped)
                        escaped = false;
                    else if (c == '\\')
                        escaped = true;
                    else if (c == '"')
                        inString = false;
                    continue;
                }
                if (c == '"') {
                    inString = true;
                } else if (c == '[' || c == '{') {
                    if (depth == 0 && c != '[')
                        return fail(Reason::in(kCtx,
                            QT_TRANSLATE_NOOP("ServeScope::Dataset", "the file must be a JSON list of conversations"),
                            {}));
                    started = true;
                    if (++depth == 2)
                        entry = QByteArray(1, c);
                } else if (c == ']' || c == '}') {
                    if (--depth == 1 && !onEntry(entry))
                        return false;
                    if (depth == 1)
                        entry.clear();
                } else if (depth == 0 && !QByteArrayView(" \t\r\n\xEF\xBB\xBF").contains(c)) {
                    return fail(Reason::in(kCtx,
                        QT_TRANSLATE_NOOP("ServeScope::Dataset", "the file must be a JSON list of conversations"), {}));
                }
                if (entry.size() > kShareGptMaxEntryBytes)
                    return fail(Reason::in(kCtx,
                        QT_TRANSLATE_NOOP(
                            "ServeScope::Dataset", "an entry ending after byte %1 is larger than %2 bytes"),
                        { QString::number(offset), QString::number(kShareGptMaxEntryBytes) }));
            }
        }
        if (!started || depth != 0)
            return fail(Reason::in(
                kCtx, QT_TRANSLATE_NOOP("ServeScope::Dataset", "the file ends inside the list (truncated?)"), {}));
        return true;
    }

private:
    bool fail(const Reason &why)
    {
        error = why;
        return false;
    }
};

bool firstTurns(const QByteArray &entry, ShareGptPair *out)
{
    const QJsonObject o = QJsonDocument::fromJson(entry).object();
    const QJsonArray turns = o.value(QLatin1String("conversations")).toArray();
    if (turns.size() < 2)
        return false;
    out->prompt = turns.at(0).toObject().value(QLatin1String("value")).toString();
    out->completion = turns.at(1).toObject().value(QLatin1String("value")).toString();
    for (qsizetype t = 2; t < turns.size(); t += 2)
        out->laterPrompts << turns.at(t).toObject().value(QLatin1String("value")).toString();
    return true;
}

std::shared_ptr<const ShareGptSet> read(const QString &path, qint64 seed, Reason *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = Reason::in(
            kCtx, QT_TRANSLATE_NOOP("ServeScope::Dataset", "cannot read the sharegpt file: %1"), { f.errorString() });
        return nullptr;
    }
    // The kShareGptKeep entries with the smallest seeded keys: a seeded shuffle's first ones.
    std::priority_queue<Kept> heap;
    qint64 index = 0;
    EntryScanner scanner;
    const bool ok = scanner.scan(f, [&](const QByteArray &entry) {
        ShareGptPair pair;
        if (!firstTurns(entry, &pair))
            return true;
        const quint64 key = mix(quint64(seed) ^ mix(quint64(index++)));
        if (int(heap.size()) < kShareGptKeep) {
            heap.push({ key, std::move(pair) });
        } else if (key < heap.top().key) {
            heap.pop();
            heap.push({ key, std::move(pair) });
        }
        return true;
    });
    if (!ok) {
        *error = scanner.error;
        return nullptr;
    }
    if (index == 0) {
        *error = Reason::in(
            kCtx, QT_TRANSLATE_NOOP("ServeScope::Dataset", "the sharegpt file has no conversation with two turns"), {});
        return nullptr;
    }
    auto set = std::make_shared<ShareGptSet>();
    set->conversations = index;
    std::vector<Kept> kept;
    while (!heap.empty()) {
        kept.push_back(heap.top());
        heap.pop();
    }
    std::sort(kept.begin(), kept.end());
    for (Kept &k : kept)
        set->pairs << std::move(k.pair);
    return set;
}

} // namespace

std::shared_ptr<const ShareGptSet> loadShareGpt(const QString &path, qint64 seed, QString *error, Reason *reason)
{
    static QMutex mutex;
    static QHash<QString, std::shared_ptr<const ShareGptSet>> cache;
    const QFileInfo info(path);
    const QString key = info.absoluteFilePath() + QLatin1Char('|') + QString::number(info.size()) + QLatin1Char('|')
        + QString::number(info.lastModified().toMSecsSinceEpoch()) + QLatin1Char('|') + QString::number(seed);
    QMutexLocker lock(&mutex);
    if (const auto hit = cache.constFind(key); hit != cache.constEnd())
        return *hit;
    Reason failed;
    std::shared_ptr<const ShareGptSet> set = read(path, seed, &failed);
    if (set) {
        cache.insert(key, set);
    } else {
        *error = failed.text();
        if (reason)
            *reason = failed;
    }
    return set;
}

bool shareGptLengthsValid(int promptLen, int outputLen, bool fixedOutput)
{
    return promptLen >= 4 && (fixedOutput || outputLen >= 4) && promptLen <= 1024 && promptLen + outputLen <= 2048;
}

} // namespace ServeScope
