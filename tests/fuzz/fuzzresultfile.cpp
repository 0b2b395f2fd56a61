// SPDX-License-Identifier: MIT
// vLLM / SGLang result files: any input gives runs or an error, never both or neither.
#include "fuzztargets.h"
#include "resultfiles/resultfile.h"

namespace ServeScope::Fuzz {

QString resultFile(QByteArrayView input)
{
    QString error;
    const QVector<ResultRun> runs = readResultFile(input.toByteArray(), &error);
    if (runs.isEmpty() == error.isEmpty())
        return runs.isEmpty() ? QStringLiteral("no runs and no error") : QStringLiteral("runs and an error");
    return QString();
}

} // namespace ServeScope::Fuzz
