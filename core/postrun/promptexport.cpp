// SPDX-License-Identifier: MIT
#include "postrun/promptexport.h"
#include "compare/storedrun.h"

#include "io/commandimport.h"
#include "io/experimentfile.h"
#include "model/variables.h"
#include "storage/projectstore.h"

#include <QDir>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

namespace ServeScope {

namespace {

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

// "seqs 8" + "c16" + 1 -> "seqs-8_c16_r1": one file name per (variant, point, repeat).
QString fileStem(const PointPrompts &p)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    return QString(p.variant).replace(unsafe, QStringLiteral("-")) + u'_'
        + QString(p.pointLabel).replace(unsafe, QStringLiteral("-")) + QStringLiteral("_r") + QString::number(p.repeat);
}

} // namespace

bool loadPointPrompts(
    ProjectStore &store, qint64 runId, const QString &variant, int point, int repeat, PointPrompts *out, QString *error)
{
    const std::optional<RunRow> row = store.run(runId);
    if (!row) {
        *error = QStringLiteral("no run %1 in the project").arg(runId);
        return false;
    }
    if (!row->variants.contains(variant)) {
        *error = QStringLiteral("run %1 has no variant '%2'").arg(row->name, variant);
        return false;
    }
    if (point < 0 || point >= row->points) {
        *error = QStringLiteral("run %1 has no load point %2").arg(row->name).arg(point);
        return false;
    }
    RequestFilter filter;
    filter.variant = variant;
    filter.point = point;
    filter.repeat = repeat;
    filter.includeWarmup = false;
    filter.withEvents = false;
    QVector<RequestRecord> records;
    if (!store.requests(runId, filter, &records)) {
        *error = store.errorString();
        return false;
    }
    if (records.isEmpty()) {
        *error = QStringLiteral("run %1 stored no requests for %2, point %3, repeat %4")
                     .arg(row->name, variant)
                     .arg(point)
                     .arg(repeat);
        return false;
    }
    std::sort(records.begin(), records.end(),
        [](const RequestRecord &a, const RequestRecord &b) { return a.index < b.index; });
    PointPrompts p;
    p.variant = variant;
    p.point = point;
    p.repeat = repeat;
    const StoredRun run(*row);
    const Experiment *resolved = run.variant(variant);
    p.configured = resolved;
    if (resolved)
        p.resolved = *resolved;
    p.pointLabel = p.configured ? p.resolved.pointLabel(point) : QString::number(point);
    QHash<PromptHash, QString> texts;
    for (const RequestRecord &r : std::as_const(records)) {
        auto known = texts.constFind(r.promptHash);
        if (known == texts.cend()) {
            const std::optional<PromptRow> prompt = r.promptHash.isEmpty() ? std::nullopt : store.prompt(r.promptHash);
            if (!prompt) {
                *error = QStringLiteral("run %1 kept no prompts (imported, or recorded before prompts were kept)")
                             .arg(row->name);
                return false;
            }
            if (!prompt->tokens.isEmpty()) {
                *error = QStringLiteral("run %1 sent token IDs, which neither vLLM's nor SGLang's client replays "
                                        "from a file; use a chat endpoint or a text dataset")
                             .arg(row->name);
                return false;
            }
            known = texts.insert(r.promptHash, prompt->text);
        }
        p.prompts << *known;
        p.outputTokens << r.targetOutputLen;
    }
    *out = p;
    return true;
}

QByteArray customJsonl(const PointPrompts &p)
{
    QByteArray out;
    for (qsizetype i = 0; i < p.prompts.size(); ++i) {
        const QJsonObject line { { QStringLiteral("prompt"), p.prompts[i] },
            { QStringLiteral("output_tokens"), p.outputTokens.value(i) } };
        out += QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
    }
    return out;
}

QByteArray shareGptJson(const PointPrompts &p)
{
    QJsonArray conversations;
    for (qsizetype i = 0; i < p.prompts.size(); ++i) {
        const QJsonArray turns {
            QJsonObject {
                { QStringLiteral("from"), QStringLiteral("human") }, { QStringLiteral("value"), p.prompts[i] } },
            QJsonObject { { QStringLiteral("from"), QStringLiteral("gpt") }, { QStringLiteral("value"), QString() } },
        };
        conversations.append(
            QJsonObject { { QStringLiteral("id"), QString::number(i) }, { QStringLiteral("conversations"), turns } });
    }
    return QJsonDocument(conversations).toJson(QJsonDocument::Compact) + '\n';
}

bool writePointPrompts(
    const PointPrompts &p, const QString &dir, QString *customPath, QString *shareGptPath, QString *error)
{
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("cannot create %1").arg(dir);
        return false;
    }
    const QString stem = QDir(dir).absoluteFilePath(fileStem(p));
    *customPath = stem + QStringLiteral(".jsonl");
    *shareGptPath = stem + QStringLiteral(".sharegpt.json");
    return writeFile(*customPath, customJsonl(p), error) && writeFile(*shareGptPath, shareGptJson(p), error);
}

QStringList replayCommands(
    const PointPrompts &p, const QString &customPath, const QString &shareGptPath, QStringList *warnings)
{
    if (!p.configured) {
        warnings->append(QStringLiteral("the run's configuration cannot be read; no commands"));
        return {};
    }
    Experiment x = p.resolved;
    LoadPoint point = x.load.points.value(p.point);
    point.numPrompts = int(p.prompts.size());
    point.maxSeconds = 0;
    point.inputLen = 0;
    const bool oneLength = std::all_of(
        p.outputTokens.cbegin(), p.outputTokens.cend(), [&](int n) { return n == p.outputTokens.value(0); });
    x.load.points = { point };
    x.dataset.path = customPath;
    x.dataset.name = QStringLiteral("custom");
    x.load.points[0].outputLen = 0; // each line's output_tokens
    const QString vllm = benchCommandFor(x, 0, BenchTool::Vllm, warnings, DatasetOrder::AsInFile);
    // SGLang reads ShareGPT only, shuffled with --seed, and one output length for all prompts.
    x.dataset.name = QStringLiteral("sharegpt");
    x.dataset.path = shareGptPath;
    const QList<int> sorted = [&] {
        QList<int> s = p.outputTokens;
        std::sort(s.begin(), s.end());
        return s;
    }();
    x.load.points[0].outputLen = std::max(4, sorted.value(sorted.size() / 2));
    if (!oneLength)
        warnings->append(QStringLiteral("sglang.bench_serving takes one output length for all prompts: %1, the "
                                        "median of %2 to %3")
                             .arg(x.load.points[0].outputLen)
                             .arg(sorted.constFirst())
                             .arg(sorted.constLast()));
    warnings->append(
        QStringLiteral("sglang.bench_serving shuffles the prompts with --seed: same prompts, another order"));
    const QString sglang = benchCommandFor(x, 0, BenchTool::Sglang, warnings);
    return { vllm, sglang };
}

} // namespace ServeScope
