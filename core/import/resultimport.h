// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"
#include "model/runorigin.h"
#include "resultfiles/resultfile.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>

namespace ServeScope {

class StoreWriter;

/// One run an import created.
struct ImportedRun {
    qint64 id = 0;
    QString name;
    QString source; ///< RunOrigin::describe(): "imported from FILE (vllm), lines 1,2,3"
    int points = 0;
    bool arrays = false;
    RunOrigin origin; ///< for the window's own words
    bool failed = false; ///< no request of the file's run completed: stored as a failed run
};

/// What importing one file did.
struct ImportOutcome : ShownLines {
    QString path;
    QVector<ImportedRun> runs;
    QStringList warnings; ///< "FILE: ..." lines
    QStringList errors; ///< "FILE: line N: ..." lines; the file's other lines were still imported
    bool failed() const { return !errors.isEmpty(); }
};

/// Imports vLLM and SGLang result files into a project through its writer (docs/import.md). Each
/// file is read twice as a stream, one line at a time: first the setup keys, to group lines into
/// runs (same file, backend, model, tokenizer, dataset, lengths, label and other setup; only the
/// rate or concurrency differs, one point per line), then the whole lines, stored as they are read.
class ResultImporter final {
public:
    explicit ResultImporter(StoreWriter &writer);
    /// Called with each line's run during the second pass (after its point is stored), e.g. to verify it.
    void setLineCallback(std::function<void(const ResultRun &, const QString &runName)> callback);
    ImportOutcome importFile(const QString &path);

private:
    StoreWriter &m_writer;
    std::function<void(const ResultRun &, const QString &)> m_onLine;
};

} // namespace ServeScope
