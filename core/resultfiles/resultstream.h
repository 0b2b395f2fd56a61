// SPDX-License-Identifier: MIT
#pragma once

#include "resultfiles/resultfile.h"

#include <QFile>
#include <QString>

namespace ServeScope {

/// Reads a vLLM or SGLang result file one run at a time, so a JSON-lines file of hundreds of MB
/// never sits in memory whole: each line is parsed and handed out before the next is read. A
/// single object spread over several lines (pretty-printed) is read whole, up to kMaxObjectBytes.
class ResultFileStream final {
public:
    /// A whole-object parse holds the document several times over: 128 MiB of JSON is the most
    /// read that way (JSON lines of any size stream).
    static constexpr qint64 kMaxObjectBytes = qint64(128) << 20;

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
