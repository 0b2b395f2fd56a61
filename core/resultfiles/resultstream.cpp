// SPDX-License-Identifier: MIT
#include "resultfiles/resultstream.h"
#include "model/problem.h"

#include <QCoreApplication>

namespace ServeScope {

namespace {

constexpr const char *kCtx = "ServeScope::Import";

void say(const Reason &why, QString *error, QString *shown)
{
    *error = why.text();
    if (shown)
        *shown = why.translated();
}

// "line N: why" where why is already in both languages.
void sayAtLine(int line, const QString &why, const QString &whyShown, QString *error, QString *shown)
{
    Reason at
        = Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Import", "line %1: %2"), { QString::number(line), why });
    *error = at.text();
    at.args.last() = whyShown;
    if (shown)
        *shown = at.translated();
}

} // namespace

bool ResultFileStream::open(const QString &path, QString *error, QString *shown)
{
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly)) {
        say(Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Import", "cannot read: %1"), { m_file.errorString() }),
            error, shown);
        return false;
    }
    m_line = 0;
    m_items = 0;
    m_objects = 0;
    m_whole = false;
    m_done = false;
    return true;
}

ResultFileStream::Item ResultFileStream::readWhole(ResultRun *run, QString *error, QString *shown)
{
    m_done = true;
    ++m_items;
    if (m_file.size() > kMaxObjectBytes) {
        say(Reason::in(kCtx,
                QT_TRANSLATE_NOOP("ServeScope::Import",
                    "line 1: not a JSON object on one line, and larger than %1 bytes to read whole"),
                { QString::number(kMaxObjectBytes) }),
            error, shown);
        return Item::Error;
    }
    m_file.seek(0);
    QString why, whyShown;
    if (readResultObject(m_file.readAll(), 0, run, &why, &whyShown))
        return Item::Run;
    sayAtLine(1, why, whyShown, error, shown);
    return Item::Error;
}

// Whether one of the next few non-empty lines is a JSON object; the file's position is kept.
bool ResultFileStream::objectAhead()
{
    constexpr int kProbeLines = 3;
    const qint64 at = m_file.pos();
    bool found = false;
    for (int probed = 0; probed < kProbeLines && !found && !m_file.atEnd();) {
        const QByteArray line = m_file.readLine().trimmed();
        if (line.isEmpty())
            continue;
        ++probed;
        found = isJsonObject(line);
    }
    m_file.seek(at);
    return found;
}

ResultFileStream::Item ResultFileStream::next(ResultRun *run, QString *error, QString *shown)
{
    while (!m_done && !m_file.atEnd()) {
        const QByteArray line = m_file.readLine().trimmed();
        ++m_line;
        if (line.isEmpty())
            continue;
        QString why, whyShown;
        if (readResultObject(line, m_line, run, &why, &whyShown)) {
            ++m_items;
            ++m_objects;
            return Item::Run;
        }
        // vLLM writes one object per line; an object that opens a file and does not close on its
        // line is a single pretty-printed object.
        if (m_items == 0 && line.startsWith('{') && !line.endsWith('}'))
            return readWhole(run, error, shown);
        ++m_items;
        if (isJsonObject(line)) {
            ++m_objects;
        } else if (m_objects == 0 && !objectAhead()) {
            // No line so far was a JSON object, nor is one of the next few: another kind of file.
            m_done = true;
            say(Reason::in(kCtx,
                    QT_TRANSLATE_NOOP("ServeScope::Import",
                        "not a result file: expected a JSON object, or JSON lines, of vLLM or SGLang results (or "
                        "another benchmark tool's result file); line %1 is no JSON object"),
                    { QString::number(m_line) }),
                error, shown);
            return Item::Error;
        }
        sayAtLine(m_line, why, whyShown, error, shown);
        return Item::Error;
    }
    if (m_items == 0 && !m_done) {
        m_done = true;
        say(Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Import", "empty result file"), {}), error, shown);
        return Item::Error;
    }
    m_done = true;
    return Item::End;
}

} // namespace ServeScope
