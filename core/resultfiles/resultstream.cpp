// SPDX-License-Identifier: MIT
#include "resultfiles/resultstream.h"
#include "model/problem.h"
#include "resultfiles/quotedjson.h"
#include "resultfiles/resultsax.h"

#include <QCoreApplication>

#include <cstring>

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

// The next line from the file's position, which is left after its line break.
ResultFileStream::Span ResultFileStream::nextLine()
{
    const auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
    Span span;
    const qint64 start = m_file.pos();
    qint64 at = start, end = -1;
    bool seen = false;
    char buffer[64 * 1024];
    while (end < 0) {
        const qint64 got = m_file.read(buffer, sizeof buffer);
        if (got <= 0)
            break;
        const char *nl = static_cast<const char *>(memchr(buffer, '\n', size_t(got)));
        const qint64 n = nl ? nl - buffer : got;
        for (qint64 i = 0; i < n; ++i) {
            if (space(buffer[i]))
                continue;
            if (!seen)
                span.from = at + i, span.first = buffer[i];
            seen = true;
            span.to = at + i + 1;
            span.last = buffer[i];
        }
        end = nl ? at + n : -1;
        at += got;
    }
    m_file.seek(end < 0 ? at : end + 1);
    if (!seen)
        span.from = span.to = start;
    return span;
}

// Reads the span as one result object; the file's position is kept.
bool ResultFileStream::readSpan(const Span &span, int line, ResultRun *run, QString *error, QString *shown)
{
    const qint64 at = m_file.pos();
    QuotedJson in(&m_file, span.from, span.to);
    const bool read = readResultObject(in, line, run, error, shown);
    m_file.seek(at);
    return read;
}

bool ResultFileStream::isObject(const Span &span)
{
    const qint64 at = m_file.pos();
    QuotedJson in(&m_file, span.from, span.to);
    const bool object = parseIsObject(in);
    m_file.seek(at);
    return object;
}

ResultFileStream::Item ResultFileStream::readWhole(ResultRun *run, QString *error, QString *shown)
{
    m_done = true;
    ++m_items;
    QString why, whyShown;
    QuotedJson in(&m_file, 0, m_file.size());
    if (readResultObject(in, 0, run, &why, &whyShown))
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
        const Span line = nextLine();
        if (line.isEmpty())
            continue;
        ++probed;
        found = isObject(line);
    }
    m_file.seek(at);
    return found;
}

ResultFileStream::Item ResultFileStream::next(ResultRun *run, QString *error, QString *shown)
{
    while (!m_done && !m_file.atEnd()) {
        const Span line = nextLine();
        ++m_line;
        if (line.isEmpty())
            continue;
        QString why, whyShown;
        if (readSpan(line, m_line, run, &why, &whyShown)) {
            ++m_items;
            ++m_objects;
            return Item::Run;
        }
        // vLLM writes one object per line; an object that opens a file and does not close on its
        // line is a single pretty-printed object.
        if (m_items == 0 && line.first == '{' && line.last != '}')
            return readWhole(run, error, shown);
        ++m_items;
        if (isObject(line)) {
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
