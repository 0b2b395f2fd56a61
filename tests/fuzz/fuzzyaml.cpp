// SPDX-License-Identifier: MIT
// The YAML subset of llm-d Benchmark Reports: any input reads to a value or is refused with a line,
// never both, and reads the same twice.
#include "fuzztargets.h"
#include "import/yamlsubset.h"

namespace ServeScope::Fuzz {

QString yamlSubset(QByteArrayView input)
{
    const QByteArray text = input.toByteArray();
    QString error, again;
    int line = 0, lineAgain = 0;
    const QJsonValue v = Yaml::parse(text, &error, &line);
    const QJsonValue w = Yaml::parse(text, &again, &lineAgain);
    if (error != again || line != lineAgain)
        return QStringLiteral("two reads disagree");
    if (!error.isEmpty() && (!v.isNull() || line < 1))
        return QStringLiteral("an error without its line, or with a value");
    if (error.isEmpty() && v != w && !(v.isDouble() && std::isnan(v.toDouble())))
        return QStringLiteral("two reads give different values");
    return QString();
}

} // namespace ServeScope::Fuzz
