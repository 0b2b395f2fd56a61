// SPDX-License-Identifier: MIT
#include "model/problem.h"
#include "resultfiles/quotedjson.h"
#include "resultfiles/resultfile.h"
#include "resultfiles/resultsax.h"

#include <QCoreApplication>
#include <QFile>

namespace ServeScope {

namespace {

Reason wrongArrayReason(const QString &key)
{
    return Reason::in("ServeScope::Import",
        QT_TRANSLATE_NOOP("ServeScope::Import",
            "\"%1\" is not an array of per-request values (numbers; for itls, arrays of numbers)"),
        { key });
}

} // namespace

bool readResultObject(std::streambuf &in, int line, ResultRun *out, QString *error, QString *shown)
{
    QString wrongArray;
    const ObjectRead read = parseResultObject(in, line, out, &wrongArray);
    if (read == ObjectRead::Run)
        return true;
    const Reason why = read == ObjectRead::WrongArray
        ? wrongArrayReason(wrongArray)
        : Reason::in("ServeScope::Import",
            read == ObjectRead::NotJson ? QT_TRANSLATE_NOOP("ServeScope::Import", "not valid JSON")
                                        : QT_TRANSLATE_NOOP("ServeScope::Import", "the JSON value is not an object"),
            {});
    if (error)
        *error = why.text();
    if (shown)
        *shown = why.translated();
    return false;
}

bool readResultObject(const QByteArray &json, int line, ResultRun *out, QString *error, QString *shown)
{
    QuotedJson in(json);
    return readResultObject(in, line, out, error, shown);
}

bool isJsonObject(const QByteArray &json)
{
    QuotedJson in(json);
    return parseIsObject(in);
}

QVector<ResultRun> readResultFile(const QByteArray &data, QString *error)
{
    ResultRun run;
    QString wrongArray;
    QuotedJson whole(data);
    const ObjectRead read = parseResultObject(whole, 0, &run, &wrongArray);
    if (read == ObjectRead::NotObject) {
        if (error)
            *error = Reason::shown("ServeScope::Import",
                QT_TRANSLATE_NOOP("ServeScope::Import", "not a result file: the JSON value is not an object"));
        return {};
    }
    if (read == ObjectRead::WrongArray) {
        if (error)
            *error = wrongArrayReason(wrongArray).translated();
        return {};
    }
    if (read == ObjectRead::Run)
        return { std::move(run) };
    QVector<ResultRun> runs;
    const QByteArrayView text(data);
    for (qsizetype from = 0, i = 0; from < text.size(); ++i) {
        qsizetype to = text.indexOf('\n', from);
        to = to < 0 ? text.size() : to;
        const QByteArrayView line = text.sliced(from, to - from).trimmed();
        from = to + 1;
        if (line.isEmpty())
            continue;
        QuotedJson in(line);
        const ObjectRead got = parseResultObject(in, int(i + 1), &run, &wrongArray);
        if (got == ObjectRead::NotJson || got == ObjectRead::NotObject) {
            if (error)
                *error = Reason::shown("ServeScope::Import",
                    QT_TRANSLATE_NOOP("ServeScope::Import", "line %1: not a JSON object"), { QString::number(i + 1) });
            return {};
        }
        if (got == ObjectRead::WrongArray) {
            if (error)
                *error = Reason::shown("ServeScope::Import", QT_TRANSLATE_NOOP("ServeScope::Import", "line %1: %2"),
                    { QString::number(i + 1), wrongArrayReason(wrongArray).translated() });
            return {};
        }
        runs.append(std::move(run));
    }
    if (runs.isEmpty() && error)
        *error = Reason::shown("ServeScope::Import", QT_TRANSLATE_NOOP("ServeScope::Import", "empty result file"));
    return runs;
}

QVector<ResultRun> readResultFilePath(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = Reason::shown("ServeScope::Import", QT_TRANSLATE_NOOP("ServeScope::Import", "cannot read %1: %2"),
                { path, f.errorString() });
        return {};
    }
    return readResultFile(f.readAll(), error);
}

} // namespace ServeScope
