// SPDX-License-Identifier: MIT
#pragma once

#include "resultfiles/resultfile.h"

#include <streambuf>

namespace ServeScope {

/// How one JSON text read as a result object.
enum class ObjectRead {
    Run, ///< *run holds it
    NotJson, ///< not valid JSON
    NotObject, ///< valid JSON, but not an object
    WrongArray, ///< a per-request array of the wrong type: *wrongArray names its key
};

/// Reads the JSON text `in` gives (one value, nothing after it) as a result object, event by event:
/// the per-request arrays go straight into the run's columns and only the other top-level keys are
/// kept as values, so the text is never held as a document. `line` is the run's line (0 for a whole file).
ObjectRead parseResultObject(std::streambuf &in, int line, ResultRun *run, QString *wrongArray);

/// readResultObject() of the text `in` gives: false with *error (and *shown in the application's
/// language) saying why it is no result object.
bool readResultObject(std::streambuf &in, int line, ResultRun *out, QString *error, QString *shown);

/// Whether the JSON text `in` gives is one JSON object, whatever its keys (nothing of it is kept).
bool parseIsObject(std::streambuf &in);

/// Which of `keys` the first JSON value `in` gives has among its own (top-level) keys, into *found;
/// false when that value is no valid object. What follows that value is not read, nothing of it is kept.
bool firstObjectKeys(std::streambuf &in, const QList<QByteArray> &keys, QList<QByteArray> *found);

} // namespace ServeScope
