// SPDX-License-Identifier: MIT
#include "datasets.h"

#include "model/variables.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

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

bool loadSonnet(const Dataset &d, DatasetContent *out, QString *error)
{
    QString path = d.path;
    if (!path.isEmpty() && !QFileInfo::exists(path)) {
        out->warning = QStringLiteral("the sonnet file does not exist here; the built-in copy of vLLM's "
                                      "benchmarks/sonnet.txt is used");
        path.clear();
    }
    QFile f(path.isEmpty() ? QStringLiteral(":/servescope/workload/sonnet.txt") : path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QLatin1String("cannot read the sonnet file: ") + f.errorString();
        return false;
    }
    out->lines = readLines(f);
    if (out->lines.isEmpty()) {
        *error = QStringLiteral("the sonnet file has no lines");
        return false;
    }
    return true;
}

bool parseCustomLine(const QByteArray &bytes, int lineNo, CustomPrompt *out, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    const QString where = QStringLiteral("line %1: ").arg(lineNo);
    if (!doc.isObject()) {
        *error = where + (doc.isNull() ? pe.errorString() : QStringLiteral("must be a JSON object"));
        return false;
    }
    const QJsonObject o = doc.object();
    const QJsonValue prompt = o.value(QLatin1String("prompt"));
    if (!prompt.isString() || prompt.toString().isEmpty()) {
        *error = where + QStringLiteral("needs a non-empty string \"prompt\"");
        return false;
    }
    out->prompt = prompt.toString();
    for (const char *key : { "output_tokens", "output_len" }) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            continue;
        const double n = v.toDouble(-1);
        if (!v.isDouble() || n < 1 || n > 10000000 || n != double(qint64(n))) {
            *error = where + QLatin1String(key) + QLatin1String(" must be a whole number of tokens from 1");
            return false;
        }
        out->outputLen = int(n);
    }
    return true;
}

bool loadCustom(const Dataset &d, DatasetContent *out, QString *error)
{
    QFile f(d.path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QLatin1String("cannot read the custom dataset: ") + f.errorString();
        return false;
    }
    if (f.size() > kMaxCustomDatasetBytes) {
        *error = QStringLiteral("the custom dataset is larger than %1 bytes").arg(kMaxCustomDatasetBytes);
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
        *error = QStringLiteral("the custom dataset has no prompts");
        return false;
    }
    return true;
}

} // namespace

bool loadDataset(const Dataset &d, DatasetContent *out, QString *error)
{
    *out = DatasetContent();
    if (d.name == QLatin1String("random"))
        return true;
    if (d.name == QLatin1String("sonnet"))
        return loadSonnet(d, out, error);
    if (d.name == QLatin1String("custom"))
        return loadCustom(d, out, error);
    if (d.name == QLatin1String("sharegpt")) {
        out->shareGpt = loadShareGpt(d.path, d.seed, error);
        return out->shareGpt != nullptr;
    }
    *error = QStringLiteral("is not a dataset ServeScope can build");
    return false;
}

QList<Problem> checkDatasets(const Experiment &experiment)
{
    QList<Problem> problems;
    QList<Dataset> seen;
    for (int i = -1; i < int(experiment.variants.size()); ++i) {
        const Dataset d = i < 0 ? experiment.dataset : resolveVariant(experiment, i).dataset;
        if (seen.contains(d))
            continue;
        seen << d;
        DatasetContent content;
        QString error;
        const QString path
            = i < 0 ? QStringLiteral("dataset") : QStringLiteral("variants[%1] (resolved) dataset").arg(i);
        if (!loadDataset(d, &content, &error)) {
            const bool fileBased
                = QStringList { QStringLiteral("sonnet"), QStringLiteral("custom"), QStringLiteral("sharegpt") }
                      .contains(d.name);
            problems << Problem { path + (fileBased ? QLatin1String(".path") : QLatin1String(".name")), error,
                Severity::Error, i };
        } else if (!content.warning.isEmpty())
            problems << Problem { path + QLatin1String(".path"), content.warning, Severity::Warning, i };
    }
    return problems;
}

} // namespace ServeScope
