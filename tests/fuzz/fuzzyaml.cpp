// SPDX-License-Identifier: MIT
// The YAML subset of llm-d Benchmark Reports: any input reads to a value or is refused with a line,
// never both, and reads the same twice.
#include "fuzztargets.h"
#include "import/yamlsubset.h"

#include <QJsonArray>
#include <QJsonDocument>

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
    // Compared as text: NaN (.nan) is unequal to itself as a value.
    const auto text1 = QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact);
    if (text1 != QJsonDocument(QJsonArray { w }).toJson(QJsonDocument::Compact))
        return QStringLiteral("two reads give different values");
    return QString();
}

} // namespace ServeScope::Fuzz
