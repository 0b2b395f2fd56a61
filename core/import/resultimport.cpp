// SPDX-License-Identifier: MIT
#include "import/resultimport.h"

#include "import/resultcounts.h"
#include "import/resultpoint.h"
#include "import/toolformat.h"
#include "io/experimentfile.h"
#include "metrics/estimates.h"
#include "model/experiment.h"
#include "model/problem.h"
#include "model/runorigin.h"
#include "resultfiles/resultstream.h"
#include "storage/storewriter.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>

#include <cmath>

namespace ServeScope {

namespace {

constexpr const char *kCtx = "ServeScope::Import";
// "FILE: error", and the same with the error in the application's language beside it.
void addError(ImportOutcome &out, const QString &path, const QString &error, const QString &shown)
{
    const QString line = path + QLatin1String(": ") + error;
    out.errors << line;
    const QString shownLine = path + QLatin1String(": ") + (shown.isEmpty() ? error : shown);
    if (shownLine != line)
        out.shown.insert(line, shownLine);
}

// "FILE: line N: why" (without "line N: " for a single object) into `list`, its translation beside it.
void addAtLine(ImportOutcome &out, QStringList &list, const QString &path, int line, const Reason &why)
{
    Reason at = line > 0 ? Reason::in(
                    kCtx, QT_TRANSLATE_NOOP("ServeScope::Import", "line %1: %2"), { QString::number(line), why.text() })
                         : Reason::in(kCtx, "%1", { why.text() });
    const QString text = path + QLatin1String(": ") + at.text();
    list << text;
    at.args.last() = why.translated();
    const QString shownLine = path + QLatin1String(": ") + at.translated();
    if (shownLine != text)
        out.shown.insert(text, shownLine);
}

// Keys that vary from line to line without making another run: the load, the count, the clock.
bool variesPerPoint(const QString &key)
{
    static const QStringList keys
        = { QStringLiteral("date"), QStringLiteral("request_rate"), QStringLiteral("max_concurrency"),
              QStringLiteral("num_prompts"), QStringLiteral("duration"), QStringLiteral("burstiness") };
    return keys.contains(key);
}

// Setup numbers that belong to the run's identity (lengths, ratios, seeds); statistics never do.
bool isSetupNumber(const QString &key)
{
    static const QStringList keys = { QStringLiteral("random_input_len"), QStringLiteral("random_output_len"),
        QStringLiteral("random_range_ratio"), QStringLiteral("random_prefix_len"),
        QStringLiteral("sharegpt_output_len"), QStringLiteral("sonnet_input_len"), QStringLiteral("sonnet_output_len"),
        QStringLiteral("sonnet_prefix_len"), QStringLiteral("seed") };
    return keys.contains(key);
}

// The strings and setup numbers that make a run: everything but what only a point changes.
QMap<QString, QString> identityOf(const ResultRun &r)
{
    QMap<QString, QString> id;
    id.insert(QStringLiteral("\x01source"), r.source);
    for (auto it = r.strings.cbegin(); it != r.strings.cend(); ++it) {
        if (!variesPerPoint(it.key()) && !it.key().startsWith(QLatin1String("servescope_")))
            id.insert(it.key(), it.value());
    }
    for (auto it = r.numbers.cbegin(); it != r.numbers.cend(); ++it) {
        if (isSetupNumber(it.key()))
            id.insert(it.key(), QString::number(it.value(), 'g', 17));
    }
    const bool closed = std::isinf(r.requestRate) && r.numbers.contains(QStringLiteral("max_concurrency"));
    id.insert(QStringLiteral("\x01mode"), closed ? QStringLiteral("concurrency") : QStringLiteral("rate"));
    return id;
}

QString keyText(const QMap<QString, QString> &id)
{
    QStringList parts;
    for (auto it = id.cbegin(); it != id.cend(); ++it)
        parts << it.key() + u'=' + it.value();
    return parts.join(QChar(0x1f));
}

struct Group {
    QMap<QString, QString> identity;
    QVector<ResultRun> lines; ///< setup only: arrays dropped after the first pass
    qint64 runId = 0;
    QString name;
    Experiment experiment;
    QStringList labels;
};

int lengthOf(const ResultRun &r, const char *number, const char *text)
{
    const double n = r.number(QLatin1String(number));
    if (std::isfinite(n) && n > 0)
        return int(n);
    return r.strings.value(QLatin1String(text)).toInt();
}

// One load point per line; SGLang's random lengths [L r, L] become ServeScope's spread around a centre.
LoadPoint loadPointOf(const ResultRun &r, Experiment &x, QList<Reason> *warnings)
{
    LoadPoint p;
    p.inputLen = lengthOf(r, "random_input_len", "input_len");
    p.outputLen = lengthOf(r, "random_output_len", "output_len");
    p.numPrompts = int(r.number(QStringLiteral("num_prompts"), 0));
    const int cap = int(r.number(QStringLiteral("max_concurrency"), 0));
    if (x.load.mode == LoadMode::Concurrency) {
        p.concurrency = cap;
    } else {
        p.requestRate = std::isnan(r.requestRate) ? 0 : r.requestRate;
        p.maxConcurrency = cap;
        p.burstiness = r.number(QStringLiteral("burstiness"), 1.0);
    }
    const double ratio = r.number(QStringLiteral("random_range_ratio"));
    if (r.source == QLatin1String("sglang") && std::isfinite(ratio) && x.dataset.name == QLatin1String("random")) {
        const double q = std::clamp(ratio, 0.0, 1.0);
        x.dataset.rangeRatio = std::min(0.999999, (1 - q) / (1 + q));
        const int in = p.inputLen, out = p.outputLen;
        p.inputLen = int(std::lround(in * (1 + q) / 2));
        p.outputLen = int(std::lround(out * (1 + q) / 2));
        if (warnings->isEmpty())
            warnings->append(Reason::in(kCtx,
                QT_TRANSLATE_NOOP("ServeScope::Import",
                    "random_range_ratio %1: SGLang's lengths [L x %1, L] read as a spread of %2 around %3 input and %4 "
                    "output tokens"),
                { formatNumber(q), formatNumber(x.dataset.rangeRatio), QString::number(p.inputLen),
                    QString::number(p.outputLen) }));
    } else if (std::isfinite(ratio) && r.source == QLatin1String("vllm")) {
        x.dataset.rangeRatio = ratio;
    }
    return p;
}

Experiment experimentOf(Group &g, QList<Reason> *warnings)
{
    const ResultRun &first = g.lines.first();
    Experiment x;
    x.name = g.name;
    x.endpoint.model = first.strings.value(QStringLiteral("model_id"));
    if (x.endpoint.model.isEmpty())
        x.endpoint.model = first.strings.value(QStringLiteral("model"));
    const QString dataset = first.strings.value(QStringLiteral("dataset_name"));
    if (QStringList {
            QStringLiteral("random"), QStringLiteral("sonnet"), QStringLiteral("sharegpt"), QStringLiteral("custom") }
            .contains(dataset))
        x.dataset.name = dataset;
    x.dataset.tokenizer = first.strings.value(QStringLiteral("tokenizer_id"));
    x.load.mode = g.identity.value(QStringLiteral("\x01mode")) == QLatin1String("concurrency") ? LoadMode::Concurrency
                                                                                               : LoadMode::Rate;
    x.metrics.definitions = first.source == QLatin1String("sglang") ? Definitions::Sglang : Definitions::Vllm;
    for (const ResultRun &r : std::as_const(g.lines))
        x.load.points.append(loadPointOf(r, x, warnings));
    x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
    for (auto it = first.strings.cbegin(); it != first.strings.cend(); ++it) {
        static const QStringList known = { QStringLiteral("backend"), QStringLiteral("model_id"),
            QStringLiteral("tokenizer_id"), QStringLiteral("dataset_name"), QStringLiteral("date"),
            QStringLiteral("label"), QStringLiteral("tag") };
        if (!known.contains(it.key()) && !it.key().startsWith(QLatin1String("servescope_")))
            x.envSnapshot.append(EnvEntry { it.key(), it.value(), EnvSource::Typed });
    }
    QStringList used;
    for (int i = 0; i < x.load.points.size(); ++i) {
        QString label = x.pointLabel(i);
        for (int k = 2; used.contains(label); ++k)
            label = x.pointLabel(i) + QStringLiteral("-%1").arg(k);
        used << label;
        x.load.points[i].label = label;
    }
    g.labels = used;
    return x;
}

// Names: the file's label (vLLM) or tag (SGLang), else the file's name; groups of one file that
// share it are told apart by the setup values in which they differ.
void nameGroups(QVector<Group> &groups, const QString &path)
{
    for (Group &g : groups) {
        const ResultRun &r = g.lines.first();
        g.name = r.strings.value(QStringLiteral("label"), r.strings.value(QStringLiteral("tag")));
        if (g.name.isEmpty())
            g.name = QFileInfo(path).completeBaseName();
    }
    QStringList base;
    for (const Group &g : std::as_const(groups))
        base << g.name;
    for (qsizetype i = 0; i < groups.size(); ++i) {
        Group &g = groups[i];
        QStringList differs;
        for (qsizetype j = 0; j < groups.size(); ++j) {
            const Group &o = groups.at(j);
            if (j == i || base.at(j) != base.at(i))
                continue;
            for (auto it = g.identity.cbegin(); it != g.identity.cend(); ++it) {
                const QString item = it.key() + u'=' + it.value();
                if (o.identity.value(it.key()) != it.value() && !it.key().startsWith(u'\x01')
                    && !differs.contains(item))
                    differs << item;
            }
        }
        if (!differs.isEmpty())
            g.name += QStringLiteral(" (") + differs.join(QStringLiteral(", ")) + u')';
    }
}

QByteArray envJson(const Experiment &x)
{
    QJsonArray a;
    for (const EnvEntry &e : x.envSnapshot)
        a.append(QJsonArray { e.key, e.value, envSourceName(e.source) });
    return QJsonDocument(a).toJson(QJsonDocument::Compact);
}

QDateTime startedOf(const ResultRun &r)
{
    QDateTime t = QDateTime::fromString(r.strings.value(QStringLiteral("date")), QStringLiteral("yyyyMMdd-HHmmss"));
    t.setTimeSpec(Qt::UTC);
    return t.isValid() ? t : QDateTime::currentDateTimeUtc();
}

} // namespace

ResultImporter::ResultImporter(StoreWriter &writer)
    : m_writer(writer)
{
}

void ResultImporter::setLineCallback(std::function<void(const ResultRun &, const QString &)> callback)
{
    m_onLine = std::move(callback);
}

namespace {

// The lines of a vLLM or SGLang file, streamed, or the points another tool's file was read into.
class ItemSource final {
public:
    explicit ItemSource(const QVector<ResultRun> *runs)
        : m_runs(runs)
    {
    }
    bool open(const QString &path, QString *error, QString *shown)
    {
        m_next = 0;
        return m_runs || m_stream.open(path, error, shown);
    }
    ResultFileStream::Item next(ResultRun *run, QString *error, QString *shown)
    {
        if (!m_runs)
            return m_stream.next(run, error, shown);
        if (m_next >= m_runs->size())
            return ResultFileStream::Item::End;
        *run = m_runs->at(m_next++);
        return ResultFileStream::Item::Run;
    }

private:
    const QVector<ResultRun> *m_runs;
    ResultFileStream m_stream;
    qsizetype m_next = 0;
};

// First pass: every line's setup, grouped; arrays are dropped as soon as a line is read.
bool groupLines(const QString &path, const QVector<ResultRun> *toolRuns, ImportOutcome &out, QVector<Group> &groups,
    QVector<int> &groupOfItem)
{
    ItemSource stream(toolRuns);
    QString error, shown;
    if (!stream.open(path, &error, &shown)) {
        addError(out, path, error, shown);
        return false;
    }
    QHash<QString, int> byKey;
    ResultRun run;
    for (;;) {
        const ResultFileStream::Item item = stream.next(&run, &error, &shown);
        if (item == ResultFileStream::Item::End)
            break;
        if (item == ResultFileStream::Item::Error) {
            addError(out, path, error, shown);
            groupOfItem.append(-1);
            continue;
        }
        if (!run.numbers.contains(QStringLiteral("completed"))) {
            const Reason why = run.line > 0
                ? Reason::in(kCtx,
                    QT_TRANSLATE_NOOP("ServeScope::Import",
                        "line %1: not a result ServeScope reads (no \"completed\" count of vLLM or SGLang, and no "
                        "other tool's keys)"),
                    { QString::number(run.line) })
                : Reason::in(kCtx,
                    QT_TRANSLATE_NOOP("ServeScope::Import",
                        "not a result ServeScope reads (no \"completed\" count of vLLM or SGLang, and no other "
                        "tool's keys)"),
                    {});
            addError(out, path, why.text(), why.translated());
            groupOfItem.append(-1);
            continue;
        }
        QList<Reason> countWarnings;
        const Reason refused = checkResultCounts(run, toolRuns == nullptr, &countWarnings);
        for (const Reason &w : std::as_const(countWarnings))
            addAtLine(out, out.warnings, path, run.line, w);
        if (!refused.isEmpty()) {
            addAtLine(out, out.errors, path, run.line, refused);
            groupOfItem.append(-1);
            continue;
        }
        run.dropArrays();
        const QMap<QString, QString> identity = identityOf(run);
        const QString key = keyText(identity);
        auto it = byKey.find(key);
        if (it == byKey.end()) {
            it = byKey.insert(key, int(groups.size()));
            groups.append(Group { identity, {}, 0, {}, {}, {} });
        }
        groups[*it].lines.append(run);
        groupOfItem.append(*it);
    }
    return true;
}

int pointsWithoutArrays(const Group &g)
{
    return int(std::count_if(g.lines.cbegin(), g.lines.cend(), [](const ResultRun &r) { return !r.hasArrays; }));
}

QString originNote(const Group &g)
{
    const int without = pointsWithoutArrays(g);
    if (without == 0)
        return {};
    const QString which = without == g.lines.size()
        ? (g.lines.size() == 1 ? QStringLiteral("its point") : QStringLiteral("any of its points"))
        : QStringLiteral("%1 of its %2 points").arg(without).arg(g.lines.size());
    return QStringLiteral("the file has no per-request arrays for %1: only the statistics it gives are stored "
                          "(no requests, so no bands, scatter or recomputed percentiles)")
        .arg(which);
}

} // namespace

namespace {

// Inserts the run of one group (running until its points are stored); 0 and *error on failure.
qint64 createRun(StoreWriter &writer, Group &g, const QString &absolute, ImportedRun *created, QString *error)
{
    RunOrigin origin;
    origin.format = g.lines.first().source;
    origin.toolVersion = g.lines.first().strings.value(QStringLiteral("servescope_tool_version"));
    origin.file = absolute;
    for (const ResultRun &r : std::as_const(g.lines))
        origin.lines.append(r.line);
    origin.arrays = std::all_of(g.lines.cbegin(), g.lines.cend(), [](const ResultRun &r) { return r.hasArrays; });
    origin.pointsWithoutArrays = pointsWithoutArrays(g);
    origin.note = originNote(g);
    const QString toolNote = g.lines.first().strings.value(QStringLiteral("servescope_import_note"));
    if (!toolNote.isEmpty())
        origin.note = origin.note.isEmpty() ? toolNote : origin.note + QStringLiteral("; ") + toolNote;
    RunRow row;
    row.name = g.name;
    row.status = RunStatus::Running;
    row.started = startedOf(g.lines.first());
    row.resolvedConfig = serializeExperiment(g.experiment);
    row.definitions = definitionsName(g.experiment.metrics.definitions);
    row.variants = { QStringLiteral("baseline") };
    row.points = int(g.lines.size());
    row.clientHost = "{}";
    row.envSnapshot = envJson(g.experiment);
    row.origin = origin.toJson();
    g.runId = writer.createRun(row, error);
    *created = ImportedRun { g.runId, g.name, origin.describe(), row.points, origin.arrays, origin };
    return g.runId;
}

// One whole line as point p of its run (storeImportedPoint).
void storePoint(StoreWriter &writer, const Group &g, int p, const ResultRun &run)
{
    PointPlace place;
    place.setKey(pointKey(g.experiment, p, QStringLiteral("baseline")));
    place.label = g.labels.at(p);
    place.runId = g.runId;
    const QString definitions = run.strings.value(
        QStringLiteral("servescope_definitions"), definitionsName(g.experiment.metrics.definitions));
    storeImportedPoint(writer, run, place, definitions);
}

void finishAll(StoreWriter &writer, const QVector<Group> &groups, RunStatus status)
{
    for (const Group &g : groups) {
        if (g.runId > 0)
            writer.finishRun(g.runId, status, QDateTime::currentDateTimeUtc());
    }
}

} // namespace

ImportOutcome ResultImporter::importFile(const QString &path)
{
    ImportOutcome out;
    out.path = path;
    QVector<Group> groups;
    QVector<int> groupOfItem;
    // Another tool's file is read whole here, into the points the rest stores like a vLLM file's lines.
    const ToolFile tool = readToolFile(path);
    if (tool.kind == ToolFile::Kind::Refused) {
        addError(out, path, tool.refusal.text(), tool.refusal.translated());
        return out;
    }
    const QVector<ResultRun> *toolRuns = tool.kind == ToolFile::Kind::Read ? &tool.runs : nullptr;
    if (!groupLines(path, toolRuns, out, groups, groupOfItem))
        return out;
    nameGroups(groups, path);
    QList<Reason> warnings = tool.warnings;
    for (Group &g : groups) {
        g.experiment = experimentOf(g, &warnings);
        ImportedRun created;
        QString error;
        if (createRun(m_writer, g, QFileInfo(path).absoluteFilePath(), &created, &error) == 0) {
            const Reason why = Reason::in(
                kCtx, QT_TRANSLATE_NOOP("ServeScope::Import", "the run could not be stored: %1"), { error });
            addError(out, path, why.text(), why.translated());
            finishAll(m_writer, groups, RunStatus::Failed);
            return out;
        }
        out.runs.append(created);
    }
    for (const Reason &w : std::as_const(warnings))
        addAtLine(out, out.warnings, path, 0, w);

    // Second pass: each line whole, stored as its point, then forgotten.
    ItemSource stream(toolRuns);
    QString error, shown;
    if (!stream.open(path, &error, &shown)) {
        addError(out, path, error, shown);
        finishAll(m_writer, groups, RunStatus::Failed);
        return out;
    }
    QVector<int> nextPoint(groups.size(), 0);
    QVector<bool> anyCompleted(groups.size(), false); ///< a run none of whose requests completed failed
    ResultRun run;
    for (int item = 0;; ++item) {
        const ResultFileStream::Item got = stream.next(&run, &error, &shown);
        if (got == ResultFileStream::Item::End)
            break;
        const int gi = item < groupOfItem.size() ? groupOfItem.at(item) : -1;
        // A line the first pass refused, or one the file gained since (it is being appended to).
        if (got == ResultFileStream::Item::Error || gi < 0 || nextPoint[gi] >= groups[gi].lines.size())
            continue;
        checkResultCounts(run, toolRuns == nullptr, nullptr); // the first pass's recomputed counts, again
        storePoint(m_writer, groups[gi], nextPoint[gi]++, run);
        // The reader runs at most two of the writer's batches ahead: an import's memory is a few lines'
        // requests, not as many as a slow disk lets pile up. A failed commit is reported by the flush at the end.
        m_writer.catchUp();
        // A file without the count says nothing against its requests.
        anyCompleted[gi] = anyCompleted[gi] || run.number(QStringLiteral("completed"), -1) != 0;
        if (m_onLine)
            m_onLine(run, groups[gi].name);
    }
    for (int i = 0; i < groups.size(); ++i) {
        if (groups[i].runId > 0)
            m_writer.finishRun(groups[i].runId, anyCompleted[i] ? RunStatus::Finished : RunStatus::Failed,
                QDateTime::currentDateTimeUtc());
        if (i < out.runs.size())
            out.runs[i].failed = !anyCompleted[i];
    }
    if (!m_writer.flush(60000)) {
        const Reason why
            = Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Import", "the imported runs could not be committed"), {});
        addError(out, path, why.text(), why.translated());
    }
    return out;
}

} // namespace ServeScope
