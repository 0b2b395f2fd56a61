// SPDX-License-Identifier: MIT
#pragma once

#include "resultfiles/resultfile.h"

#include <QFile>
#include <QString>

namespace ServeScope {

/// Reads a vLLM or SGLang result file one run at a time, so a JSON-lines file of hundreds of MB
/// never sits in memory whole: each line is parsed and handed out before the next is read. Neither
/// a line nor a single object spread over several lines (pretty-printed) is read into memory: the
/// parser reads it from the file a piece at a time and keeps only the run (its per-request arrays
/// as compact columns).
class ResultFileStream final {
public:
    enum class Item { Run, Error, End };

    /// False and *error when the file cannot be opened. `shown`, when given, receives each error
    /// in the application's language (context "ServeScope::Import").
    bool open(const QString &path, QString *error, QString *shown = nullptr);
    /// The next run; Error leaves *error naming the line ("line 4: not valid JSON") and the
    /// stream goes on with the following line; End after the last line. A file whose first lines
    /// are no JSON objects at all (binary, Markdown, a JSON array) is one Error, "not a result
    /// file: expected ...", and then End: never one error per line.
    Item next(ResultRun *run, QString *error, QString *shown = nullptr);

private:
    /// One line's bytes in the file as QByteArray::trimmed() leaves them, and their ends.
    struct Span {
        qint64 from = 0, to = 0;
        char first = 0, last = 0;
        bool isEmpty() const { return from >= to; }
    };
    Span nextLine();
    bool readSpan(const Span &span, int line, ResultRun *run, QString *error, QString *shown);
    bool isObject(const Span &span);
    Item readWhole(ResultRun *run, QString *error, QString *shown);
    bool objectAhead();

    QFile m_file;
    int m_line = 0;
    int m_items = 0;
    int m_objects = 0; ///< lines that were JSON objects, read or refused
    bool m_whole = false; ///< the first line was not a complete object: the file is one object
    bool m_done = false;
};

} // namespace ServeScope
