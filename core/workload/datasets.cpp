// SPDX-License-Identifier: MIT
#include "datasets.h"

#include "model/variables.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace ServeScope {

namespace {

QStringList readLines(QIODevice &f)
{
    QStringList lines;
    // Every line, blank ones too, as Python's readlines() returns them.
    while (!f.atEnd())
        lines << QString::fromUtf8(f.readLine());
    return lines;
}

constexpr const char *kCtx = "ServeScope::Dataset";

Reason why(const char *source, const QStringList &args = {})
{
    return Reason::in(kCtx, source, args);
}

bool loadSonnet(const Dataset &d, DatasetContent *out, Reason *error)
{
    QString path = d.path;
    if (!path.isEmpty() && !QFileInfo::exists(path)) {
        out->warningReason = why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
            "the sonnet file does not exist here; the built-in copy of vLLM's benchmarks/sonnet.txt is used"));
        out->warning = out->warningReason.text();
        path.clear();
    }
    QFile f(path.isEmpty() ? QStringLiteral(":/servescope/workload/sonnet.txt") : path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "cannot read the sonnet file: %1"), { f.errorString() });
        return false;
    }
    out->lines = readLines(f);
    if (out->lines.isEmpty()) {
        *error = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "the sonnet file has no lines"));
        return false;
    }
    return true;
}

bool parseCustomLine(const QByteArray &bytes, int lineNo, CustomPrompt *out, Reason *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    const QString line = QString::number(lineNo);
    if (!doc.isObject()) {
        // Qt's own description of the JSON error (translated by Qt's catalogue, if any).
        *error = doc.isNull()
            ? why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: %2"), { line, pe.errorString() })
            : why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: must be a JSON object"), { line });
        return false;
    }
    const QJsonObject o = doc.object();
    const QJsonValue prompt = o.value(QLatin1String("prompt"));
    if (!prompt.isString() || prompt.toString().isEmpty()) {
        *error
            = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: needs a non-empty string \"prompt\""), { line });
        return false;
    }
    out->prompt = prompt.toString();
    for (const char *key : { "output_tokens", "output_len" }) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            continue;
        const double n = v.toDouble(-1);
        if (!v.isDouble() || n < 1 || n > 10000000 || n != double(qint64(n))) {
            *error
                = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: %2 must be a whole number of tokens from 1"),
                    { line, QLatin1String(key) });
            return false;
        }
        out->outputLen = int(n);
    }
    return true;
}

bool loadCustom(const Dataset &d, DatasetContent *out, Reason *error)
{
    QFile f(d.path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error
            = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "cannot read the custom dataset: %1"), { f.errorString() });
        return false;
    }
    if (f.size() > kMaxCustomDatasetBytes) {
        *error = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "the custom dataset is larger than %1 bytes"),
            { QString::number(kMaxCustomDatasetBytes) });
        return false;
    }
    int lineNo = 0;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        ++lineNo;
        if (line.isEmpty())
            continue;
        CustomPrompt p;
        if (!parseCustomLine(line, lineNo, &p, error))
            return false;
        out->prompts << p;
    }
    if (out->prompts.isEmpty()) {
        *error = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "the custom dataset has no prompts"));
        return false;
    }
    return true;
}

} // namespace

bool loadDataset(const Dataset &d, DatasetContent *out, QString *error, Reason *reason, qsizetype traceRows)
{
    *out = DatasetContent();
    Reason failed;
    bool ok = true;
    const bool sessions = d.name == QLatin1String("multi_turn");
    if (d.name == QLatin1String("random") || d.name == QLatin1String("shared_prefix")
        || (sessions && d.path.isEmpty())) {
        return true;
    } else if (sessions) {
        // ShareGPT conversations as sessions: those with at least `turns` user turns.
        out->shareGpt = loadShareGpt(d.path, d.seed, error, &failed);
        ok = out->shareGpt != nullptr;
        if (ok && std::none_of(out->shareGpt->pairs.cbegin(), out->shareGpt->pairs.cend(), [&](const ShareGptPair &p) {
                return p.laterPrompts.size() + 1 >= d.turns;
            })) {
            failed = why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                             "no conversation of the sharegpt file has %1 user turns (dataset.turns)"),
                { QString::number(d.turns) });
            ok = false;
        }
    } else if (d.name == QLatin1String("sonnet")) {
        ok = loadSonnet(d, out, &failed);
    } else if (d.name == QLatin1String("custom")) {
        ok = loadCustom(d, out, &failed);
    } else if (d.name == QLatin1String("sharegpt")) {
        out->shareGpt = loadShareGpt(d.path, d.seed, error, &failed);
        ok = out->shareGpt != nullptr;
    } else if (d.name == QLatin1String("trace")) {
        auto trace = std::make_shared<Trace>();
        ok = readTrace(d.path, d.traceFormat, traceRows, trace.get(), &failed);
        if (ok && trace->skipped > 0) {
            out->warningReason
                = why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                          "%1 of the trace's requests have no prompt or no output tokens and are left out"),
                    { QString::number(trace->skipped) });
            out->warning = out->warningReason.text();
        }
        if (ok)
            out->trace = std::move(trace);
    } else {
        failed = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "is not a dataset ServeScope can build"));
        ok = false;
    }
    if (!ok) {
        *error = failed.text();
        if (reason)
            *reason = failed;
    }
    return ok;
}

qsizetype traceRowsNeeded(const Experiment &experiment)
{
    qsizetype most = 0;
    if (experiment.load.capacity || experiment.load.points.isEmpty())
        return kMaxTraceRows;
    for (const LoadPoint &p : experiment.load.points) {
        if (p.numPrompts <= 0)
            return kMaxTraceRows;
        most = qMax<qsizetype>(most, p.numPrompts);
    }
    return most;
}

QList<Problem> checkDatasets(const Experiment &experiment)
{
    QList<Problem> problems;
    QList<Dataset> seen;
    for (int i = -1; i < int(experiment.variants.size()); ++i) {
        const Experiment resolved = i < 0 ? experiment : resolveVariant(experiment, i);
        const Dataset &d = resolved.dataset;
        if (seen.contains(d))
            continue;
        seen << d;
        DatasetContent content;
        QString error;
        Reason reason;
        const QString path
            = i < 0 ? QStringLiteral("dataset") : QStringLiteral("variants[%1] (resolved) dataset").arg(i);
        if (!loadDataset(d, &content, &error, &reason, traceRowsNeeded(resolved))) {
            const bool fileBased = QStringList { QStringLiteral("sonnet"), QStringLiteral("custom"),
                QStringLiteral("sharegpt"), QStringLiteral("trace") }
                                       .contains(d.name);
            problems << Problem::of(
                path + (fileBased ? QLatin1String(".path") : QLatin1String(".name")), reason, Severity::Error, i);
        } else if (!content.warning.isEmpty())
            problems << Problem::of(path + QLatin1String(".path"), content.warningReason, Severity::Warning, i);
        // Open loop sends a trace's requests on its schedule: a point cannot ask for more than it has.
        for (qsizetype p = 0; content.trace && resolved.load.mode == LoadMode::Rate && p < resolved.load.points.size();
             ++p) {
            if (resolved.load.points.at(p).numPrompts > qsizetype(content.trace->rows.size()))
                problems << Problem::of(QStringLiteral("load.points[%1].num_prompts").arg(p),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is more than the trace's %1 requests"),
                        { QString::number(content.trace->rows.size()) } },
                    Severity::Error, i);
        }
    }
    return problems;
}

} // namespace ServeScope
